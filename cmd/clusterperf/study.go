package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/slurm"
)

// studyOptions are the flags of a command whose work splits into independent items
// (issue 18): --shard i/n --out DIR computes one shard; --slurm submits all of them as a
// Slurm job array; "clusterperf merge DIR" combines them into the one-machine result.
type studyOptions struct {
	shard     string
	out       string
	slurm     bool
	slurmOpts []string
	arraySize int
	dryRun    bool
	// from is the plan of the study being merged (nil while a study runs): input files
	// named in its arguments are read at their recorded absolute paths (read), so merge
	// works from any directory.
	from *shard.Plan
}

// read reads a file named on the command line: while merging, at the absolute path the
// study's plan recorded for that argument; otherwise as readInput does.
func (o studyOptions) read(path string) ([]byte, error) {
	if o.from != nil {
		return readInput(o.from.Resolve(path))
	}
	return readInput(path)
}

// studyFlags are the flags that say where and how a study runs, not what it computes: they
// are left out of the plan's arguments (with the output format, which merge chooses).
var studyFlags = map[string]bool{"shard": true, "out": true, "slurm": true, "slurm-opt": true, "slurm-array-size": true,
	"slurm-dry-run": true, "format": true, "csv-table": true, "progress": true, "report": true}

// studyOutputFlags name files a command writes, never inputs of a study.
var studyOutputFlags = map[string]bool{"plot": true, "export-jmva": true, "export-pnml": true, "report": true}

func addStudyFlags(f *pflag.FlagSet, o *studyOptions, what string) {
	f.StringVar(&o.shard, "shard", "", "compute only shard I/N of the "+what+" (0 ≤ I < N) into --out DIR; merge with \"clusterperf merge DIR\"")
	f.StringVar(&o.out, "out", "", "study directory of --shard or --slurm (on a file system the cluster's nodes share)")
	f.BoolVar(&o.slurm, "slurm", false, "submit the study as a Slurm job array (sbatch), one shard per task, into --out DIR")
	f.StringArrayVar(&o.slurmOpts, "slurm-opt", nil, "--slurm: an sbatch option for the batch script, e.g. partition=debug or time=00:10:00 (repeatable)")
	f.IntVar(&o.arraySize, "slurm-array-size", 0, "--slurm: array tasks (shards), 1 … 1000 and at most the items (0: min(32, items))")
	f.BoolVar(&o.dryRun, "slurm-dry-run", false, "--slurm: print the batch script instead of submitting it")
}

// active reports whether the command runs as (part of) a study rather than on one machine.
func (o studyOptions) active() bool { return o.shard != "" || o.slurm }

func (o studyOptions) check(c *flagCheck) {
	if o.shard != "" && o.slurm {
		c.add("--shard and --slurm: --slurm submits the shards itself; give one of them")
	}
	if o.active() && o.out == "" {
		c.add("--shard and --slurm need --out DIR, the study directory")
	}
	if !o.active() && (o.out != "" || len(o.slurmOpts) > 0 || o.arraySize != 0 || o.dryRun) {
		c.add("--out, --slurm-opt, --slurm-array-size and --slurm-dry-run belong to --shard or --slurm")
	}
	if o.shard != "" {
		if _, _, err := shard.ParseShard(o.shard); err != nil {
			c.add("--shard %q: want I/N, shard I of N numbered from 0 (0 ≤ I < N ≤ %d: the shards of 8 are 0/8 … 7/8)", o.shard, shard.MaxShards)
		}
	}
	if o.out != "" {
		if fi, err := os.Stat(o.out); err == nil && !fi.IsDir() {
			c.add("--out %s: not a directory (the study directory to create or reuse)", o.out)
		}
	}
	if o.arraySize != 0 && (o.arraySize < 1 || o.arraySize > shard.MaxShards) {
		c.add("--slurm-array-size %d: want 1 … %d (0: min(%d, items))", o.arraySize, shard.MaxShards, slurm.DefaultShards)
	}
}

// studyArgs is the canonical form of a command line for a plan: every flag that was set and
// is not a study flag, as --name=value in name order (repeated for repeatable flags), then
// the positional arguments. Two spellings of one study give one plan.
func studyArgs(cmd *cobra.Command, positional []string) []string {
	var out []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if studyFlags[f.Name] {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				out = append(out, "--"+f.Name+"="+v)
			}
			return
		}
		out = append(out, "--"+f.Name+"="+f.Value.String())
	})
	return append(out, positional...)
}

