package solveapp

import (
	"context"
	"fmt"

	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/sim"
)

// DefaultSimulation is the solve command's simulation at its flags' defaults: seed 1, ten
// replications of the model's default length (package simapp runs it: one configuration
// from the flags, one runner, one report for simulate and solve --validate).
func DefaultSimulation() simapp.Options { return simapp.Options{Seed: 1, Reps: 10} }

// quiet is o without its progress reporter (a sweep's points, a study's items).
func quiet(o simapp.Options) simapp.Options {
	o.Progress = nil
	return o
}

// estimate measures a fork/join result, which no exact solver can check, against a seeded
// simulation of the same model (o's Seed, Reps and configuration: simapp.Config): its error estimate
// is the difference plus the 95 % half-width (SetObservedEstimate). A simulation that
// cannot run leaves the result without an estimate and says why in a note. When ctx is
// cancelled the simulation is abandoned, res is left without an estimate and the error
// wraps fault.ErrInterrupted.
func estimate(ctx context.Context, o simapp.Options, m *qn.Model, res *qn.Result) error {
	fail := func(err error) { res.Notes = append(res.Notes, "no error estimate by simulation: "+fault.Detail(err)) }
	if o.Count != nil {
		o.Count()
	}
	cfg, err := simapp.Config(m, o)
	if err != nil {
		fail(err)
		return nil
	}
	sm, err := sim.New(m, cfg)
	if err != nil {
		fail(err)
		return nil
	}
	sr, err := sm.ReplicateContext(ctx, sim.Options{Seed: o.Seed, Reps: o.Reps})
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: %w", fault.ErrInterrupted, ctx.Err())
	}
	if err != nil {
		fail(err)
		return nil
	}
	ObservedEstimate(res, sr, o.Seed)
	return nil
}

// ObservedEstimate sets res's error estimate from the simulation sr of its model (seed: the
// simulation's seed): the difference plus the 95 % half-width.
func ObservedEstimate(res *qn.Result, sr *sim.Result, seed uint64) {
	obs := func(es []sim.Estimate) []Observed {
		out := make([]Observed, len(es))
		for i, e := range es {
			out[i] = Observed{Mean: e.Mean, Half: e.Half}
		}
		return out
	}
	method := fmt.Sprintf("simulation (%d replications of %d events, seed %d; 95 %% half-width added)", sr.Replications, sr.EventsPerRep, seed)
	if err := SetObservedEstimate(res, method, obs(sr.Throughput), obs(sr.ResponseTime)); err != nil {
		res.Notes = append(res.Notes, "no error estimate by simulation: "+fault.Detail(err))
	}
}
