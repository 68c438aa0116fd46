package solveapp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/validate"
)

// Solution is the result value of one model (no sweep): the solution's view (its fields,
// method and exact flag included, at the top level of the JSON document), every bound that
// applies, the queue-length distribution (Distribution), the validation (Validate), and
// notes (the solver's, the bounds', the validation's).
type Solution struct {
	report.Answered
	qn.View
	Bounds       []qn.Bound          `json:"bounds"`
	Distribution *DistributionResult `json:"distribution,omitempty"`
	Validation   *validate.Report    `json:"validation,omitempty"`
	// Partial is true when Ctrl-C stopped --validate (exit 130): Validation is that of the
	// replications finished, itself marked partial.
	Partial bool     `json:"partial,omitempty"`
	Notes   []string `json:"notes"`
}

// DistributionResult is P(n_k = j) at one copy of a station, with ln G of the network.
type DistributionResult struct {
	Station string `json:"station"`
	// LogNormalizingConstant is ln G(N) with times in seconds (qn.NormalizingConstant).
	LogNormalizingConstant float64          `json:"log_normalizing_constant"`
	Probabilities          []JobProbability `json:"probabilities"`
}

// JobProbability is P(n = Jobs) and P(n ≤ Jobs) at one copy of a station.
type JobProbability struct {
	Jobs        int     `json:"jobs"`
	Probability float64 `json:"probability"`
	Cumulative  float64 `json:"cumulative"` // P(n ≤ jobs)
}

// Tables: classes, stations, bounds (app.QNTables, app.BoundsTable), distribution and
// validation when computed.
func (r *Solution) Tables() []*report.Table {
	ts := append(app.QNTables(r.View), app.BoundsTable(r.Bounds))
	if d := r.Distribution; d != nil {
		t := &report.Table{Name: "distribution", Title: fmt.Sprintf("Queue-length distribution at %s (one copy; ln G = %.10g with demands in s)", d.Station, d.LogNormalizingConstant),
			Header: []string{"jobs", "probability", "cumulative"}}
		for _, p := range d.Probabilities {
			t.Add(p.Jobs, p.Probability, p.Cumulative)
		}
		ts = append(ts, t)
	}
	if r.Validation != nil {
		ts = append(ts, app.ValidationTable(r.Validation))
	}
	return ts
}

// NoteLines are the notes, then the validation's.
func (r *Solution) NoteLines() []string {
	if r.Validation != nil {
		return append(slices.Clone(r.Notes), r.Validation.Notes...)
	}
	return r.Notes
}

// partialNote says what an interrupted --validate left.
const partialNote = "partial: the validation was interrupted (see its notes); the solution is complete"

// solveOne is the result of one model: the solution, its bounds, Distribution and Validate.
// q.Simulated is the simulation of a sharded --validate, merged from its shards (nil: the
// model is simulated here); a fork/join result's error estimate then comes from it too, as
// it is the same simulation.
func solveOne(ctx context.Context, q Request) (*Solution, *qn.Result, error) {
	in := q.Input
	m, opt := in.Model, q.Options
	var dist *DistributionResult // first: a model it does not apply to is refused before solving
	if q.Distribution != "" {
		var err error
		if dist, err = Distribution(m, q.Distribution); err != nil {
			return nil, nil, err
		}
	}
	sr, simErr := q.Simulated, error(nil) // simErr: an interrupted --validate simulation (Ctrl-C)
	if q.Validate && sr == nil && !in.Special() && len(m.ForkJoins) > 0 {
		// one simulation for both the fork/join error estimate and --validate (it was run twice)
		if sr, simErr = simapp.RunQN(ctx, in.File, m, q.Sim); sr == nil {
			return nil, nil, simErr
		}
	}
	estimate := func(r *qn.Result) { _ = estimate(context.Background(), q.Sim, m, r) }
	if sr != nil && !in.Special() {
		estimate = func(r *qn.Result) { ObservedEstimate(r, sr, q.Sim.Seed) }
	}
	res, err := solveLabelled(ctx, in.solver(m), m, q.Solver, opt, estimate, q.log) // Ctrl-C stops the exact solvers mid-solve (exit 130)
	if err != nil {
		return nil, nil, err
	}
	out := newSolution(q, res, dist)
	if err := out.addBounds(q.Input); err != nil {
		return nil, nil, err
	}
	if !q.Validate {
		return out, res, nil
	}
	if sr == nil {
		if sr, simErr = simapp.RunQN(ctx, in.File, m, q.Sim); sr == nil || !sr.Partial && simErr != nil {
			return nil, nil, simErr
		}
	}
	out.Validation = simapp.QNReport(m, q.Solver, res, nil, sr, q.Sim.Seed)
	if simErr != nil { // Ctrl-C: the solution, and the validation of the replications finished
		out.Partial = true
		out.Notes = append(out.Notes, partialNote)
	}
	return out, res, simErr
}

