package mpip

import (
	"fmt"
	"math"
	"sort"
)

// Extrapolation in P by a small family of performance-model normal forms (Extra-P: Calotoiu
// et al., SC 2013), y(p) = c0 + c1·p^i·log2(p)^j, kept self-contained here so that it can be
// replaced by the general scaling package later (issue 22): Term, fitTerm, Extrapolate.

// Term is one normal-form term p^I·log2(p)^J; the zero Term is the constant model y = c0.
type Term struct {
	I float64 `json:"p_exponent"`
	J int     `json:"log2_exponent"`
}

// Family are the terms tried: exponents i from −1 (perfect strong scaling of a per-rank time)
// to 2 in Extra-P's steps, j = 0, 1, 2; and the constant.
func Family() []Term {
	is := []float64{-1, -3.0 / 4, -2.0 / 3, -1.0 / 2, -1.0 / 3, -1.0 / 4, 0, 1.0 / 4, 1.0 / 3, 1.0 / 2, 2.0 / 3, 3.0 / 4, 1, 4.0 / 3, 3.0 / 2, 5.0 / 3, 2}
	fam := []Term{{}}
	for _, i := range is {
		for j := 0; j <= 2; j++ {
			if i == 0 && j == 0 {
				continue
			}
			fam = append(fam, Term{I: i, J: j})
		}
	}
	return fam
}

func (t Term) f(p float64) float64 { return math.Pow(p, t.I) * math.Pow(math.Log2(p), float64(t.J)) }

// String is the model's formula.
func (t Term) String() string {
	if t.I == 0 && t.J == 0 {
		return "c0"
	}
	s := "c0 + c1"
	if t.I != 0 {
		s += fmt.Sprintf("·p^%.3g", t.I)
	}
	switch t.J {
	case 1:
		s += "·log2(p)"
	case 2:
		s += "·log2(p)²"
	}
	return s
}

// ScalingModel is one fitted member of the family.
type ScalingModel struct {
	Model string  `json:"model"`
	Term  Term    `json:"term"`
	C0    float64 `json:"c0"`
	C1    float64 `json:"c1"`
	// CVRelError is the mean |relative error| of predicting each run from the others
	// (leave-one-out); nil with fewer than 3 runs (each model fits 2 runs exactly).
	CVRelError *float64 `json:"cv_rel_error"`
	Prediction float64  `json:"prediction"`
}

// At is the model's value at p.
func (m ScalingModel) At(p float64) float64 { return m.C0 + m.C1*m.Term.f(p) }

// fitTerm fits c0 + c1·f(p) by least squares (c0 alone for the constant term); ok is false
// when the term does not vary over the given p.
func fitTerm(t Term, ps, ys []float64) (ScalingModel, bool) {
	m := ScalingModel{Model: t.String(), Term: t}
	n := float64(len(ps))
	var my float64
	for _, y := range ys {
		my += y / n
	}
	if t.I == 0 && t.J == 0 {
		m.C0 = my
		return m, true
	}
	var mx float64
	xs := make([]float64, len(ps))
	for k, p := range ps {
		xs[k] = t.f(p)
		mx += xs[k] / n
	}
	var sxx, sxy float64
	for k := range xs {
		sxx += (xs[k] - mx) * (xs[k] - mx)
		sxy += (xs[k] - mx) * (ys[k] - my)
	}
	if !(sxx > 1e-300) || math.IsInf(sxx, 0) {
		return m, false
	}
	m.C1 = sxy / sxx
	m.C0 = my - m.C1*mx
	return m, !math.IsNaN(m.C0) && !math.IsInf(m.C0, 0)
}

// Extrapolation is a quantity's value at an unmeasured P from the family of scaling models.
type Extrapolation struct {
	Quantity string  `json:"quantity"`
	Unit     string  `json:"unit"`
	P        int     `json:"p"`
	Runs     int     `json:"runs"`
	Method   string  `json:"method"`
	Exact    bool    `json:"exact"`
	Value    float64 `json:"value"` // the selected model's prediction (≥ 3 runs) or the family median
	// SpreadLow, SpreadHigh: the range of the plausible models' predictions — a range of
	// models, not a confidence interval.
	SpreadLow  float64        `json:"spread_low"`
	SpreadHigh float64        `json:"spread_high"`
	Selected   *ScalingModel  `json:"selected,omitempty"`
	Plausible  []ScalingModel `json:"plausible_models"`
	// RunsForInterval is how many runs at different P a prediction interval needs: 2
	// parameters and at least 3 residual degrees of freedom (t_{0.975,3} = 3.18; with 1, as
	// three runs give, t = 12.7 and the interval of a log-scale fit spans orders of magnitude).
	RunsForInterval int      `json:"runs_for_interval"`
	Notes           []string `json:"notes,omitempty"`
}

