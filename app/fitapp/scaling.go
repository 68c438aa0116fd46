package fitapp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

// ScalingResult is the command's one result value (JSON as is).
type ScalingResult struct {
	report.Answered
	// Method, Exact and ErrorEstimate are the output contract's: which model was chosen and
	// how it was fitted; a fit is never exact; its error measured by the backtest.
	Method        string                `json:"method"`
	Exact         bool                  `json:"exact"`
	ErrorEstimate *app.ErrorEstimate    `json:"error_estimate"`
	Fit           *scaling.Result       `json:"fit"`
	Predictions   []*scaling.Prediction `json:"predictions"`
	Backtest      *scaling.Backtest     `json:"backtest,omitempty"`
	// Sizing is absent for weak-scaling data (a note says why).
	Sizing *sizing.Advice `json:"sizing,omitempty"`
	// PMax is the largest p the sizing searched (--pmax; default twice the largest measured
	// p), PMaxSource which of the two (P2-6: "fastest" is fastest within this range only).
	PMax       int    `json:"recommend_pmax,omitempty"`
	PMaxSource string `json:"recommend_pmax_source,omitempty"`
	// SizingTimes says which times the sizing compared (app.SizingTimes).
	SizingTimes string   `json:"sizing_times,omitempty"`
	Notes       []string `json:"notes"`
	data        *scaling.Data
}

// ScalingRequest is one `fit DATA.csv` run on a plain p,time CSV.
type ScalingRequest struct {
	Path    string         // for messages and the table's title
	Input   []byte         // the file's contents
	Predict []int          // process counts to predict
	PMax    int            // sizing range; 0: twice the largest measured p (capped at 2^30)
	Sizing  sizing.Options // the rule; T1 is set from the model
}

// RunScaling is `fit DATA.csv`: scaling.Fit, the predictions, the backtest of the largest p
// and the sizing (none for weak scaling).
func RunScaling(ctx context.Context, q ScalingRequest) (*ScalingResult, error) {
	d, err := scaling.ReadCSV(q.Path, bytes.NewReader(q.Input))
	if err != nil {
		return nil, app.Classify(err)
	}
	fr, err := scaling.Fit(ctx, d)
	if err != nil {
		return nil, app.Classify(err)
	}
	res := &ScalingResult{Fit: fr, Notes: []string{}, data: d, Method: fr.Chosen.Name + ": " + fr.Method}
	for _, p := range q.Predict {
		pr, err := fr.Predict(p)
		if err != nil {
			return nil, app.Classify(err)
		}
		res.Predictions = append(res.Predictions, pr)
	}
	if bt, err := scaling.BacktestLargest(ctx, d); err == nil {
		res.Backtest = bt
	} else if errors.Is(err, fault.ErrInput) {
		res.Notes = append(res.Notes, "no backtest: "+fault.Detail(err))
	} else {
		return nil, err
	}
	if fr.Scaling == "weak" {
		why := "no sizing: the data are weak scaling (the problem grows with p), and the sizing rules compare the times of one problem (strong scaling): neither T_1/T(p) nor the fastest time is a speedup or a choice there"
		if fr.ScalingInferred {
			// An inference, said with its alternative (review 8, P2-11: flat times).
			why = "no sizing: the data are read as weak scaling (the problem grows with p), and the sizing rules compare the times of one problem (strong scaling): neither T_1/T(p) nor the fastest time is a speedup or a choice there; weak was inferred because the mean time at the largest p is not below that at the smallest — a strong-scaling code that does not speed up looks the same: a \"# scaling: strong\" line in the CSV sizes it as one problem"
		}
		res.Notes = append(res.Notes, why)
	} else if res.Sizing, err = advise(d, fr, q); err != nil {
		return nil, err
	} else {
		res.sizingRange(q.PMax)
		res.SizingTimes = app.SizingTimes(fr)
	}
	res.ErrorEstimate = ScalingErrorEstimate(fr, res.Backtest)
	res.SetAnswer()
	return res, nil
}

// SetAnswer sets the result's answer block (package answer).
func (r *ScalingResult) SetAnswer() {
	r.Answer = answer.Scaling(r.Fit, r.Predictions, r.Backtest, r.Sizing)
}

// Data is the measured data the result was fitted to (for the plot).
func (r *ScalingResult) Data() *scaling.Data { return r.data }

// advise applies the sizing rule to the model's times on sizingGrid up to --pmax.
func advise(d *scaling.Data, fr *scaling.Result, q ScalingRequest) (*sizing.Advice, error) {
	pmax := cmp.Or(q.PMax, defaultPMax(fr.MaxP))
	pts, err := fr.Times(SizingGrid(d, pmax))
	if err != nil {
		return nil, app.Classify(err)
	}
	minP := math.MaxInt
	for _, pt := range d.Points {
		minP = min(minP, pt.P)
	}
	adv, err := sizing.Advise(pts, withT1(q.Sizing, fr.T1(minP)))
	if err == nil && minP > 1 {
		adv.Notes = append(adv.Notes, fmt.Sprintf("sizing: T_1 is not the model at p = 1: the data start at p = %d and the fitted model says nothing below them (as the sizing grid does not go there)", minP))
	}
	return adv, app.Classify(err)
}