// newSolution is the result value of res: its view, answer and notes.
func newSolution(q Request, res *qn.Result, dist *DistributionResult) *Solution {
	in := q.Input
	out := &Solution{View: qn.NewView(in.Name, in.Model, res), Bounds: []qn.Bound{}, Distribution: dist, Notes: append([]string{}, res.Notes...)}
	out.Answer = answer.Solve(in.Model, res)
	out.Notes = append(append(out.Notes, in.Notes...), q.noEffect(res)...)
	if in.WhatIf != nil {
		out.Notes = append(out.Notes, "the file's what-if analysis was not run: --validate and --distribution take the model as written")
	}
	return out
}

// solveLabelled solves m by solve and refuses what must not be printed (a solver that did
// not converge: exit 3); a fork/join result without an error estimate gets one by
// estimate; an approximate result's method and error estimate go to log too.
func solveLabelled(ctx context.Context, solve solveFunc, m *qn.Model, solver string, opt qn.AMVAOptions, estimate func(*qn.Result), log func(string)) (*qn.Result, error) {
	res, err := solve(ctx, solver, opt)
	if err != nil {
		if opt.RequireExact && errors.Is(err, fault.ErrTooLarge) {
			return nil, app.Inputf("--exact: %w", err)
		}
		return nil, app.Lib(err)
	}
	if !res.Status.Converged {
		return nil, app.Finding(fault.ErrNotConverged, fmt.Errorf("%s did not converge after %d iterations (residual %.3g): no result printed; raise --max-iter or use an exact solver", res.Solver, res.Status.Iterations, res.Status.Residual))
	}
	if !res.Exact && res.ErrorEstimate == nil && len(m.ForkJoins) > 0 {
		estimate(res)
	}
	if !res.Exact {
		log(res.Describe())
	}
	return res, nil
}

// CheckSolves solves the request's model as Run would (its refusals: --exact, a solver that
// does not converge) without estimating or printing anything: a study checks it before any
// shard runs.
func CheckSolves(q Request) error {
	m := q.Input.Model
	_, err := solveLabelled(context.Background(), q.Input.solver(m), m, q.Solver, q.Options, func(*qn.Result) {}, func(string) {})
	return err
}

// noExactForkJoin is the refusal of --exact on a model with fork/join nodes, before any
// solver runs, sweep or not (exit 2: no solver can meet the requirement, whichever
// --solver is given), naming what does apply.
func noExactForkJoin(m *qn.Model) error {
	return app.Inputf("--exact: fork/join node %q: no exact solver models fork/join synchronisation. "+
		"What applies: solve without --exact (--solver forkjoin, the default here: approximate fork/join MVA for one closed class, "+
		"its error measured against a seeded simulation), or clusterperf simulate (discrete events, 95 %% intervals)", m.ForkJoins[0].Name)
}

// addBounds adds every bound that applies to the model; why the others do not goes to the
// notes.
func (r *Solution) addBounds(in *Input) error {
	m := in.Model
	switch {
	case in.Special():
		r.Notes = append(r.Notes, "bounds: not computed: the asymptotic, balanced-job, proportional and geometric bounds assume independent classes and unlimited capacities; this model has "+in.Features())
		return nil
	case len(m.ForkJoins) > 0:
		r.Notes = append(r.Notes, "bounds: not available for models with fork/join nodes (the named bounds assume stations without synchronisation); the fork/join result's error estimate is measured by simulation instead")
		return nil
	}
	set, err := qn.AllBounds(m)
	switch {
	case errors.Is(err, fault.ErrSaturated):
		return app.Lib(err)
	case err != nil:
		r.Notes = append(r.Notes, "bounds: not computed: "+fault.Detail(err))
		return nil
	}
	r.Bounds = append(r.Bounds, set.Bounds...)
	for _, n := range set.Notes {
		r.Notes = append(r.Notes, "bounds: "+n)
	}
	return nil
}

// Distribution is --distribution STATION: P(n_k = j) at one copy of the station and ln G.
func Distribution(m *qn.Model, station string) (*DistributionResult, error) {
	k := slices.IndexFunc(m.Stations, func(s qn.Station) bool { return s.Name == station })
	if k < 0 {
		names := make([]string, len(m.Stations))
		for i, s := range m.Stations {
			names[i] = s.Name
		}
		return nil, app.Inputf("--distribution %q: no such station (the model has %s)", station, strings.Join(names, ", "))
	}
	p, err := qn.QueueLengthDistribution(m, k)
	if err != nil {
		return nil, app.Inputf("--distribution %s: %w", station, app.Lib(err))
	}
	lg, err := qn.NormalizingConstant(m)
	if err != nil {
		return nil, app.Inputf("--distribution %s: %w", station, app.Lib(err))
	}
	d := &DistributionResult{Station: station, LogNormalizingConstant: lg}
	cum := 0.0
	for j, pj := range p {
		cum += pj
		d.Probabilities = append(d.Probabilities, JobProbability{Jobs: j, Probability: pj, Cumulative: min(cum, 1)})
	}
	return d, nil
}
