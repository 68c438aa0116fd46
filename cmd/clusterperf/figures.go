package main

import (
	"fmt"
	"math"
	"path/filepath"
	"sort"

	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

// fitDataFigure is `fit DATA.csv --plot` (issue 29; what Extra-P shows first): time against
// p on log–log axes — every measured run (replicates visible as separate points), the
// chosen model over the measured range and on to the largest asked or sized p, its 95 %
// interval as a band (where the data give one), the spread of the plausible alternative
// models as a second band, and the backtest's held-out run (ring) beside what the model
// fitted without it predicted there (cross). The bands come from scaling.Result.Predict,
// the same call the table's predictions use.
func fitDataFigure(r *fitapp.ScalingResult) ([]report.Panel, error) {
	d := r.Data()
	return scalingFigure(filepath.Base(d.Name), d.Points, r.Fit, r.Predictions, r.Sizing, r.Backtest)
}

// fitDataPlot draws fitDataFigure to path (nothing when path is "").
func fitDataPlot(path string, r *fitapp.ScalingResult) error {
	if path == "" {
		return nil
	}
	panels, err := fitDataFigure(r)
	if err != nil {
		return err
	}
	return report.SaveFigure(path, panels...)
}

// scalingFigure is fitDataFigure's drawing from its parts (name, the measured points, the
// fit, its predictions, sizing and backtest; adv and bt may be nil), shared with history.
func scalingFigure(name string, points []scaling.Point, fr *scaling.Result, preds []*scaling.Prediction, adv *sizing.Advice, bt *scaling.Backtest) ([]report.Panel, error) {
	pmin, pmax := math.MaxInt, 0
	for _, pt := range points {
		pmin, pmax = min(pmin, pt.P), max(pmax, pt.P)
	}
	for _, pr := range preds {
		pmax = max(pmax, pr.P)
	}
	if adv != nil {
		pmax = max(pmax, adv.Recommended.Config.P)
	}
	if pmax == 0 {
		return nil, nil
	}
	ps := logGrid(pmin, pmax)
	model := report.Series{Name: fmt.Sprintf("%s: T(p) = %s", fr.Chosen.Name, fr.Chosen.Formula)}
	ci := report.Series{Name: "95 % interval"}
	spread := report.Series{Name: fmt.Sprintf("plausible models (%d)", len(fr.Plausible))}
	for _, p := range ps {
		pr, err := fr.Predict(p)
		if err != nil {
			continue // a model without a finite time there: the curve stops
		}
		x := float64(p)
		model.X, model.Y = append(model.X, x), append(model.Y, pr.TimeS)
		spread.X, spread.Y, spread.Y2 = append(spread.X, x), append(spread.Y, pr.PlausibleLowS), append(spread.Y2, pr.PlausibleHighS)
		if pr.Interval {
			ci.X, ci.Y, ci.Y2 = append(ci.X, x), append(ci.Y, *pr.Low95S), append(ci.Y2, *pr.High95S)
		}
	}
	meas := report.Series{Name: fmt.Sprintf("measured (%d runs)", len(points)), Points: true}
	pts := append([]scaling.Point(nil), points...)
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].P < pts[j].P })
	for _, pt := range pts {
		meas.X, meas.Y = append(meas.X, float64(pt.P)), append(meas.Y, pt.TimeS)
	}
	series := []report.Series{}
	if len(ci.X) > 1 {
		series = append(series, ci)
	}
	if len(spread.X) > 1 {
		series = append(series, spread)
	}
	series = append(series, model, meas)
	if bt != nil && bt.Prediction != nil {
		x := float64(bt.HeldOutP)
		series = append(series,
			report.Series{Name: fmt.Sprintf("held out: p = %d as measured (mean)", bt.HeldOutP), X: []float64{x}, Y: []float64{bt.ObservedS}, Points: true, Glyph: "ring"},
			report.Series{Name: fmt.Sprintf("held out: predicted without it (%+.3g %%)", 100*bt.RelError), X: []float64{x}, Y: []float64{bt.Prediction.TimeS}, Points: true, Glyph: "cross"})
	}
	title := "Time against p: " + name
	return []report.Panel{{Title: title, XLabel: "p (processes)", YLabel: "time (s)", LogX: true, LogY: true, Series: series}}, nil
}

