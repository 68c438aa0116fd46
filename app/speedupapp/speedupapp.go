// Package speedupapp answers "how does this SPMD program speed up, and how many processors
// and disks should it use?": the model of 000/001 over a (p, d) grid (spmd.Evaluator), the
// best point, the limits p → ∞ and d → ∞, the sizing under package sizing's rules and the
// measured runs beside the model. The speedup command renders the Result; the explorer
// evaluates the same Run at its sliders' values.
package speedupapp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/validate"
)

// Request is everything one speedup run needs: the parsed model, the (p, d) grid, the
// sizing rule's options (T1 is set by Run: the model's T_ref) and the measured runs.
type Request struct {
	Model        *spmd.Model
	P, D         []int // the grid, increasing
	Sizing       sizing.Options
	Measured     []spmd.Measurement // nil: none
	MeasuredFile string             // where Measured was read, for messages
	// Progress is called as values of p finish (nil: silent).
	Progress func(done, total int)
	// NonRecursive: solve with 000 eqs. 17/22's non-recursive MVA (BUS-AIO only;
	// spmd.Evaluator.UseNonRecursive), --solver non-recursive.
	NonRecursive bool
}

// Run evaluates the model over the grid (spmd.Evaluator.SurfaceContext), finds the best
// point and the limits, sizes under the rule and compares the measured runs. When ctx is
// cancelled part way, Run returns the result of the values of p finished (Partial) together
// with the interruption (fault.ErrInterrupted); any other error comes alone, classified.
// The evaluator is returned for the caller's validation and plot.
func Run(ctx context.Context, q Request) (*Result, *spmd.Evaluator, error) {
	e, err := spmd.NewEvaluator(q.Model)
	if err != nil {
		return nil, nil, app.Input(err)
	}
	if q.NonRecursive {
		if err := e.UseNonRecursive(); err != nil {
			return nil, nil, app.Lib(err)
		}
	}
	pts, skipped, err := e.SurfaceContext(ctx, q.P, q.D, q.Progress)
	var stopped error
	if errors.Is(err, fault.ErrInterrupted) && len(pts) > 0 {
		stopped = err
	} else if err != nil {
		return nil, nil, app.Lib(err)
	}
	if len(pts) == 0 {
		return nil, nil, noValidPoints(skipped)
	}
	r, err := newResult(q.Model, e, pts, skipped, q.Sizing, q.D[len(q.D)-1])
	if err != nil {
		return nil, nil, err
	}
	if q.NonRecursive {
		r.Method += "; BUS-AIO's network solved by the non-recursive MVA of 000 eqs. 17/22 (001 App. A), exact like the recursive one"
	}
	if r.Measured, err = compareMeasured(e, q.MeasuredFile, q.Measured, pts); err != nil {
		return nil, nil, err
	}
	if stopped != nil {
		done, _ := Axes(pts)
		r.Partial = true
		r.Notes = append(r.Notes, fmt.Sprintf("partial: interrupted after %d of the %d values of p (up to p = %d); the best point and the sizing are over those only", len(done), len(q.P), done[len(done)-1]))
	}
	return r, e, stopped
}

// Result is the speedup question's one result value.
type Result struct {
	report.Answered        // the answer block (package answer; set when rendered)
	Model           string `json:"model,omitempty"`
	Architecture    string `json:"architecture"`
	// Method is how the times were computed, Exact whether they are the exact solution of
	// the documents' model (SIO architectures: 000 eq. 16's approximation, with its measured
	// ErrorEstimate); spmd.Model.Method.
	Method        string              `json:"method"`
	Exact         bool                `json:"exact"`
	ErrorEstimate *spmd.ErrorEstimate `json:"error_estimate,omitempty"`
	// Partial is true when Ctrl-C cut the run short (exit 130): Points are those of the
	// values of p finished, or, with the surface complete, Validation is that of the
	// replications finished (itself marked partial).
	Partial bool           `json:"partial,omitempty"`
	Points  []spmd.Point   `json:"points"`
	Best    spmd.Point     `json:"best"`
	Sizing  *sizing.Advice `json:"sizing"`
	LimitP  Limit          `json:"limit_p_infinite"`
	LimitD  Limit          `json:"limit_d_infinite"`
	Skipped []Skipped      `json:"skipped,omitempty"`
	// Measured are the --measured runs beside the model, rel_error signed.
	Measured   []spmd.Comparison `json:"measured,omitempty"`
	Validation *validate.Report  `json:"validation,omitempty"`
	Notes      []string          `json:"notes"`
	// Condensed: the text table shows a summary of the grid, not every point (set by the
	// caller for a large grid in table format).
	Condensed bool `json:"-"`
}

