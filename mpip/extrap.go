package mpip

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/scaling"
)

// Extrapolation in P of the quantities of a run (wall time, messages, mean size, demands) by
// package scaling (issue 22): Amdahl, USL, Gustafson and the Extra-P normal forms fitted to
// relative error, the model chosen by held-out prediction error, the plausible models' spread.

// Extrapolation is a quantity's value at an unmeasured P from package scaling.
type Extrapolation struct {
	Quantity string `json:"quantity"`
	Unit     string `json:"unit"`
	P        int    `json:"p"`
	Runs     int    `json:"runs"`
	Method   string `json:"method"`
	Exact    bool   `json:"exact"`
	// Trend is "decreasing" (fitted as strong scaling) or "increasing" (as weak scaling: the
	// candidates that grow with P), from the runs at the smallest and largest P.
	Trend string  `json:"trend"`
	Value float64 `json:"value"` // the chosen model's prediction
	// SpreadLow, SpreadHigh: the range of the plausible models' predictions — a range of
	// models, not a confidence interval.
	SpreadLow  float64 `json:"spread_low"`
	SpreadHigh float64 `json:"spread_high"`
	Model      string  `json:"model"`
	Formula    string  `json:"formula"`
	// Selected is the chosen model with its parameters when three or more runs at different P
	// let cross-validation choose it; nil with two (every two-parameter model fits them).
	Selected *scaling.Model `json:"selected,omitempty"`
	// RunsForInterval is how many runs at different P a prediction interval needs: 2
	// parameters and at least 3 residual degrees of freedom (t_{0.975,3} = 3.18; with 1, as
	// three runs give, t = 12.7 and the interval of a log-scale fit spans orders of magnitude).
	RunsForInterval int      `json:"runs_for_interval"`
	Notes           []string `json:"notes,omitempty"`
}

// MinRunsForInterval is Extrapolation.RunsForInterval.
const MinRunsForInterval = 5

// Extrapolate predicts quantity y at target from runs at ps (two or more different whole
// P ≥ 1, values finite and > 0) with scaling.Fit and Predict: a quantity that grows from the
// smallest to the largest P (messages M) is fitted with the weak-scaling candidates, one that
// falls (times, demands, sizes) with the strong-scaling ones. Errors wrap fault.ErrInput.
func Extrapolate(quantity, unit string, ps, ys []float64, target int) (Extrapolation, error) {
	e, _, err := extrapolate(quantity, unit, ps, ys, target)
	return e, err
}

// extrapolate is Extrapolate that also returns scaling's prediction (its 95 % interval).
func extrapolate(quantity, unit string, ps, ys []float64, target int) (Extrapolation, *scaling.Prediction, error) {
	e := Extrapolation{Quantity: quantity, Unit: unit, P: target, Runs: len(ps), RunsForInterval: MinRunsForInterval,
		Method: "package scaling: relative least squares over Amdahl, USL, Gustafson and Extra-P forms, chosen by held-out prediction error"}
	if len(ps) != len(ys) {
		return e, nil, inputErrorf("%s: %d P for %d values", quantity, len(ps), len(ys))
	}
	d := &scaling.Data{Name: quantity}
	seen := map[float64]bool{}
	lo, hi := 0, 0
	for k, p := range ps {
		if !(p >= 1) || p != math.Trunc(p) || p > 1<<30 || !(ys[k] > 0) || math.IsInf(ys[k], 0) {
			return e, nil, inputErrorf("%s at P = %g is %g: extrapolation needs whole P ≥ 1 and finite values > 0", quantity, p, ys[k])
		}
		seen[p] = true
		d.Points = append(d.Points, scaling.Point{P: int(p), TimeS: ys[k]})
		if p < ps[lo] {
			lo = k
		}
		if p > ps[hi] {
			hi = k
		}
	}
	if len(seen) < 2 {
		return e, nil, inputErrorf("extrapolating %s needs runs at two or more different P (have %d)", quantity, len(seen))
	}
	if target < 1 || target > scaling.MaxPredictP {
		return e, nil, inputErrorf("cannot extrapolate to P = %d", target)
	}
	d.Scaling, e.Trend = "strong", "decreasing"
	if ys[hi] > ys[lo] {
		d.Scaling, e.Trend = "weak", "increasing"
	}
	fr, err := scaling.Fit(context.Background(), d) // bounded: one fit of at most a few runs; Extrapolate has no ctx yet
	if err != nil {
		return e, nil, extrapError(quantity, err)
	}
	pr, err := fr.Predict(target)
	if err != nil {
		return e, nil, extrapError(quantity, err)
	}
	// The selected model's value, not scaling's stacked TimeS: the stacking weights were
	// learned on run-time sets, not on mpiP's per-input trends (issue 30).
	e.Value, e.SpreadLow, e.SpreadHigh, e.Model, e.Formula = pr.SelectedS, pr.ModelsLowS, pr.ModelsHighS, pr.Model, pr.Formula
	if len(seen) >= 3 && (pr.PlausibleModels <= 1 || e.SpreadLow == e.SpreadHigh) { // with two runs the note below says why
		e.Notes = append(e.Notes, fmt.Sprintf("%s at P = %d: one plausible scaling model, so the spread %.4g … %.4g has zero width — that is no certainty: the runs cannot show how far other forms would differ", quantity, target, e.SpreadLow, e.SpreadHigh))
	}
	if len(seen) >= 3 {
		m := fr.Chosen
		e.Selected = &m
	} else {
		e.Notes = append(e.Notes, "two runs: every two-parameter model fits them exactly, so cross-validation cannot choose; the spread of the plausible models is the answer")
	}
	if len(seen) < MinRunsForInterval {
		e.Notes = append(e.Notes, fmt.Sprintf("no prediction interval: it needs ≥ %d runs at different P (have %d); the spread of plausible models is shown instead", MinRunsForInterval, len(seen)))
	}
	return e, pr, nil
}

// extrapError names the quantity; input errors stay input errors, a model that is not finite
// at the target is a finding (fault.ErrNotConverged, from scaling).
func extrapError(quantity string, err error) error {
	if errors.Is(err, fault.ErrInput) {
		return inputErrorf("%s: %v", quantity, err)
	}
	return fmt.Errorf("%s: %w", quantity, err)
}