// logGrid is the whole p from pmin to pmax, 8 per doubling (each once), pmax included.
func logGrid(pmin, pmax int) []int {
	var ps []int
	for x := float64(pmin); ; x *= math.Pow(2, 0.125) {
		p := int(math.Round(x))
		if p > pmax {
			break
		}
		if len(ps) == 0 || p != ps[len(ps)-1] {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 || ps[len(ps)-1] != pmax {
		ps = append(ps, pmax)
	}
	return ps
}

// figurer is a result with a figure for the --report page when the command drew no plot
// (solve without --sweep, simulate, queue, pmva: commands without --plot), so every page
// shows a picture of its answer.
type figurer interface {
	figure() ([]report.Panel, error)
}

// figure: the fitted study's runs (censored ones at their lower bound), its model, interval
// and plausible spread (scalingFigure).
func (r *historyResult) figure() ([]report.Panel, error) {
	a := r.Analysis
	if a == nil || a.Fit == nil || a.Fit.Scaling == nil {
		return nil, nil
	}
	var pts []scaling.Point
	for _, run := range a.Fit.Runs {
		t := run.ElapsedS
		if run.Censored && run.LowerBoundS != nil {
			t = *run.LowerBoundS
		}
		if t > 0 {
			pts = append(pts, scaling.Point{P: run.P, TimeS: t})
		}
	}
	return scalingFigure(fmt.Sprintf("study %d", a.Study), pts, a.Fit.Scaling, a.Predictions, a.Sizing, nil)
}

// figure: each station's utilization per server, the bottleneck (highest among the
// queueing stations) highlighted, a dotted line at 1 (saturation).
func (r *solveResult) figure() ([]report.Panel, error) {
	var names []string
	var u []float64
	var hl []int
	umax := -1.0
	for _, st := range r.Stations {
		if st.Type != "delay" && st.Utilization > umax {
			umax = st.Utilization
		}
	}
	for i, st := range r.Stations {
		names, u = append(names, st.Name), append(u, st.Utilization)
		if st.Type != "delay" && st.Utilization >= umax-1e-9*math.Abs(umax) {
			hl = append(hl, i)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	p, err := report.Bars("Utilization per server (bottleneck highlighted; dotted: saturation)", "utilization", names, u, hl, 1)
	return []report.Panel{p}, err
}

// figure: the simulated utilizations (rows "U station") with the analytic ones beside.
func (r *simulateResult) figure() ([]report.Panel, error) {
	if r.Report == nil {
		return nil, nil
	}
	var names []string
	var u []float64
	for _, row := range r.Rows {
		if len(row.Quantity) > 2 && row.Quantity[:2] == "U " {
			names, u = append(names, row.Quantity[2:]), append(u, row.Simulated)
		}
	}
	if len(names) > 0 {
		p, err := report.Bars("Simulated utilization per station (dotted: saturation)", "utilization", names, u, nil, 1)
		return []report.Panel{p}, err
	}
	// no station rows (an SPMD program): each quantity's relative difference analytic −
	// simulated, those outside the simulation's 95 % interval highlighted
	var hl []int
	for _, row := range r.Rows {
		if row.RelError == nil {
			continue
		}
		if row.Inside != nil && !*row.Inside {
			hl = append(hl, len(names))
		}
		names, u = append(names, row.Quantity), append(u, 100*math.Abs(*row.RelError))
	}
	if len(names) == 0 {
		return nil, nil
	}
	p, err := report.Bars("|analytic − simulated| / simulated per quantity (outside the 95 % interval highlighted)", "%", names, u, hl, 0)
	return []report.Panel{p}, err
}

// figure: the mean response time split into service and waiting.
func (r *queueResult) figure() ([]report.Panel, error) {
	p, err := report.Bars(r.Model+": mean response time = service + waiting", "s", []string{"service", "waiting", "response"},
		[]float64{r.ResponseTime - r.WaitingTime, r.WaitingTime, r.ResponseTime}, []int{1}, 0)
	return []report.Panel{p}, err
}

// figure: the predicted time and speedup against the number of workers.
func (r *pmvaResult) figure() ([]report.Panel, error) {
	t := report.Series{Name: "predicted time"}
	s := report.Series{Name: "speedup (eq. 6.8)"}
	ideal := report.Series{Name: "ideal speedup p", Dashed: true}
	for _, pt := range r.Results {
		x := float64(pt.P)
		t.X, t.Y = append(t.X, x), append(t.Y, pt.Time)
		s.X, s.Y = append(s.X, x), append(s.Y, pt.Speedup)
		ideal.X, ideal.Y = append(ideal.X, x), append(ideal.Y, x)
	}
	if len(t.X) == 0 {
		return nil, nil
	}
	logx := len(t.X) > 1 && t.X[len(t.X)-1]/t.X[0] > 16
	return []report.Panel{
		{Title: "Predicted time against workers", XLabel: "workers p", YLabel: "s", LogX: logx, Series: []report.Series{t}},
		{Title: "Speedup against workers", XLabel: "workers p", YLabel: "speedup", LogX: logx, Series: []report.Series{s, ideal}},
	}, nil
}

// figure: one profile's call paths by exclusive value of its first metric (time when it
// has one), the largest first (at most 15); a set's call paths by their share of the
// total at the largest parameter value; the MPI call paths' time.
func (r *cubeResult) figure() ([]report.Panel, error) {
	type bar struct {
		name string
		v    float64
	}
	var bars []bar
	title, unit := "", ""
	switch {
	case r.Set != nil:
		title, unit = "Call paths: share of the total at the largest "+r.Set.Param, "share"
		for _, m := range r.Set.Models {
			if m.ShareAtMaxP != nil {
				bars = append(bars, bar{m.CallPath, *m.ShareAtMaxP})
			}
		}
	case r.MPI != nil:
		title, unit = "MPI call paths: exclusive time", "s"
		for _, p := range r.MPI.Paths {
			bars = append(bars, bar{p.CallPath, p.TimeS})
		}
	case r.Profile != nil:
		for _, cp := range r.Profile.CallPaths {
			if len(cp.Values) > 0 {
				v := cp.Values[0]
				title, unit = "Call paths: exclusive "+v.Metric, v.Unit
				bars = append(bars, bar{cp.CallPath, v.Exclusive})
			}
		}
	}
	if len(bars) == 0 {
		return nil, nil
	}
	sort.SliceStable(bars, func(i, j int) bool { return bars[i].v > bars[j].v })
	bars = bars[:min(len(bars), 15)]
	var names []string
	var vals []float64
	for _, b := range bars {
		names, vals = append(names, b.name), append(vals, b.v)
	}
	p, err := report.Bars(title, unit, names, vals, []int{0}, 0)
	return []report.Panel{p}, err
}
