package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestRepeatedFlagsRefused: a scalar flag given twice was last-wins (pflag sets it again):
// "solve --solver mva --solver comom" quietly used comom. Every command now refuses a
// repeated scalar flag — string, number, bool, unit-valued, in any spelling — with exit 2
// naming the flag and both values, before any work; flags meant to repeat (string arrays)
// still take every value.
func TestRepeatedFlagsRefused(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"solve", model, "--solver", "mva", "--solver", "comom"}, "--solver given twice (mva, then comom)"},
		{[]string{"solve", model, "--solver=mva", "--solver=mva"}, "--solver given twice (mva, then mva)"},
		{[]string{"solve", model, "--validate", "--validate"}, "--validate given twice"},
		{[]string{"simulate", model, "--reps", "4", "--reps=5"}, "--reps given twice (4, then 5)"},
		{[]string{"queue", "--lambda", "1", "--mu", "2", "--lambda", "3"}, "--lambda given twice (1, then 3)"},
		{[]string{"solve", model, "--format", "json", "--format", "csv"}, "--format given twice (json, then csv)"},
		{[]string{"merge", "--status", "--status", "."}, "--status given twice"},
	} {
		code, out, errs := cli(tc.args...)
		if code != fault.ExitInput || !strings.Contains(errs, tc.flag) || !strings.Contains(errs, "give it once") || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %s", tc.args, code, out, errs)
		}
	}
	// a repeatable flag keeps every value: both --slurm-opt lines are in the batch script
	code, out, errs := cli("simulate", "--reps", "40", model, "--slurm", "--slurm-dry-run", "--out", t.TempDir(), "--slurm-opt", "partition=debug", "--slurm-opt", "time=00:05:00")
	if code != 0 || !strings.Contains(out, "#SBATCH --partition=debug\n") || !strings.Contains(out, "#SBATCH --time=00:05:00\n") {
		t.Errorf("repeated --slurm-opt: exit %d: %s\n%s", code, errs, out)
	}
	// each run is a fresh command line: a flag given once in two runs is not "repeated"
	for range 2 {
		if code, _, errs := cli("solve", model, "--solver", "mva"); code != 0 {
			t.Errorf("solve --solver mva: exit %d: %s", code, errs)
		}
	}
}
