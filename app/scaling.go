package app

import (
	"fmt"
	"math"
	"slices"
	"sort"

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
