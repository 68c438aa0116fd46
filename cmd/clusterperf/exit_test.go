package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitCodes: 0 for success, 2 for bad input or usage (design.md conventions).
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.yaml", "classes: [{name: c, population: 3}]\nstations: [{name: cpu, demand: 0.1}]\n")
	bad := write("bad.yaml", "classes: [{name: c, population: -3}]\nstations: [{name: cpu, demand: 0.1}]\n")
	sat := write("sat.yaml", "classes: [{name: c, arrival_rate: 20}]\nstations: [{name: cpu, demand: 0.1}]\n")
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"solve", ok}, 0},
		{[]string{"solve", bad}, 2},
		{[]string{"solve", sat}, 3}, // saturation is a finding
		{[]string{"solve", filepath.Join(dir, "none.yaml")}, 2},
		{[]string{"solve"}, 2},
		{[]string{"solve", "--bogus", ok}, 2},
		{[]string{"nosuchcommand"}, 2},
		{[]string{"demo"}, 0},
	} {
		var out, errb bytes.Buffer
		if got := run(context.Background(), tc.args, &out, &errb); got != tc.want {
			t.Errorf("clusterperf %v: exit %d, want %d (stderr %q)", tc.args, got, tc.want, errb.String())
		}
	}
}

// TestDemoSections: the demo runs every section on the embedded examples.
func TestDemoSections(t *testing.T) {
	var out bytes.Buffer
	if err := runDemo(&out); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 7; i++ {
		if !strings.Contains(out.String(), fmt.Sprintf("== %d. ", i)) {
			t.Errorf("section %d missing", i)
		}
	}
	if !strings.Contains(out.String(), "10 cpu visits per interactive cycle") { // 1/0.10, see examples TestCentralServerRouting
		t.Error("routing section: visits not from the traffic equations")
	}
}
