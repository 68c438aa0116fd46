package extrap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/scaling"
)

// RegionModel is one (region, metric) series modelled by scaling.Fit: the parameter is the
// process count p, the repetitions are replicates.
type RegionModel struct {
	Region string `json:"region"`
	Metric string `json:"metric"`
	// Formula is the chosen model in the experiment's own parameter names (x, not p, for an
	// experiment over x); the nested fit and pn_model objects keep scaling's p (and n).
	Formula  string            `json:"formula"`
	Fit      *scaling.Result   `json:"fit,omitempty"` // one-parameter experiments
	Backtest *scaling.Backtest `json:"backtest,omitempty"`
	// PN and PNBacktests: a two-parameter experiment's joint model in (p, n)
	// (scaling.FitPN) and its backtests (scaling.BacktestPN).
	PN          *scaling.PNModel     `json:"pn_model,omitempty"`
	PNBacktests []scaling.PNBacktest `json:"pn_backtests,omitempty"`
	// Trend is how the predicted value moves as p doubles from its smallest measured value
	// (two parameters: at n = Models.TrendAtN): "falls", "grows" or "flat" (StopsScaling).
	Trend string `json:"trend"`
	// StopsScalingAt (falling values only) is where the region stops scaling: the smallest p
	// of the doubling grid from the smallest measured p up to twice the largest at which
	// doubling p no longer cuts the predicted value by StopGain; 0 when it still does there,
	// and for values that grow or stay flat (they never scaled: nothing to stop).
	StopsScalingAt int `json:"stops_scaling_at,omitempty"`
}

// StopGain: a doubling of p that cuts the time by less than 10 % counts as no longer scaling.
const StopGain = 0.10

// StopsScaling walks the doubling grid lo, 2·lo, … up to 2·hi of a prediction: the trend at
// the first doubling ("grows" when predict(2·lo) > predict(lo)·(1 + 10⁻⁹), "flat" within
// 10⁻⁹ relative, else "falls") and, for a falling value, the first grid value at which
// doubling no longer cuts it by StopGain (0: it still does at the end of the grid; "" and 0
// when the model cannot predict there). The same rule serves Extra-P experiments and CUBE
// sets (package cube), for one parameter and along p at a fixed n for two.
func StopsScaling(lo, hi int, predict func(int) (float64, error)) (trend string, at int) {
	a0, e1 := predict(lo)
	b0, e2 := predict(2 * lo)
	switch {
	case e1 != nil || e2 != nil:
		return "", 0
	case b0 > a0*(1+1e-9):
		return "grows", 0
	case b0 >= a0*(1-1e-9):
		return "flat", 0
	}
	for p := lo; p <= 2*hi && p <= 1<<30; p *= 2 {
		a, e1 := predict(p)
		b, e2 := predict(2 * p)
		if e1 != nil || e2 != nil {
			break
		}
		if b > (1-StopGain)*a {
			return "falls", p
		}
	}
	return "falls", 0
}

// Models is the per-region result and the region that stops scaling first.
type Models struct {
	Parameter string `json:"parameter"`
	// SecondParameter is a two-parameter experiment's problem-size parameter n; TrendAtN the
	// value of n at which trends and stops are walked along p: the largest n measured at the
	// largest p (as cube.ModelSet does for two parameters).
	SecondParameter string        `json:"second_parameter,omitempty"`
	TrendAtN        float64       `json:"trend_at_n,omitempty"`
	Models          []RegionModel `json:"models"`
	// Metric is the metric whose regions are compared ("time" when modelled, else the one
	// with the most modelled regions, ties: the first by name); Falling and Growing count its
	// region models by trend.
	Metric  string `json:"metric"`
	Falling int    `json:"falling_models"`
	Growing int    `json:"growing_models"`
	// FirstToStop is the region of Metric with the smallest StopsScalingAt (ties: the first
	// in the file); "" when no falling region stops within the grid.
	FirstToStop       string   `json:"first_to_stop_scaling,omitempty"`
	FirstToStopMetric string   `json:"first_to_stop_metric,omitempty"`
	FirstToStopAt     int      `json:"first_to_stop_at,omitempty"`
	Notes             []string `json:"notes,omitempty"`
}

