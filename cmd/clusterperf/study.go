package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/shard"
)

// studyOptions are the flags of a command whose work splits into independent items
// (issue 18, package studyapp): --shard i/n --out DIR computes one shard; --slurm submits
// all of them as a Slurm job array; "clusterperf merge DIR" combines them into the
// one-machine result.
type studyOptions struct {
	studyapp.Options
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
	f.StringVar(&o.Shard, "shard", "", "compute only shard I/N of the "+what+" (0 ≤ I < N) into --out DIR; merge with \"clusterperf merge DIR\"")
	f.StringVar(&o.Out, "out", "", "study directory of --shard or --slurm (on a file system the cluster's nodes share)")
	f.BoolVar(&o.Slurm, "slurm", false, "submit the study as a Slurm job array (sbatch), one shard per task, into --out DIR")
	f.StringArrayVar(&o.SlurmOpts, "slurm-opt", nil, "--slurm: an sbatch option for the batch script, e.g. partition=debug or time=00:10:00 (repeatable)")
	f.IntVar(&o.ArraySize, "slurm-array-size", 0, "--slurm: array tasks (shards), 1 … 1000 and at most the items (0: min(32, items))")
	f.BoolVar(&o.DryRun, "slurm-dry-run", false, "--slurm: print the batch script instead of submitting it")
}

// active reports whether the command runs as (part of) a study rather than on one machine.
func (o studyOptions) active() bool { return o.Active() }

func (o studyOptions) check(c *flagCheck) {
	for _, e := range o.Check() {
		c.add("%s", e)
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

// runStudy runs the study of plan p as o asks (studyapp.Run): one shard (work(k) computes
// item k from the plan's seed and k alone) or a Slurm submission.
func runStudy(ctx context.Context, o studyOptions, p shard.Plan, work func(k int) (json.RawMessage, error), stdout io.Writer) error {
	return studyapp.Run(ctx, o.Options, p, work, stdout)
}

// studyPlan is the plan of a study of items work items: over the --shard count, or over
// --slurm-array-size (default min(32, items)) array tasks.
func studyPlan(cmd *cobra.Command, positional []string, o studyOptions, seed uint64, items int) (shard.Plan, error) {
	p, err := shard.NewPlan(cmd.Name(), studyArgs(cmd, positional), seed, shard.Spec{Items: items, N: o.Shards(items)}, version())
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

// The merges' item checks (package studyapp), under the names the commands' files use.
var (
	summariseReps   = studyapp.SummariseReps
	decodeReplicate = studyapp.DecodeReplicate
	decodeCycleTime = studyapp.DecodeCycleTime
)

// itemErr is the error of study item k (studyapp.ItemError): merge names its shard file.
func itemErr(k int, err error) error { return studyapp.ItemErr(k, err) }
