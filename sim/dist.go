package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Dist is a positive random variable with a given mean, scaled as needed.
type Dist interface {
	// Sample draws a value with mean m.
	Sample(rng *rand.Rand, m float64) float64
	// SCV is the squared coefficient of variation (variance/mean²).
	SCV() float64
	String() string
}

// Exponential (SCV 1).
type Exponential struct{}

func (Exponential) Sample(r *rand.Rand, m float64) float64 { return m * r.ExpFloat64() }
func (Exponential) SCV() float64                           { return 1 }
func (Exponential) String() string                         { return "exponential" }

// Deterministic (SCV 0).
type Deterministic struct{}

func (Deterministic) Sample(_ *rand.Rand, m float64) float64 { return m }
func (Deterministic) SCV() float64                           { return 0 }
func (Deterministic) String() string                         { return "deterministic" }

// Uniform on [0, 2m] (SCV 1/3).
type Uniform struct{}

func (Uniform) Sample(r *rand.Rand, m float64) float64 { return 2 * m * r.Float64() }
func (Uniform) SCV() float64                           { return 1.0 / 3 }
func (Uniform) String() string                         { return "uniform" }

// Erlang with K phases (SCV 1/K).
type Erlang struct{ K int }

func (e Erlang) Sample(r *rand.Rand, m float64) float64 {
	s := 0.0
	for i := 0; i < e.K; i++ {
		s += r.ExpFloat64()
	}
	return m * s / float64(e.K)
}
func (e Erlang) SCV() float64   { return 1 / float64(e.K) }
func (e Erlang) String() string { return fmt.Sprintf("erlang:%d", e.K) }

// HyperExp is a two-phase hyperexponential with balanced means and the given SCV > 1.
type HyperExp struct{ C2 float64 }

func (h HyperExp) Sample(r *rand.Rand, m float64) float64 {
	p := 0.5 * (1 + math.Sqrt((h.C2-1)/(h.C2+1)))
	if r.Float64() < p {
		return m / (2 * p) * r.ExpFloat64()
	}
	return m / (2 * (1 - p)) * r.ExpFloat64()
}
func (h HyperExp) SCV() float64   { return h.C2 }
func (h HyperExp) String() string { return fmt.Sprintf("hyperexp:%g", h.C2) }

// Gamma with shape k (SCV 1/k).
type Gamma struct{ Shape float64 }

func (g Gamma) Sample(r *rand.Rand, m float64) float64 { return m * gamma(r, g.Shape) / g.Shape }
func (g Gamma) SCV() float64                           { return 1 / g.Shape }
func (g Gamma) String() string                         { return fmt.Sprintf("gamma:%g", g.Shape) }

