package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

// history and cube read "-" as stdin like every other command (hostile review P2: they
// tried to open a file named "-"). The same file given by name and on stdin answers alike.
func TestHistoryCubeStdin(t *testing.T) {
	cases := []struct{ cmd, file string }{
		{"history", "../../history/testdata/sacct-slurm-22.05-doc.txt"},
		{"cube", "../../cube/testdata/synthetic-mpi.cubex"},
	}
	for _, c := range cases {
		var byName, onStdin, e1, e2 strings.Builder
		code1 := run(context.Background(), []string{c.cmd, c.file, "--json"}, &byName, &e1)
		f, err := os.Open(c.file)
		if err != nil {
			t.Fatal(err)
		}
		old := os.Stdin
		os.Stdin = f
		code2 := run(context.Background(), []string{c.cmd, "-", "--json"}, &onStdin, &e2)
		os.Stdin = old
		f.Close()
		if code1 != code2 || code2 == 2 && strings.Contains(e2.String(), "no such file") {
			t.Errorf("%s -: exit %d (%s), by name exit %d (%s)", c.cmd, code2, e2.String(), code1, e1.String())
			continue
		}
		// The source is named "stdin" instead of the path: compare with it replaced.
		want := strings.ReplaceAll(byName.String(), c.file, "stdin")
		if onStdin.String() != want {
			t.Errorf("%s -: output differs from the file's:\n%s\nvs\n%s", c.cmd, onStdin.String(), want)
		}
	}
}
