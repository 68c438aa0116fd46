package solveapp

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/validate"
)

// Studies on a cluster (studyapp): the replications of --validate of one model
// (replication k is sim.Simulator.Run(seed, k), as in the one-machine run), or the points of
// a sweep (point k solved, and simulated with --validate, from the model and its value
// alone). Merging the items gives what the one-machine run with the same seed gives.

// SweepItem is one point of a sharded sweep as its shard file holds it: the solution (or
// the saturation that leaves the point without one) and, with --validate, its validation.
// encoding/json writes the shortest decimal that reads back as the same float64, so the
// merged points are the one-machine run's bit for bit.
type SweepItem struct {
	Value      float64             `json:"value"`
	Result     *qn.Result          `json:"result,omitempty"`
	Saturation *qn.SaturationError `json:"saturation,omitempty"`
	Validation *validate.Report    `json:"validation,omitempty"`
}

// checkValidateStudy checks a --validate study of one model before any shard runs, as the
// one-machine run would refuse it (Distribution, the solver's refusals, the simulator's
// options and budget), and returns the simulator whose replication k is item k.
func checkValidateStudy(q Request) (*sim.Simulator, error) {
	switch {
	case !q.Validate:
		return nil, app.Inputf("--shard/--slurm split the replications of --validate or the points of --sweep; solving one model is not a study")
	case q.Measured != "":
		return nil, app.Inputf("--measured %s: the measurements are compared with a sweep: give --sweep (or a .jmva file with a what-if analysis)", q.Measured)
	}
	if q.Distribution != "" {
		if _, err := Distribution(q.Input.Model, q.Distribution); err != nil {
			return nil, err
		}
	}
	if q.Solver == "" {
		q.Solver = "auto"
	}
	if err := CheckSolves(q); err != nil {
		return nil, err
	}
	s, err := simapp.NewSimulator(q.Input.File, q.Input.Model, q.Sim)
	if err != nil {
		return nil, err
	}
	if err := s.CheckStudy(q.Sim.SimOptions()); err != nil {
		return nil, app.Lib(err)
	}
	return s, nil
}

// NewStudy is the study of a solve request (studyapp.Study): the points of a sweep
// (newSweepStudy; planned as there), or the replications of --validate of one model
// (checkValidateStudy), each refused as the one-machine run would refuse it.
func NewStudy(q Request, planned bool) (studyapp.Study, error) {
	if q.IsSweep() {
		return newSweepStudy(q, planned)
	}
	s, err := checkValidateStudy(q)
	if err != nil {
		return nil, err
	}
	q.Progress = nil
	return &validateStudy{q: q, s: s}, nil
}

// validateStudy is a --validate study of one model: item k is replication k of the
// simulator s, from the seed and k alone; the items merge by mergeValidate.
type validateStudy struct {
	q Request
	s *sim.Simulator
}

func (v *validateStudy) Items() int   { return v.q.Sim.Reps }
func (v *validateStudy) Seed() uint64 { return v.q.Sim.Seed }

// Work simulates replication k (sim.Simulator.Run), as the one-machine run does.
func (v *validateStudy) Work(shard.Range) studyapp.Work {
	return func(k int) (json.RawMessage, error) {
		r, err := v.s.Run(v.q.Sim.Seed, uint64(k))
		if err != nil {
			return nil, app.Lib(err)
		}
		return json.Marshal(r)
	}
}

func (v *validateStudy) Merge(items []json.RawMessage) (any, error) { return mergeValidate(v.q, items) }

// sweepStudy is a sweep whose points are a study's items (point k is item k).
type sweepStudy struct {
	q     Request
	merge Request // the request as given: its Log receives the merge's account
	p     qn.SweepParam
	vals  []float64
}

// newSweepStudy parses the request's sweep (planned: the plan in the study directory is of
// this very command line, so an older version's FROM:TO:N form reads as it did then,
// PlanSweepParam) and reads its measurements, refusing what the one-machine run refuses.
func newSweepStudy(q Request, planned bool) (*sweepStudy, error) {
	if q.Solver == "" {
		q.Solver = "auto"
	}
	p, vals, err := SweepParam(q.Input, q.Sweep)
	if _, legacy := LegacySweep(q.Sweep); legacy && err != nil && planned {
		p, vals, err = PlanSweepParam(q.Input, q.Sweep) // a shard of an older version's study
	}
	if err != nil {
		return nil, err
	}
	if _, err := q.measurements(); err != nil {
		return nil, err
	}
	merge := q
	merge.Progress = nil
	q.Progress, q.Log, q.Sim = nil, nil, quiet(q.Sim)
	return &sweepStudy{q: q, merge: merge, p: p, vals: vals}, nil
}

