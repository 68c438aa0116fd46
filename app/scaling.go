package app

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

// ErrorEstimate is a fit's measured error (output contract: an approximation states its
// error estimate and against what it was measured). Fractions; rel_error is signed,
// (model − observed)/observed.
type ErrorEstimate struct {
	// HeldOutRelError: the largest measured p predicted from the other points (fit DATA.csv).
	HeldOutRelError *float64 `json:"held_out_rel_error,omitempty"`
	// CVRMSLogError: the chosen model's cross-validation score, RMS of log(pred/obs).
	CVRMSLogError *float64 `json:"cv_rms_log_error,omitempty"`
	// RMSRelError: RMS of the relative residuals on the fitted observations (in-sample).
	RMSRelError float64 `json:"rms_rel_error"`
	// LOORMSRelError: leave-one-out RMS relative error (fit MODEL.yaml --loo).
	LOORMSRelError *float64 `json:"loo_rms_rel_error,omitempty"`
	Against        string   `json:"against"`
}

// ScalingNoteLines are the notes of a scaling fit in the order fit DATA.csv and history print
// them: the fit's, the sizing's, the command's own, then each prediction's under its p.
func ScalingNoteLines(fit []string, sz *sizing.Advice, own []string, preds []*scaling.Prediction) []string {
	out := slices.Clone(fit)
	if sz != nil {
		out = append(out, sz.Notes...)
	}
	out = append(out, own...)
	for _, p := range preds {
		for _, n := range p.Notes {
			out = append(out, fmt.Sprintf("p = %d: %s", p.P, n))
		}
	}
	return out
}

// ScalingFigure is fit DATA.csv's drawing from its parts (name, the measured points, the
// fit, its predictions, sizing and backtest; adv and bt may be nil), shared with history: time
// against p on log–log axes, the measured runs, the chosen model, its 95 % interval and the
// plausible models' spread as bands, the held-out run beside what was predicted without it.
func ScalingFigure(name string, points []scaling.Point, fr *scaling.Result, preds []*scaling.Prediction, adv *sizing.Advice, bt *scaling.Backtest) ([]report.Panel, error) {
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
	if i, found := slices.BinarySearch(ps, fr.MaxP); !found && fr.MaxP < pmax { // where the stacked line starts
		ps = slices.Insert(ps, i, fr.MaxP)
	}
	// What is drawn is what is named (new-user review 7 P2-1): the chosen model's formula
	// over the whole range; beyond the largest measured p the stacked prediction the answer
	// gives (a line of its own); the plausible models' own span (not widened to the stacked
	// time), counted as in the table and the JSON.
	model := report.Series{Name: "chosen model: T(p) = " + fr.Chosen.Formula}
	stacked := report.Series{Name: fmt.Sprintf("stacked prediction (p > %d)", fr.MaxP), Dashed: true}
	ci := report.Series{Name: "95 % interval of the prediction"}
	spread := report.Series{Name: fmt.Sprintf("span of the %d plausible models", fr.PlausibleCount)}
	for _, p := range ps {
		pr, err := fr.Predict(p)
		if err != nil {
			continue // a model without a finite time there: the curve stops
		}
		x := float64(p)
		model.X, model.Y = append(model.X, x), append(model.Y, pr.SelectedS)
		if p >= fr.MaxP {
			stacked.X, stacked.Y = append(stacked.X, x), append(stacked.Y, pr.TimeS)
		}
		spread.X, spread.Y, spread.Y2 = append(spread.X, x), append(spread.Y, pr.ModelsLowS), append(spread.Y2, pr.ModelsHighS)
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
	series = append(series, model)
	if len(stacked.X) > 1 {
		series = append(series, stacked)
	}
	series = append(series, meas)
	if asked := askedSeries(preds); asked != nil {
		series = append(series, *asked)
	}
	if bt != nil && bt.Prediction != nil {
		x := float64(bt.HeldOutP)
		series = append(series,
			report.Series{Name: fmt.Sprintf("held out: p = %d as measured (mean)", bt.HeldOutP), X: []float64{x}, Y: []float64{bt.ObservedS}, Points: true, Glyph: "ring"},
			report.Series{Name: fmt.Sprintf("held out: predicted without it (%+.3g %%)", 100*bt.RelError), X: []float64{x}, Y: []float64{bt.Prediction.TimeS}, Points: true, Glyph: "cross"})
	}
	title := "Time against p: " + name
	var marks []report.Mark
	if adv != nil {
		marks = append(marks, report.Mark{X: float64(adv.Recommended.Config.P), Label: fmt.Sprintf("recommended p = %d", adv.Recommended.Config.P)})
	}
	return []report.Panel{{Title: title, XLabel: "p (processes)", YLabel: "time (s)", LogX: true, LogY: true, Series: series, Marks: marks}}, nil
}

// askedSeries marks the predictions asked for (--predict) at the times the answer states;
// nil when none was asked.
func askedSeries(preds []*scaling.Prediction) *report.Series {
	if len(preds) == 0 {
		return nil
	}
	s := report.Series{Points: true, Glyph: "ring"}
	var ps []string
	for _, pr := range preds {
		s.X, s.Y = append(s.X, float64(pr.P)), append(s.Y, pr.TimeS)
		ps = append(ps, fmt.Sprint(pr.P))
	}
	s.Name = "asked: p = " + strings.Join(ps, ", ")
	return &s
}

// SizingTimes says which times a scaling fit's sizing compares (scaling.Result.Times): at
// every p the time the predictions give — the chosen model up to the largest measured p,
// the stacked prediction beyond it — so the trade-off, the answer and the predictions give
// one time per p (new-user review 7 P2-4: "Trade-off (model times)" mixed the two unsaid).
func SizingTimes(fr *scaling.Result) string {
	return fmt.Sprintf("time_s as predicted: the chosen model %s up to the largest measured p = %d, the stacked prediction beyond it (docs/extrapolation.md)", fr.Chosen.Name, fr.MaxP)
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