// gamma draws Gamma(k, 1) by Marsaglia & Tsang (2000).
func gamma(r *rand.Rand, k float64) float64 {
	if k < 1 {
		return gamma(r, k+1) * math.Pow(r.Float64(), 1/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// LogNormal with the given SCV.
type LogNormal struct{ C2 float64 }

func (l LogNormal) Sample(r *rand.Rand, m float64) float64 {
	s2 := math.Log(1 + l.C2)
	return m * math.Exp(r.NormFloat64()*math.Sqrt(s2)-s2/2)
}
func (l LogNormal) SCV() float64   { return l.C2 }
func (l LogNormal) String() string { return fmt.Sprintf("lognormal:%g", l.C2) }

// Pareto with shape α > 1 (heavy tailed; SCV 1/(α(α−2)) for α > 2, infinite otherwise).
type Pareto struct{ Alpha float64 }

func (p Pareto) Sample(r *rand.Rand, m float64) float64 {
	xm := m * (p.Alpha - 1) / p.Alpha
	return xm / math.Pow(1-r.Float64(), 1/p.Alpha)
}
func (p Pareto) SCV() float64 {
	if p.Alpha <= 2 {
		return math.Inf(1)
	}
	return 1 / (p.Alpha * (p.Alpha - 2))
}
func (p Pareto) String() string { return fmt.Sprintf("pareto:%g", p.Alpha) }

// Empirical resamples measured values, rescaled to the requested mean.
type Empirical struct{ Values []float64 }

func (e Empirical) Sample(r *rand.Rand, m float64) float64 {
	return e.Values[r.IntN(len(e.Values))] * m / e.mean()
}
func (e Empirical) mean() float64 {
	s := 0.0
	for _, v := range e.Values {
		s += v
	}
	return s / float64(len(e.Values))
}
func (e Empirical) SCV() float64 {
	mu := e.mean()
	v := 0.0
	for _, x := range e.Values {
		v += (x - mu) * (x - mu)
	}
	return v / float64(len(e.Values)) / (mu * mu)
}
func (e Empirical) String() string { return fmt.Sprintf("empirical:%d values", len(e.Values)) }

// DistNames lists the accepted spellings.
const DistNames = "exponential, deterministic, uniform (no parameter), erlang:K (1…1000), hyperexp:SCV (1 < SCV ≤ 1e4), gamma:SHAPE (0.01 … 1e6), lognormal:SCV (0 < SCV ≤ 1e4), pareto:ALPHA (α > 1), empirical:v1;v2;…"

// Parameter bounds of ParseDist. A shape or SCV outside them describes a variable whose
// samples collapse to 0 or to a few huge values (gamma:1e-6 draws u^(1/k) ≈ 0 for almost
// every u; lognormal:1e300 has σ² = ln(1 + SCV) ≈ 690, its samples 0 or +Inf in float64),
// so a simulation's arrivals pile up at one instant and its sample mean never approaches
// the mean: measured on tpn's sampled background (2 vCPUs, load ~20), gamma:1e-6 and
// lognormal:1e300 ran past 60 s without finishing and gamma:0.001 reported 361 s for a 3 s
// program. At the bounds (SCV 1e4, gamma shape 0.01 i.e. SCV 100) every run of that
// program finishes in well under a second. MaxGammaShape: beyond it gamma is
// deterministic to 1e-3 relative standard deviation; use deterministic.
const (
	MinGammaShape = 0.01
	MaxGammaShape = 1e6
	MaxSCV        = 1e4
)

// ParseDist reads a distribution name such as "erlang:4" or "pareto:2.5". exponential,
// deterministic and uniform take no parameter; a parameter outside the bounds above is
// refused.
func ParseDist(s string) (Dist, error) {
	name, arg, hasArg := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	switch name {
	case "exp", "exponential", "", "det", "deterministic", "constant", "uniform":
		if hasArg {
			return nil, fmt.Errorf("distribution %q: %s takes no parameter (allowed: %s)", s, name, DistNames)
		}
	}
	num := func() (float64, error) {
		v, err := strconv.ParseFloat(arg, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("distribution %q: %q is not a number", s, arg)
		}
		return v, nil
	}
	switch name {
	case "exp", "exponential", "":
		return Exponential{}, nil
	case "det", "deterministic", "constant":
		return Deterministic{}, nil
	case "uniform":
		return Uniform{}, nil
	case "erlang":
		v, err := num()
		if err != nil || v < 1 || v != math.Trunc(v) || v > 1000 {
			return nil, fmt.Errorf("distribution %q: erlang needs a whole number of phases 1…1000", s)
		}
		return Erlang{K: int(v)}, nil
	case "hyperexp", "hyperexponential", "h2":
		v, err := num()
		if err != nil || v <= 1 || v > MaxSCV {
			return nil, fmt.Errorf("distribution %q: hyperexp needs an SCV with 1 < SCV ≤ %g", s, MaxSCV)
		}
		return HyperExp{C2: v}, nil
	case "gamma":
		v, err := num()
		if err != nil || v < MinGammaShape || v > MaxGammaShape {
			return nil, fmt.Errorf("distribution %q: gamma needs a shape from %g to %g (SCV 1/shape ≤ %g)", s, MinGammaShape, MaxGammaShape, 1/MinGammaShape)
		}
		return Gamma{Shape: v}, nil
	case "lognormal":
		v, err := num()
		if err != nil || v <= 0 || v > MaxSCV {
			return nil, fmt.Errorf("distribution %q: lognormal needs an SCV with 0 < SCV ≤ %g", s, MaxSCV)
		}
		return LogNormal{C2: v}, nil
	case "pareto":
		v, err := num()
		if err != nil || v <= 1 {
			return nil, fmt.Errorf("distribution %q: pareto needs a shape α > 1 (finite mean)", s)
		}
		return Pareto{Alpha: v}, nil
	case "empirical":
		var vals []float64
		for _, f := range strings.Split(arg, ";") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("distribution %q: empirical values must be numbers ≥ 0 separated by ;", s)
			}
			vals = append(vals, v)
		}
		e := Empirical{Values: vals}
		if len(vals) == 0 || e.mean() <= 0 {
			return nil, fmt.Errorf("distribution %q: empirical needs values with a positive mean", s)
		}
		sort.Float64s(e.Values)
		return e, nil
	}
	return nil, fmt.Errorf("unknown distribution %q (allowed: %s)", s, DistNames)
}
