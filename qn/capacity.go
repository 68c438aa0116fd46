package qn

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/ctmc"
)

// BlockingStateBudget is the largest number of CTMC states SolveBlocking solves exactly
// (GTH is O(S³) time and S² floats: 1000 states ≈ 8 MB, a few tenths of a second on one core).
const BlockingStateBudget = 1000

// mvabloMaxWork bounds MVABLO's work, population × stations² (one MVA step per population,
// a few correction rounds of K stations each): about a second.
const mvabloMaxWork = 2e8

// checkCapacity refuses, at the capacity field, what SolveBlocking does not cover.
func (f *ModelFile) checkCapacity() {
	if err := blockingCovered(f.Model, f.Capacity, f.Model.Routing); err != nil {
		for k, c := range f.Capacity {
			if c > 0 {
				f.capNode[k].Errorf("%v", err)
				return
			}
		}
	}
}

// blockingCovered returns why a model with capacities is outside what SolveBlocking (and its
// exact CTMC) cover: one closed class with no think time, routed by a routing: section,
// single-server queue stations (type queue, count 1), no fork/join nodes, and a population
// that fits the capacities.
func blockingCovered(m *Model, capacity []int, routing []*Routing) error {
	if len(capacity) != len(m.Stations) {
		return fmt.Errorf("capacity: %d entries for %d stations", len(capacity), len(m.Stations))
	}
	if len(m.Classes) != 1 {
		return fmt.Errorf("capacity: finite capacities are solved for one closed class only (MVABLO); the model has %d classes", len(m.Classes))
	}
	cl := m.Classes[0]
	switch {
	case cl.Open:
		return fmt.Errorf("capacity: finite capacities are solved for closed networks only (MVABLO); class %q is open", cl.Name)
	case cl.ThinkTime != 0:
		return fmt.Errorf("capacity: class %q has think_time; with finite capacities give it none and route through a delay-free station instead (MVABLO has no terminals)", cl.Name)
	case len(routing) == 0 || routing[0] == nil:
		return fmt.Errorf("capacity: finite capacities need the class's routing: section (blocking depends on where each job goes next)")
	case len(m.ForkJoins) > 0:
		return fmt.Errorf("capacity: fork_joins with finite capacities are not supported")
	}
	total := 0
	for k, st := range m.Stations {
		if st.Kind != Queue || st.Copies() != 1 {
			return fmt.Errorf("capacity: station %q: finite capacities are solved for single-server stations (type queue, count 1) only", st.Name)
		}
		if capacity[k] < 0 {
			return fmt.Errorf("capacity: station %q: capacity %d must be ≥ 1", st.Name, capacity[k])
		}
		if capacity[k] == 0 || total > math.MaxInt32 {
			total = math.MaxInt32
		} else {
			total += capacity[k]
		}
	}
	if N := cl.Population; N > total {
		return fmt.Errorf("capacity: population %d exceeds the total capacity %d", N, total)
	}
	return nil
}

// deadlockCycle returns the stations of the routing cycle with the smallest total capacity
// and that total, when it is at most n (nil otherwise): n jobs can then fill every station
// of the cycle, each blocked on the next — a deadlock of blocking after service. Self-loops
// never block; a station without a capacity breaks every cycle through it. Floyd–Warshall
// over node weights, O(K³).
func deadlockCycle(P [][]float64, capacity []int, n int) ([]int, int) {
	K := len(capacity)
	const inf = math.MaxInt / 4
	dist := make([][]int, K)
	next := make([][]int, K)
	for i := range dist {
		dist[i] = make([]int, K)
		next[i] = make([]int, K)
		for j := range dist[i] {
			dist[i][j], next[i][j] = inf, -1
			if i != j && j < len(P[i]) && P[i][j] > 0 && capacity[j] > 0 && capacity[i] > 0 {
				dist[i][j], next[i][j] = capacity[j], j
			}
		}
	}
	// dist[i][i] stays inf until a cycle closes: paths may return to their start
	for k := 0; k < K; k++ {
		for i := 0; i < K; i++ {
			if dist[i][k] == inf {
				continue
			}
			for j := 0; j < K; j++ {
				if d := dist[i][k] + dist[k][j]; dist[k][j] != inf && d < dist[i][j] {
					dist[i][j], next[i][j] = d, next[i][k]
				}
			}
		}
	}
	best, at := inf, -1
	for i := 0; i < K; i++ {
		if dist[i][i] < best {
			best, at = dist[i][i], i
		}
	}
	if at < 0 || best > n {
		return nil, 0
	}
	cyc := []int{at}
	for x := next[at][at]; x != at && x >= 0 && len(cyc) <= K; x = next[x][at] {
		cyc = append(cyc, x)
	}
	return cyc, best
}

// blockingNet is the CTMC of m with population n (see ctmc.BlockingNetwork).
func blockingNet(m *Model, capacity []int, r *Routing, n int) ctmc.BlockingNetwork {
	K := len(m.Stations)
	net := ctmc.BlockingNetwork{Limit: capacity, Population: n, Service: make([]float64, K), Routing: r.P}
	for k := 0; k < K; k++ {
		if v := m.Visits[0][k]; v > 0 {
			net.Service[k] = m.Demand[0][k] / v
		}
	}
	return net
}

