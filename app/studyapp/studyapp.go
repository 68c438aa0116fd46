// Package studyapp runs a command's work split into independent items (issue 18) on several
// machines and merges it back: one shard of a study's plan computed here (Run with Shard),
// every shard submitted as a Slurm job array (Run with Slurm), and the merge's checks of
// what the shard files hold (DecodeItem, CheckRep, CheckQNResult, …: hostile input). The
// commands that take --shard (solve, simulate, speedup, tpn, fit) build their plans and
// items; the plumbing is here once.
package studyapp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/slurm"
)

// Options say where and how a study runs, not what it computes: --shard I/N --out DIR
// computes one shard; --slurm submits all of them as a Slurm job array (SlurmOpts: sbatch
// options, ArraySize: tasks, DryRun: print the batch script).
type Options struct {
	Shard     string
	Out       string
	Slurm     bool
	SlurmOpts []string
	ArraySize int
	DryRun    bool
}

// Active reports whether the command runs as (part of) a study rather than on one machine.
func (o Options) Active() bool { return o.Shard != "" || o.Slurm }

// Check is the options' refusals (flag names as the commands spell them).
func (o Options) Check() []string {
	var errs []string
	if o.Shard != "" && o.Slurm {
		errs = append(errs, "--shard and --slurm: --slurm submits the shards itself; give one of them")
	}
	if o.Active() && o.Out == "" {
		errs = append(errs, "--shard and --slurm need --out DIR, the study directory")
	}
	if !o.Active() && (o.Out != "" || len(o.SlurmOpts) > 0 || o.ArraySize != 0 || o.DryRun) {
		errs = append(errs, "--out, --slurm-opt, --slurm-array-size and --slurm-dry-run belong to --shard or --slurm")
	}
	if o.Shard != "" {
		if _, _, err := shard.ParseShard(o.Shard); err != nil {
			errs = append(errs, fmt.Sprintf("--shard %q: want I/N, shard I of N numbered from 0 (0 ≤ I < N ≤ %d: the shards of 8 are 0/8 … 7/8)", o.Shard, shard.MaxShards))
		}
	}
	if o.Out != "" {
		if fi, err := os.Stat(o.Out); err == nil && !fi.IsDir() {
			errs = append(errs, fmt.Sprintf("--out %s: not a directory (the study directory to create or reuse)", o.Out))
		}
	}
	if o.ArraySize != 0 && (o.ArraySize < 1 || o.ArraySize > shard.MaxShards) {
		errs = append(errs, fmt.Sprintf("--slurm-array-size %d: want 1 … %d (0: min(%d, items))", o.ArraySize, shard.MaxShards, slurm.DefaultShards))
	}
	return errs
}

// Shards is how many shards a study of items items has: the --shard count, or
// --slurm-array-size (default min(32, items)) array tasks.
func (o Options) Shards(items int) int {
	if o.Shard != "" {
		_, n, _ := shard.ParseShard(o.Shard)
		return n
	}
	if o.ArraySize != 0 {
		return o.ArraySize
	}
	return slurm.DefaultArraySize(items)
}

// Range is the items of this run's shard (--shard I/N) in plan p.
func (o Options) Range(p shard.Plan) (shard.Range, error) {
	i, _, _ := shard.ParseShard(o.Shard)
	return p.Spec.Range(i)
}

// Work computes study item k from the plan's seed and k alone.
type Work func(k int) (json.RawMessage, error)

// Run runs the study of plan p as o asks: one shard (work computes its items; Ctrl-C stops
// it before its next item and leaves a failure marker saying so, never a partial result
// file) or a Slurm submission, saying on stdout what it did.
func Run(ctx context.Context, o Options, p shard.Plan, work Work, stdout io.Writer) error {
	if o.Shard != "" {
		i, _, _ := shard.ParseShard(o.Shard)
		if err := shard.WritePlan(o.Out, p); err != nil {
			return app.Classify(err)
		}
		interruptible := func(k int) (json.RawMessage, error) {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("interrupted before item %d: %w", k, err)
			}
			return work(k)
		}
		if err := shard.Run(o.Out, p, i, interruptible); err != nil {
			return app.Classify(err)
		}
		r, _ := p.Spec.Range(i)
		fmt.Fprintf(stdout, "shard %d/%d: items %d-%d written to %s\n", i, p.N, r.Lo, r.Hi-1, filepath.Join(o.Out, shard.FileName(i, p.N)))
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(o.Out)
	if err != nil {
		return app.Input(err)
	}
	j := slurm.Job{Executable: exe, Command: p.Command, Args: p.Args, Dir: dir, Shards: p.N, Opts: o.SlurmOpts, WorkDir: p.Dir}
	if o.DryRun {
		s, err := slurm.DryRun(p, j)
		if err != nil {
			return app.Classify(err)
		}
		_, err = io.WriteString(stdout, s)
		return err
	}
	sub, err := slurm.Client{}.SubmitStudy(ctx, p, j)
	if err != nil {
		return app.Classify(err)
	}
	fmt.Fprintf(stdout, "submitted %s shards %s as job %s (script %s)\nprogress: clusterperf merge --status %s\nresult:   clusterperf merge %s\n", p.Command, sub.Array, sub.JobID, sub.Script, dir, dir)
	return nil
}

// Checked is merge f after a check that the study was computed by this version of the
// program and that its input files are the ones its shards were computed from
// (shard.Plan.CheckInputs); an item's error names the shard file that holds it.
func Checked(version string, f shard.MergeFunc) shard.MergeFunc {
	return func(p shard.Plan, items []json.RawMessage) (any, error) {
		if p.Version != version {
			return nil, app.Inputf("the shards were computed by clusterperf %q, this is %q: merge with the binary that ran the study, or run it again with this one", p.Version, version)
		}
		if err := p.CheckInputs(); err != nil {
			return nil, app.Classify(err)
		}
		v, err := f(p, items)
		return v, InShard(p, err)
	}
}

// SummariseReps reads the shard items of a simulation study of m, one sim.RepResult per
// replication, each checked for shape and range (CheckRep), and summarises them with s as
// the one-machine run does.
func SummariseReps(s *sim.Simulator, items []json.RawMessage, m *qn.Model) (*sim.Result, error) {
	reps := make([]*sim.RepResult, len(items))
	for k, it := range items {
		reps[k] = new(sim.RepResult)
		if err := DecodeItem(k, it, reps[k]); err != nil {
			return nil, err
		}
		if err := CheckRep(k, reps[k], m); err != nil {
			return nil, err
		}
	}
	res, err := s.Summarise(reps)
	if err != nil {
		return nil, app.Lib(err)
	}
	return res, nil
}