// Limit is spmd.Limit with the contract's keys: the speedup as p → ∞ at d disks
// (limit_p_infinite) or as d → ∞ at p processors (limit_d_infinite); the speedup is
// absent when it does not exist.
type Limit struct {
	Speedup   *float64 `json:"speedup,omitempty"`
	Converged bool     `json:"converged"`
	P         int      `json:"p,omitempty"`
	D         int      `json:"d,omitempty"`
	Note      string   `json:"note"`
}

type Skipped struct {
	P      int    `json:"p"`
	D      int    `json:"d"`
	Reason string `json:"reason"`
}

func newLimit(l spmd.Limit) Limit {
	out := Limit{Converged: l.Converged, Note: l.Note}
	if !math.IsNaN(l.Speedup) {
		v := l.Speedup
		out.Speedup = &v
	}
	return out
}

// noValidPoints refuses a surface none of whose (p, d) could be evaluated, with the first
// reason a point was skipped.
func noValidPoints(skipped []spmd.Skipped) error {
	msg := "no valid (p, d) in the ranges"
	if len(skipped) > 0 {
		msg += ": " + skipped[0].Reason
	}
	return app.Inputf("%s", msg)
}

// compareMeasured compares the --measured runs with the model (nil: none), flagging those
// outside the surface pts.
func compareMeasured(e *spmd.Evaluator, file string, meas []spmd.Measurement, pts []spmd.Point) ([]spmd.Comparison, error) {
	if meas == nil {
		return nil, nil
	}
	in := map[[2]int]bool{}
	for _, pt := range pts {
		in[[2]int{pt.P, pt.D}] = true
	}
	cs, err := e.Compare(file, meas, func(p, d int) bool { return in[[2]int{p, d}] })
	return cs, app.Lib(err)
}

// newResult assembles the library's answers: best point, largest efficient p per d,
// the limits p → ∞ (at the largest d) and d → ∞ (at the best p).
func newResult(m *spmd.Model, e *spmd.Evaluator, pts []spmd.Point, skipped []spmd.Skipped, so sizing.Options, dmax int) (*Result, error) {
	best, _ := spmd.Best(pts)
	// one speedup in the whole output: sizing's T_1 is 000 eq. 3's T_ref, as the points'
	adv, err := sizing.Advise(SizingPoints(pts), app.WithT1(so, T1(m, "model")))
	if err != nil {
		return nil, app.Lib(err)
	}
	limP, err := e.LimitP(dmax, 0)
	if err != nil {
		return nil, app.Lib(err)
	}
	limD, err := e.LimitD(best.P)
	if err != nil {
		return nil, app.Lib(err)
	}
	out := &Result{Model: m.Name, Architecture: m.Arch.String(), Points: pts, Best: best, Sizing: adv,
		LimitP: newLimit(limP), LimitD: newLimit(limD), Notes: []string{}}
	out.Method, out.Exact, out.ErrorEstimate = m.Method()
	for _, c := range m.Caveats { // the source's documented inconsistencies (issue 33)
		out.Notes = append(out.Notes, "caveat: "+c)
	}
	if e := out.ErrorEstimate; e != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("approximate: %s uses 000 eq. 16's fork/join approximation, measured %+.1f %% … %+.1f %% against a direct simulation under the model's own assumptions (exponential bursts, geometric burst count) for p 4–64, d 1–16, c 1–4 (error_estimate in JSON); programs that break those assumptions differ more (docs/studies.md §2)", m.Arch, 100*e.MinRelError, 100*e.MaxRelError))
		if slices.ContainsFunc(pts, func(pt spmd.Point) bool { return pt.P > 64 || pt.D > 16 }) {
			out.Notes = append(out.Notes, "approximate: this surface reaches beyond the grid the estimate was measured on (p > 64 or d > 16), where eq. 16's error can be larger (it grows with d): check those points with --validate")
		}
	}
	out.LimitP.D, out.LimitD.P = dmax, best.P
	if slices.ContainsFunc(pts, func(pt spmd.Point) bool { return pt.Efficiency > 1 }) {
		out.Notes = append(out.Notes, "efficiency = speedup/p counts processors only: the speedup is against T_ref, one processor with one disk, so extra disks alone raise it above 1 (e.g. I/O-bound programs at small p); the sizing table uses the same speedup and efficiency")
	}
	for _, s := range skipped {
		out.Skipped = append(out.Skipped, Skipped{s.P, s.D, s.Reason})
	}
	if len(skipped) > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d (p, d) skipped, e.g. p = %d, d = %d: %s", len(skipped), skipped[0].P, skipped[0].D, skipped[0].Reason))
	}
	return out, nil
}