// SolveBlocking solves a closed single-class network of single-server stations with finite
// capacities and blocking after service (capacity[k] jobs at most at station k, 0 for
// unlimited; routing[0] the class's routing). Solvers:
//
//   - "exact" (or "ctmc"): the exact CTMC (internal/ctmc.SolveBlocking); a model beyond
//     BlockingStateBudget states is refused with fault.ErrTooLarge.
//   - "mvablo": Akyildiz's MVA for blocking networks (IEEE TSE 14(4), 1988; GNU Octave's
//     qncsmvablo, which this follows line by line): MVA whose residence time at a station that
//     would exceed its capacity loses the queueing term and whose upstream stations gain the
//     blocking time S_i·V_j·P_ji/V_i. Approximate: the result carries the measured error of
//     the same approximation against the exact CTMC at the largest population (≤ N) whose
//     chain fits the budget, with the capacities scaled alike (⌈M·n/N⌉, so that blocking binds
//     as at N) — ErrorEstimate.MeasuredRelError (the larger of the throughput's relative
//     error and the largest queue-length error over the population) and MeasuredPopulation.
//   - "auto" (or ""): "exact" when the chain fits the budget, else "mvablo".
//
// A model outside this scope (several or open classes, think time, other station types,
// population above the capacities) wraps fault.ErrInput naming the capacity field; a reachable
// deadlock (a cycle of full, mutually blocked stations) wraps fault.ErrDeadlock.
func SolveBlocking(m *Model, capacity []int, routing []*Routing, solver string) (*Result, error) {
	if err := blockingCovered(m, capacity, routing); err != nil {
		return nil, fmt.Errorf("%w: %v", fault.ErrInput, err)
	}
	r := routing[0]
	N := m.Classes[0].Population
	if cyc, total := deadlockCycle(r.P, capacity, N); cyc != nil {
		var names []string
		for _, k := range cyc {
			names = append(names, fmt.Sprintf("%q", m.Stations[k].Name))
		}
		return nil, fmt.Errorf("%w: capacity: the %d jobs can fill the cycle of stations %s (total capacity %d), each blocked on the next: lower the population below %d or raise a capacity", fault.ErrDeadlock, N, strings.Join(names, " → "), total, total)
	}
	if N == 0 {
		res := newResult("mva", 1, len(m.Stations))
		res.Method, res.Exact, res.Status = "empty", true, Status{Converged: true}
		return res, nil
	}
	switch solver {
	case "exact", "ctmc":
		return blockingExact(m, capacity, r, N)
	case "auto", "":
		res, err := blockingExact(m, capacity, r, N)
		if err == nil || !errors.Is(err, fault.ErrTooLarge) {
			if res != nil {
				res.Solver, res.Reason = "auto", fmt.Sprintf("the exact CTMC has at most %d states", BlockingStateBudget)
			}
			return res, err
		}
		res, err = blockingMVABLO(m, capacity, r, N)
		if res != nil {
			res.Solver, res.Reason = "auto", fmt.Sprintf("the exact CTMC exceeds %d states", BlockingStateBudget)
		}
		return res, err
	case "mvablo":
		return blockingMVABLO(m, capacity, r, N)
	}
	return nil, fmt.Errorf("%w: solver %q: a model with capacity: is solved by auto, exact (ctmc) or mvablo", fault.ErrInput, solver)
}

func blockingExact(m *Model, capacity []int, r *Routing, N int) (*Result, error) {
	sol, err := ctmc.SolveBlocking(blockingNet(m, capacity, r, N), BlockingStateBudget)
	switch {
	case errors.Is(err, ctmc.ErrTooLarge):
		return nil, fmt.Errorf("%w: capacity: the exact CTMC of population %d exceeds %d states (use --solver mvablo, approximate)", fault.ErrTooLarge, N, BlockingStateBudget)
	case errors.Is(err, ctmc.ErrDeadlock):
		return nil, fmt.Errorf("%w: capacity: %v", fault.ErrDeadlock, err)
	case err != nil:
		return nil, err
	}
	K := len(m.Stations)
	res := newResult("exact", 1, K)
	res.Method, res.Exact = "ctmc-blocking-after-service", true
	res.Status = Status{Converged: true, Iterations: sol.States, Residual: sol.Residual}
	ref := r.Reference
	x := sol.Throughput[ref] / m.Visits[0][ref]
	res.Throughput[0] = x
	for k := 0; k < K; k++ {
		res.QueueLength[k][0] = sol.QueueLength[k]
		if x > 0 {
			res.Residence[k][0] = sol.QueueLength[k] / x
		}
		res.ResponseTime[0] += res.Residence[k][0]
		res.Utilization[k][0] = sol.Busy[k]
	}
	res.Notes = append(res.Notes, fmt.Sprintf("finite capacities, blocking after service: exact CTMC of %d states", sol.States))
	return res, nil
}

