// Package stats holds the small statistics the simulator and the fitter share: Student-t
// quantiles, means with t confidence intervals, lag-1 autocorrelation and the MSER-5
// truncation rule for a simulation's initial transient. No state; every function is pure.
package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// TQuantile returns the q-quantile of Student's t distribution with dof degrees of
// freedom (NaN for dof < 1 or q outside (0, 1)). t_{0.975, dof} is the factor of a two-sided
// 95 % confidence interval of a mean of dof+1 observations.
func TQuantile(q float64, dof int) float64 {
	if dof < 1 || !(q > 0 && q < 1) {
		return math.NaN()
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(dof)}.Quantile(q)
}

// MeanCI returns the sample mean of xs and the half-width of its two-sided 95 % Student-t
// confidence interval, t_{0.975, n−1}·s/√n with s² the unbiased sample variance. For fewer
// than two values the half-width is +Inf (no interval); for none the mean is NaN.
func MeanCI(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	if len(xs) == 0 {
		return math.NaN(), math.Inf(1)
	}
	for _, x := range xs {
		mean += x / n
	}
	if len(xs) < 2 {
		return mean, math.Inf(1)
	}
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= n - 1
	return mean, TQuantile(0.975, len(xs)-1) * math.Sqrt(v/n)
}

// Lag1 is the lag-1 autocorrelation Σ(x_i − m)(x_{i−1} − m) / Σ(x_i − m)² of a series
// (0 for fewer than 3 values or no variance).
func Lag1(xs []float64) float64 {
	n := len(xs)
	if n < 3 {
		return 0
	}
	m := 0.0
	for _, x := range xs {
		m += x / float64(n)
	}
	num, den := 0.0, 0.0
	for i, x := range xs {
		den += (x - m) * (x - m)
		if i > 0 {
			num += (x - m) * (xs[i-1] - m)
		}
	}
	if den == 0 {
		return 0
	}
	return num / den
}

// MSERBatch is the batch size of MSER-5.
const MSERBatch = 5

// MSER5 applies the MSER-5 truncation rule to an output series y_1…y_n: the series is cut
// into ⌊n/5⌋ batch means z_j (a trailing partial batch is dropped), and the truncation d*
// (in batches) minimises the marginal standard error
//
//	MSER(d) = Σ_{j>d} (z_j − z̄_d)² / (b − d)²,   z̄_d the mean of z_{d+1} … z_b,
//
// over d = 0 … b − 2 (White 1997, "An effective truncation heuristic for bias reduction in
// simulation output", Simulation 69(6):323–334; MSER-5, applied to batch means of five,
// in White, Cobb & Spratt 2000, "A comparison of five steady-state truncation heuristics
// for simulation", Proc. Winter Simulation Conf., 755–760). It returns the number of raw
// observations to discard (5·d*) and whether the rule is trustworthy: White's rule is
// to accept d* only in the first half of the series, so ok is false when d* > b/2 — the
// run is too short to leave its initial transient (or it has none to leave: a trend,
// e.g. a saturated queue). Computed in one backward pass over running sums, O(n).
// Fewer than two batches: (0, false).
func MSER5(y []float64) (discard int, ok bool) {
	b := len(y) / MSERBatch
	if b < 2 {
		return 0, false
	}
	z := make([]float64, b)
	for j := range z {
		s := 0.0
		for _, v := range y[j*MSERBatch : (j+1)*MSERBatch] {
			s += v
		}
		z[j] = s / MSERBatch
	}
	d := MSER(z)
	return MSERBatch * d, d <= b/2
}

// MSER returns the truncation d* ∈ [0, n−2] minimising Σ_{j>d}(z_j − z̄_d)²/(n − d)² over
// the series z (see MSER5); the sums are taken from the end with a shifted origin (the
// last value), so that a large common level does not cancel. The first minimum wins.
func MSER(z []float64) int {
	n := len(z)
	if n < 2 {
		return 0
	}
	ref := z[n-1]
	best, bestD := math.Inf(1), 0
	s, s2 := 0.0, 0.0
	for d := n - 1; d >= 0; d-- {
		v := z[d] - ref
		s += v
		s2 += v * v
		m := float64(n - d)
		if d > n-2 {
			continue
		}
		ss := s2 - s*s/m // Σ (z − z̄)² over z_{d+1}… (0-based: z[d:])
		if ss < 0 {
			ss = 0 // rounding noise: a sum of squares is never negative
		}
		if e := ss / (m * m); e <= best {
			best, bestD = e, d
		}
	}
	return bestD
}
