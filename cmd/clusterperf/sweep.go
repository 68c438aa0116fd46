package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/validate"
)

func runSweep(ctx context.Context, in *solveInput, o solveOptions, opt qn.AMVAOptions, stdout, stderr io.Writer) error {
	m := in.model
	p, vals, err := sweepParam(in, o.sweep)
	if err != nil {
		return err
	}
	meas, err := sweepMeasurements(m, o, readInput)
	if err != nil {
		return err
	}
	pts, err := qn.SweepContext(ctx, m, p, vals, o.solver, opt, progressFunc(o.progress, "sweep"))
	stopped := err // fault.ErrInterrupted: the points finished before Ctrl-C are printed
	if err != nil && !errors.Is(err, fault.ErrInterrupted) {
		if opt.RequireExact && errors.Is(err, fault.ErrTooLarge) {
			return badInputf("--exact: %w", err)
		}
		return libError(fmt.Errorf("%s: %w", sweepSource(in, o), err))
	}
	o.sim.progress = o.progress
	done, err := finishSweep(ctx, m, p, pts, stopped, o)
	if err != nil {
		return err
	}
	pts, stopped = done.pts, done.stopped
	out, err := sweepOutput(in, o, p, pts, done.checks, meas, stderr)
	if err != nil {
		return err
	}
	if stopped != nil {
		clearProgress()
		out.Partial = true
		out.Notes = append(out.Notes, fmt.Sprintf("partial: interrupted after %d of the %d sweep points (the first ones%s); no plot or JMVA export written", len(pts), len(vals), done.skipped))
	}
	out.forFormat(o.out.format)
	if o.exportJMVA != "" && stopped == nil {
		out.Notes = append(out.Notes, jmva.ExportNotes(o.exportJMVA, in.model)...)
	}
	if err := render(stdout, out, o.out); err != nil || stopped != nil {
		return cmp.Or(err, stopped)
	}
	if o.plot = o.out.plotFile(o.plot); o.plot != "" {
		if err := sweepPlot(o.plot, out); err != nil {
			return err
		}
	}
	if o.exportJMVA != "" {
		return exportJMVA(o.exportJMVA, sweepDocument(in, p, pts))
	}
	return nil
}

// sweepMeasurements reads --measured (nil without it) with read.
func sweepMeasurements(m *qn.Model, o solveOptions, read func(string) ([]byte, error)) ([]qn.SweepMeasurement, error) {
	if o.measured == "" {
		return nil, nil
	}
	f, err := read(o.measured)
	if err != nil {
		return nil, err
	}
	return qn.ReadSweepMeasurements(o.measured, bytes.NewReader(f), m)
}