// defaultPMax is the sizing range without --pmax: twice the largest measured p, capped at
// the largest p a prediction allows (2^30), so a measured p above 2^29 never turns into a
// refusal naming a --pmax the user did not give.
func defaultPMax(maxP int) int {
	return min(2*maxP, scaling.MaxPredictP)
}

// sizingRange records the range the sizing searched and notes every prediction beyond it
// that is faster than the sizing's fastest (the trade-off's "fastest" is the fastest within
// p ≤ pmax only).
func (r *ScalingResult) sizingRange(pmax int) {
	r.PMax, r.PMaxSource = pmax, "--pmax"
	if pmax == 0 {
		r.PMax, r.PMaxSource = defaultPMax(r.Fit.MaxP), "default: twice the largest measured p"
		if r.PMax < 2*r.Fit.MaxP {
			r.PMaxSource += ", capped at 2^30"
		}
	}
	fastest := math.Inf(1)
	for _, c := range r.Sizing.TradeOff {
		fastest = math.Min(fastest, c.TimeS)
	}
	for _, p := range r.Predictions {
		if p.P > r.PMax && p.TimeS < fastest {
			r.Notes = append(r.Notes, fmt.Sprintf("p = %d: predicted %s s, faster than the sizing's fastest (%s s): the sizing searched p ≤ %d only (%s); raise --pmax to include it",
				p.P, report.Num(p.TimeS), report.Num(fastest), r.PMax, r.PMaxSource))
		}
	}
}

// rangeText is the sizing range in words, for the table.
func (r *ScalingResult) rangeText() string {
	if r.PMaxSource == "--pmax" {
		return fmt.Sprintf("within p ≤ %d (--pmax)", r.PMax)
	}
	return fmt.Sprintf("within p ≤ %d (--pmax; default %s)", r.PMax, strings.TrimPrefix(r.PMaxSource, "default: "))
}

