package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/solveapp"
	"github.com/clusterperf/clusterperf/app/studyapp"
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
// replications of --validate of one model, or the points of a sweep (solveapp.NewStudy).
func runSolveStudy(cmd *cobra.Command, o *solveOptions, args []string, stdout, _ io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	if o.plot != "" || o.exportJMVA != "" {
		return badInputf("--plot and --export-jmva with --shard/--slurm: the shards hold no whole result; draw the plot with \"clusterperf merge DIR --plot FILE\", export JMVA from the one-machine run")
	}
	st, err := o.study(args, io.Discard, o.sim.study.study(cmd, args).Planned())
	if err != nil {
		return err
	}
	return startStudy(cmd, args, o.sim.study, st, stdout)
}

// study is the solve study of the flags and the model file args[0] (log: the account of
// approximate points), planned when the study directory holds this very command line's plan.
func (o *solveOptions) study(args []string, log io.Writer, planned bool) (studyapp.Study, error) {
	in, err := solveapp.ParseInput(o.sim.study.read, args[0])
	if err != nil {
		return nil, err
	}
	q := o.request(in, log)
	if err := q.Check(args[0], ""); err != nil {
		return nil, err
	}
	return solveapp.NewStudy(q, planned)
}

// mergeSolveTo is the merge of a solve study (the approximate points' account goes to
// stderr, as in the one-machine run).
func mergeSolveTo(stderr io.Writer) shard.MergeFunc {
	return studyMerge(func(o *solveOptions) *cobra.Command { return solveCmd(o, io.Discard, io.Discard) },
		func(o *solveOptions) *studyOptions { return &o.sim.study },
		func(o *solveOptions, pos []string) (studyapp.Study, error) { return o.study(pos, stderr, true) })
}