// Model fits one model per (region, metric) of an experiment whose (first, or named p,
// procs, processes, ranks or np) parameter values are process counts (positive integers ≤
// 2^30): with one parameter scaling.Fit, with two a joint model in (p, n) by
// scaling.FitPN, the other parameter the problem size n. Series that cannot be modelled
// (a value ≤ 0, too few points) are skipped with a note; when no series can be modelled,
// or there are more than two parameters, the experiment is refused (fault.ErrInput,
// file:line).
func Model(ctx context.Context, e *Experiment) (*Models, error) {
	if len(e.Parameters) > 2 {
		return nil, fmt.Errorf("%w: %s:1: %d parameters %v: models are built in one parameter (p) or two (p and a problem size n)", fault.ErrInput, e.File, len(e.Parameters), e.Parameters)
	}
	pi := procParam(e.Parameters)
	ps := make([]int, len(e.Points))
	for i, pt := range e.Points {
		v := pt[pi]
		if v != math.Trunc(v) || v < 1 || v > 1<<30 {
			return nil, fmt.Errorf("%w: %s:%d: %s = %g: the parameter must be a process count (an integer 1 … 2^30)", fault.ErrInput, e.File, pointLine(e, i), e.Parameters[pi], v)
		}
		ps[i] = int(v)
	}
	if len(e.Parameters) == 2 {
		ni := 1 - pi
		for i, pt := range e.Points {
			if v := pt[ni]; !(v > 0) {
				return nil, fmt.Errorf("%w: %s:%d: %s = %g: the problem size must be positive", fault.ErrInput, e.File, pointLine(e, i), e.Parameters[ni], v)
			}
		}
	}
	out := &Models{Parameter: e.Parameters[pi]}
	var err error
	if len(e.Parameters) == 2 {
		err = modelPN(ctx, e, pi, ps, out)
	} else {
		err = modelP(ctx, e, ps, out)
	}
	if err != nil {
		return nil, err
	}
	if len(out.Models) == 0 {
		more := ""
		if len(out.Notes) > 1 {
			more = fmt.Sprintf(" (and %d more series skipped)", len(out.Notes)-1)
		}
		return nil, fmt.Errorf("%w: %s:%d: no region and metric could be modelled: %s%s", fault.ErrInput, e.File, e.Series[0].Line, out.Notes[0], more)
	}
	firstToStop(out)
	return out, nil
}

// procParam is the index of the process-count parameter: the first named p, procs,
// processes, ranks, np or nprocs (any case), else the first.
func procParam(names []string) int {
	for i, n := range names {
		switch strings.ToLower(n) {
		case "p", "procs", "processes", "ranks", "np", "nprocs":
			return i
		}
	}
	return 0
}

// pointLine is the line where point i was given (1 when unknown).
func pointLine(e *Experiment, i int) int {
	if i < len(e.PointLine) {
		return e.PointLine[i]
	}
	return 1
}

// skipNote says in plain words which series was skipped and why.
func skipNote(s *Series, why string) string {
	return fmt.Sprintf("region %q, metric %q (series from line %d) skipped: %s", s.Region, s.Metric, s.Line, why)
}

// nonPositive is the first value ≤ 0 of a series and where, in words ("" when none).
func nonPositive(e *Experiment, s *Series) string {
	for i, vs := range s.Values {
		for _, v := range vs {
			if !(v > 0) {
				return fmt.Sprintf("a value of %g at %s (line %d); only positive values can be modelled", v, pointText(e, i), pointLine(e, i))
			}
		}
	}
	return ""
}

