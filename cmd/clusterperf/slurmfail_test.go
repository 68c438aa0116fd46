package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestSlurmSubmitFailsCleanly: --slurm with an sbatch that cannot reach the controller (a
// fake sbatch first on PATH, exiting 1 with Slurm's message) exits 1 — a failure of the
// environment, not of the input — saying the job array was not submitted and why, and
// leaves no plan.json, script or directory behind. Without any sbatch on PATH the message
// names sbatch and the --shard alternative.
func TestSlurmSubmitFailsCleanly(t *testing.T) {
	bin := t.TempDir()
	const refusal = "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\necho '"+refusal+"' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	parent := t.TempDir()
	dir := filepath.Join(parent, "study")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	code, out, errs := cli("simulate", "--reps", "4", "--events", "2000", model, "--slurm", "--out", dir)
	if code != fault.ExitFailure || !strings.Contains(errs, "not submitted") || !strings.Contains(errs, refusal) || out != "" {
		t.Fatalf("exit %d\nstdout %q\nstderr %s", code, out, errs)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
	t.Setenv("PATH", t.TempDir())
	code, _, errs = cli("simulate", "--reps", "4", "--events", "2000", model, "--slurm", "--out", dir)
	if code != fault.ExitFailure || !strings.Contains(errs, "sbatch not found") || !strings.Contains(errs, "--shard I/N") {
		t.Fatalf("without sbatch: exit %d: %s", code, errs)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("left behind without sbatch: %v", ents)
	}
}
