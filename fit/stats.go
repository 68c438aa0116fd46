package fit

import (
	"math"

	"github.com/clusterperf/clusterperf/internal/stats"
	"gonum.org/v1/gonum/mat"
)

// Covariance returns the parameters' covariance s²·(JᵀJ)⁺ with s² = cost/(M − k) over the
// k free parameters (including those that ended at a bound: their interval is then truncated
// there by the caller). JᵀJ is inverted by its eigen-decomposition: directions whose
// eigenvalue is below 1e-12 of the largest are not determined by the data, and every
// parameter with a component along one of them is reported in ident as false (its variance
// NaN) — the others keep finite, meaningful variances. ok is false when some parameter is not
// identifiable.
func Covariance(res *Result, free []bool) (cov *mat.SymDense, s2 float64, ok bool) {
	cov, s2, ident, _ := covariance(res, free)
	ok = true
	for j, f := range free {
		if f && !ident[j] {
			ok = false
		}
	}
	return cov, s2, ok
}

// covariance also returns the null directions (one vector over all parameters per
// undetermined direction, largest component +1).
func covariance(res *Result, free []bool) (cov *mat.SymDense, s2 float64, ident []bool, nulls [][]float64) {
	n := len(res.X)
	ident = make([]bool, n)
	var idx []int
	for j := 0; j < n; j++ {
		if free[j] {
			idx = append(idx, j)
		}
	}
	m, _ := res.Jacobian.Dims()
	k := len(idx)
	cov = mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			cov.SetSym(i, j, math.NaN())
		}
	}
	if m <= k || k == 0 {
		return cov, math.NaN(), ident, nil
	}
	s2 = res.Cost / float64(m-k)
	var eig mat.EigenSym
	if !eig.Factorize(gram(res.Jacobian, idx), true) {
		return cov, s2, ident, nil
	}
	vals := eig.Values(nil)
	var vec mat.Dense
	eig.VectorsTo(&vec)
	top := 0.0
	for _, v := range vals {
		top = math.Max(top, v)
	}
	null := make([]bool, k) // eigenvalue ≤ 1e-12 of the largest: an undetermined direction
	for e := range null {
		null[e] = vals[e] <= 1e-12*top
	}
	for a := range idx {
		ident[idx[a]] = true
		for e := 0; e < k; e++ {
			if null[e] && math.Abs(vec.At(a, e)) > 1e-6 {
				ident[idx[a]] = false
			}
		}
	}
	nulls = nullDirections(&vec, null, idx, n)
	for a, ja := range idx {
		for b := a; b < k; b++ {
			if !ident[ja] || !ident[idx[b]] {
				continue
			}
			v := 0.0
			for e := 0; e < k; e++ {
				if !null[e] {
					v += vec.At(a, e) * vec.At(b, e) / vals[e]
				}
			}
			cov.SetSym(ja, idx[b], s2*v)
		}
	}
	return cov, s2, ident, nulls
}

// gram is JᵀJ restricted to the columns idx: entry (a, b) = Σ_i J_{i,idx[a]}·J_{i,idx[b]}.
func gram(J *mat.Dense, idx []int) *mat.SymDense {
	m, _ := J.Dims()
	k := len(idx)
	A := mat.NewSymDense(k, nil)
	for a, ja := range idx {
		for b := a; b < k; b++ {
			v := 0.0
			for i := 0; i < m; i++ {
				v += J.At(i, ja) * J.At(i, idx[b])
			}
			A.SetSym(a, b, v)
		}
	}
	return A
}

// nullDirections returns the eigenvectors (columns of vec over the free parameters idx)
// marked null, each spread over all n parameters and scaled so that its largest component
// is +1.
func nullDirections(vec *mat.Dense, null []bool, idx []int, n int) [][]float64 {
	var nulls [][]float64
	for e, isNull := range null {
		if !isNull {
			continue
		}
		v := make([]float64, n)
		big := 0.0
		for a, ja := range idx {
			v[ja] = vec.At(a, e)
			if math.Abs(v[ja]) > math.Abs(big) {
				big = v[ja]
			}
		}
		for j := range v {
			v[j] /= big
		}
		nulls = append(nulls, v)
	}
	return nulls
}

// TQuantile returns the q-quantile of Student's t with dof degrees of freedom (NaN for
// dof < 1 or q outside (0, 1)). It is internal/stats.TQuantile, the project's one
// implementation, exported here for library users of the fitter.
func TQuantile(q float64, dof int) float64 {
	return stats.TQuantile(q, dof)
}

// Metrics compare predictions f with observations a.
type Metrics struct {
	AverageError float64  `json:"average_error"` // 000 §5.2: (1/N)·sqrt(Σ((f−a)/a)²)
	SMAPE        float64  `json:"smape"`         // 100/N·Σ|f−a|/((|a|+|f|)/2), percent
	R2           *float64 `json:"r2"`            // 1 − SS_res/SS_tot; nil (null) when the observations are all equal (SS_tot = 0: R² is undefined)
	RMSRel       float64  `json:"rms_relative"`  // sqrt(mean((f−a)/a)²)
	N            int      `json:"n"`
}

// Compare computes the metrics.
func Compare(f, a []float64) Metrics {
	n := len(a)
	m := Metrics{N: n}
	mean := 0.0
	for _, v := range a {
		mean += v / float64(n)
	}
	ssr, sst, rel2 := 0.0, 0.0, 0.0
	for i := range a {
		d := f[i] - a[i]
		ssr += d * d
		sst += (a[i] - mean) * (a[i] - mean)
		rel2 += (d / a[i]) * (d / a[i])
		m.SMAPE += math.Abs(d) / ((math.Abs(a[i]) + math.Abs(f[i])) / 2)
	}
	m.AverageError = math.Sqrt(rel2) / float64(n)
	m.RMSRel = math.Sqrt(rel2 / float64(n))
	m.SMAPE *= 100 / float64(n)
	if sst > 0 {
		r2 := 1 - ssr/sst
		m.R2 = &r2
	}
	return m
}

// InformationCriteria returns AIC, AICc and BIC of a least-squares fit with k parameters
// to n points and residual sum of squares ssr (Gaussian errors):
//
//	AIC = n·ln(ssr/n) + 2k,  AICc = AIC + 2k(k+1)/(n−k−1),  BIC = n·ln(ssr/n) + k·ln n
//
// (Burnham & Anderson 2002, eqs. 2.1–2.4 up to constants common to all models). AICc is
// undefined when n ≤ k + 1 and is then returned as +Inf (its limit as n ↓ k + 1): callers
// that print it use AICcOf, which answers nil there.
func InformationCriteria(ssr float64, n, k int) (aic, aicc, bic float64) {
	nf, kf := float64(n), float64(k)
	ll := nf * math.Log(math.Max(ssr, 1e-300)/nf)
	aic = ll + 2*kf
	aicc = aic
	if n-k-1 > 0 {
		aicc += 2 * kf * (kf + 1) / (nf - kf - 1)
	} else {
		aicc = math.Inf(1)
	}
	bic = ll + kf*math.Log(nf)
	return
}

// AICcOf is InformationCriteria's AICc as a pointer: nil when it is undefined (n ≤ k + 1),
// so that a result never carries +Inf.
func AICcOf(ssr float64, n, k int) *float64 {
	_, aicc, _ := InformationCriteria(ssr, n, k)
	if math.IsInf(aicc, 0) || math.IsNaN(aicc) {
		return nil
	}
	return &aicc
}
