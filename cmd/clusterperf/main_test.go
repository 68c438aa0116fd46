package main

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"clusterperf": func() {
			os.Exit(run(interruptible(context.Background(), os.Stderr), os.Args[1:], os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the end-to-end sessions in testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