// pointText is point i as "x = 20" or "p = 32, n = 5000".
func pointText(e *Experiment, i int) string {
	parts := make([]string, len(e.Parameters))
	for k, n := range e.Parameters {
		parts[k] = fmt.Sprintf("%s = %g", n, e.Points[i][k])
	}
	return strings.Join(parts, ", ")
}

// modelPN fits every series of a two-parameter experiment jointly in (p, n); trends and
// stops are walked along p at n = TrendAtN.
func modelPN(ctx context.Context, e *Experiment, pi int, ps []int, out *Models) error {
	ni := 1 - pi
	out.SecondParameter = e.Parameters[ni]
	top := 0
	for i := range e.Points {
		if ps[i] > ps[top] || ps[i] == ps[top] && e.Points[i][ni] > e.Points[top][ni] {
			top = i
		}
	}
	out.TrendAtN = e.Points[top][ni]
	names := map[rune]string{'p': e.Parameters[pi], 'n': e.Parameters[ni]}
	for _, s := range e.Series {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", fault.ErrInterrupted, err)
		}
		if why := nonPositive(e, s); why != "" {
			out.Notes = append(out.Notes, skipNote(s, why))
			continue
		}
		var pts []scaling.PNPoint
		for i, vs := range s.Values {
			for _, v := range vs {
				pts = append(pts, scaling.PNPoint{P: ps[i], N: e.Points[i][ni], TimeS: v})
			}
		}
		m, err := scaling.FitPN(pts)
		if err != nil {
			out.Notes = append(out.Notes, skipNote(s, "no joint model: "+fault.Detail(err)))
			continue
		}
		rm := RegionModel{Region: s.Region, Metric: s.Metric, PN: m, Formula: RenameVars(m.Formula, names)}
		if bs, err := scaling.BacktestPN(pts); err == nil {
			rm.PNBacktests = bs
		}
		rm.Trend, rm.StopsScalingAt = StopsScaling(minInt(ps), ps[top], func(p int) (float64, error) { return m.Predict(float64(p), out.TrendAtN) })
		out.Models = append(out.Models, rm)
	}
	return nil
}

func minInt(v []int) int {
	m := v[0]
	for _, x := range v {
		m = min(m, x)
	}
	return m
}

// modelP fits every series of a one-parameter experiment with scaling.Fit.
func modelP(ctx context.Context, e *Experiment, ps []int, out *Models) error {
	names := map[rune]string{'p': e.Parameters[0]}
	for _, s := range e.Series {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", fault.ErrInterrupted, err)
		}
		if why := nonPositive(e, s); why != "" {
			out.Notes = append(out.Notes, skipNote(s, why))
			continue
		}
		d := &scaling.Data{Name: s.Region + " / " + s.Metric}
		for i, vs := range s.Values {
			for _, v := range vs {
				d.Points = append(d.Points, scaling.Point{P: ps[i], TimeS: v})
			}
		}
		r, err := scaling.Fit(ctx, d)
		if errors.Is(err, fault.ErrInterrupted) {
			return err
		}
		if err != nil {
			out.Notes = append(out.Notes, skipNote(s, "no model: "+fault.Detail(err)))
			continue
		}
		m := RegionModel{Region: s.Region, Metric: s.Metric, Fit: r, Formula: RenameVars(r.Chosen.Formula, names)}
		if bt, err := scaling.BacktestLargest(ctx, d); err == nil {
			m.Backtest = bt
		}
		m.Trend, m.StopsScalingAt = StopsScaling(minInt(ps), r.MaxP, func(p int) (float64, error) {
			pr, err := r.Predict(p)
			return pr.TimeS, err
		})
		out.Models = append(out.Models, m)
	}
	return nil
}