// SizingGrid follows the data: every measured p up to pmax, the powers of two from the
// smallest measured p up to pmax, and pmax. It never goes below the smallest measured p: a
// model fitted on p ≥ 120 says nothing at p = 1 (and may not be finite there:
// c0 + c1·p^(-4/3)·log2(p) on wavetrisk_bbserv_2560 is 0 at p = 1).
func SizingGrid(d *scaling.Data, pmax int) []int {
	seen := map[int]bool{}
	pmin := pmax
	for _, pt := range d.Points {
		if pt.P <= pmax {
			seen[pt.P] = true
		}
		pmin = min(pmin, pt.P)
	}
	for p := 1; p <= pmax; p *= 2 {
		if p >= pmin {
			seen[p] = true
		}
	}
	seen[pmax] = true
	var out []int
	for p := range seen {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

func (r *ScalingResult) NoteLines() []string {
	return app.ScalingNoteLines(r.Fit.Notes, r.Sizing, r.Notes, r.Predictions)
}

// Tables: summary, parameters, plausible, predictions, trade_off.
func (r *ScalingResult) Tables() []*report.Table {
	f, m := r.Fit, r.Fit.Chosen
	how := "held-out error"
	if !f.Validated {
		how = "by fit and rule, not validated: see the notes"
	}
	pt := &report.Table{Name: "parameters", Title: fmt.Sprintf("Chosen model (%s): %s   T(p) = %s", how, m.Name, m.Formula), Header: []string{"parameter", "value", "ci95_low", "ci95_high", "note"}}
	for _, p := range m.Parameters {
		note := ""
		if p.AtZero {
			note = "at its bound"
		}
		if f.IntervalsNotMeaningful && p.Low95 != nil {
			note = strings.TrimPrefix(note+"; interval not meaningful (see the notes)", "; ")
		}
		pt.Add(p.Name, p.Value, app.OptNum(p.Low95), app.OptNum(p.High95), note)
	}
	ct := &report.Table{Name: "plausible", Title: plausibleTitle(f.PlausibleCount), Header: []string{"model", "coefficients", "free", "cv_score", "llo", "loo", "formula"}}
	for i, c := range f.Plausible {
		if i == plausibleShown {
			break
		}
		ct.Add(c.Name, c.Coefficients, c.K, optMagnitude(c.Score), optMagnitude(c.LLO), optMagnitude(c.LOO), c.Formula)
	}
	t := &report.Table{Name: "predictions", Title: "Predictions (time_s: the chosen model within the measured p, beyond them the stacked prediction of docs/extrapolation.md; chosen_model_s: the chosen model alone; times_largest_p: p ÷ the largest measured p)",
		Header: []string{"p", "time_s", "chosen_model_s", "low95_s", "high95_s", "plausible_low_s", "plausible_high_s", "times_largest_p"}}
	for _, p := range r.Predictions {
		var lo, hi any = "none", "none"
		if p.Interval {
			lo, hi = *p.Low95S, *p.High95S
		}
		t.Add(p.P, p.TimeS, p.SelectedS, lo, hi, p.PlausibleLowS, p.PlausibleHighS, p.Extrapolation)
	}
	if r.Sizing == nil {
		return []*report.Table{r.summaryTable(), pt, ct, t}
	}
	return []*report.Table{r.summaryTable(), pt, ct, t, r.tradeOffTable()}
}

// plausibleShown is how many plausible models the table lists.
const plausibleShown = 5

// plausibleTitle names the plausible models' count and definition, the count the plot's
// legend, the JSON's fit.plausible_count and each prediction's plausible_models give
// (new-user review 7 P2-2: 5 rows, "(10)" in the legend and 18 before).
func plausibleTitle(n int) string {
	shown := "all shown"
	if n > plausibleShown {
		shown = fmt.Sprintf("the %d best shown; --format json lists the %d best in fit.plausible", plausibleShown, min(n, scaling.MaxPlausibleListed))
	}
	return fmt.Sprintf("Plausible models: %d (cross-validation score, RMS of log(pred/obs), within 1.5× the best + 0.02; %s; coefficients: in the formula; free: not held at zero, AICc's k)", n, shown)
}

func optMagnitude(v *float64) any {
	if v == nil {
		return ""
	}
	return report.Magnitude(*v)
}

// ScalingErrorEstimate is fit DATA.csv's: the backtest of the largest p, the
// cross-validation score and the in-sample residuals.
func ScalingErrorEstimate(fr *scaling.Result, bt *scaling.Backtest) *app.ErrorEstimate {
	e := &app.ErrorEstimate{CVRMSLogError: fr.Chosen.Score, RMSRelError: fr.Chosen.RMSRelError,
		Against: fmt.Sprintf("the %d measured points: rms_rel_error in-sample, cv_rms_log_error by cross-validation", fr.Points)}
	if !fr.Validated {
		// Not validated (two distinct p): the score ranked exact fits, it measures nothing
		// held out (new-user review: cv_rms_log_error 3.9e-16 "by cross-validation").
		e.CVRMSLogError = nil
		e.Against = fmt.Sprintf("the %d measured points: rms_rel_error in-sample only (too few distinct p to cross-validate: not validated)", fr.Points)
	}
	if bt != nil {
		v := bt.RelError
		e.HeldOutRelError = &v
		e.Against += fmt.Sprintf(", held_out_rel_error at the largest p = %d predicted from the other %d points", bt.HeldOutP, bt.TrainingPoints)
	}
	return e
}

func (r *ScalingResult) summaryTable() *report.Table {
	f, m := r.Fit, r.Fit.Chosen
	sc := f.Scaling
	if f.ScalingInferred {
		sc += " (inferred)"
	}
	t := &report.Table{Name: "summary", Title: fmt.Sprintf("%s: %d points at %d distinct p (largest %d), %s scaling", r.data.Name, f.Points, f.DistinctP, f.MaxP, sc), Header: []string{"what", "value"}, Left: true}
	t.Add("chosen model", m.Name+": T(p) = "+m.Formula)
	if m.SerialFraction != nil {
		t.Add("Amdahl serial fraction of T(1)", *m.SerialFraction)
	}
	if m.NMax != nil {
		t.Add("USL N_max = sqrt((1−σ)/κ)", *m.NMax)
	}
	if f.NoiseRelSD != nil {
		t.Add("relative noise (SD of one run)", report.Magnitude(*f.NoiseRelSD))
	}
	if bt := r.Backtest; bt != nil {
		t.Add(fmt.Sprintf("backtest: p = %d from the other %d points, rel_error", bt.HeldOutP, bt.TrainingPoints), report.Percent(bt.RelError))
		t.Add("in words", fmt.Sprintf("predicting your largest p = %d from the others would have erred by %+.1f %%", bt.HeldOutP, 100*bt.RelError))
	}
	if r.Sizing == nil {
		t.Add("recommended", "none: weak-scaling data (see the notes)")
		return t
	}
	a := r.Sizing.Recommended
	t.Add(fmt.Sprintf("recommended (%s) within p ≤ %d", r.Sizing.Rule, r.PMax), fmt.Sprintf("p = %d, time %s s, efficiency %.2f, %s core-hours — %s", a.Config.P, report.Num(a.Config.TimeS), a.Config.Efficiency, report.Num(a.Config.CoreHours), a.Reason))
	return t
}

func (r *ScalingResult) tradeOffTable() *report.Table {
	return app.TradeOffTable(r.Sizing, "Trade-off ("+r.SizingTimes+") "+r.rangeText())
}
