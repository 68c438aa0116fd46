package main

import (
	"encoding/json"
	"io"

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

// study is the study request of cmd's command line (flags set, in name order, and the
// positional arguments) run as o says.
func (o studyOptions) study(cmd *cobra.Command, positional []string) studyapp.Request {
	l := studyapp.Line{Command: cmd.Name(), Positional: positional}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		fl := studyapp.Flag{Name: f.Name, Values: []string{f.Value.String()}}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			fl.Values, fl.List = sv.GetSlice(), true
		}
		l.Flags = append(l.Flags, fl)
	})
	return studyapp.Request{Options: o.Options, Line: l, Version: version()}
}

// startStudy plans study st of cmd's command line and runs it as o asks (studyapp.Start):
// one shard, or a Slurm submission.
func startStudy(cmd *cobra.Command, positional []string, o studyOptions, st studyapp.Study, stdout io.Writer) error {
	return studyapp.Start(cmd.Context(), o.study(cmd, positional), st, stdout)
}

// studyMerge is the merge of one command's studies: the plan's arguments are parsed by a
// fresh command of the plan's kind (newCmd binds its flags to a fresh O, whose study
// options so reads the plan's input files where the plan recorded them) and checked by its
// argument rule; the study they give (study, the function the command's --shard run
// calls) merges the items (studyapp.MergeStudy).
func studyMerge[O any](newCmd func(*O) *cobra.Command, so func(*O) *studyOptions, study func(o *O, positional []string) (studyapp.Study, error)) shard.MergeFunc {
	return func(p shard.Plan, items []json.RawMessage) (any, error) {
		var o O
		cmd := newCmd(&o)
		if err := cmd.ParseFlags(p.Args); err != nil {
			return nil, badInputf("the study's arguments %q: %v", p.Args, err)
		}
		pos := cmd.Flags().Args()
		if err := cmd.ValidateArgs(pos); err != nil {
			return nil, badInputf("the study's arguments %q: %v", p.Args, err)
		}
		so(&o).from = &p
		st, err := study(&o, pos)
		if err != nil {
			return nil, err
		}
		return studyapp.MergeStudy(p, st, items)
	}
}
