// Package ctmc solves small closed multi-class queueing networks exactly as continuous-time
// Markov chains: it enumerates every state, builds the generator matrix Q and solves
// πQ = 0, Σπ = 1 by GTH state reduction (SolveLU: dense LU from gonum, as a cross-check). It is the test oracle for the
// analytic solvers of package qn: it assumes nothing about product form, so any agreement
// with MVA is evidence, not a tautology.
//
// Model. Station k has a capacity function α_k(n) ≥ 0 (n = jobs present, all classes): a
// single-server queue has α(n) = 1, an m-server queue min(n, m), a delay (IS) centre n, a
// load-dependent station any α. Jobs share the capacity in proportion to their number
// (processor sharing): with n_{k,c} class-c jobs among n_k, class c completes at station k
// at rate (n_{k,c}/n_k)·α_k(n_k)/S_{c,k}, S the mean service time per visit. For an FCFS
// station with class-independent exponential service this is the chain of the job counts
// (BCMP type 1 and 2 have the same count distribution). A class-c job completing at
// station i moves to station j with probability P_c[i][j] (rows sum to 1; self-loops are
// allowed and change nothing). The state is the matrix n_{k,c}, Σ_k n_{k,c} = N_c.
//
// Exactness: the answer is exact up to the rounding of one LU solve; Solve reports the
// residual max |πQ| relative to the largest rate so a caller can check it.
package ctmc

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Network is a closed multi-class network for the oracle.
type Network struct {
	// Capacity[k](n) is α_k(n), the total service rate multiplier with n ≥ 1 jobs present.
	Capacity []func(n int) float64
	// Service[c][k] is the mean service time per visit (seconds) of class c at station k;
	// it must be > 0 wherever class c can be routed.
	Service [][]float64
	// Routing[c][i][j] is the probability that a class-c job leaving station i goes to j.
	Routing [][][]float64
	// Population[c] is the number of class-c jobs.
	Population []int
	// Start[c] is a station class c can be at (it must reach every station it visits).
	Start []int
}

// Solution holds the stationary distribution's mean values.
type Solution struct {
	States      int
	QueueLength [][]float64 // Q[k][c], mean class-c jobs at station k
	Throughput  [][]float64 // X[k][c], class-c completions per second at station k
	Busy        [][]float64 // mean busy capacity E[(n_{k,c}/n_k)·α_k(n_k)] at station k per class
	// Marginal[k][j] is P(n_k = j), j = 0..Σ_c N_c.
	Marginal [][]float64
	Residual float64 // max_s |(πQ)_s| / max rate
}

// ErrTooLarge is returned when the state space exceeds the caller's limit.
var ErrTooLarge = errors.New("state space too large")

// Solve enumerates the states reachable from the start (all jobs of class c at Start[c])
// up to maxStates and solves the chain.
func Solve(net Network, maxStates int) (*Solution, error) { return solve(net, maxStates, false) }

// SolveLU is Solve with the balance equations solved by a dense LU factorisation (gonum)
// instead of GTH: a cross-check of the GTH solution (accurate in absolute terms only, so
// states of tiny probability lose relative accuracy).
func SolveLU(net Network, maxStates int) (*Solution, error) { return solve(net, maxStates, true) }

func solve(net Network, maxStates int, useLU bool) (*Solution, error) {
	K, C := len(net.Capacity), len(net.Population)
	if len(net.Service) != C || len(net.Routing) != C || len(net.Start) != C {
		return nil, fmt.Errorf("ctmc: Service, Routing and Start need one entry per class (%d)", C)
	}
	// Predicted size: Π_c C(N_c+K−1, K−1) states at most.
	est := 1.0
	for _, n := range net.Population {
		est *= binom(n+K-1, K-1)
	}
	if est > float64(maxStates) && maxStates > 0 {
		// reachable set may be smaller; we still refuse by the bound to keep it predictable
		return nil, fmt.Errorf("%w: up to %.0f states, limit %d", ErrTooLarge, est, maxStates)
	}
	start := make([]int, K*C)
	for c, k := range net.Start {
		start[k*C+c] = net.Population[c]
	}
	sp := newStateSpace()
	sp.add(start, 0) // no limit for the first state: cannot fail
	trs, maxRate, err := transitions(net, sp, maxStates)
	if err != nil {
		return nil, err
	}
	S := len(sp.states)
	pi, err := gth(S, trs)
	if err != nil {
		return nil, err
	}
	if useLU {
		if pi, err = luSolve(S, trs); err != nil {
			return nil, err
		}
	}
	sol := measures(net, sp, pi)
	sol.Residual = residual(S, pi, trs) / math.Max(maxRate, 1e-300)
	return sol, nil
}

