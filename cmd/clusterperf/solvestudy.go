package main

import (
	"encoding/json"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/solveapp"
	"github.com/clusterperf/clusterperf/shard"
)

// solveStudyLong is solve's help on running a study on a cluster (issue 18).
const solveStudyLong = `Studies on a cluster: the replications of --validate (one model) and the points of a
sweep (--sweep or a .jmva what-if, with or without --validate) split over machines:
--shard I/N --out DIR computes shard I, --slurm --out DIR submits every shard as a Slurm
job array (--slurm-opt, --slurm-array-size, --slurm-dry-run), and "clusterperf merge DIR"
prints what the one-machine run with the same seed prints (merge --plot FILE draws a
sweep's plot). Replication r uses stream r of the seed, at every point of a sweep.

`

// runSolveStudy runs one shard of a sharded solve study, or submits it to Slurm: the
// replications of --validate of one model, or the points of a sweep (solveapp).
func runSolveStudy(cmd *cobra.Command, o *solveOptions, args []string, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	if o.plot != "" || o.exportJMVA != "" {
		return badInputf("--plot and --export-jmva with --shard/--slurm: the shards hold no whole result; draw the plot with \"clusterperf merge DIR --plot FILE\", export JMVA from the one-machine run")
	}
	in, err := solveapp.ParseInput(readInput, args[0])
	if err != nil {
		return err
	}
	q := o.request(in, io.Discard)
	if err := q.Check(args[0], ""); err != nil {
		return err
	}
	so := o.sim.study
	if q.IsSweep() {
		st, err := solveapp.NewSweepStudy(q, plannedHere(cmd, args, so))
		if err != nil {
			return err
		}
		p, err := studyPlan(cmd, args, so, o.sim.Seed, st.Items())
		if err != nil {
			return err
		}
		r, _ := so.Range(p)
		return runStudy(cmd.Context(), so, p, st.Work(r), stdout)
	}
	s, err := solveapp.ValidateStudy(q)
	if err != nil {
		return err
	}
	p, err := studyPlan(cmd, args, so, o.sim.Seed, o.sim.Reps)
	if err != nil {
		return err
	}
	work := func(k int) (json.RawMessage, error) {
		r, err := s.Run(p.Seed, uint64(k))
		if err != nil {
			return nil, libError(err)
		}
		return json.Marshal(r)
	}
	return runStudy(cmd.Context(), so, p, work, stdout)
}

// mergeSolveTo is the merge of a solve study (the approximate points' account goes to
// stderr, as in the one-machine run).
func mergeSolveTo(stderr io.Writer) shard.MergeFunc {
	return func(p shard.Plan, items []json.RawMessage) (any, error) {
		var o solveOptions
		pos, err := reparseStudy(solveCmd(&o, io.Discard, io.Discard), p, &o.sim.study)
		if err != nil {
			return nil, err
		}
		if len(pos) != 1 || o.sim.Seed != p.Seed {
			return nil, badInputf("the plan's arguments %q are not a solve study with seed %d", p.Args, p.Seed)
		}
		in, err := solveapp.ParseInput(o.sim.study.read, pos[0])
		if err != nil {
			return nil, err
		}
		q := o.request(in, stderr)
		q.Progress = nil
		if q.IsSweep() {
			return solveapp.MergeSweep(q, items)
		}
		if !o.validate || o.sim.Reps != len(items) {
			return nil, badInputf("the plan's arguments %q are not a solve --validate study of %d replications", p.Args, len(items))
		}
		return solveapp.MergeValidate(q, items)
	}
}

// plannedHere reports whether the study directory of a --shard run holds a plan of exactly
// this command line (the task of a Slurm array, or a shard rerun by hand).
func plannedHere(cmd *cobra.Command, args []string, so studyOptions) bool {
	if so.Shard == "" || so.Out == "" {
		return false
	}
	p, err := shard.ReadPlan(so.Out)
	return err == nil && p.ArgsHash == shard.HashArgs(cmd.Name(), studyArgs(cmd, args))
}
