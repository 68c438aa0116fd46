package ctmc

import (
	"errors"
	"fmt"
	"math"
)

// BlockingNetwork is a closed single-class network of single-server stations with finite
// capacities and blocking after service (BAS; "transfer blocking", as JMT's and Akyildiz's
// MVABLO): a job completing service at station i whose destination j holds Limit[j] jobs
// stays at i, which stops serving (it is blocked), until j has room; stations blocked on
// the same j move in the order in which they were blocked (FIFO). A blocked job counts
// towards the jobs at i. A self-loop (i → i) never blocks: the job leaves and re-enters.
//
// The state is the job count at every station plus the ordered list of blocked stations
// with their destinations; SolveBlocking enumerates the states reachable from Start.
type BlockingNetwork struct {
	Service    []float64   // mean service time per visit at station k, seconds (> 0)
	Routing    [][]float64 // Routing[i][j]: probability that a job leaving i goes to j (rows Σ 1)
	Limit      []int       // capacity of station k (jobs waiting, in service and blocked); 0: unlimited
	Population int
	// Start is the initial placement (Start[k] jobs at station k, Σ = Population, within the
	// limits); nil: fill the stations in order up to their limits.
	Start []int
}

// BlockingSolution holds the stationary means of a BlockingNetwork.
type BlockingSolution struct {
	States      int
	QueueLength []float64 // E[n_k], blocked jobs included
	Throughput  []float64 // service completions per second at station k
	Busy        []float64 // P(station k serving): U_k = X_k·S_k
	Blocked     []float64 // P(station k blocked)
	Residual    float64   // max_s |(πQ)_s| / max rate
}

// ErrDeadlock is returned when the chain has a reachable state without transitions: every
// station holding jobs is blocked (a cycle of full stations).
var ErrDeadlock = errors.New("blocking deadlock")

// SolveBlocking solves the chain of a BlockingNetwork exactly (GTH, see Solve), refusing
// more than maxStates states with ErrTooLarge and a reachable deadlock with ErrDeadlock.
func SolveBlocking(net BlockingNetwork, maxStates int) (*BlockingSolution, error) {
	K := len(net.Service)
	if K == 0 || len(net.Routing) != K || len(net.Limit) != K || net.Population < 0 {
		return nil, fmt.Errorf("ctmc: blocking network: %d stations, %d routing rows, %d limits; want the same, at least 1", K, len(net.Routing), len(net.Limit))
	}
	start, err := blockingStart(net)
	if err != nil {
		return nil, err
	}
	// state: n[0..K-1], then pairs (station, destination) of the blocked stations in order
	sp := newStateSpace()
	if _, err := sp.add(start, maxStates); err != nil {
		return nil, err
	}
	trs, maxRate, err := blockingTransitions(net, sp, maxStates)
	if err != nil {
		return nil, err
	}
	S := len(sp.states)
	pi, err := gth(S, trs)
	if err != nil {
		return nil, err
	}
	res := residual(S, pi, trs)
	sol := &BlockingSolution{States: S, Residual: res / math.Max(maxRate, 1e-300),
		QueueLength: make([]float64, K), Throughput: make([]float64, K), Busy: make([]float64, K), Blocked: make([]float64, K)}
	for i, s := range sp.states {
		p := pi[i]
		for k := 0; k < K; k++ {
			sol.QueueLength[k] += p * float64(s[k])
			switch {
			case isBlocked(s, K, k):
				sol.Blocked[k] += p
			case s[k] > 0:
				sol.Busy[k] += p
				sol.Throughput[k] += p / net.Service[k]
			}
		}
	}
	return sol, nil
}

// blockingStart is the initial state: net.Start, or the population filled into the
// stations in order up to their limits (refused when it does not fit).
func blockingStart(net BlockingNetwork) ([]int, error) {
	if net.Start != nil {
		return append([]int(nil), net.Start...), nil
	}
	K := len(net.Service)
	start := make([]int, K)
	left := net.Population
	for k := 0; k < K && left > 0; k++ {
		n := left
		if net.Limit[k] > 0 {
			n = min(n, net.Limit[k])
		}
		start[k], left = n, left-n
	}
	if left > 0 {
		return nil, fmt.Errorf("ctmc: blocking network: %d jobs do not fit in the capacities", net.Population)
	}
	return start, nil
}

// isBlocked reports whether station k of state s (K station counts, then blocked
// (station, destination) pairs) is blocked.
func isBlocked(s []int, K, k int) bool {
	for b := K; b < len(s); b += 2 {
		if s[b] == k {
			return true
		}
	}
	return false
}

// unblock follows a job leaving station x: the first station blocked on x moves its job
// in, which frees room at that station in turn.
func unblock(s []int, K, x int) []int {
	for b := K; b < len(s); b += 2 {
		if s[b+1] == x {
			from := s[b]
			t := append(append([]int(nil), s[:b]...), s[b+2:]...)
			t[from]--
			t[x]++
			return unblock(t, K, from)
		}
	}
	return s
}

// blockingTransitions explores the state space from its first state (blocking after
// service: a job finishing at k for a full station j blocks k until j has room) and
// returns the transitions with rate p_kj/S_k and the largest rate. A state with no way out
// (other than the only state) is a deadlock (ErrDeadlock).
func blockingTransitions(net BlockingNetwork, sp *stateSpace, maxStates int) ([]rate, float64, error) {
	K := len(net.Service)
	var trs []rate
	maxRate := 0.0
	for i := 0; i < len(sp.states); i++ {
		s := sp.states[i]
		out := 0
		for k := 0; k < K; k++ {
			if s[k] == 0 || isBlocked(s, K, k) {
				continue
			}
			if !(net.Service[k] > 0) {
				return nil, 0, fmt.Errorf("ctmc: blocking network: station %d holds jobs but its service time is %v", k, net.Service[k])
			}
			mu := 1 / net.Service[k]
			for j, p := range net.Routing[k] {
				if p == 0 || j == k {
					continue
				}
				var t []int
				if net.Limit[j] > 0 && s[j] >= net.Limit[j] {
					t = append(append([]int(nil), s...), k, j)
				} else {
					t = append([]int(nil), s...)
					t[k]--
					t[j]++
					t = unblock(t, K, k)
				}
				to, err := sp.add(t, maxStates)
				if err != nil {
					return nil, 0, err
				}
				trs = append(trs, rate{i, to, mu * p})
				maxRate = math.Max(maxRate, mu*p)
				out++
			}
		}
		if out == 0 && len(sp.states) > 1 {
			return nil, 0, fmt.Errorf("%w: state %v (jobs per station, then blocked station and destination pairs) has no way out", ErrDeadlock, s)
		}
	}
	return trs, maxRate, nil
}