// firstToStop sets the compared metric (time, else the one with the most modelled regions), its
// trend counts and the region that stops scaling first.
func firstToStop(out *Models) {
	count := map[string]int{}
	for _, m := range out.Models {
		count[m.Metric]++
	}
	metrics := make([]string, 0, len(count))
	for k := range count {
		metrics = append(metrics, k)
	}
	sort.Slice(metrics, func(a, b int) bool {
		if (metrics[a] == "time") != (metrics[b] == "time") {
			return metrics[a] == "time" // time first when modelled (as Extra-P's strong-scaling check)
		}
		if count[metrics[a]] != count[metrics[b]] {
			return count[metrics[a]] > count[metrics[b]]
		}
		return metrics[a] < metrics[b]
	})
	if len(metrics) == 0 {
		return
	}
	out.Metric = metrics[0]
	for _, m := range out.Models {
		if m.Metric != out.Metric {
			continue
		}
		switch m.Trend {
		case "falls":
			out.Falling++
		case "grows":
			out.Growing++
		}
		if m.StopsScalingAt == 0 {
			continue
		}
		if out.FirstToStop == "" || m.StopsScalingAt < out.FirstToStopAt {
			out.FirstToStop, out.FirstToStopMetric, out.FirstToStopAt = m.Region, m.Metric, m.StopsScalingAt
		}
	}
}

// RenameVars puts the parameters' names in place of scaling's variables (p, and n of a
// (p, n) model) in a formula, where the letter stands alone (not inside c0 or log2).
func RenameVars(formula string, names map[rune]string) string {
	rs := []rune(formula)
	var b strings.Builder
	for i, r := range rs {
		name, ok := names[r]
		alone := ok && (i == 0 || !isWordRune(rs[i-1])) && (i == len(rs)-1 || !isWordRune(rs[i+1]))
		if alone {
			b.WriteString(name)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isWordRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// StopSummary is what a set of region models says about where they stop scaling, in the
// one sentence `fit` (Extra-P experiments) and `cube` (CUBE sets) both print.
type StopSummary struct {
	Unit   string // "region" or "call path"
	Metric string // the compared metric
	Param  string // the parameter walked (p)
	// At2: for two parameters, where the walk is (" at y = 25"); "" for one.
	At2                      string
	First                    string // the first to stop ("" none)
	At                       int    // where it stops
	Models, Falling, Growing int    // models of Metric; those whose value falls / grows as Param doubles
}

// Sentence: the first to stop and where; or why none does (nothing falls: the parameter
// acts as a problem size or a weak-scaling count; or every falling model still gains
// StopGain per doubling at twice the largest measured value).
func (s StopSummary) Sentence() string {
	x := s.Param
	flat := s.Models - s.Falling - s.Growing
	switch {
	case s.First != "":
		return fmt.Sprintf("first %s to stop scaling as %s doubles%s: %s at %s = %d (from there doubling %s no longer cuts its %s by %.0f %%)", s.Unit, x, s.At2, s.First, x, s.At, x, s.Metric, 100*StopGain)
	case s.Falling == 0:
		return fmt.Sprintf("no %s's %s falls as %s doubles%s (%d grow, %d stay flat), so none stops scaling: %s acts as a problem size or a weak-scaling count here", s.Unit, s.Metric, x, s.At2, s.Growing, flat, x)
	}
	return fmt.Sprintf("no %s stops scaling as %s doubles%s up to twice the largest measured %s (%d fall and still drop by %.0f %% or more per doubling there, %d grow, %d stay flat)", s.Unit, x, s.At2, x, s.Falling, 100*StopGain, s.Growing, flat)
}

// Stops is the experiment's StopSummary.
func (m *Models) Stops() StopSummary {
	s := StopSummary{Unit: "region", Metric: m.Metric, Param: m.Parameter, First: m.FirstToStop, At: m.FirstToStopAt, Falling: m.Falling, Growing: m.Growing}
	if s.Metric == "" {
		s.Metric = "value" // a text experiment without a METRIC line
	}
	for _, rm := range m.Models {
		if rm.Metric == m.Metric {
			s.Models++
		}
	}
	if m.SecondParameter != "" {
		s.At2 = fmt.Sprintf(" at %s = %g", m.SecondParameter, m.TrendAtN)
	}
	return s
}