// Items is the number of points.
func (s *sweepStudy) Items() int { return len(s.vals) }

// Seed is the seed of the points' simulations (--validate, fork/join error estimates).
func (s *sweepStudy) Seed() uint64 { return s.q.Sim.Seed }

// Merge is the one-machine sweep from the points of every shard (mergeSweep).
func (s *sweepStudy) Merge(items []json.RawMessage) (any, error) { return mergeSweep(s.merge, items) }

// Work computes the items of the range r: the range's points are solved together when its
// first item is asked for, so qn.Sweep applies the sweep's work budget to the shard as the
// one-machine run applies it to the whole sweep (each point is solved on its own either
// way); fork/join points get their simulated error estimates, and with --validate each
// point is simulated and compared.
func (s *sweepStudy) Work(r shard.Range) studyapp.Work {
	var pts []qn.SweepPoint
	return func(k int) (json.RawMessage, error) {
		if pts == nil {
			var err error
			if pts, err = s.solveRange(s.vals[r.Lo:r.Hi]); err != nil {
				return nil, err
			}
		}
		return s.item(pts[k-r.Lo])
	}
}

// solveRange solves the sweep at vals as the one-machine run solves the whole sweep
// (qn.Sweep, its budget and errors; fork/join points' simulated error estimates).
func (s *sweepStudy) solveRange(vals []float64) ([]qn.SweepPoint, error) {
	opt, q := s.q.Options, s.q
	pts, err := qn.Sweep(context.Background(), q.Input.Model, s.p, vals, q.Solver, opt, nil)
	if err != nil {
		if opt.RequireExact && errors.Is(err, fault.ErrTooLarge) {
			return nil, app.Inputf("--exact: %w", err)
		}
		return nil, app.Lib(err)
	}
	if !q.Validate { // with --validate, item's simulation gives the estimates
		_, _ = estimateSweep(context.Background(), q, s.p, pts) // the study stops between items
	}
	return pts, nil
}

// item is one solved point as a shard item, simulated with --validate: what the
// one-machine sweep computes for that point.
func (s *sweepStudy) item(pt qn.SweepPoint) (json.RawMessage, error) {
	it := SweepItem{Value: pt.Value, Result: pt.Result}
	if pt.Err != nil && !errors.As(pt.Err, &it.Saturation) {
		return nil, app.Lib(pt.Err)
	}
	if s.q.Validate {
		checks, err := validateSweep(context.Background(), s.q, s.p, []qn.SweepPoint{pt}) // the study stops between items
		if err != nil {
			return nil, err
		}
		it.Validation = checks[0]
	}
	return json.Marshal(it)
}

// mergeValidate is the one-machine result of a --validate study of one model from its
// items, one replication each (checked: studyapp.SummariseReps).
func mergeValidate(q Request, items []json.RawMessage) (*Solution, error) {
	if q.Solver == "" {
		q.Solver = "auto"
	}
	s, err := simapp.NewSimulator(q.Input.File, q.Input.Model, q.Sim)
	if err != nil {
		return nil, err
	}
	if q.Simulated, err = studyapp.SummariseReps(s, items, q.Input.Model); err != nil {
		return nil, err
	}
	out, _, err := solveOne(context.Background(), q) // Simulated given: nothing to simulate
	return out, err
}

