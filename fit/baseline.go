package fit

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// BaselineResult is a fitted Amdahl or Universal Scalability Law model.
type BaselineResult struct {
	Name       string          `json:"name"`
	Formula    string          `json:"formula"`
	Parameters []ParamEstimate `json:"parameters"`
	Metrics    Metrics         `json:"metrics"`
	AIC        float64         `json:"aic"`
	AICc       *float64        `json:"aicc"` // nil when undefined: n ≤ k + 1
	BIC        float64         `json:"bic"`
	K          int             `json:"free_parameters"`
	Note       string          `json:"note,omitempty"`
	f          func(x []float64, p float64) float64
	x          []float64
}

// Value evaluates the fitted baseline at p processors.
func (b *BaselineResult) Value(p int) float64 { return b.f(b.x, float64(p)) }

// Baselines fits Amdahl's law and Gunther's Universal Scalability Law to the data
// against p alone (they know nothing of disks: with several d the fit is across all of them).
//
//	Amdahl: s(p) = 1/(f + (1−f)/p)                          T(p) = T₁·(f + (1−f)/p)
//	USL:    s(p) = p/(1 + σ(p−1) + κ·p(p−1))                T(p) = T₁·(1 + σ(p−1) + κ·p(p−1))/p
func Baselines(data *Data) ([]*BaselineResult, error) {
	return BaselinesObjective(data, "relative")
}

