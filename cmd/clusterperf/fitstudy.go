package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/app/studyapp"
)

// runFitStudy runs one shard of a sharded fit --bootstrap (fitapp.Study), or submits it to
// Slurm.
func runFitStudy(cmd *cobra.Command, o fitOptions, args []string, stdout io.Writer) error {
	if o.plot != "" {
		return badInputf("--plot with --shard/--slurm: give it to the one-machine run")
	}
	st, err := o.bootstrapStudy(args)
	if err != nil {
		return err
	}
	return startStudy(cmd, args, o.study, st, stdout)
}

// bootstrapStudy is the study of `fit MODEL.yaml DATA.csv` with the flags: the bootstrap
// replicates of every candidate (fitapp.NewStudy).
func (o fitOptions) bootstrapStudy(args []string) (studyapp.Study, error) {
	q, err := fitRequest(o, args[0], args[1])
	if err != nil {
		return nil, err
	}
	return fitapp.NewStudy(q, args[0])
}

// mergeFit turns the replicates of a complete fit --bootstrap study into fit's result.
var mergeFit = studyMerge(func(o *fitOptions) *cobra.Command { return fitCmd(o, io.Discard, io.Discard) },
	func(o *fitOptions) *studyOptions { return &o.study },
	func(o *fitOptions, pos []string) (studyapp.Study, error) {
		if len(pos) != 2 {
			return nil, badInputf("the plan's arguments %v are not a fit MODEL.yaml DATA.csv study", pos)
		}
		return o.bootstrapStudy(pos)
	})