func (r *Result) NoteLines() []string {
	if r.Validation != nil {
		return append(slices.Clone(r.Notes), r.Validation.Notes...)
	}
	return r.Notes
}

// Tables: "points" (every (p, d)), "summary" (best, efficient p, limits), "validation".
func (r *Result) Tables() []*report.Table {
	t := &report.Table{Name: "points", Title: strings.TrimSpace(fmt.Sprintf("%s (%s)", r.Model, r.Architecture)),
		Header: []string{"p", "d", "time_s", "speedup", "efficiency", "cpu_s", "sync_s", "comm_startup_s", "comm_transfer_s", "contention_s", "io_s", "bottleneck"}, Keys: 2}
	row := func(pt spmd.Point) []any {
		c := pt.Components
		return []any{pt.P, pt.D, pt.Time, pt.Speedup, pt.Efficiency, c.CPU, c.Sync, c.CommStartup, c.CommTransfer, c.Contention, c.IO, pt.Bottleneck}
	}
	if r.Condensed {
		rows := gridSummary(r.Points, r.Best)
		t.Title += fmt.Sprintf(": %d of %d points (--all shows them all)", len(rows), len(r.Points))
		for _, pt := range rows {
			t.Add(row(pt)...)
		}
	} else {
		// every point, streamed as it is written (CSV, --all): a grid of millions of points
		// is never held as text (speedupBudget)
		t.Stream = func(emit func(...any) error) error {
			for _, pt := range r.Points {
				if err := emit(row(pt)...); err != nil {
					return err
				}
			}
			return nil
		}
	}
	s := &report.Table{Name: "summary", Title: "Summary", Header: []string{"what", "p", "d", "time_s", "speedup", "note"}}
	s.Add("best in range", r.Best.P, r.Best.D, r.Best.Time, r.Best.Speedup, "bottleneck "+r.Best.Bottleneck)
	// ∞ only in the text table: a CSV's numeric columns get an empty cell
	s.Add("p → ∞", report.TextOnly("∞"), r.LimitP.D, report.TextOnly(""), app.OptNum(r.LimitP.Speedup), r.LimitP.Note)
	s.Add("d → ∞", r.LimitD.P, report.TextOnly("∞"), report.TextOnly(""), app.OptNum(r.LimitD.Speedup), r.LimitD.Note)
	ts := []*report.Table{t, s, app.TradeOffTable(r.Sizing, "Sizing")}
	if len(r.Measured) > 0 {
		ts = append(ts, measuredTable(r.Measured))
	}
	if r.Validation != nil {
		ts = append(ts, app.ValidationTable(r.Validation))
	}
	return ts
}

// measuredTable is the --measured runs beside the model (rel_error as a percentage
// in the text table, a signed fraction in CSV).
func measuredTable(cs []spmd.Comparison) *report.Table {
	t := &report.Table{Name: "measured", Title: "Measured runs against the model (rel_error = (model − measured)/measured)",
		Header: []string{"p", "d", "measured_s", "model_s", "measured_speedup", "model_speedup", "rel_error", "note"}, Keys: 2}
	for _, c := range cs {
		note := ""
		if c.OutsideSurface {
			note = "outside --p/--d"
		}
		t.Add(c.P, c.D, c.MeasuredTime, c.ModelTime, c.MeasuredSpeedup, c.ModelSpeedup, report.Percent(c.RelError), note)
	}
	return t
}

// gridSummary are the points of a large grid worth printing: the corners of the (p, d)
// range, the best point, and the first point (smallest p, then d) of each bottleneck
// region, in the grid's order without repeats.
func gridSummary(pts []spmd.Point, best spmd.Point) []spmd.Point {
	ps, ds := Axes(pts)
	type pd struct{ p, d int }
	want := map[pd]bool{{best.P, best.D}: true}
	for _, p := range []int{ps[0], ps[len(ps)-1]} {
		for _, d := range []int{ds[0], ds[len(ds)-1]} {
			want[pd{p, d}] = true
		}
	}
	first := map[string]pd{}
	for _, pt := range pts {
		if f, ok := first[pt.Bottleneck]; !ok || pt.P < f.p || (pt.P == f.p && pt.D < f.d) {
			first[pt.Bottleneck] = pd{pt.P, pt.D}
		}
	}
	for _, f := range first {
		want[f] = true
	}
	var out []spmd.Point
	for _, pt := range pts {
		if want[pd{pt.P, pt.D}] {
			out = append(out, pt)
		}
	}
	return out
}