// transitions explores the state space (jobs per station and class, s[k·C + c]) from its
// first state and returns its transitions and the largest rate: a class-c job at station k
// with n_k jobs leaves at rate n_kc/n_k·capacity_k(n_k)/S_ck (processor sharing) and goes
// to j with probability P_c[k][j].
func transitions(net Network, sp *stateSpace, maxStates int) ([]rate, float64, error) {
	K, C := len(net.Capacity), len(net.Population)
	var trs []rate
	maxRate := 0.0
	for i := 0; i < len(sp.states); i++ {
		s := sp.states[i]
		for k := 0; k < K; k++ {
			nk := 0
			for c := 0; c < C; c++ {
				nk += s[k*C+c]
			}
			if nk == 0 {
				continue
			}
			cap := net.Capacity[k](nk)
			for c := 0; c < C; c++ {
				nkc := s[k*C+c]
				if nkc == 0 {
					continue
				}
				sv := net.Service[c][k]
				if !(sv > 0) {
					return nil, 0, fmt.Errorf("ctmc: class %d is at station %d whose service time is %v", c, k, sv)
				}
				r := float64(nkc) / float64(nk) * cap / sv
				for j, p := range net.Routing[c][k] {
					if p == 0 || j == k {
						continue
					}
					t := append([]int(nil), s...)
					t[k*C+c]--
					t[j*C+c]++
					to, err := sp.add(t, maxStates)
					if err != nil {
						return nil, 0, err
					}
					trs = append(trs, rate{i, to, r * p})
					maxRate = math.Max(maxRate, r*p)
				}
			}
		}
	}
	return trs, maxRate, nil
}

// measures sums the stationary distribution pi over the states: per station and class the
// mean queue length, busy share n_kc/n_k·capacity_k(n_k) and throughput share/S_ck, and per
// station the marginal P(n_k = j).
func measures(net Network, sp *stateSpace, pi []float64) *Solution {
	K, C := len(net.Capacity), len(net.Population)
	N := 0
	for _, n := range net.Population {
		N += n
	}
	sol := &Solution{States: len(sp.states)}
	sol.QueueLength = grid(K, C)
	sol.Throughput = grid(K, C)
	sol.Busy = grid(K, C)
	sol.Marginal = grid(K, N+1)
	for i, s := range sp.states {
		p := pi[i]
		for k := 0; k < K; k++ {
			nk := 0
			for c := 0; c < C; c++ {
				nk += s[k*C+c]
			}
			sol.Marginal[k][nk] += p
			if nk == 0 {
				continue
			}
			cap := net.Capacity[k](nk)
			for c := 0; c < C; c++ {
				nkc := float64(s[k*C+c])
				sol.QueueLength[k][c] += p * nkc
				if nkc > 0 {
					share := nkc / float64(nk) * cap
					sol.Busy[k][c] += p * share
					sol.Throughput[k][c] += p * share / net.Service[c][k]
				}
			}
		}
	}
	return sol
}