// mvablo is Akyildiz's algorithm (see SolveBlocking) for population N: per-visit residence
// times t, visits v (v[ref] = 1), service times S, capacities M (0: unlimited). It returns
// the cycle throughput λ and t.
func mvablo(S, v []float64, P [][]float64, M []int, N int) (lambda float64, t []float64, err error) {
	K := len(S)
	kPrev := make([]float64, K)
	bt := make([]float64, K)
	z := make([]float64, K)
	for i := range z {
		z[i] = 1
	}
	t = make([]float64, K)
	kb := make([]float64, K)
	for n := 1; n <= N; n++ {
		for it := 0; ; it++ {
			if it > 1000*K {
				return 0, nil, fmt.Errorf("%w: mvablo: population %d: the capacity corrections did not settle after %d rounds", fault.ErrNotConverged, n, it)
			}
			den := 0.0
			for i := range t {
				t[i] = S[i]*(z[i]+kPrev[i]) + bt[i]
				den += v[i] * t[i]
			}
			lambda = float64(n) / den
			over := -1
			for i := range kb {
				kb[i] = t[i] * v[i] * lambda
				if over < 0 && M[i] > 0 && kb[i] > float64(M[i]) {
					over = i
				}
			}
			if over < 0 {
				break
			}
			z[over] = 0
			for j := range bt {
				if v[over] > 0 {
					bt[j] += S[over] * v[j] * P[j][over] / v[over]
				}
			}
		}
		copy(kPrev, kb)
	}
	return lambda, t, nil
}

func blockingMVABLO(m *Model, capacity []int, r *Routing, N int) (*Result, error) {
	K := len(m.Stations)
	if work := float64(N) * float64(K) * float64(K); work > mvabloMaxWork {
		return nil, fmt.Errorf("%w: capacity: mvablo needs about %.3g steps (population %d × %d stations²), above the limit of %.3g", fault.ErrTooLarge, work, N, K, float64(mvabloMaxWork))
	}
	S := make([]float64, K)
	v := m.Visits[0]
	for k := range S {
		if v[k] > 0 {
			S[k] = m.Demand[0][k] / v[k]
		}
	}
	lambda, t, err := mvablo(S, v, r.P, capacity, N)
	if err != nil {
		return nil, err
	}
	res := newResult("mvablo", 1, K)
	res.Method, res.Exact = "mvablo", false
	res.Status = Status{Converged: true, Iterations: N}
	res.Throughput[0] = lambda
	for k := 0; k < K; k++ {
		res.Residence[k][0] = v[k] * t[k]
		res.QueueLength[k][0] = lambda * v[k] * t[k]
		res.Utilization[k][0] = lambda * v[k] * S[k]
		res.ResponseTime[0] += res.Residence[k][0]
	}
	// measured error: the same approximation against the exact CTMC at the largest
	// population whose chain fits the budget
	est := &ErrorEstimate{}
	// the same network scaled down — population n and capacities ⌈M·n/N⌉, so that blocking
	// binds as it does at N — at the largest n whose chain fits the budget (binary search:
	// the state count grows with n), then down to the first n that cannot deadlock
	scaled := func(n int) []int {
		c := make([]int, K)
		for k, mk := range capacity {
			if mk > 0 {
				c[k] = max(1, int(math.Ceil(float64(mk)*float64(n)/float64(N))))
			}
		}
		return c
	}
	lo, hi := 0, N
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		cyc, _ := deadlockCycle(r.P, scaled(mid), mid)
		if _, err := blockingExact(m, scaled(mid), r, mid); cyc == nil && errors.Is(err, fault.ErrTooLarge) {
			hi = mid - 1
		} else {
			lo = mid
		}
	}
	for n := lo; n >= 1 && n > lo-20; n-- {
		mc := scaled(n)
		if cyc, _ := deadlockCycle(r.P, mc, n); cyc != nil {
			continue
		}
		ex, err := blockingExact(m, mc, r, n)
		l2, t2, err2 := mvablo(S, v, r.P, mc, n)
		if err != nil || err2 != nil {
			continue
		}
		e := math.Abs(l2-ex.Throughput[0]) / ex.Throughput[0]
		for k := 0; k < K; k++ {
			e = math.Max(e, math.Abs(l2*v[k]*t2[k]-ex.QueueLength[k][0])/float64(n))
		}
		est.MeasuredRelError, est.MeasuredPopulation, est.RelError = &e, []int{n}, e
		res.Notes = append(res.Notes, fmt.Sprintf("mvablo's error was measured on the network scaled to population %d, capacities %v", n, mc))
		break
	}
	res.ErrorEstimate = est
	if est.MeasuredRelError == nil {
		res.Notes = append(res.Notes, "mvablo (approximate): no population small enough for the exact CTMC to measure its error; see docs/finite-capacity.md for its measured error distribution")
	} else {
		res.Notes = append(res.Notes, fmt.Sprintf("mvablo (approximate, Akyildiz 1988): measured error %.3g against the exact CTMC at population %d (throughput relative, queue lengths relative to the population)", est.RelError, est.MeasuredPopulation[0]))
	}
	return res, nil
}
