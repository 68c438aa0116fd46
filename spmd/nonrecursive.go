package spmd

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// NonRecursiveR returns the response time R_j(n) at each queueing station j of a closed
// single-class network with queueing stations S_1…S_k and a delay Z, population n, by the
// non-recursive MVA formula of 001 appendix A, eq. (A.1) (000 eqs. 17 and 22):
//
//	R_j(n) = S_j · Σ_{e ∈ L^{k+1}_{n−1}} (e_j + 1)/e_{k+1}! · Π S_i^{e_i} · Z^{e_{k+1}}
//	             / Σ_{e ∈ L^{k+1}_{n−1}} 1/e_{k+1}! · Π S_i^{e_i} · Z^{e_{k+1}}
//
// L^m_n being the m-tuples of non-negative integers adding to n. (A.1) as printed has e_j in
// the numerator; the proof's result (A.6) and 000 eq. (17) have e_j + 1, which is correct
// (at n = 1 it must give R_j = S_j). The cost grows as C(n+k, k): it is a cross-check of
// MVA for small populations, not a solver.
func NonRecursiveR(n int, S []float64, Z float64) []float64 {
	k := len(S)
	num := make([]float64, k)
	den := 0.0
	e := make([]int, k+1)
	var walk func(pos, left int)
	walk = func(pos, left int) {
		if pos == k {
			e[k] = left
			t := math.Pow(Z, float64(left)) / factorial(left)
			for i := 0; i < k; i++ {
				t *= math.Pow(S[i], float64(e[i]))
			}
			den += t
			for j := 0; j < k; j++ {
				num[j] += float64(e[j]+1) * t
			}
			return
		}
		for v := 0; v <= left; v++ {
			e[pos] = v
			walk(pos+1, left-v)
		}
	}
	walk(0, n-1)
	out := make([]float64, k)
	for j := range out {
		out[j] = S[j] * num[j] / den
	}
	return out
}

func factorial(n int) float64 {
	f := 1.0
	for i := 2; i <= n; i++ {
		f *= float64(i)
	}
	return f
}

// UseNonRecursive makes the evaluator solve with the non-recursive MVA (Evaluator.
// NonRecursive): only BUS-AIO's cycle is the single-class closed network of 000 eqs. 17/22;
// any other architecture is refused (fault.ErrInput).
func (e *Evaluator) UseNonRecursive() error {
	if e.m.Arch != BusAIO {
		return fmt.Errorf("%w: --solver non-recursive: the non-recursive MVA (000 eqs. 17/22, 001 App. A) solves BUS-AIO's closed network; %s is solved otherwise (fork/join, convolution or a bound)", fault.ErrInput, e.m.Arch)
	}
	e.NonRecursive = true
	return nil
}
