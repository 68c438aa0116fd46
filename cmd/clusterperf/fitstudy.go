package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/shard"
)

// fitStudy is a fit whose bootstrap is computed elsewhere: the report of every candidate
// fitted without bootstrap, and the replicate count B. Item k of the study is replicate
// k mod B of candidate k div B (fit.SPMDResult.Replicate, seeded by the model file's seed
// and the replicate alone), so the shards merge to the one-machine result (issue 18).
type fitStudy struct {
	q   fitapp.Request
	rep *fit.Report
	b   int
}

func prepareFitStudy(o fitOptions, args []string) (*fitStudy, error) {
	q, err := fitRequest(o, args[0], args[1])
	if err != nil {
		return nil, err
	}
	b := q.Spec.Bootstrap
	if b == 0 {
		return nil, badInputf("--shard/--slurm split the bootstrap replicates: give --bootstrap N (or bootstrap: N in %s)", args[0])
	}
	q.Spec.Bootstrap = 0
	rep, err := fit.Run(q.Spec, q.Data)
	if err != nil {
		return nil, badInput(fitapp.DataError(args[1], err))
	}
	q.Spec.Bootstrap = b
	return &fitStudy{q: q, rep: rep, b: b}, nil
}

// runFitStudy runs one shard of a sharded fit --bootstrap, or submits it to Slurm.
func runFitStudy(cmd *cobra.Command, o fitOptions, args []string, stdout io.Writer) error {
	if o.plot != "" {
		return badInputf("--plot with --shard/--slurm: give it to the one-machine run")
	}
	fs, err := prepareFitStudy(o, args)
	if err != nil {
		return err
	}
	p, err := studyPlan(cmd, args, o.study, fs.q.Spec.Seed, len(fs.rep.Candidates)*fs.b)
	if err != nil {
		return err
	}
	work := func(k int) (json.RawMessage, error) {
		x, _ := fs.rep.Candidates[k/fs.b].Replicate(k % fs.b) // nil: the refit failed (counted as such)
		return json.Marshal(x)
	}
	return runStudy(cmd.Context(), o.study, p, work, stdout)
}

// mergeFit turns the replicates of a complete fit --bootstrap study into fit's result.
func mergeFit(p shard.Plan, items []json.RawMessage) (any, error) {
	var o fitOptions
	pos, err := reparseStudy(fitCmd(&o, io.Discard, io.Discard), p, &o.study)
	if err != nil {
		return nil, err
	}
	if len(pos) != 2 {
		return nil, badInputf("the plan's arguments %q are not a fit MODEL.yaml DATA.csv study", p.Args)
	}
	fs, err := prepareFitStudy(o, pos)
	if err != nil {
		return nil, err
	}
	if fs.q.Spec.Seed != p.Seed || len(fs.rep.Candidates)*fs.b != len(items) {
		return nil, badInputf("the study has %d items and seed %d; its arguments give %d and seed %d", len(items), p.Seed, len(fs.rep.Candidates)*fs.b, fs.q.Spec.Seed)
	}
	for i, c := range fs.rep.Candidates {
		draws := make([][]float64, fs.b)
		for b := range draws {
			k := i*fs.b + b
			if err := decodeReplicate(k, items[k], &draws[b]); err != nil {
				return nil, err
			}
			if err := c.CheckReplicate(draws[b]); err != nil {
				return nil, itemErr(k, fmt.Errorf("bootstrap replicate %d: %w", b, err))
			}
		}
		c.SetBootstrap(draws)
	}
	return fitapp.Finish(fs.q, fs.rep)
}
