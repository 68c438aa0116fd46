package queue

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mathext"
)

// responseTail returns P(R > t) for the response time of an accepted job, or nil when the
// model has no closed form for it.
func responseTail(r *Result) func(t float64) float64 {
	mu := r.ServiceRate
	switch {
	case !r.Exact || r.ServiceSCV != 1 || r.Model == "M/G/1":
		return nil
	case r.Servers == 0: // M/M/∞
		return func(t float64) float64 { return math.Exp(-mu * t) }
	case r.Capacity == 0: // M/M/m (M/M/1 as m = 1)
		c := *r.PWait
		theta := float64(r.Servers)*mu - r.ArrivalRate
		return func(t float64) float64 { return (1-c)*math.Exp(-mu*t) + c*hypoTail(mu, theta, t) }
	default:
		p := bdProbs(r.ArrivalRate, mu, r.Servers, r.Capacity)
		return mixtureTail(p, mu, r.Servers, r.Capacity)
	}
}

// hypoTail is P(S + W > t) for independent S ~ Exp(μ), W ~ Exp(θ):
// e^{−μt}[1 + μ(1 − e^{−(θ−μ)t})/(θ − μ)], whose limit as θ → μ is e^{−μt}(1 + μt); the
// expm1 form has no cancellation near θ = μ.
func hypoTail(mu, theta, t float64) float64 {
	d := theta - mu
	f := t
	if d != 0 {
		f = -math.Expm1(-d*t) / d
	}
	return math.Exp(-mu*t) * (1 + mu*f)
}

// mixtureTail is P(R > t) of an accepted job in M/M/m/K (see MMmK).
func mixtureTail(p []float64, mu float64, m, k int) func(t float64) float64 {
	acc := 1 - p[k]
	theta := float64(m) * mu
	return func(t float64) float64 {
		tail := 0.0
		free := 0.0
		for n := 0; n < min(m, k); n++ {
			free += p[n]
		}
		tail += free / acc * math.Exp(-mu*t)
		for n := m; n < k; n++ {
			w := p[n] / acc
			if w < 1e-300 {
				continue
			}
			j := float64(n - m + 1)
			if m == 1 { // Erlang(j+1, μ)
				tail += w * mathext.GammaIncRegComp(j+1, mu*t)
				continue
			}
			// Erlang(j, θ) + Exp(μ), θ = mμ > μ:
			// P(E > t) + e^{−μt}(θ/(θ−μ))^j·P(Erlang(j, θ−μ) ≤ t)
			lower := mathext.GammaIncReg(j, (theta-mu)*t)
			s := mathext.GammaIncRegComp(j, theta*t)
			if lower > 0 {
				s += math.Exp(-mu*t + j*math.Log(theta/(theta-mu)) + math.Log(lower))
			}
			tail += w * s
		}
		return tail
	}
}

// quantile inverts a continuous decreasing tail function: the t with tail(t) = 1 − p, by
// bisection to a relative width of 1e-13. mean is a scale for the first bracket.
func quantile(tail func(float64) float64, p, mean float64) float64 {
	target := 1 - p
	lo, hi := 0.0, math.Max(mean, 1e-300)
	for i := 0; tail(hi) > target && i < 2000; i++ {
		lo, hi = hi, 2*hi
	}
	for i := 0; i < 200 && hi-lo > 1e-13*hi; i++ {
		mid := 0.5 * (lo + hi)
		if tail(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return 0.5 * (lo + hi)
}

// AddPercentiles adds the response-time p-quantiles (each 0 < p < 1) to r where the model
// has a closed-form response-time distribution (M/M/1, M/M/m, M/M/∞, M/M/1/K, M/M/m/K with
// FCFS); otherwise it adds a note saying why none are given.
func AddPercentiles(r *Result, ps []float64) error {
	for _, p := range ps {
		if !(p > 0 && p < 1) {
			return badf("percentile %v: must be a fraction strictly between 0 and 1", p)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	if r.Capacity > MaxPercentileStates {
		r.Notes = append(r.Notes, fmt.Sprintf("percentiles not computed: capacity K = %d exceeds %d states", r.Capacity, MaxPercentileStates))
		return nil
	}
	tail := responseTail(r)
	if tail == nil {
		return nil // the model's constructor has already noted why
	}
	for _, p := range ps {
		r.Percentiles = append(r.Percentiles, Percentile{P: p, ResponseTime: quantile(tail, p, r.ResponseTime)})
	}
	r.Method += "; percentiles by bisection on the closed-form response-time distribution (relative width 1e-13)"
	return nil
}