// runStudy runs the study of plan p as o asks: one shard (work(k) computes item k from the
// plan's seed and k alone) or a Slurm submission.
func runStudy(ctx context.Context, o studyOptions, p shard.Plan, work func(k int) (json.RawMessage, error), stdout io.Writer) error {
	if o.shard != "" {
		i, _, _ := shard.ParseShard(o.shard)
		if err := shard.WritePlan(o.out, p); err != nil {
			return classify(err)
		}
		// an interrupted shard (Ctrl-C cancels the command's context) stops before its next
		// item and leaves a failure marker saying so, never a partial result file
		interruptible := func(k int) (json.RawMessage, error) {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("interrupted before item %d: %w", k, err)
			}
			return work(k)
		}
		if err := shard.Run(o.out, p, i, interruptible); err != nil {
			return classify(err)
		}
		r, _ := p.Spec.Range(i)
		fmt.Fprintf(stdout, "shard %d/%d: items %d-%d written to %s\n", i, p.N, r.Lo, r.Hi-1, filepath.Join(o.out, shard.FileName(i, p.N)))
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(o.out)
	if err != nil {
		return badInput(err)
	}
	j := slurm.Job{Executable: exe, Command: p.Command, Args: p.Args, Dir: dir, Shards: p.N, Opts: o.slurmOpts, WorkDir: p.Dir}
	if o.dryRun {
		s, err := slurm.DryRun(p, j)
		if err != nil {
			return classify(err)
		}
		_, err = io.WriteString(stdout, s)
		return err
	}
	sub, err := slurm.Client{}.SubmitStudy(ctx, p, j)
	if err != nil {
		return classify(err)
	}
	fmt.Fprintf(stdout, "submitted %s shards %s as job %s (script %s)\nprogress: clusterperf merge --status %s\nresult:   clusterperf merge %s\n", p.Command, sub.Array, sub.JobID, sub.Script, dir, dir)
	return nil
}

// studyPlan is the plan of a study of items work items: over the --shard count, or over
// --slurm-array-size (default min(32, items)) array tasks.
func studyPlan(cmd *cobra.Command, positional []string, o studyOptions, seed uint64, items int) (shard.Plan, error) {
	n := o.arraySize
	if o.shard != "" {
		_, n, _ = shard.ParseShard(o.shard)
	} else if n == 0 {
		n = slurm.DefaultArraySize(items)
	}
	p, err := shard.NewPlan(cmd.Name(), studyArgs(cmd, positional), seed, shard.Spec{Items: items, N: n}, version())
	if err != nil {
		return p, classify(err)
	}
	if p.Dir, err = os.Getwd(); err != nil {
		return p, err
	}
	p.Inputs, err = studyInputs(cmd, positional, p.Dir)
	return p, err
}

// studyInputs are the files a study reads: the positional arguments and the values of flags
// (other than the output flags) that name regular files, hashed so that merge can find them
// from any directory and refuse them when they changed.
func studyInputs(cmd *cobra.Command, positional []string, dir string) ([]shard.Input, error) {
	var args []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if studyFlags[f.Name] || studyOutputFlags[f.Name] {
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			args = append(args, sv.GetSlice()...)
			return
		}
		args = append(args, f.Value.String())
	})
	var out []shard.Input
	seen := map[string]bool{}
	for _, a := range append(args, positional...) {
		if a == "" || seen[a] {
			continue
		}
		path := a
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		seen[a] = true
		in, err := shard.HashInput(dir, a)
		if err != nil {
			return nil, classify(err)
		}
		out = append(out, in)
	}
	return out, nil
}

// reparse parses a plan's arguments with a fresh command of the plan's kind (for merge):
// the options the shards ran with, and the positional arguments.
func reparse(cmd *cobra.Command, args []string) ([]string, error) {
	if err := cmd.ParseFlags(args); err != nil {
		return nil, badInputf("the study's arguments %q: %v", args, err)
	}
	return cmd.Flags().Args(), nil
}

// reparseStudy is reparse of the plan's arguments, with so (the study options the command's
// flags are bound to) set to read the plan's input files where the plan recorded them.
func reparseStudy(cmd *cobra.Command, p shard.Plan, so *studyOptions) ([]string, error) {
	pos, err := reparse(cmd, p.Args)
	so.from = &p
	return pos, err
}

// checkedMerge is f after a check that the study's input files are the ones its shards
// were computed from (shard.Plan.CheckInputs).
func checkedMerge(f shard.MergeFunc) shard.MergeFunc {
	return func(p shard.Plan, items []json.RawMessage) (any, error) {
		if v := version(); p.Version != v {
			return nil, badInputf("the shards were computed by clusterperf %q, this is %q: merge with the binary that ran the study, or run it again with this one", p.Version, v)
		}
		if err := p.CheckInputs(); err != nil {
			return nil, classify(err)
		}
		v, err := f(p, items)
		return v, inShard(p, err)
	}
}

// summariseReps reads the shard items of a simulation study of m, one sim.RepResult per
// replication, each checked for shape and range (checkRep), and summarises them with s as
// the one-machine run does.
func summariseReps(s *sim.Simulator, items []json.RawMessage, m *qn.Model) (*sim.Result, error) {
	reps := make([]*sim.RepResult, len(items))
	for k, it := range items {
		reps[k] = new(sim.RepResult)
		if err := decodeItem(k, it, reps[k]); err != nil {
			return nil, err
		}
		if err := checkRep(k, reps[k], m); err != nil {
			return nil, err
		}
	}
	res, err := s.Summarise(reps)
	if err != nil {
		return nil, libError(err)
	}
	return res, nil
}
