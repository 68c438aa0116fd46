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
	if m == k {
		r.Method = "Erlang's loss system M/M/m/m (Kleinrock vol. 1 §3.7)"
	}
	q, qw, wait := 0.0, 0.0, 0.0
	for n := 1; n <= k; n++ {
		q += float64(n) * p[n]
		if n > m {
			qw += float64(n-m) * p[n]
		}
		if n >= m && n < k {
			wait += p[n]
		}
	}
	r.Throughput = lambda * (1 - p[k])
	r.BusyServers = r.Throughput / mu
	r.Utilization = r.BusyServers / fm
	r.Jobs = q
	r.JobsWaiting = qw
	if r.Throughput > 0 {
		r.ResponseTime = q / r.Throughput
		r.WaitingTime = qw / r.Throughput
		r.PWait = ptr(wait / (1 - p[k]))
	} else {
		r.ResponseTime = 1 / mu
		r.PWait = ptr(0)
		r.Notes = append(r.Notes, "λ = 0: response time is the limit λ → 0, one service time")
	}
	return r, r.finish()
}

// bdProbs returns p_0..p_K of the M/M/m/K birth–death chain.
func bdProbs(lambda, mu float64, m, k int) []float64 {
	p := make([]float64, k+1)
	if lambda == 0 {
		p[0] = 1
		return p
	}
	lw := make([]float64, k+1) // log of the unnormalised weights
	lmax := 0.0
	la := math.Log(lambda / mu)
	for n := 1; n <= k; n++ {
		lw[n] = lw[n-1] + la - math.Log(float64(min(n, m)))
		lmax = math.Max(lmax, lw[n])
	}
	sum := 0.0
	for n := range p {
		p[n] = math.Exp(lw[n] - lmax)
		sum += p[n]
	}
	for n := range p {
		p[n] /= sum
	}
	return p
}