// SizingPoints are the points sizing chooses from: per p its fastest d (sizing keeps
// only those anyway), so a grid of millions of points stays within sizing.MaxPoints.
func SizingPoints(pts []spmd.Point) []sizing.Point {
	best := map[int]spmd.Point{}
	for _, pt := range pts {
		if b, ok := best[pt.P]; !ok || pt.Time < b.Time {
			best[pt.P] = pt
		}
	}
	out := make([]sizing.Point, 0, len(best))
	for _, pt := range best {
		out = append(out, sizing.Point{P: pt.P, D: pt.D, TimeS: pt.Time})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].P < out[b].P })
	return out
}

// Axes are the distinct p and d of the points, in increasing order.
func Axes(pts []spmd.Point) (ps, ds []int) {
	seenP, seenD := map[int]bool{}, map[int]bool{}
	for _, pt := range pts {
		if !seenP[pt.P] {
			seenP[pt.P] = true
			ps = append(ps, pt.P)
		}
		if !seenD[pt.D] {
			seenD[pt.D] = true
			ds = append(ds, pt.D)
		}
	}
	sort.Ints(ps)
	sort.Ints(ds)
	return ps, ds
}

// T1 is the T_1 of an SPMD model's sizing: its T_ref (000 eq. 1), the T_ref of the
// points' speedup s = T_ref/T (000 eq. 3), so speedup and fit size one model alike. Nil (the
// estimate p_min·T(p_min), noted) if T_ref is not a positive finite time, e.g. a fit whose
// every time parameter sits at its bound 0.
func T1(m *spmd.Model, what string) *sizing.Reference {
	t := m.RefTime()
	if !(t > 0) || math.IsInf(t, 0) {
		return nil
	}
	return sizing.ModelT1(t, "T_ref of the "+what+" (000 eq. 1): one processor, one disk, no communication")
}

// SetAnswer sets the answer block (package answer) from the points and the sizing; the
// command calls it just before rendering, so every path that renders the result (the
// command, merge of a sharded study) says the same answer.
func (r *Result) SetAnswer() { r.Answer = answer.Speedup(r.Model, r.Points, r.Sizing) }

// SummaryRows: a text table of more points than this prints a summary of the grid instead
// (issue 21, readable by default); --all, JSON and CSV keep every point.
const SummaryRows = 200

// The output and memory budget of a surface, checked before any point is evaluated. Per
// point, measured with /usr/bin/time -v (maximum resident set) and wc -c on
// examples/spmd/hybrid.yaml --p 1:500 --d 1:1000 (500 000 points; 2 vCPUs, loaded): JSON
// 449 B of output and 2.06 KB resident (the []spmd.Point, the marshalled and the indented
// copies), CSV 170 B and 1.05 KB (the table's cells), the condensed table 288 B resident
// (the points alone: 120 B each, allocated once, and the garbage collector's headroom). The
// estimates round these up. Since the points table is streamed (report.Table.Stream and
// RenderContext's pipe), CSV and --all need about what the condensed table does: 151 MB and
// 154 MB resident for the same 500 000 points (747 MB and 1.34 GB before; same bytes out;
// measured 2026-11-23, load 12); rowsResident is kept, a conservative bound, so the
// refusals stay where they were.
const (
	maxOutputBytes   = 1 << 30 // 1 GiB of JSON or CSV
	maxResidentBytes = 3 << 29 // 1.5 GiB resident
	jsonBytes        = 460     // output per point, JSON
	csvBytes         = 180     // output per point, CSV or a full text table
	jsonResident     = 2200    // resident per point, JSON (also --report)
	rowsResident     = 1150    // resident per point, CSV or a full text table
	pointsResident   = 320     // resident per point, the condensed text table
)