// MinRunsForInterval is Extrapolation.RunsForInterval.
const MinRunsForInterval = 5

// PlausibleFactor: with ≥ 3 runs, the models whose cross-validation error is within this
// factor of the best one's (or within 0.02 of it) make the spread.
const PlausibleFactor = 2

// Extrapolate predicts quantity y at target from runs at ps (two or more different P):
// every family member is fitted; a member whose value at the target or at a measured P is not
// > 0 is dropped (a time or a count cannot be ≤ 0). With 3 or more runs the member of least
// leave-one-out error is selected and the members near it form the spread; with 2 runs every
// member fits exactly, none can be selected, and the spread is the whole family's.
func Extrapolate(quantity, unit string, ps, ys []float64, target int) (Extrapolation, error) {
	e := Extrapolation{Quantity: quantity, Unit: unit, P: target, Runs: len(ps), RunsForInterval: MinRunsForInterval,
		Method: "family of normal forms c0 + c1·p^i·log2(p)^j (Extra-P), least squares; selection by leave-one-out cross-validation"}
	seen := map[float64]bool{}
	for k, p := range ps {
		if !(p >= 1) || !(ys[k] > 0) || math.IsInf(ys[k], 0) {
			return e, inputErrorf("%s at P = %g is %g: extrapolation needs P ≥ 1 and finite values > 0", quantity, p, ys[k])
		}
		seen[p] = true
	}
	if len(seen) < 2 {
		return e, inputErrorf("extrapolating %s needs runs at two or more different P (have %d)", quantity, len(seen))
	}
	if target < 1 {
		return e, inputErrorf("cannot extrapolate to P = %d", target)
	}
	tp := float64(target)
	var models []ScalingModel
	for _, t := range Family() {
		m, ok := fitTerm(t, ps, ys)
		if !ok {
			continue
		}
		m.Prediction = m.At(tp)
		if !positiveOn(m, ps, tp) {
			continue
		}
		if len(ps) >= 3 {
			cv, ok := looError(t, ps, ys)
			if !ok {
				continue
			}
			m.CVRelError = &cv
		}
		models = append(models, m)
	}
	if len(models) == 0 {
		return e, fmt.Errorf("%s: no model of the family stays > 0 up to P = %d", quantity, target)
	}
	if len(ps) >= 3 {
		sort.SliceStable(models, func(a, b int) bool { return *models[a].CVRelError < *models[b].CVRelError })
		best := *models[0].CVRelError
		sel := models[0]
		e.Selected = &sel
		e.Value = sel.Prediction
		for _, m := range models {
			if *m.CVRelError <= math.Max(PlausibleFactor*best, best+0.02) {
				e.Plausible = append(e.Plausible, m)
			}
		}
	} else {
		e.Plausible = models
		e.Notes = append(e.Notes, "2 runs: every model of the family fits them exactly, so none can be selected; the value is the family's median and the spread its range")
	}
	preds := make([]float64, len(e.Plausible))
	for k, m := range e.Plausible {
		preds[k] = m.Prediction
	}
	sort.Float64s(preds)
	e.SpreadLow, e.SpreadHigh = preds[0], preds[len(preds)-1]
	if e.Selected == nil {
		e.Value = preds[len(preds)/2]
	}
	if len(ps) < MinRunsForInterval {
		e.Notes = append(e.Notes, fmt.Sprintf("no prediction interval: it needs ≥ %d runs at different P (have %d); the spread of plausible models is shown instead", MinRunsForInterval, len(ps)))
	}
	return e, nil
}

func positiveOn(m ScalingModel, ps []float64, target float64) bool {
	lo, hi := target, target
	for _, p := range ps {
		lo, hi = math.Min(lo, p), math.Max(hi, p)
	}
	// Check the measured P, the target, and a grid between (a model may dip below 0 between).
	for k := 0; k <= 16; k++ {
		p := lo * math.Pow(hi/lo, float64(k)/16)
		if v := m.At(p); !(v > 0) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// looError is the mean |relative error| of predicting each run from the others with term t.
func looError(t Term, ps, ys []float64) (float64, bool) {
	sum := 0.0
	for k := range ps {
		var qs, zs []float64
		for l := range ps {
			if l != k {
				qs = append(qs, ps[l])
				zs = append(zs, ys[l])
			}
		}
		m, ok := fitTerm(t, qs, zs)
		if !ok {
			return 0, false
		}
		sum += math.Abs(m.At(ps[k])-ys[k]) / ys[k]
	}
	v := sum / float64(len(ps))
	return v, !math.IsNaN(v) && !math.IsInf(v, 0)
}
