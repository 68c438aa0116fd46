package slurm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

// SubmitStudy starts a study on Slurm: it checks that the job runs the plan's command with
// the plan's arguments over the plan's shard count, writes DIR/plan.json (refusing a
// directory that holds another study) and submits the job array.
//
// Nothing is left half-written: when sbatch is not on PATH the study directory is not
// touched, and when sbatch fails (no controller reachable, a partition refused…) every
// file and directory this call created — DIR itself if it was new, DIR/slurm, plan.json,
// the batch script — is removed again, so DIR is as it was (an earlier study's plan and
// shard files in it stay). Removing what was written, rather than checking the controller
// first, also covers the failures a check would miss (the controller going away between
// check and submission, sbatch refusing an option), and it needs no rename of a directory
// that may already hold the study (merge --resubmit, a rerun after --shard runs).
func (c Client) SubmitStudy(ctx context.Context, p shard.Plan, j Job) (Submission, error) {
	if err := checkJob(p, j); err != nil {
		return Submission{}, err
	}
	if _, err := script(j); err != nil {
		return Submission{}, err
	}
	if !c.Available() {
		return Submission{}, fmt.Errorf("--slurm: %s not found (it submits the job array): run on a Slurm login node, or compute the shards yourself with --shard I/N --out %s; nothing was written", c.path("sbatch"), j.Dir)
	}
	var made created
	fail := func(err error) (Submission, error) {
		made.remove()
		return Submission{}, err
	}
	if err := made.mkdirAll(j.Dir); err != nil {
		return fail(err)
	}
	planPath := filepath.Join(j.Dir, "plan.json")
	if _, err := os.Stat(planPath); errors.Is(err, fs.ErrNotExist) {
		made = append(made, planPath)
	}
	if err := shard.WritePlan(j.Dir, p); err != nil {
		return fail(err)
	}
	s, err := c.submitRecorded(ctx, j, &made)
	if notSubmitted(s, err) {
		return fail(fmt.Errorf("--slurm: the job array was not submitted: %w; %s is left as it was", err, j.Dir))
	}
	return s, err
}

// created lists the files and directories a submission made, in the order it made them,
// so that a failed submission can remove them again (remove).
type created []string

// mkdirAll is os.MkdirAll(dir) recording each directory it creates.
func (c *created) mkdirAll(dir string) error {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		*c = append(*c, missing[i])
	}
	return nil
}

// remove deletes what was created, newest first. A directory is removed only when empty
// (os.Remove), so whatever someone else put there meanwhile stays.
func (c created) remove() {
	for i := len(c) - 1; i >= 0; i-- {
		os.Remove(c[i])
	}
}

// DryRun is what --slurm-dry-run prints: the batch script SubmitStudy would submit.
func DryRun(p shard.Plan, j Job) (string, error) {
	if err := checkJob(p, j); err != nil {
		return "", err
	}
	return script(j)
}

func checkJob(p shard.Plan, j Job) error {
	switch {
	case j.Command != p.Command:
		return fmt.Errorf("%w: job runs %q, the plan is for %q", fault.ErrInput, j.Command, p.Command)
	case j.Shards != p.N:
		return fmt.Errorf("%w: job has %d array tasks, the plan %d shards", fault.ErrInput, j.Shards, p.N)
	case shard.HashArgs(j.Command, j.Args) != p.ArgsHash:
		return fmt.Errorf("%w: the job's arguments are not the plan's", fault.ErrInput)
	}
	return nil
}
