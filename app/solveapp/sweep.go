package solveapp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/validate"
)

// runSweep solves every point of the sweep, then the fork/join points' error estimates and
// --validate. After Ctrl-C the points finished are the partial result, with the error.
func runSweep(ctx context.Context, q Request) (*Sweep, error) {
	in := q.Input
	m := in.Model
	p, vals, err := q.sweepParam()
	if err != nil {
		return nil, err
	}
	meas, err := q.measurements()
	if err != nil {
		return nil, err
	}
	opt := q.Options
	pts, err := qn.Sweep(ctx, m, p, vals, q.Solver, opt, q.progress("sweep"))
	stopped := err // fault.ErrInterrupted: the points finished before Ctrl-C are printed
	if err != nil && !errors.Is(err, fault.ErrInterrupted) {
		if opt.RequireExact && errors.Is(err, fault.ErrTooLarge) {
			return nil, app.Inputf("--exact: %w", err)
		}
		return nil, app.Lib(fmt.Errorf("%s: %w", q.sweepSource(), err))
	}
	done, err := finishSweep(ctx, q, p, pts, stopped)
	if err != nil {
		return nil, err
	}
	pts, stopped = done.pts, done.stopped
	out, err := q.sweepOutput(p, pts, done.checks, meas)
	if err != nil {
		return nil, err
	}
	if stopped != nil {
		out.Partial = true
		out.Notes = append(out.Notes, fmt.Sprintf("partial: interrupted after %d of the %d sweep points (the first ones%s); no plot or JMVA export written", len(pts), len(vals), done.skipped))
	}
	return out, stopped
}

// measurements reads Measured (nil without it).
func (q *Request) measurements() ([]SweepMeasurement, error) {
	if q.Measured == "" {
		return nil, nil
	}
	f, err := q.read(q.Measured)
	if err != nil {
		return nil, err
	}
	return ReadSweepMeasurements(q.Measured, bytes.NewReader(f), q.Input.Model)
}

// sweepOutput is the sweep's result value from its solved points pts, their validations
// checks (nil without --validate; one per point, nil where a point has no steady state)
// and the measurements meas; the account of its approximate points goes to the log. A
// sweep with no solved point is the finding ErrSaturated.
func (q *Request) sweepOutput(p qn.SweepParam, pts []qn.SweepPoint, checks []*validate.Report, meas []SweepMeasurement) (*Sweep, error) {
	m := q.Input.Model
	out := newSweep(m, p, q.Solver, pts)
	if out.solved == 0 {
		return nil, app.Finding(fault.ErrSaturated, fmt.Errorf("sweep of %s: no point of the sweep has a steady state (%s); nothing printed, no plot written", p.Label, out.Points[0].Finding))
	}
	out.Notes = append(out.Notes, q.Input.Notes...)
	out.all = q.All
	if meas != nil {
		var err error
		if out.Measured, err = CompareSweep(q.Measured, m, pts, meas); err != nil {
			return nil, err
		}
	}
	for k, c := range checks {
		if c != nil {
			out.Validation = append(out.Validation, SweepValidation{Value: pts[k].Value, Report: *c})
		} else if pts[k].Result != nil && pts[k].Err == nil {
			out.Notes = append(out.Notes, fmt.Sprintf("--validate: %s = %g not simulated: no jobs there (the zero convention: X = U = Q = 0)", p.Label, pts[k].Value))
		}
	}
	if d := out.describeApprox(); d != "" {
		q.log(d)
	}
	return out, nil
}

// sweepDone is a sweep's points after their fork/join error estimates and --validate
// simulations: all of them, or after Ctrl-C (stopped, wrapping fault.ErrInterrupted) the
// first ones finished by the step interrupted; the later steps are not run (skipped says
// which, for the partial note).
type sweepDone struct {
	pts     []qn.SweepPoint
	checks  []*validate.Report // one per point with --validate, else nil
	stopped error
	skipped string
}

// finishSweep runs the steps after solving the sweep's points pts (stopped: the solving's
// interruption, or nil): the fork/join points' error estimates, then --validate. Each step
// watches ctx; an interrupted step keeps the points it finished (the first ones) and the
// later steps are skipped. Nothing finished at all is the interruption error itself.
func finishSweep(ctx context.Context, q Request, p qn.SweepParam, pts []qn.SweepPoint, stopped error) (sweepDone, error) {
	m := q.Input.Model
	d := sweepDone{pts: pts, stopped: stopped}
	var later []string
	estimates := len(m.ForkJoins) > 0 && !q.Validate // with --validate its simulation gives them
	if estimates {
		later = append(later, "fork/join error estimates by simulation")
	}
	if q.Validate {
		later = append(later, "--validate simulations")
	}
	if stopped == nil && estimates {
		var k int
		k, d.stopped = estimateSweep(ctx, q, p, pts)
		d.pts, later = pts[:k], later[1:]
	}
	if d.stopped == nil && q.Validate {
		d.checks, d.stopped = validateSweep(ctx, q, p, d.pts)
		if d.stopped != nil && !errors.Is(d.stopped, fault.ErrInterrupted) {
			return d, d.stopped
		}
		d.pts, later = d.pts[:len(d.checks)], nil
	}
	if d.stopped != nil && len(d.pts) == 0 {
		return d, app.Lib(d.stopped)
	}
	if d.stopped != nil && len(later) > 0 {
		d.skipped = "; not run: " + strings.Join(later, ", ")
	}
	return d, nil
}

