package qn

import (
	"context"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// MaxForkBranches bounds the branches of a fork/join node ForkJoinMVA accepts: E[max] by
// inclusion–exclusion costs 2^branches per step.
const MaxForkBranches = 16

// ForkJoinMVA solves a single-class closed network with fork/join nodes approximately, by
// the MVA recursion with each fork/join node treated as a station whose residence time is
// the expected maximum of its branches' (the fork/join MVA heuristic in the manner of Varki,
// "Mean value technique for closed fork-join networks", SIGMETRICS 1999). For n = 1…N:
//
//	r_b(n) = S_b·(1 + Q_b(n−1))                    branch queue station b (per task; S_b if delay)
//	T_f(n) = V_f·E[max_b Exp(mean r_b(n))]          fork/join node f, branches b
//	       = V_f·Σ_{∅≠A⊆B_f} (−1)^{|A|+1} / Σ_{b∈A} 1/r_b(n)
//	R_k(n) = D_k·(1 + Q_k(n−1))                     other queue stations (D_k if delay)
//	X(n)   = min(n / (Z + Σ_k R_k(n) + Σ_f T_f(n)), 1/D_max)
//	Q_k(n) = X(n)·R_k(n),   Q_b(n) = X(n)·V_f·r_b(n)
//
// The bound 1/D_max (queue stations) is enforced because near saturation the heuristic can
// exceed it slightly (by 0.02 % at N = 20 in the tests), which would put a utilisation above
// 1; the response time is then n/X − Z, so that Little's law holds for the whole network.
//
// The branch response times are taken as independent exponentials; the error this makes
// is measured against simulation in the tests (a few per cent on the networks there). A
// branch's Residence is V_f·r_b, its own share; the class response time adds T_f, not the
// branch residences. Only queue and delay stations, one copy per branch station.
//
// Without fork/join nodes the recursion is exact single-class MVA (QSP eqs. 6.1–6.3; the
// clamp to 1/D_max does not bind, as exact MVA's X(n) < 1/D_max): the result is then marked
// exact. Cost N·(K + Σ_f 2^{B_f}·B_f), refused beyond MaxSingleWork (fault.ErrTooLarge).
//
// ctx stops it: it is checked about every million operations (the error wraps
// fault.ErrInterrupted and ctx's error).
func ForkJoinMVA(ctx context.Context, m *Model) (*Result, error) {
	branchOf, err := forkJoinBranches(m)
	if err != nil {
		return nil, err
	}
	K := len(m.Stations)
	N := m.Classes[0].Population
	per := float64(K)
	for _, fj := range m.ForkJoins {
		per += math.Ldexp(float64(len(fj.Branches)), len(fj.Branches))
	}
	if w := float64(N) * per; w > MaxSingleWork {
		return nil, fmt.Errorf("%w: fork/join MVA would visit about %.3g population vectors × stations (population %d × (%d stations + the 2^branches·branches terms of E[max] per fork/join node); limit %.3g): lower the population, or simulate the model", fault.ErrTooLarge, w, N, K, float64(MaxSingleWork))
	}
	every := max(1, int(checkEvery/per))
	D := m.Demand[0]
	Vf, S := forkJoinServiceTimes(m, branchOf)
	Z := m.Classes[0].ThinkTime
	Q := make([]float64, K)
	R := make([]float64, K) // residence per job (branches: V_f·r_b)
	x, resp := 0.0, 0.0
	xmax := math.Inf(1) // 1/D_max over queue stations
	for k, st := range m.Stations {
		if st.Kind == Queue && D[k] > 0 {
			xmax = math.Min(xmax, 1/D[k])
		}
	}
	var rates []float64
	for n := 1; n <= N; n++ {
		if n%every == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("%w: fork/join MVA stopped at population %d of %d: %w", fault.ErrInterrupted, n, N, ctx.Err())
		}
		cycle := Z
		for k, st := range m.Stations {
			switch {
			case branchOf[k] >= 0:
				r := S[k]
				if st.Kind == Queue {
					r *= 1 + Q[k]
				}
				R[k] = Vf[branchOf[k]] * r
			case st.Kind == Queue:
				R[k] = D[k] * (1 + Q[k])
				cycle += float64(st.Copies()) * R[k]
			default:
				R[k] = D[k]
				cycle += float64(st.Copies()) * R[k]
			}
		}
		for f, fj := range m.ForkJoins {
			rates = rates[:0]
			for _, b := range fj.Branches {
				rates = append(rates, Vf[f]/R[b]) // 1/r_b (unused when V_f = 0)
			}
			if Vf[f] > 0 {
				cycle += Vf[f] * expectedMax(rates) // T_f
			}
		}
		x = float64(n) / cycle
		if x > xmax { // the heuristic can overshoot the bottleneck bound slightly
			x, cycle = xmax, float64(n)/xmax
		}
		resp = cycle - Z
		for k := range Q {
			Q[k] = x * R[k]
		}
	}
	return forkJoinResult(m, x, resp, R, Q), nil
}

