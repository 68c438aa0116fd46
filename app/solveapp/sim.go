package solveapp

import (
	"context"
	"fmt"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/validate"
)

// Simulation is how the workflow simulates a queueing network: for --validate, and for the
// error estimate of a fork/join result, which no exact solver can check.
type Simulation struct {
	// Config is the simulator's configuration for model m (distributions, disciplines and
	// budgets, checked against m's names); nil: the defaults (exponential, FCFS).
	Config func(m *qn.Model) (sim.Config, error)
	// Options are the replication options (Seed, Reps, Precision, Batches, MaxTotalEvents;
	// Progress is set per step by Run).
	Options sim.Options
	// Count, if set, counts the simulations run (tests: a validated fork/join point is
	// simulated once).
	Count *int
}

// DefaultSimulation is the solve command's simulation at its flags' defaults: seed 1, ten
// replications of the model's default length.
func DefaultSimulation() Simulation { return Simulation{Options: sim.Options{Seed: 1, Reps: 10}} }

func (s Simulation) count() {
	if s.Count != nil {
		*s.Count++
	}
}

func (s Simulation) config(m *qn.Model) (sim.Config, error) {
	if s.Config == nil {
		return sim.Config{}, nil
	}
	return s.Config(m)
}

// Simulator is the simulator of m under s, with the class switching and capacities of its
// model file mf (nil: none, e.g. a .jmva file, or a sweep's point).
func (s Simulation) Simulator(mf *qn.ModelFile, m *qn.Model) (*sim.Simulator, error) {
	cfg, err := s.config(m)
	if err != nil {
		return nil, app.Input(err)
	}
	if mf != nil && mf.Model == m {
		cfg = sim.FileConfig(mf, cfg)
	}
	sm, err := sim.New(m, cfg)
	return sm, app.Lib(err) // fault.ErrInput or ErrTooLarge, classified by sim
}

// Run simulates m until ctx is cancelled, reporting events to progress; the library
// classifies its errors (saturation and no steady state are findings, budgets and options
// input). An interrupted run returns the partial result with its error
// (fault.ErrInterrupted).
func (s Simulation) Run(ctx context.Context, mf *qn.ModelFile, m *qn.Model, progress func(done, total int)) (*sim.Result, error) {
	s.count()
	sm, err := s.Simulator(mf, m)
	if err != nil {
		return nil, err
	}
	o := s.Options
	o.Progress = progress
	res, err := sm.ReplicateContext(ctx, o)
	if res != nil && res.Partial {
		return res, err
	}
	return res, app.Lib(err)
}

// Estimate measures a fork/join result, which no exact solver can check, against a seeded
// simulation of the same model (Seed, Reps, the configuration's events): its error estimate
// is the difference plus the 95 % half-width (SetObservedEstimate). A simulation that
// cannot run leaves the result without an estimate and says why in a note. When ctx is
// cancelled the simulation is abandoned, res is left without an estimate and the error
// wraps fault.ErrInterrupted.
func (s Simulation) Estimate(ctx context.Context, m *qn.Model, res *qn.Result) error {
	fail := func(err error) { res.Notes = append(res.Notes, "no error estimate by simulation: "+fault.Detail(err)) }
	s.count()
	cfg, err := s.config(m)
	if err != nil {
		fail(err)
		return nil
	}
	sm, err := sim.New(m, cfg)
	if err != nil {
		fail(err)
		return nil
	}
	sr, err := sm.ReplicateContext(ctx, sim.Options{Seed: s.Options.Seed, Reps: s.Options.Reps})
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: %w", fault.ErrInterrupted, ctx.Err())
	}
	if err != nil {
		fail(err)
		return nil
	}
	ObservedEstimate(res, sr, s.Options.Seed)
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

// Report compares a simulation with the solution an of the named solver (nil: the solver
// failed with anErr, said in a note). The report's notes are the simulation's (warm-up, run
// length, product-form caveats, lag-1); validate would add the lag-1 note a second time, so
// it is given the result without it.
func Report(m *qn.Model, solver string, an *qn.Result, anErr error, res *sim.Result, seed uint64) *validate.Report {
	if an != nil && an.Solver != "" {
		solver = an.Solver
	}
	if an != nil && an.Method != "" && an.Method != solver {
		solver = an.Solver + " (" + an.Method + ")" // e.g. auto (ctmc-blocking-after-service)
	}
	quiet := *res
	quiet.Lag1 = 0
	rep := validate.QNReport(m, solver, an, anErr, &quiet, seed, res.Notes)
	rep.Partial = res.Partial
	return rep
}
