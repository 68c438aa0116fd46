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

// TestExitCodes: 0 for success, 2 for bad input or usage, 3 for a model finding
// (saturation, deadlock, no convergence), by fault.ExitCode.
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
	dead := write("dead.yaml", "processes:\n  - name: A\n    segments: [{recv: {from: B}}, {send: {to: B, bytes: 10}}]\n  - name: B\n    segments: [{recv: {from: A}}, {send: {to: A, bytes: 10}}]\n")
	big := write("big.yaml", "classes: [{name: c, population: 50}]\nstations: [{name: a, demand: 0.1}, {name: b, demand: 0.2}]\n")
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
		{[]string{"tpn", "--cluster", ex + "tpn/cluster.yaml", dead}, 3},         // deadlock
		{[]string{"solve", "--solver", "schweitzer", "--max-iter", "1", big}, 3}, // not converged
		{[]string{"solve", "--sweep", "arrival_rate.c=20:30:3", sat}, 3},         // no point has a steady state
		{[]string{"tpn", "--cluster", ex + "tpn/cluster.yaml", "--max-time", "1e-9", ex + "tpn/matmul.yaml"}, 3}, // cut off
		{[]string{"--version"}, 0},
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
