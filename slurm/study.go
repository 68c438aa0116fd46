package slurm

import (
	"context"
	"fmt"
	"strings"

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
	if _, err := Script(j); err != nil {
		return Submission{}, err
	}
	if err := shard.WritePlan(j.Dir, p); err != nil {
		return Submission{}, err
	}
	return c.Submit(ctx, j)
}

// DryRun is what --slurm-dry-run prints: the batch script SubmitStudy would submit.
func DryRun(p shard.Plan, j Job) (string, error) {
	if err := checkJob(p, j); err != nil {
		return "", err
	}
	return Script(j)
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

// StripFlags removes the named flags from a command line, so what is left is the study's
// own arguments (the same on the submitting machine and in every array task). valued flags
// take a value ("--out DIR" or "--out=DIR"); boolean flags do not ("--slurm", "--slurm=true").
// The usual call strips shard, out, slurm-opt, slurm-array-size (valued) and slurm,
// slurm-dry-run (boolean).
func StripFlags(args []string, valued, boolean []string) []string {
	isIn := func(name string, set []string) bool {
		for _, s := range set {
			if s == name {
				return true
			}
		}
		return false
	}
	out := make([]string, 0, len(args))
	for k := 0; k < len(args); k++ {
		a := args[k]
		if a == "--" {
			out = append(out, args[k:]...)
			break
		}
		if !strings.HasPrefix(a, "--") {
			out = append(out, a)
			continue
		}
		name, _, hasVal := strings.Cut(a[2:], "=")
		switch {
		case isIn(name, valued):
			if !hasVal {
				k++ // the value is the next argument
			}
		case isIn(name, boolean):
		default:
			out = append(out, a)
		}
	}
	return out
}
