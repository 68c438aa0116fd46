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
	// work in units of the largest |x|, so that squares neither underflow (x ≈ 1e-300) nor
	// overflow (x ≈ 1e300): the interval is equivariant under scaling
	scale := 0.0
	for _, x := range xs {
		scale = math.Max(scale, math.Abs(x))
	}
	if scale == 0 || math.IsInf(scale, 0) || math.IsNaN(scale) {
		scale = 1
	}
	for _, x := range xs {
		mean += x / scale / n
	}
	if len(xs) < 2 {
		return mean * scale, math.Inf(1)
	}
	v := 0.0
	for _, x := range xs {
		d := x/scale - mean
		v += d * d
	}
	v /= n - 1
	return mean * scale, TQuantile(0.975, len(xs)-1) * math.Sqrt(v/n) * scale
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
// into ⌊n/5⌋ batch means (a trailing partial batch is dropped) and MSERBatches chooses the
// truncation. It returns the number of raw observations to discard (5·d*) and whether the
// truncation is trustworthy (see MSERBatches).
func MSER5(y []float64) (discard int, ok bool) {
	b := len(y) / MSERBatch
	z := make([]float64, b)
	for j := range z {
		s := 0.0
		for _, v := range y[j*MSERBatch : (j+1)*MSERBatch] {
			s += v
		}
		z[j] = s / MSERBatch
	}
	d, ok := MSERBatches(z)
	return MSERBatch * d, ok
}

// MSERBatches is the MSER rule on batch means z_1…z_b (MSER-5 when each z_j averages five
// observations): the truncation d* minimises the marginal standard error
//
//	MSER(d) = Σ_{j>d} (z_j − z̄_d)² / (b − d)²,   z̄_d the mean of z_{d+1} … z_b
//
// (White 1997, "An effective truncation heuristic for bias reduction in simulation
// output", Simulation 69(6):323–334; MSER-5 in White, Cobb & Spratt 2000, "A comparison of
// five steady-state truncation heuristics for simulation", Proc. Winter Simulation Conf.,
// 755–760). d runs over 0 … b − ⌈b/4⌉, keeping at least a quarter of the batches: over the
// last few batches the sum of squares can be small by chance, MSER's known end effect. As
// White recommends, d* is trusted only in the first half (ok = d* ≤ b/2); beyond it the run
// is too short to leave its initial transient, or has none to leave (a trend, e.g. a
// saturated queue). A series constant up to rounding (spread ≤ 1e-9 of its magnitude, e.g.
// the population of a closed class with no think time) has no transient: (0, true). Fewer
// than two batches: (0, false). One backward pass, O(b).
func MSERBatches(z []float64) (d int, ok bool) {
	b := len(z)
	if b < 2 {
		return 0, false
	}
	lo, hi := z[0], z[0]
	for _, v := range z {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if hi-lo <= 1e-9*math.Max(math.Abs(lo), math.Abs(hi)) {
		return 0, true
	}
	d = MSER(z, b-(b+3)/4)
	return d, d <= b/2
}

// MSER returns the d ∈ [0, min(maxD, n−2)] minimising Σ_{j≥d}(z_j − z̄)²/(n − d)² over the
// series z (0-based: the kept values are z[d:]). The sums run from the end with the last
// value as origin, so that a large common level does not cancel; the smallest minimising d
// wins.
func MSER(z []float64, maxD int) int {
	n := len(z)
	if n < 2 {
		return 0
	}
	maxD = min(maxD, n-2)
	ref := z[n-1]
	best, bestD := math.Inf(1), 0
	s, s2 := 0.0, 0.0
	for d := n - 1; d >= 0; d-- {
		v := z[d] - ref
		s += v
		s2 += v * v
		if d > maxD {
			continue
		}
		m := float64(n - d)
		ss := s2 - s*s/m
		if ss < 0 {
			ss = 0 // rounding noise: a sum of squares is never negative
		}
		if e := ss / (m * m); e <= best {
			best, bestD = e, d
		}
	}
	return bestD
}