// validateSweep is a sweep with --validate: every point with a steady state is simulated
// (the same seed, replications and events, so replication r uses stream r of the seed at
// every point) and compared with its solution; checks[k] is point k's report (nil for a
// point without a steady state). A fork/join point's error estimate comes from the same
// simulation (estimateSweep is not run with --validate), so each point is simulated once.
// A simulation that fails fails the sweep, as --validate of one model does.
func validateSweep(ctx context.Context, q Request, p qn.SweepParam, pts []qn.SweepPoint) ([]*validate.Report, error) {
	m := q.Input.Model
	checks := make([]*validate.Report, 0, len(pts))
	progress := q.progress("validation by simulation")
	for k, pt := range pts {
		var check *validate.Report
		if mm := p.Apply(m, pt.Value); pt.Result != nil && pt.Err == nil && mm.HasJobs() {
			// one progress line for the points, not one per point's replications
			res, err := simapp.RunQN(ctx, nil, mm, quiet(q.Sim))
			if err != nil && ctx.Err() != nil {
				return checks, fmt.Errorf("%w: --validate at %s = %g, after %d of %d points: %w", fault.ErrInterrupted, p.Label, pt.Value, k, len(pts), ctx.Err())
			}
			if err != nil {
				return nil, fmt.Errorf("--validate at %s = %g: %w", p.Label, pt.Value, err)
			}
			check = simapp.QNReport(mm, q.Solver, pt.Result, nil, res, q.Sim.Seed)
			if r := pt.Result; len(mm.ForkJoins) > 0 && !r.Exact && r.ErrorEstimate == nil {
				ObservedEstimate(r, res, q.Sim.Seed) // the same simulation: a point is simulated once
			}
		}
		checks = append(checks, check)
		if progress != nil {
			progress(k+1, len(pts))
		}
	}
	return checks, nil
}

// estimateSweep gives every fork/join point its error estimate against a simulation of
// the model at that point (estimate): no exact solver can check them. It
// returns how many points (the first ones) are done: all of them, or after Ctrl-C fewer,
// with an error wrapping fault.ErrInterrupted.
func estimateSweep(ctx context.Context, q Request, p qn.SweepParam, pts []qn.SweepPoint) (int, error) {
	m := q.Input.Model
	if len(m.ForkJoins) == 0 {
		return len(pts), nil
	}
	progress := q.progress("fork/join error estimates by simulation")
	for i, pt := range pts {
		if r := pt.Result; r != nil && pt.Err == nil && !r.Exact && r.ErrorEstimate == nil {
			if err := estimate(ctx, q.Sim, p.Apply(m, pt.Value), r); err != nil {
				return i, fmt.Errorf("fork/join error estimate by simulation at %s = %g, after %d of %d points: %w", p.Label, pt.Value, i, len(pts), err)
			}
		}
		if progress != nil {
			progress(i+1, len(pts))
		}
	}
	return len(pts), nil
}

// sweepSource names what asked for the sweep in a refusal: the --sweep flag, or the .jmva
// file's what-if analysis (the user gave no --sweep).
func (q *Request) sweepSource() string {
	w := q.Input.WhatIf
	if q.Sweep != "" || q.Points != nil || w == nil {
		return "--sweep " + q.Sweep
	}
	return fmt.Sprintf("the JMVA file's what-if analysis (<whatIf type=%q>, %d values)", w.Type, len(w.Values))
}

// sweepParam is Points, Sweep, or else the .jmva file's what-if analysis.
func (q *Request) sweepParam() (qn.SweepParam, []float64, error) {
	if q.Points != nil {
		return q.Points.Param, q.Points.Values, nil
	}
	return SweepParam(q.Input, q.Sweep)
}

// SweepParam is the sweep flag's parameter and values, or with flag "" the .jmva file's
// what-if analysis.
func SweepParam(in *Input, flag string) (qn.SweepParam, []float64, error) {
	if flag == "" {
		p, vals, err := in.WhatIf.Sweep(in.Model)
		if err != nil {
			return p, nil, app.Inputf("what-if analysis of the JMVA file: %w", err)
		}
		return p, vals, nil
	}
	p, vals, err := app.ParseSweep(flag, in.Model)
	if err != nil {
		return p, nil, app.Input(err)
	}
	return p, vals, nil
}

// sweepDocument is the model with one JMVA solution per solved point, and the what-if
// analysis: the file's, or the sweep's when JMVA has the same analysis (one class's
// population, arrival rate or demand at one station).
func sweepDocument(in *Input, p qn.SweepParam, pts []qn.SweepPoint) *jmva.Document {
	m := in.Model
	d := &jmva.Document{Description: in.Description(), Model: m}
	if in.Doc != nil {
		d.Reference = in.Doc.Reference
	}
	w := &jmva.WhatIf{}
	if p.Class >= 0 && p.Class < len(m.Classes) {
		w.Class = m.Classes[p.Class].Name
	}
	switch {
	case w.Class != "" && p.What == "population":
		w.Type = "Customer Numbers"
	case w.Class != "" && p.What == "arrival_rate":
		w.Type = "Arrival Rates"
	case w.Class != "" && p.What == "demand":
		w.Type, w.Station = "Service Demands", m.Stations[p.Station].Name
	default:
		w = nil
	}
	for i, pt := range pts {
		if pt.Result == nil {
			continue
		}
		if w != nil {
			w.Values = append(w.Values, pt.Value)
		}
		s := jmva.SolutionOf(p.Apply(m, pt.Value), pt.Result)
		s.Method, s.Iteration, s.IterationValue = "analytical whatif", i, pt.Value
		d.Solutions = append(d.Solutions, s)
	}
	d.WhatIf = w
	if w == nil {
		d.Solutions = d.Solutions[:min(len(d.Solutions), 1)]
	}
	return d
}
