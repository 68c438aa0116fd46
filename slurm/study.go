package slurm

import (
	"context"
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

// SubmitStudy starts a study on Slurm: it checks that the job runs the plan's command with
// the plan's arguments over the plan's shard count, writes DIR/plan.json (refusing a
// directory that holds another study) and submits the job array.
func (c Client) SubmitStudy(ctx context.Context, p shard.Plan, j Job) (Submission, error) {
	if err := checkJob(p, j); err != nil {
		return Submission{}, err
	}
	if _, err := script(j); err != nil {
		return Submission{}, err
	}
	if err := shard.WritePlan(j.Dir, p); err != nil {
		return Submission{}, err
	}
	return c.submit(ctx, j)
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