// sweepOutput is the sweep's result value from its solved points pts, their validations
// checks (nil without --validate; one per point, nil where a point has no steady state)
// and the measurements meas; the account of its approximate points goes to stderr. A
// sweep with no solved point is the finding ErrSaturated.
func sweepOutput(in *solveInput, o solveOptions, p qn.SweepParam, pts []qn.SweepPoint, checks []*validate.Report, meas []qn.SweepMeasurement, stderr io.Writer) (*sweepRes, error) {
	m := in.model
	out := newSweepResult(m, p, o.solver, pts)
	if out.solved == 0 {
		return nil, finding(fault.ErrSaturated, fmt.Errorf("sweep of %s: no point of the sweep has a steady state (%s); nothing printed, no plot written", p.Label, out.Points[0].Finding))
	}
	out.Notes = append(out.Notes, in.notes...)
	out.all = o.all
	if meas != nil {
		var err error
		if out.Measured, err = qn.CompareSweep(o.measured, m, pts, meas); err != nil {
			return nil, err
		}
	}
	for k, c := range checks {
		if c != nil {
			out.Validation = append(out.Validation, sweepValidation{Value: pts[k].Value, Report: *c})
		} else if pts[k].Result != nil && pts[k].Err == nil {
			out.Notes = append(out.Notes, fmt.Sprintf("--validate: %s = %g not simulated: no jobs there (the zero convention: X = U = Q = 0)", p.Label, pts[k].Value))
		}
	}
	if d := out.describeApprox(); d != "" {
		fmt.Fprintf(stderr, "clusterperf solve: %s\n", d)
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
func finishSweep(ctx context.Context, m *qn.Model, p qn.SweepParam, pts []qn.SweepPoint, stopped error, o solveOptions) (sweepDone, error) {
	d := sweepDone{pts: pts, stopped: stopped}
	var later []string
	estimates := len(m.ForkJoins) > 0 && !o.validate // with --validate its simulation gives them
	if estimates {
		later = append(later, "fork/join error estimates by simulation")
	}
	if o.validate {
		later = append(later, "--validate simulations")
	}
	if stopped == nil && estimates {
		var k int
		k, d.stopped = estimateSweep(ctx, m, p, pts, o.sim)
		d.pts, later = pts[:k], later[1:]
	}
	if d.stopped == nil && o.validate {
		d.checks, d.stopped = validateSweep(ctx, m, p, d.pts, o)
		if d.stopped != nil && !errors.Is(d.stopped, fault.ErrInterrupted) {
			return d, d.stopped
		}
		d.pts, later = d.pts[:len(d.checks)], nil
	}
	if d.stopped != nil && len(d.pts) == 0 {
		return d, libError(d.stopped)
	}
	if d.stopped != nil && len(later) > 0 {
		d.skipped = "; not run: " + strings.Join(later, ", ")
	}
	return d, nil
}

// validateSweep is --sweep with --validate: every point with a steady state is simulated
// (the flags' seed, replications and events, so replication r uses stream r of the seed at
// every point) and compared with its solution; checks[k] is point k's report (nil for a
// point without a steady state). A fork/join point's error estimate comes from the same
// simulation (estimateSweep is not run with --validate), so each point is simulated once.
// A simulation that fails fails the sweep, as --validate of one model does.
func validateSweep(ctx context.Context, m *qn.Model, p qn.SweepParam, pts []qn.SweepPoint, o solveOptions) ([]*validate.Report, error) {
	checks := make([]*validate.Report, 0, len(pts))
	progress := progressFunc(o.progress, "validation by simulation")
	so := o.sim
	so.progress = false // one progress line for the points, not one per point's replications
	for k, pt := range pts {
		var check *validate.Report
		if mm := p.Apply(m, pt.Value); pt.Result != nil && pt.Err == nil && mm.HasJobs() {
			res, err := simulateQNRun(ctx, nil, mm, so)
			if err != nil && ctx.Err() != nil {
				return checks, fmt.Errorf("%w: --validate at %s = %g, after %d of %d points: %w", fault.ErrInterrupted, p.Label, pt.Value, k, len(pts), ctx.Err())
			}
			if err != nil {
				return nil, fmt.Errorf("--validate at %s = %g: %w", p.Label, pt.Value, err)
			}
			check = qnReport(mm, o.solver, pt.Result, nil, res, so.seed)
			if r := pt.Result; len(mm.ForkJoins) > 0 && !r.Exact && r.ErrorEstimate == nil {
				observedEstimate(r, res, so.seed) // the same simulation: a point is simulated once
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
// the model at that point (see simulatedEstimate): no exact solver can check them. It
// returns how many points (the first ones) are done: all of them, or after Ctrl-C fewer,
// with an error wrapping fault.ErrInterrupted.
func estimateSweep(ctx context.Context, m *qn.Model, p qn.SweepParam, pts []qn.SweepPoint, o simOptions) (int, error) {
	if len(m.ForkJoins) == 0 {
		return len(pts), nil
	}
	progress := progressFunc(o.progress, "fork/join error estimates by simulation")
	for i, pt := range pts {
		if r := pt.Result; r != nil && pt.Err == nil && !r.Exact && r.ErrorEstimate == nil {
			if err := simulatedEstimateContext(ctx, p.Apply(m, pt.Value), r, o); err != nil {
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
func sweepSource(in *solveInput, o solveOptions) string {
	if o.sweep != "" || in.whatIf == nil {
		return "--sweep " + o.sweep
	}
	return fmt.Sprintf("the JMVA file's what-if analysis (<whatIf type=%q>, %d values)", in.whatIf.Type, len(in.whatIf.Values))
}

// sweepParam is --sweep, or else the .jmva file's what-if analysis.
func sweepParam(in *solveInput, flag string) (qn.SweepParam, []float64, error) {
	if flag == "" {
		p, vals, err := in.whatIf.Sweep(in.model)
		if err != nil {
			return p, nil, badInputf("what-if analysis of the JMVA file: %w", err)
		}
		return p, vals, nil
	}
	p, vals, err := qn.ParseSweep(flag, in.model)
	if err != nil {
		return p, nil, badInput(err)
	}
	return p, vals, nil
}

// sweepDocument is the model with one JMVA solution per solved point, and the what-if
// analysis: the file's, or the sweep's when JMVA has the same analysis (one class's
// population, arrival rate or demand at one station).
func sweepDocument(in *solveInput, p qn.SweepParam, pts []qn.SweepPoint) *jmva.Document {
	m := in.model
	d := &jmva.Document{Description: in.description(), Model: m}
	if in.doc != nil {
		d.Reference = in.doc.Reference
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

// sweepResult is solve --sweep's result value. Method lists the methods of the solved
// points; Exact is true when every solved point is exact.
type sweepResult struct {
	report.Answered
	Parameter string       `json:"parameter"`
	Solver    string       `json:"solver"`
	Method    string       `json:"method"`
	Exact     bool         `json:"exact"`
	Classes   []string     `json:"classes"`
	Points    []sweepPoint `json:"points"`
	// Partial is true when the sweep was interrupted (Ctrl-C): Points are the first ones
	// solved, a note says how many; the command exits 130.
	Partial bool `json:"partial,omitempty"`
	// Measured are the --measured points beside the model's values, with rel_error.
	Measured []qn.SweepComparison `json:"measured,omitempty"`
	// Validation (--validate) is each solved point against its simulation.
	Validation []sweepValidation `json:"validation,omitempty"`
	Notes      []string          `json:"notes"`
}

// sweepValidation is one swept value's validation report (validate.Report's fields).
type sweepValidation struct {
	Value float64 `json:"value"`
	validate.Report
}

// sweepPoint is one swept value: the class results and how they were obtained (status:
// method, exact, an approximation's error estimate), and every bound that applies there.
type sweepPoint struct {
	Value   float64      `json:"value"`
	Classes []sweepClass `json:"classes,omitempty"`
	// Stations: each station's utilization and queue length at the point (one copy,
	// summed over classes), so the table, JSON and CSV show which station saturates.
	Stations []sweepStation `json:"stations,omitempty"`
	Bounds   []qn.Bound     `json:"bounds"`
	Finding  string         `json:"finding,omitempty"` // e.g. a saturated station: no steady state here
	Status   *sweepStatus   `json:"status,omitempty"`
	// Notes are the point's own solver notes (qn.Result.Notes: e.g. an approximation
	// infeasible at a station, U > 1); the table lists them once with the values they
	// apply to (NoteLines), the CSV in the row's note cell.
	Notes []string `json:"notes,omitempty"`
}

type sweepClass struct {
	Name         string  `json:"name"`
	Throughput   float64 `json:"throughput_per_s"`
	ResponseTime float64 `json:"response_time_s"`
}

// sweepStation is one station at a swept value: utilization per server and mean queue
// length of one copy, summed over classes (qn.Result.StationUtilization, StationQueueLength).
type sweepStation struct {
	Name        string  `json:"name"`
	Utilization float64 `json:"utilization"`
	QueueLength float64 `json:"queue_length"`
}

type sweepStatus struct {
	Solver        string            `json:"solver"`
	Method        string            `json:"method"`
	Exact         bool              `json:"exact"`
	Reason        string            `json:"reason,omitempty"`
	ErrorEstimate *qn.ErrorEstimate `json:"error_estimate,omitempty"`
	Converged     bool              `json:"converged"`
	Iterations    int               `json:"iterations"`
	Residual      float64           `json:"residual"`
}

// sweepRes is the sweep's result with what the renderers need besides the JSON value.
type sweepRes struct {
	sweepResult
	solved int
	// compact: the table format without --all — columns empty at every point are left
	// out of the sweep table and the bounds table shows the first and last swept value
	// only (JSON and CSV keep every column and row).
	compact bool
	all     bool // --all: compact never applies
	text    bool // the table format: a point's notes are listed below the table
}

// forFormat sets what depends on the output format: compact tables unless --all.
func (r *sweepRes) forFormat(format string) {
	r.compact, r.text = format == "table" && !r.all, format == "table"
}

// plot draws the sweep to path (SVG or PNG): merge --plot of a sharded sweep.
func (r *sweepRes) plot(path string) error { return sweepPlot(path, r) }

func newSweepResult(m *qn.Model, p qn.SweepParam, solver string, pts []qn.SweepPoint) *sweepRes {
	out := &sweepRes{sweepResult: sweepResult{Parameter: p.Label, Solver: solver, Exact: true, Notes: []string{}}}
	for _, c := range m.Classes {
		out.Classes = append(out.Classes, c.Name)
	}
	unconverged, boundNotes := 0, map[string]bool{}
	var methods []string
	for _, pt := range pts {
		sp := sweepPoint{Value: pt.Value, Bounds: pointBounds(p.Apply(m, pt.Value), boundNotes)}
		var sat *qn.SaturationError
		switch {
		case errors.As(pt.Err, &sat):
			sp.Finding = sat.Error()
		case pt.Err != nil:
			sp.Finding = pt.Err.Error()
		case pt.Result != nil:
			r := pt.Result
			for c, name := range out.Classes {
				sp.Classes = append(sp.Classes, sweepClass{name, r.Throughput[c], r.ResponseTime[c]})
			}
			for k, st := range m.Stations {
				sp.Stations = append(sp.Stations, sweepStation{st.Name, r.StationUtilization(k), r.StationQueueLength(k)})
			}
			sp.Status = &sweepStatus{r.Solver, r.Method, r.Exact, r.Reason, r.ErrorEstimate, r.Status.Converged, r.Status.Iterations, r.Status.Residual}
			sp.Notes = slices.Clone(r.Notes)
			out.Exact = out.Exact && r.Exact
			if !slices.Contains(methods, r.Method) {
				methods = append(methods, r.Method)
			}
			if r.Status.Converged {
				out.solved++
			} else {
				unconverged++
			}
		}
		out.Points = append(out.Points, sp)
	}
	out.Method = strings.Join(methods, ", ")
	out.Answer = answer.Sweep(m, p, pts)
	if unconverged > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d points did not converge (status.converged false): their values are the last iterate", unconverged))
	}
	out.Notes = append(out.Notes, sortedNotes(boundNotes)...)
	return out
}

// pointBounds is every bound that applies at one point; why others do not goes to notes.
func pointBounds(m *qn.Model, notes map[string]bool) []qn.Bound {
	set, err := qn.AllBounds(m)
	if err != nil {
		notes["bounds: not computed: "+err.Error()] = true
		return []qn.Bound{}
	}
	for _, n := range set.Notes {
		notes["bounds: "+n] = true
	}
	return append([]qn.Bound{}, set.Bounds...)
}

func sortedNotes(set map[string]bool) []string {
	var ks []string
	for k := range set {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// describeApprox is the account of the sweep's approximate points for stderr ("" when
// every point is exact): how many, the method, the largest estimated error.
func (r *sweepRes) describeApprox() string {
	n, worst := 0, -1
	worstErr := -1.0
	for i, pt := range r.Points {
		if pt.Status == nil || pt.Status.Exact {
			continue
		}
		n++
		e := 0.0
		if pt.Status.ErrorEstimate != nil {
			e = pt.Status.ErrorEstimate.RelError
		}
		if worst < 0 || e > worstErr {
			worst, worstErr = i, e
		}
	}
	if n == 0 {
		return ""
	}
	s := r.Points[worst].Status
	res := qn.Result{Method: s.Method, Exact: s.Exact, Reason: s.Reason, ErrorEstimate: s.ErrorEstimate}
	return fmt.Sprintf("%d of %d points APPROXIMATE; the largest estimated error at %s = %.6g: %s", n, len(r.Points), r.Parameter, r.Points[worst].Value, res.Describe())
}

// NoteLines are the sweep's notes, then the validated points' (JSON: each point's own), a
// note once with the values it applies to, in order of first appearance.
func (r *sweepRes) NoteLines() []string {
	lines := slices.Clone(r.Notes)
	var pts, vals []pointNotes
	for _, p := range r.Points {
		pts = append(pts, pointNotes{p.Value, p.Notes})
	}
	for _, v := range r.Validation {
		vals = append(vals, pointNotes{v.Value, v.Notes})
	}
	lines = append(lines, r.groupNotes("", pts)...)
	return append(lines, r.groupNotes("validation ", vals)...)
}

// pointNotes are the notes of one swept value.
type pointNotes struct {
	value float64
	notes []string
}

// maxPointNotes is how many distinct per-point notes the table lists (the rest: JSON).
const maxPointNotes = 10

// groupNotes is each distinct note of pts once, prefixed "<prefix>at <parameter> = v1, v2:"
// (or "at every point"), in order of first appearance; beyond maxPointNotes distinct notes
// one line says how many more there are and where.
func (r *sweepRes) groupNotes(prefix string, pts []pointNotes) []string {
	var order []string
	at := map[string][]string{}
	for _, p := range pts {
		for _, n := range p.notes {
			if at[n] == nil {
				order = append(order, n)
			}
			at[n] = append(at[n], report.Num(p.value))
		}
	}
	var lines []string
	for i, n := range order {
		if i == maxPointNotes {
			lines = append(lines, fmt.Sprintf("%s… and %d more notes of single points (each point's \"notes\" in --format json)", prefix, len(order)-i))
			break
		}
		where := fmt.Sprintf("at %s = %s", r.Parameter, strings.Join(at[n], ", "))
		if len(at[n]) == len(pts) && len(at[n]) > 1 {
			where = "at every point"
		}
		lines = append(lines, prefix+where+": "+n)
	}
	return lines
}

// Tables: the "sweep" table (a row per swept value, with its method and estimated error)
// and the "sweep_bounds" table (a row per value and bound).
func (r *sweepRes) Tables() []*report.Table {
	t := &report.Table{Name: "sweep", Title: fmt.Sprintf("Sweep of %s (solver %s; method %s; exact %v)", r.Parameter, r.Solver, r.Method, r.Exact), Header: []string{"value"}}
	for _, c := range r.Classes {
		t.Header = append(t.Header, "throughput_per_s_"+c, "response_time_s_"+c)
	}
	t.Header = append(t.Header, "method", "exact", "est_rel_error", "note")
	// value, bound and class identify a row: every column block repeats them
	bt := &report.Table{Name: "sweep_bounds", Title: "Bounds at each swept value", Header: append([]string{"value"}, app.BoundsHeader()...), Keys: 3}
	st := &report.Table{Name: "sweep_stations", Title: "Stations at each swept value (one copy, all classes)", Header: []string{"value", "station", "utilization", "queue_length"}, Keys: 2}
	for _, pt := range r.Points {
		for _, s := range pt.Stations {
			st.Add(pt.Value, s.Name, s.Utilization, s.QueueLength)
		}
		row := []any{pt.Value}
		for c := range r.Classes {
			if pt.Classes == nil {
				row = append(row, "", "")
				continue
			}
			row = append(row, pt.Classes[c].Throughput, pt.Classes[c].ResponseTime)
		}
		var method, exact, est any = "", "", ""
		if s := pt.Status; s != nil {
			method, exact = s.Method, fmt.Sprint(s.Exact)
			if s.ErrorEstimate != nil {
				est = report.Percent(s.ErrorEstimate.RelError)
			}
		}
		note := pt.Finding
		if pt.Status != nil && !pt.Status.Converged {
			note = "not converged"
		}
		if len(pt.Notes) > 0 {
			// the table lists the point's notes below it (NoteLines); the CSV cell has them
			text := strings.Join(pt.Notes, "; ")
			if r.text {
				text = "see notes"
			}
			note = strings.TrimPrefix(note+"; "+text, "; ")
		}
		t.Add(append(row, method, exact, est, note)...)
		for _, b := range pt.Bounds {
			bt.Add(append([]any{pt.Value}, app.BoundRow(b)...)...)
		}
	}
	if r.compact {
		t, bt = dropEmptyColumns(t), r.compactBounds(bt)
	}
	return []*report.Table{t, st, bt, r.measuredTable(), r.validationTable()}
}

// validationTable is the "validation" table: the columns of app.ValidationTable after
// the swept value, a row per quantity of every validated point.
func (r *sweepRes) validationTable() *report.Table {
	t := &report.Table{Name: "validation", Title: "Validation of every solved point by simulation",
		Header: []string{"value", "quantity", "unit", "analytic", "simulated", "half_width_95", "inside", "rel_error"}}
	for i, v := range r.Validation {
		if i == 0 {
			t.Title = fmt.Sprintf("Validation of every solved point by simulation (%d replications, seed %d; each point's method and events in JSON \"validation\")", v.Simulation.Replications, v.Simulation.Seed)
		}
		for _, row := range v.Rows {
			var a, in, e any = "", "", ""
			if row.Analytic != nil {
				a, in = *row.Analytic, fmt.Sprint(*row.Inside)
			}
			if row.RelError != nil {
				e = report.Percent(*row.RelError)
			}
			t.Add(v.Value, row.Quantity, row.Unit, a, row.Simulated, row.HalfWidth, in, e)
		}
	}
	return t
}

// dropEmptyColumns is t without the columns that are empty in every row (text form: the
// table format only, so the full-precision CSV cells are not needed).
func dropEmptyColumns(t *report.Table) *report.Table {
	var keep []int
	for j := range t.Header {
		if j == 0 || slices.ContainsFunc(t.Rows, func(row []string) bool { return j < len(row) && row[j] != "" }) {
			keep = append(keep, j)
		}
	}
	if len(keep) == len(t.Header) {
		return t
	}
	out := &report.Table{Name: t.Name, Title: t.Title, Keys: t.Keys}
	for _, j := range keep {
		out.Header = append(out.Header, t.Header[j])
	}
	for _, row := range t.Rows {
		cells := make([]any, 0, len(keep))
		for _, j := range keep {
			cells = append(cells, row[j])
		}
		out.Add(cells...)
	}
	return out
}

// compactBounds is the bounds table's rows at the first and the last swept value (table
// format only), its title saying how many rows there are in all and how to see them.
func (r *sweepRes) compactBounds(bt *report.Table) *report.Table {
	if len(r.Points) <= 2 || len(bt.Rows) == 0 {
		return bt
	}
	first, last := bt.Rows[0][0], bt.Rows[len(bt.Rows)-1][0]
	out := &report.Table{Name: bt.Name, Header: bt.Header, Keys: bt.Keys,
		Title: fmt.Sprintf("Bounds at the first and last swept value (%d rows at %d values in all: --all, --format json, or --format csv --csv-table sweep_bounds for every value)", len(bt.Rows), len(r.Points))}
	for _, row := range bt.Rows {
		if row[0] == first || row[0] == last {
			cells := make([]any, len(row))
			for i, c := range row {
				cells[i] = c
			}
			out.Add(cells...)
		}
	}
	return out
}

// measuredTable is the "measured" table: each measurement beside the model's value.
func (r *sweepRes) measuredTable() *report.Table {
	t := &report.Table{Name: "measured", Keys: 2, Title: "Measured points against the model (rel_error = (model − measured)/measured)",
		Header: []string{"value", "class", "line", "measured_throughput_per_s", "model_throughput_per_s", "throughput_rel_error", "measured_response_time_s", "model_response_time_s", "response_time_rel_error"}}
	pct := func(p *float64) any {
		if p == nil {
			return report.Percent(math.NaN())
		}
		return report.Percent(*p)
	}
	for _, c := range r.Measured {
		t.Add(c.Value, c.Class, c.Line, optNum(c.MeasuredThroughput), optNum(c.ModelThroughput), pct(c.ThroughputRelError),
			optNum(c.MeasuredResponseTime), optNum(c.ModelResponseTime), pct(c.ResponseTimeRelError))
	}
	return t
}

func sweepPlot(path string, r *sweepRes) error {
	xp := report.Panel{Title: "Throughput", XLabel: r.Parameter, YLabel: "jobs/s"}
	rp := report.Panel{Title: "Response time", XLabel: r.Parameter, YLabel: "s"}
	for c, name := range r.Classes {
		// every series its own colour (issue 29: one blue for all read as one curve); a
		// class's measurements share its curve's colour (Group)
		xs, rs := report.Series{Name: "X " + name, Group: name}, report.Series{Name: "R " + name, Group: name}
		for _, pt := range r.Points {
			if pt.Classes != nil {
				xs.X, xs.Y = append(xs.X, pt.Value), append(xs.Y, pt.Classes[c].Throughput)
				rs.X, rs.Y = append(rs.X, pt.Value), append(rs.Y, pt.Classes[c].ResponseTime)
			}
		}
		xp.Series, rp.Series = append(xp.Series, xs), append(rp.Series, rs)
	}
	mx, mr := measuredSeries(r)
	xp.Series, rp.Series = append(xp.Series, mx...), append(rp.Series, mr...)
	bx, br := boundSeries(r)
	xp.Series, rp.Series = append(xp.Series, bx...), append(rp.Series, br...)
	if f, ok := r.Answer.Fact("saturation_population"); ok && f.Value != nil && r.Parameter == "population" {
		m := report.Mark{X: *f.Value, Label: "N* = " + report.Num(*f.Value)}
		xp.Marks, rp.Marks = []report.Mark{m}, []report.Mark{m}
	}
	return report.SaveFigure(path, xp, rp)
}

// boundSeries are the bound lines: per bound name, class and side (lower, upper) one line
// for throughput and one for response time, each with its own colour and legend entry
// "<name> upper|lower bound[ (class)]" and one dash pattern per bound name; they do not
// stretch the y axis (Clip: an 18 s bound would squash a 0.1–4 s curve), so a bound
// beyond the frame is cut there and marked with a triangle; a bound without a finite value
// at a point is left out there.
func boundSeries(r *sweepRes) (xs, rs []report.Series) {
	type key struct{ name, class string }
	var keys []key
	var kinds []string
	lines := map[key]*[4]report.Series{}
	for _, pt := range r.Points {
		for _, b := range pt.Bounds {
			k := key{b.Name, b.Class}
			l, ok := lines[k]
			if !ok {
				suffix := ""
				if len(r.Classes) > 1 {
					suffix = " (" + b.Class + ")"
				}
				if !slices.Contains(kinds, b.Name) {
					kinds = append(kinds, b.Name)
				}
				l = &[4]report.Series{}
				for i := range l {
					side := [4]string{"lower", "upper", "lower", "upper"}[i]
					l[i] = report.Series{Name: b.Name + " " + side + " bound" + suffix, Dash: slices.Index(kinds, b.Name) + 1, Clip: true}
				}
				lines[k], keys = l, append(keys, k)
			}
			vals := [4]*float64{&b.ThroughputLower, &b.ThroughputUpper, &b.ResponseTimeLower, b.ResponseTimeUpper}
			for i, v := range vals {
				if v != nil && !math.IsInf(*v, 0) && !math.IsNaN(*v) {
					l[i].X, l[i].Y = append(l[i].X, pt.Value), append(l[i].Y, *v)
				}
			}
		}
	}
	for _, k := range keys {
		for i, s := range lines[k] {
			if len(s.X) == 0 {
				continue
			}
			if i < 2 {
				xs = append(xs, s)
			} else {
				rs = append(rs, s)
			}
		}
	}
	return xs, rs
}

// optNum is the number behind p, or NaN (an empty cell) when p is nil.
var optNum = app.OptNum

// measuredSeries are the measured points, one series per class and panel ("measured X c").
func measuredSeries(r *sweepRes) (xs, rs []report.Series) {
	for _, name := range r.Classes {
		x := report.Series{Name: "measured X " + name, Points: true, Group: name}
		rt := report.Series{Name: "measured R " + name, Points: true, Group: name}
		for _, c := range r.Measured {
			if c.Class != name {
				continue
			}
			if c.MeasuredThroughput != nil {
				x.X, x.Y = append(x.X, c.Value), append(x.Y, *c.MeasuredThroughput)
			}
			if c.MeasuredResponseTime != nil {
				rt.X, rt.Y = append(rt.X, c.Value), append(rt.Y, *c.MeasuredResponseTime)
			}
		}
		if len(x.X) > 0 {
			xs = append(xs, x)
		}
		if len(rt.X) > 0 {
			rs = append(rs, rt)
		}
	}
	return xs, rs
}
