package queue

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// MM1K solves the M/M/1/K queue, K ≥ 1 the most jobs in the station (Kleinrock vol. 1 §3.6;
// Octave qsmm1k). It is MMmK with m = 1.
func MM1K(lambda, mu float64, k int) (*Result, error) { return MMmK(lambda, mu, 1, k) }

// MMmK solves the M/M/m/K queue: m servers, room for K ≥ m jobs in all, arrivals finding K
// jobs are lost (Kleinrock vol. 1 §3.7; Bolch et al. §6.6; Octave qsmmmk and, for m = 1,
// qsmm1k). The birth–death chain with birth rate λ and death rate min(n, m)·μ has
//
//	p_n = p₀ · Π_{j=1..n} λ/(min(j, m)·μ),  n = 0..K,
//
// computed through logarithms (no overflow for any λ/μ) and normalised; then
// X = λ(1 − p_K), Q = Σ n·p_n, R = Q/X, U = X/(m·μ), P(block) = p_K, and an accepted
// arrival waits with probability Σ_{n=m}^{K−1} p_n/(1 − p_K). Any λ ≥ 0 is stable. With
// λ = 0, R is the limit 1/μ. K = m is Erlang's loss system (B = p_K). Work and memory are
// O(K); K > MaxStates is fault.ErrTooLarge.
//
// An accepted arrival that finds n jobs (probability p_n/(1 − p_K), PASTA) is served at once
// if n < m, R ~ Exp(μ); otherwise it waits for n − m + 1 departures at rate mμ, so
// R ~ Erlang(n − m + 1, mμ) + Exp(μ). The percentiles invert this mixture.
func MMmK(lambda, mu float64, m, k int) (*Result, error) {
	if err := checkRates(lambda, mu); err != nil {
		return nil, err
	}
	if err := checkServers(m); err != nil {
		return nil, err
	}
	if k < m {
		return nil, badf("capacity K = %d: must be a whole number ≥ m = %d (K counts the jobs in service too)", k, m)
	}
	if k > MaxStates {
		return nil, fmt.Errorf("%w: capacity K = %d exceeds the limit %d states", fault.ErrTooLarge, k, MaxStates)
	}
	p := bdProbs(lambda, mu, m, k)
	fm := float64(m)
	r := &Result{Model: fmt.Sprintf("M/M/%d/%d", m, k), Exact: true,
		Method:      "birth–death chain of the M/M/m/K queue (Kleinrock vol. 1 §3.7)",
		ArrivalRate: lambda, ServiceRate: mu, ServiceSCV: 1, Servers: m, Capacity: k,
		OfferedLoad: lambda / mu, PEmpty: p[0], PBlock: ptr(p[k])}
	if math.IsInf(r.OfferedLoad, 0) {
		return nil, badf("offered load λ/μ = %g/%g exceeds the largest float64 (1.8e308): --lambda/--mu", lambda, mu)
	}
	if m == k {
		r.Method = "Erlang's loss system M/M/m/m (Kleinrock vol. 1 §3.7)"
	}
	lw := bdLogWeights(lambda, mu, m, k)
	// Every sum is a ratio of weights rescaled by its own largest term, so no 1 − p_K is
	// formed: at λ/μ = 1e20 it rounds to 0 while X = Σ min(n, m)·μ·p_n → m·μ.
	q, x := scaledSum(lw, 1, k, func(n int) float64 { return float64(n) }), scaledSum(lw, 1, k, func(n int) float64 { return float64(min(n, m)) })
	qw := scaledSum(lw, 1, k, func(n int) float64 { return float64(max(n-m, 0)) })
	acc, wait := scaledSum(lw, 0, k-1, func(int) float64 { return 1 }), scaledSum(lw, 0, k-1, func(n int) float64 { return b2f(n >= m) })
	r.Jobs, r.JobsWaiting = q.ratio(bdTotal(lw)), qw.ratio(bdTotal(lw))
	r.BusyServers = x.ratio(bdTotal(lw))
	r.Throughput = r.BusyServers * mu
	r.Utilization = r.BusyServers / fm
	r.PWait = ptr(wait.ratio(acc))
	if lambda > 0 && x.sum > 0 {
		r.ResponseTime = q.ratio(x) / mu // R = Q/X: Σ n·p_n / (μ·Σ min(n, m)·p_n)
		r.WaitingTime = qw.ratio(x) / mu
	} else {
		r.ResponseTime = 1 / mu
		r.Notes = append(r.Notes, "λ = 0: response time is the limit λ → 0, one service time")
	}
	return r, r.finish()
}

// bdLogWeights returns log w_0..log w_K, w_n = Π_{j=1..n} λ/(min(j, m)·μ), of the M/M/m/K
// birth–death chain (log λ − log μ: no overflow of λ/μ); λ = 0 gives w_n = 0 for n ≥ 1.
func bdLogWeights(lambda, mu float64, m, k int) []float64 {
	lw := make([]float64, k+1)
	la := math.Log(lambda) - math.Log(mu)
	for n := 1; n <= k; n++ {
		lw[n] = lw[n-1] + la - math.Log(float64(min(n, m)))
	}
	return lw
}

// bdProbs returns p_0..p_K of the M/M/m/K birth–death chain.
func bdProbs(lambda, mu float64, m, k int) []float64 {
	lw := bdLogWeights(lambda, mu, m, k)
	t := bdTotal(lw)
	p := make([]float64, k+1)
	for n := range p {
		p[n] = math.Exp(lw[n]-t.lmax) / t.sum
	}
	return p
}

// wsum is Σ f(n)·w_n over a range as sum·e^{lmax}, lmax the largest log w_n of the range.
type wsum struct{ sum, lmax float64 }

// ratio is a/b for two weighted sums, scaled by their maxima.
func (a wsum) ratio(b wsum) float64 {
	if a.sum == 0 {
		return 0
	}
	return a.sum / b.sum * math.Exp(a.lmax-b.lmax)
}

func scaledSum(lw []float64, lo, hi int, f func(int) float64) wsum {
	lmax := math.Inf(-1)
	for n := lo; n <= hi; n++ {
		lmax = math.Max(lmax, lw[n])
	}
	if math.IsInf(lmax, -1) { // λ = 0: every weight of the range is 0
		return wsum{0, lmax}
	}
	s := 0.0
	for n := lo; n <= hi; n++ {
		s += f(n) * math.Exp(lw[n]-lmax)
	}
	return wsum{s, lmax}
}

func bdTotal(lw []float64) wsum { return scaledSum(lw, 0, len(lw)-1, func(int) float64 { return 1 }) }

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
