package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

func TestSubmitStudy(t *testing.T) {
	bin := fakeSlurm(t)
	dir := t.TempDir()
	p, _ := shard.NewPlan("simulate", []string{"m.yaml"}, 1, shard.Spec{Items: 100, N: 8}, "v")
	j := Job{Executable: "/bin/true", Command: "simulate", Args: []string{"m.yaml"}, Dir: dir, Shards: 8}
	for _, bad := range []func(*Job){
		func(j *Job) { j.Shards = 4 },
		func(j *Job) { j.Command = "fit" },
		func(j *Job) { j.Args = []string{"other.yaml"} },
	} {
		jb := j
		bad(&jb)
		if _, err := DryRun(p, jb); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%+v: %v", jb, err)
		}
	}
	if _, err := DryRun(p, j); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "plan.json")); err == nil {
		t.Fatal("dry run wrote the plan")
	}
	sub, err := Client{Bin: bin}.SubmitStudy(context.Background(), p, j)
	if err != nil || sub.JobID != "77" {
		t.Fatalf("%+v %v", sub, err)
	}
	if got, err := shard.ReadPlan(dir); err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("plan %+v %v", got, err)
	}
}

// TestSubmitStudyFailedLeavesNothing: when sbatch fails (here a fake one that exits 1 as
// sbatch does when no controller answers) or is not there at all, SubmitStudy leaves the
// study directory as it found it: a new directory is gone again, and in a directory that
// already held the study (an earlier --shard run) the plan and shard files stay while the
// script and DIR/slurm it wrote are removed. The error names sbatch and its message.
func TestSubmitStudyFailedLeavesNothing(t *testing.T) {
	bin := t.TempDir()
	const refusal = "sbatch: error: Batch job submission failed: Unable to contact slurm controller (connect failure)"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\necho '"+refusal+"' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	p, _ := shard.NewPlan("simulate", []string{"m.yaml"}, 1, shard.Spec{Items: 10, N: 2}, "v")
	job := func(dir string) Job {
		return Job{Executable: "/bin/true", Command: "simulate", Args: []string{"m.yaml"}, Dir: dir, Shards: 2}
	}
	// a new directory two levels deep: both levels are removed again
	parent := t.TempDir()
	dir := filepath.Join(parent, "a", "study")
	_, err := Client{Bin: bin}.SubmitStudy(context.Background(), p, job(dir))
	if err == nil || !strings.Contains(err.Error(), refusal) || !strings.Contains(err.Error(), "not submitted") {
		t.Fatalf("error %v", err)
	}
	if errors.Is(err, fault.ErrInput) || fault.ExitCode(err) != fault.ExitFailure {
		t.Errorf("a Slurm failure is no input error: exit %d", fault.ExitCode(err))
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("left behind in %s: %v", parent, ents)
	}
	// an existing study directory: its plan and shard file stay, nothing else is added
	dir = t.TempDir()
	if err := shard.WritePlan(dir, p); err != nil {
		t.Fatal(err)
	}
	if err := shard.Run(dir, p, 0, func(k int) (json.RawMessage, error) { return json.RawMessage("1"), nil }); err != nil {
		t.Fatal(err)
	}
	before := listDir(t, dir)
	if _, err := (Client{Bin: bin}).SubmitStudy(context.Background(), p, job(dir)); err == nil {
		t.Fatal("submitted")
	}
	if after := listDir(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("directory was %v, is %v", before, after)
	}
	// no sbatch at all: refused before anything is written, naming sbatch
	dir = filepath.Join(t.TempDir(), "study")
	_, err = Client{Bin: t.TempDir()}.SubmitStudy(context.Background(), p, job(dir))
	if err == nil || !strings.Contains(err.Error(), "sbatch not found") {
		t.Fatalf("without sbatch: %v", err)
	}
	if _, serr := os.Stat(dir); !errors.Is(serr, fs.ErrNotExist) {
		t.Errorf("without sbatch, %s was created", dir)
	}
}

// listDir lists the files under dir (relative paths, sorted).
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestResubmitFailedLeavesNothing: a resubmission sbatch refuses removes the script it
// wrote; the study's jobs.json and earlier scripts stay as they were.
func TestResubmitFailedLeavesNothing(t *testing.T) {
	bin := fakeSlurm(t)
	dir := t.TempDir()
	p, _ := shard.NewPlan("toy", []string{"x"}, 1, shard.Spec{Items: 4, N: 2}, "test")
	if _, err := (Client{Bin: bin}).SubmitStudy(context.Background(), p, Job{Executable: "/bin/true", Command: "toy", Args: []string{"x"}, Dir: dir, Shards: 2}); err != nil {
		t.Fatal(err)
	}
	before := listDir(t, dir)
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\necho 'sbatch: error: Unable to contact slurm controller' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(bin, "scontrol.out"), nil, 0o644) // Slurm knows no task: both shards missing
	if _, ok, err := (Client{Bin: bin}).Resubmit(context.Background(), dir); err == nil || ok {
		t.Fatalf("resubmit: ok %v, err %v", ok, err)
	}
	if after := listDir(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("directory was %v, is %v", before, after)
	}
}