// mergeSweep rebuilds the sweep's points from its items (each checked against the model at
// its value) and makes the one-machine result.
func mergeSweep(q Request, items []json.RawMessage) (*Sweep, error) {
	if q.Solver == "" {
		q.Solver = "auto"
	}
	p, vals, err := PlanSweepParam(q.Input, q.Sweep)
	if err != nil {
		return nil, err
	}
	if len(vals) != len(items) {
		return nil, app.Inputf("the study has %d points; its arguments sweep %d", len(items), len(vals))
	}
	meas, err := q.measurements()
	if err != nil {
		return nil, err
	}
	pts := make([]qn.SweepPoint, len(items))
	var checks []*validate.Report
	if q.Validate {
		checks = make([]*validate.Report, len(items))
	}
	for k, raw := range items {
		var it SweepItem
		if err := studyapp.DecodeItem(k, raw, &it); err != nil {
			return nil, err
		}
		if math.Float64bits(it.Value) != math.Float64bits(vals[k]) {
			return nil, app.Inputf("point %d holds the value %g, the sweep's point %d is %g", k, it.Value, k, vals[k])
		}
		if err := checkSweepItem(k, it, p.Apply(q.Input.Model, vals[k]), q.Options, q.Validate); err != nil {
			return nil, err
		}
		pts[k] = qn.SweepPoint{Value: it.Value, Result: it.Result}
		if it.Saturation != nil {
			pts[k].Err = it.Saturation
		}
		if checks != nil {
			checks[k] = it.Validation
		}
	}
	return q.sweepOutput(p, pts, checks, meas)
}

// checkSweepItem checks point k of a sweep as its shard file holds it, m being the model at
// that point (SweepParam.Apply) solved with opt: a result or a saturation (not both, not
// neither), with --validate its validation.
func checkSweepItem(k int, it SweepItem, m *qn.Model, opt qn.AMVAOptions, validated bool) error {
	switch {
	case it.Result == nil && it.Saturation == nil:
		return studyapp.BadItem(k, "neither a result nor a saturation; want one of them")
	case it.Result != nil && it.Saturation != nil:
		return studyapp.BadItem(k, "both a result and a saturation; want one of them")
	case validated && it.Validation == nil:
		return studyapp.BadItem(k, "no validation; the study ran --validate")
	case !validated && it.Validation != nil:
		return studyapp.BadItem(k, "a validation; the study did not run --validate")
	}
	if it.Result != nil {
		if err := studyapp.CheckQNResult(it.Result, m, opt); err != nil {
			return studyapp.BadItem(k, "result: %v", err)
		}
	}
	if it.Saturation != nil {
		if err := validate.CheckSaturation(it.Saturation, m); err != nil {
			return studyapp.BadItem(k, "%v", err)
		}
	}
	if it.Validation != nil {
		if err := it.Validation.CheckQN(m); err != nil {
			return studyapp.BadItem(k, "validation: %v", err)
		}
	}
	return nil
}

// LegacySweep reads a --sweep value in the form versions before the nN spelling wrote into
// their plans: a real range (demand, arrival_rate) FROM:TO:N with a bare whole number N,
// which then meant N evenly spaced values and is now refused as ambiguous (app.ParseSweep).
// It returns the value with N spelt nN, and whether v had that form.
func LegacySweep(v string) (string, bool) {
	lhs, rng, ok := strings.Cut(v, "=")
	f := strings.Split(rng, ":")
	if !ok || len(f) != 3 || !(strings.HasPrefix(lhs, "demand.") || lhs == "arrival_rate" || strings.HasPrefix(lhs, "arrival_rate.")) {
		return v, false
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
	if err != nil || n != math.Trunc(n) || n < 0 {
		return v, false
	}
	return lhs + "=" + f[0] + ":" + f[1] + ":n" + strings.TrimSpace(f[2]), true
}

// PlanSweepParam is SweepParam for a sweep read from a study's plan (merge, and a shard of
// an existing plan). A plan is data an earlier clusterperf wrote, and this version never
// writes the bare FROM:TO:N form (it refuses it before planning), so in a plan that form
// can only mean what it meant then: N evenly spaced values, computed exactly as that
// version did, FROM + (TO − FROM)·i/(N − 1) with no clamping of the last value to TO, so
// the values match its shards' bit for bit.
func PlanSweepParam(in *Input, flag string) (qn.SweepParam, []float64, error) {
	nForm, legacy := LegacySweep(flag)
	if !legacy {
		return SweepParam(in, flag)
	}
	p, vals, err := SweepParam(in, nForm)
	if err != nil {
		return p, nil, err
	}
	lhs, rng, _ := strings.Cut(flag, "=")
	f := strings.Split(rng, ":")
	_, end, err := SweepParam(in, lhs+"="+f[1]+":"+f[1]) // TO in the field's base unit
	if err != nil {
		return p, nil, err
	}
	nf, _ := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
	n := int(nf) // a whole number in 2 … qn.MaxSweepPoints: the nN form parsed
	a, b := vals[0], end[0]
	vals = make([]float64, n) // N values even when FROM = TO, as then
	for i := range vals {
		vals[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return p, vals, nil
}