// Budget refuses (fault.ErrTooLarge) a surface of n points (the grid --p P × --d D) whose
// output or resident memory in format ("table", "json" or "csv"; full: every point in the
// text table, SummaryRows or fewer or --all; withReport: an HTML report page too) would
// exceed maxOutputBytes or maxResidentBytes, naming the estimate, the limit and what to do
// instead. The command calls it before any point is evaluated.
func Budget(n int, P, D, format string, full, withReport bool) error {
	out, res := 0.0, float64(n)*pointsResident
	switch {
	case format == "json":
		out, res = float64(n)*jsonBytes, float64(n)*jsonResident
	case format == "csv", full:
		out, res = float64(n)*csvBytes, float64(n)*rowsResident
	}
	if withReport {
		res = max(res, float64(n)*jsonResident)
	}
	what, est, lim := "output", out, float64(maxOutputBytes)
	if out <= lim {
		what, est, lim = "memory", res, float64(maxResidentBytes)
	}
	if est <= lim {
		return nil
	}
	return fmt.Errorf("%w: --p %s × --d %s is %d points: in %s they need about %.3g GiB of %s; the limit is %.3g GiB (a coarser grid, e.g. a step 1:N:K or powers 1:N:x2, or --format table, which prints a summary)",
		fault.ErrTooLarge, P, D, n, format, est/(1<<30), what, lim/(1<<30))
}

// ValidationPoints are the (p, d) --validate simulates: the best point and the range's ends,
// each once, in the grid's order (p, then d).
func ValidationPoints(pts ...spmd.Point) [][2]int {
	var pds [][2]int
	for _, pt := range pts {
		if pd := [2]int{pt.P, pt.D}; !slices.Contains(pds, pd) {
			pds = append(pds, pd)
		}
	}
	slices.SortFunc(pds, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	return pds
}

// Panels are the speedup plot: the surface as a heat map (when both p and d vary),
// speedup against p for up to six d with the measured runs, and the stacked time
// components against p at the largest d.
func (r *Result) Panels() ([]report.Panel, error) {
	pts, meas := r.Points, r.Measured
	ps, ds := Axes(pts)
	var panels []report.Panel
	if len(ds) > 1 && len(ps) > 1 {
		hm, err := heatMap(r.Architecture, pts, ps, ds)
		if err != nil {
			return nil, err
		}
		panels = append(panels, hm)
	}
	// speedup against p for up to six d
	curves := report.Panel{Title: "Speedup against p", XLabel: "processors p", YLabel: "speedup"}
	pick := ds
	if len(ds) > 6 {
		pick = nil
		for i := 0; i < 6; i++ {
			pick = append(pick, ds[i*(len(ds)-1)/5])
		}
	}
	for _, d := range pick {
		s := report.Series{Name: fmt.Sprintf("d = %d", d)}
		for _, pt := range pts {
			if pt.D == d {
				s.X = append(s.X, float64(pt.P))
				s.Y = append(s.Y, pt.Speedup)
			}
		}
		curves.Series = append(curves.Series, s)
	}
	if len(meas) > 0 {
		curves.Series = append(curves.Series, measuredSeries(meas))
	}
	panels = append(panels, curves)
	// stacked components for the largest d
	dl := ds[len(ds)-1]
	var x []float64
	ys := make([][]float64, 6)
	for _, pt := range pts {
		if pt.D != dl {
			continue
		}
		x = append(x, float64(pt.P))
		c := pt.Components
		for i, v := range []float64{c.CPU, c.Sync, c.CommStartup, c.CommTransfer, c.Contention, c.IO} {
			ys[i] = append(ys[i], v)
		}
	}
	if len(x) > 1 {
		st, err := report.Stacked(fmt.Sprintf("Time components, d = %d", dl), "processors p", "time (s)", x,
			[]string{"cpu", "sync", "comm startup", "comm transfer", "contention", "io"}, ys)
		if err != nil {
			return nil, err
		}
		panels = append(panels, st)
	}
	return panels, nil
}

// measuredSeries are the --measured runs as points: measured speedup against p.
func measuredSeries(meas []spmd.Comparison) report.Series {
	s := report.Series{Name: "measured", Points: true}
	for _, c := range meas {
		s.X, s.Y = append(s.X, float64(c.P)), append(s.Y, c.MeasuredSpeedup)
	}
	return s
}

// heatMap draws s(p, d) over the grid ps × ds (NaN where a point was skipped).
func heatMap(arch string, pts []spmd.Point, ps, ds []int) (report.Panel, error) {
	g := report.Grid{Z: make([][]float64, len(ps))}
	pi, di := map[int]int{}, map[int]int{}
	for i, p := range ps {
		g.X = append(g.X, float64(p))
		pi[p] = i
		g.Z[i] = make([]float64, len(ds))
		for j := range g.Z[i] {
			g.Z[i][j] = math.NaN()
		}
	}
	for j, d := range ds {
		g.Y = append(g.Y, float64(d))
		di[d] = j
	}
	for _, pt := range pts {
		g.Z[pi[pt.P]][di[pt.D]] = pt.Speedup
	}
	return report.HeatMap(fmt.Sprintf("Speedup s(p, d), %s", arch), "processors p", "disks d", g)
}