// BaselinesObjective is Baselines minimising objective ("relative" or "absolute", as
// Spec.Objective): Run fits the baselines with the SPMD fit's objective, so that their AICc
// values, computed from the same kind of residuals, can be ranked together.
func BaselinesObjective(data *Data, objective string) ([]*BaselineResult, error) {
	speed := data.Target == "speedup"
	t1 := 0.0
	for _, o := range data.Obs {
		if o.P == 1 {
			t1 = math.Max(t1, o.Value)
		}
	}
	if t1 == 0 {
		t1 = data.Obs[0].Value * float64(data.Obs[0].P)
	}
	// Times are fitted in units of u (timeUnit), so that the fit does not depend on the
	// time unit (review: times × 1e9 came back at the start values); T1 is scaled back.
	u := 1.0
	if !speed {
		u = timeUnit(data)
	}
	t1 /= u
	var out []*BaselineResult
	for _, m := range baselineModels(speed, t1) {
		b, err := fitBaseline(data, m, u, objective == "absolute")
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// baselineModel is one baseline law: its parameters' names, start, bounds, and its value
// f(x, p) (a speedup, or a time in units of the data's time unit).
type baselineModel struct {
	name, formula string
	names         []string
	x0, lo, hi    []float64
	f             func(x []float64, p float64) float64
}

// baselineModels are Amdahl's law and the USL for speedups, or for times with T1 (start
// t1) as a parameter.
func baselineModels(speed bool, t1 float64) []baselineModel {
	if speed {
		return []baselineModel{
			{"amdahl", "s(p) = 1/(f + (1−f)/p)", []string{"f"}, []float64{0.05}, []float64{0}, []float64{1},
				func(x []float64, p float64) float64 { return 1 / (x[0] + (1-x[0])/p) }},
			{"usl", "s(p) = p/(1 + σ(p−1) + κp(p−1))", []string{"sigma", "kappa"}, []float64{0.05, 1e-4}, []float64{0, 0}, []float64{1, 1},
				func(x []float64, p float64) float64 { return p / (1 + x[0]*(p-1) + x[1]*p*(p-1)) }},
		}
	}
	return []baselineModel{
		{"amdahl", "T(p) = T1·(f + (1−f)/p)", []string{"t1", "f"}, []float64{t1, 0.05}, []float64{0, 0}, []float64{math.Inf(1), 1},
			func(x []float64, p float64) float64 { return x[0] * (x[1] + (1-x[1])/p) }},
		{"usl", "T(p) = T1·(1 + σ(p−1) + κp(p−1))/p", []string{"t1", "sigma", "kappa"}, []float64{t1, 0.05, 1e-4}, []float64{0, 0, 0}, []float64{math.Inf(1), 1, 1},
			func(x []float64, p float64) float64 { return x[0] * (1 + x[1]*(p-1) + x[2]*p*(p-1)) / p }},
	}
}

// fitBaseline fits model m to the data (values in units of u; relative residuals unless
// absolute) from its start with the shape parameters scaled by 1, 0.1 and 10, keeps the
// best, and reports it in seconds with standard errors, 95 % intervals, metrics and
// information criteria (an absolute cost in squared seconds, as the SPMD fit's).
func fitBaseline(data *Data, m baselineModel, u float64, absolute bool) (*BaselineResult, error) {
	speed := data.Target == "speedup"
	k := len(m.x0)
	if len(data.Obs) < k {
		return nil, fmt.Errorf("fit: %w: %w for %s: %d observations for %d free parameters", fault.ErrInput, ErrTooFewObservations, m.name, len(data.Obs), k)
	}
	pr := Problem{M: len(data.Obs), Lower: m.lo, Upper: m.hi, Residuals: func(x, r []float64) error {
		for i, o := range data.Obs {
			v := o.Value / u
			r[i] = m.f(x, float64(o.P)) - v
			if !absolute {
				r[i] /= v
			}
		}
		return nil
	}}
	best := (*Result)(nil)
	for _, scale := range []float64{1, 0.1, 10} {
		x0 := append([]float64(nil), m.x0...)
		for j := range x0 {
			if m.names[j] != "t1" {
				x0[j] *= scale
			}
		}
		r, err := LevenbergMarquardt(pr, x0, Settings{})
		if err == nil && (best == nil || r.Cost < best.Cost) {
			best = r
		}
	}
	if best == nil {
		return nil, fmt.Errorf("fit: %s could not be fitted", m.name)
	}
	x := append([]float64(nil), best.X...)
	cost := best.Cost
	if !speed {
		x[0] *= u // T1, seconds
		if absolute {
			cost *= u * u // squared seconds, as the SPMD fit's cost it is ranked with
		}
	}
	b := &BaselineResult{Name: m.name, Formula: m.formula, K: k, f: m.f, x: x}
	b.Parameters = baselineEstimates(m, best, x, u, len(data.Obs))
	var f, a []float64
	for _, o := range data.Obs {
		f, a = append(f, m.f(x, float64(o.P))), append(a, o.Value)
	}
	b.Metrics = Compare(f, a)
	b.AIC, _, b.BIC = InformationCriteria(cost, len(data.Obs), k)
	b.AICc = AICcOf(cost, len(data.Obs), k)
	if distinctD(data) > 1 {
		b.Note = "fitted against p only; it cannot see the disks"
	}
	return b, nil
}

// baselineEstimates are the parameters at x (T1 in seconds) with, where the covariance
// gives one, a standard error (T1's × u) and the interval value ± t(0.975, n − k)·se
// clipped to the bounds.
func baselineEstimates(m baselineModel, best *Result, x []float64, u float64, n int) []ParamEstimate {
	k := len(m.x0)
	free := make([]bool, k)
	for j := range free {
		free[j] = true
	}
	cov, _, _ := Covariance(best, free)
	t := TQuantile(0.975, n-k)
	var ps []ParamEstimate
	for j, name := range m.names {
		pe := ParamEstimate{Name: name, Value: x[j], AtBound: best.AtBound[j]}
		if v := cov.At(j, j); v >= 0 && !math.IsNaN(v) && !math.IsNaN(t) {
			se := math.Sqrt(v)
			if name == "t1" {
				se *= u
			}
			l, h := math.Max(pe.Value-t*se, m.lo[j]), math.Min(pe.Value+t*se, m.hi[j])
			pe.StdErr, pe.CILow, pe.CIHigh = &se, &l, &h
		}
		ps = append(ps, pe)
	}
	return ps
}

// timeUnit is the power of two nearest the geometric mean of the observed values,
// 2^round(mean log₂ v): dividing by it is exact, so times near 1 s fit bit-identically, and
// the fit works on numbers near 1 whatever the unit.
func timeUnit(data *Data) float64 {
	l := 0.0
	for _, o := range data.Obs {
		l += math.Log2(o.Value)
	}
	u := math.Ldexp(1, int(math.Round(l/float64(len(data.Obs)))))
	if !(u > 0) || math.IsInf(u, 0) {
		return 1
	}
	return u
}

func distinctD(data *Data) int {
	seen := map[int]bool{}
	for _, o := range data.Obs {
		seen[o.D] = true
	}
	return len(seen)
}