func grid(r, c int) [][]float64 {
	g := make([][]float64, r)
	for i := range g {
		g[i] = make([]float64, c)
	}
	return g
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// Demands builds an oracle network from demands: class c visits station k with
// probability proportional to its visit count V[c][k] = 1 where D[c][k] > 0 (service time
// S = D), plus a terminal delay station (index K) with S = Z[c] when Z[c] > 0. Because the
// solution of a product-form network depends on the demands only, any such routing gives
// the same mean values; this one keeps the chain irreducible. It returns the network and
// the per-class visits to the node used to read class throughput (the terminal, or the
// stations' total).
func Demands(capacity []func(int) float64, D [][]float64, Z []float64, N []int) Network {
	K := len(capacity)
	C := len(N)
	net := Network{Population: N}
	net.Capacity = append(append([]func(int) float64(nil), capacity...), func(n int) float64 { return float64(n) })
	for c := 0; c < C; c++ {
		S := make([]float64, K+1)
		w := make([]float64, K+1)
		tot := 0.0
		for k := 0; k < K; k++ {
			if D[c][k] > 0 {
				S[k] = D[c][k]
				w[k] = 1
				tot++
			}
		}
		if Z[c] > 0 {
			S[K] = Z[c]
			w[K] = 1
			tot++
		}
		P := make([][]float64, K+1)
		for i := range P {
			P[i] = make([]float64, K+1)
			for j := range w {
				if tot > 0 {
					P[i][j] = w[j] / tot
				}
			}
		}
		st := K
		for k := 0; k <= K; k++ {
			if w[k] > 0 {
				st = k
				break
			}
		}
		net.Service = append(net.Service, S)
		net.Routing = append(net.Routing, P)
		net.Start = append(net.Start, st)
	}
	return net
}

// ClassThroughput returns class c's throughput in jobs per "cycle" for a network built by
// Demands: a cycle visits each visited station (and the terminal) once on average, so X_c is
// the total completion rate divided by the number of visited nodes.
func (s *Solution) ClassThroughput(c int, D [][]float64, Z []float64) float64 {
	tot, nodes := 0.0, 0
	for k := range D[c] {
		if D[c][k] > 0 {
			tot += s.Throughput[k][c]
			nodes++
		}
	}
	if Z[c] > 0 {
		tot += s.Throughput[len(D[c])][c]
		nodes++
	}
	if nodes == 0 {
		return 0
	}
	return tot / float64(nodes)
}

type rate struct {
	from, to int
	r        float64
}

// residual is max_s |Σ inflow − Σ outflow| of the balance equations πQ = 0 at π, in the
// rates' unit (callers divide by the largest rate).
func residual(S int, pi []float64, trs []rate) float64 {
	flow := make([]float64, S)
	for _, t := range trs {
		f := pi[t.from] * t.r
		flow[t.to] += f
		flow[t.from] -= f
	}
	res := 0.0
	for _, f := range flow {
		res = math.Max(res, math.Abs(f))
	}
	return res
}

// gth solves πQ = 0, Σπ = 1 by the Grassmann–Taksar–Heyman state reduction (Grassmann,
// Taksar & Heyman 1985; Stewart, "Introduction to the Numerical Solution of Markov Chains",
// §2.7): Gaussian elimination that never subtracts (the diagonal is recomputed as the sum
// of the remaining off-diagonal rates), so every π_s has small relative error, however
// small it is. O(S³) time, S² floats.
func gth(S int, rates []rate) ([]float64, error) {
	a := make([]float64, S*S)
	for _, r := range rates {
		a[r.from*S+r.to] += r.r
	}
	for n := S - 1; n > 0; n-- {
		s := 0.0
		for j := 0; j < n; j++ {
			s += a[n*S+j]
		}
		if !(s > 0) {
			return nil, fmt.Errorf("ctmc: state %d cannot reach the lower-numbered states (chain not irreducible)", n)
		}
		for i := 0; i < n; i++ {
			a[i*S+n] /= s
		}
		for i := 0; i < n; i++ {
			f := a[i*S+n]
			if f == 0 {
				continue
			}
			row := a[i*S : i*S+n]
			src := a[n*S : n*S+n]
			for j := range row {
				row[j] += f * src[j]
			}
		}
	}
	pi := make([]float64, S)
	pi[0] = 1
	tot := 1.0
	for j := 1; j < S; j++ {
		v := 0.0
		for i := 0; i < j; i++ {
			v += pi[i] * a[i*S+j]
		}
		pi[j] = v
		tot += v
	}
	for i := range pi {
		pi[i] /= tot
	}
	return pi, nil
}

// luSolve solves Qᵀπ = 0 with the last equation replaced by Σπ = 1 (dense LU, gonum).
func luSolve(S int, rates []rate) ([]float64, error) {
	A := mat.NewDense(S, S, nil)
	diag := make([]float64, S)
	for _, t := range rates {
		A.Set(t.to, t.from, A.At(t.to, t.from)+t.r)
		diag[t.from] += t.r
	}
	for i := 0; i < S; i++ {
		A.Set(i, i, A.At(i, i)-diag[i])
	}
	for j := 0; j < S; j++ {
		A.Set(S-1, j, 1)
	}
	b := mat.NewVecDense(S, nil)
	b.SetVec(S-1, 1)
	var lu mat.LU
	lu.Factorize(A)
	var pi mat.VecDense
	if err := lu.SolveVecTo(&pi, false, b); err != nil {
		return nil, fmt.Errorf("ctmc: %w", err)
	}
	return append([]float64(nil), pi.RawVector().Data...), nil
}