// forkJoinBranches checks that ForkJoinMVA takes m (one closed class; queue and delay
// stations; visit counts when there are fork/join nodes; at most MaxForkBranches branches,
// each a single station) and returns each station's fork/join node, or −1.
func forkJoinBranches(m *Model) ([]int, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, err
	}
	if len(m.Classes) != 1 || m.Classes[0].Open {
		return nil, unsupported("fork/join MVA needs exactly one closed class (model has %d classes)", len(m.Classes))
	}
	if len(m.ForkJoins) > 0 && m.Visits == nil {
		return nil, unsupported("fork/join MVA needs the visit counts the routing gives (Model.Visits)")
	}
	branchOf := make([]int, len(m.Stations)) // fork/join index, or −1
	for k := range branchOf {
		branchOf[k] = -1
	}
	for f, fj := range m.ForkJoins {
		if len(fj.Branches) > MaxForkBranches {
			return nil, unsupported("fork/join %q has %d branches; fork/join MVA takes at most %d", fj.Name, len(fj.Branches), MaxForkBranches)
		}
		for _, b := range fj.Branches {
			if m.Stations[b].Copies() > 1 {
				return nil, unsupported("fork/join %q: branch %q has count > 1", fj.Name, m.Stations[b].Name)
			}
			branchOf[b] = f
		}
	}
	for _, st := range m.Stations {
		if st.Kind != Queue && st.Kind != Delay {
			return nil, unsupported("fork/join MVA takes queue and delay stations only (%q is %s)", st.Name, st.Kind)
		}
	}
	return branchOf, nil
}

// forkJoinServiceTimes returns, per fork/join node f, its visits V_f (those of any of its
// branches), and per branch station b its service time per visit S_b = D_b/V_b (0 for
// other stations and for unvisited branches).
func forkJoinServiceTimes(m *Model, branchOf []int) (Vf, S []float64) {
	Vf = make([]float64, len(m.ForkJoins))
	S = make([]float64, len(m.Stations))
	for k := range S {
		if f := branchOf[k]; f >= 0 && m.Visits != nil && m.Visits[0][k] > 0 {
			Vf[f] = m.Visits[0][k]
			S[k] = m.Demand[0][k] / m.Visits[0][k]
		}
	}
	return Vf, S
}

// forkJoinResult is the result at the full population: X, response time, residences,
// queue lengths and utilizations X·D; exact when the model has no fork/join node.
func forkJoinResult(m *Model, x, resp float64, R, Q []float64) *Result {
	res := newResult("forkjoin-mva", 1, len(m.Stations))
	res.Status = Status{Converged: true, Iterations: m.Classes[0].Population}
	res.Throughput[0] = x
	for k := range m.Stations {
		res.Residence[k][0] = R[k]
		res.QueueLength[k][0] = Q[k]
		res.Utilization[k][0] = x * m.Demand[0][k]
	}
	res.ResponseTime[0] = resp
	if len(m.ForkJoins) == 0 {
		res.Exact = true
		res.Reason = "the model has no fork/join nodes, so fork/join MVA is exact single-class MVA (QSP eqs. 6.1–6.3)"
	}
	return res
}

// expectedMax is E[max_i X_i] for independent exponentials with the given rates, by
// inclusion–exclusion: Σ_{∅≠A} (−1)^{|A|+1} / Σ_{i∈A} rate_i. A zero rate (a branch with no
// service) contributes nothing.
func expectedMax(rates []float64) float64 {
	n := len(rates)
	e := 0.0
	for mask := 1; mask < 1<<n; mask++ {
		sum, bits := 0.0, 0
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				sum += rates[i]
				bits++
			}
		}
		if math.IsInf(sum, 1) {
			continue // a zero-time branch in the set: the minimum is 0
		}
		if bits%2 == 1 {
			e += 1 / sum
		} else {
			e -= 1 / sum
		}
	}
	return e
}
