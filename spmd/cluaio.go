package spmd

import "math"

// cluAIOSymmetric solves the CLU-AIO network exactly — d identical closed classes of n jobs,
// class k alone at its disk (queue, demand E), all classes at one shared queue (the
// network, demand x) and a delay (z) — by convolution over the product form, using the
// symmetry of the classes (000 §4.3, 001 §5.5 describe the network; the solution method is
// ours). With m_k jobs of class k at the network and M = Σ m_k,
//
//	G(N) = Σ_M M!·x^M · [h_{n}^{*d}](M),   h_n(m) = g(n − m)/m!,   g(j) = Σ_{a=0}^{j} E^a·z^{j−a}/(j−a)!
//
// (g collects a class's jobs at its disk and the delay, M!/Π m_k!·x^M is the shared FCFS
// queue, *d the d-fold convolution). For class 1 (all classes alike):
//
//	X = G(N − e₁)/G(N),   Q_disk = Σ_{j=1}^{n} E^j·G(N − j·e₁)/G(N),   Q_net = E[M]/d
//
// and residence times per cycle R = Q/X. Everything is kept in logarithms (M! reaches
// 10^2000 at d·n = 1000). Cost O(d²·n²) exp/log operations (the (d−1)-fold convolution),
// where exact multi-class MVA needs (n + 1)^d lattice points.
func cluAIOSymmetric(d, n int, E, x, z float64) (rDisk, rNet, X float64) {
	if n == 0 || d == 0 {
		return 0, 0, 0
	}
	lE, lx, lz := math.Log(E), math.Log(x), math.Log(z)
	lfact := make([]float64, d*n+1) // log m!
	for m := 1; m < len(lfact); m++ {
		lfact[m] = lfact[m-1] + math.Log(float64(m))
	}
	// lg[j] = log g(j)
	lg := make([]float64, n+1)
	terms := make([]float64, n+1)
	for j := 0; j <= n; j++ {
		terms = terms[:0]
		for a := 0; a <= j; a++ {
			terms = append(terms, mulPow(lE, a)+mulPow(lz, j-a)-lfact[j-a])
		}
		lg[j] = logSumExp(terms)
	}
	// log h_n(m) = log g(n − m) − log m!, m = 0…n
	hn := make([]float64, n+1)
	for m := range hn {
		hn[m] = lg[n-m] - lfact[m]
	}
	H := []float64{0} // log of the (d−1)-fold convolution of h_n; starts as the unit
	for k := 1; k < d; k++ {
		H = logConvolve(H, hn, terms)
	}
	// With class 1 at s jobs: G_s = Σ_m h_s(m)·W(m), W(m) = Σ_{M'} (M'+m)!·x^(M'+m)·H(M'), as
	// h_s(m) = g(s − m)/m! and W does not depend on s; likewise Σ_M M·P(M) with W1 (an extra
	// factor M'+m). This gives every G(N − j·e₁) in O(n²) after O(d·n²) for W.
	lW := make([]float64, n+1)
	lW1 := make([]float64, n+1)
	w := make([]float64, len(H))
	w1 := make([]float64, len(H))
	for m := 0; m <= n; m++ {
		for M1, hv := range H {
			M := M1 + m
			w[M1] = lfact[M] + mulPow(lx, M) + hv
			w1[M1] = math.Log(float64(M)) + w[M1]
		}
		lW[m], lW1[m] = logSumExp(w), logSumExp(w1)
	}
	lG := make([]float64, n+1) // lG[s] = log G with class 1 at s jobs
	for sz := 0; sz <= n; sz++ {
		terms = terms[:0]
		for m := 0; m <= sz; m++ {
			terms = append(terms, lg[sz-m]-lfact[m]+lW[m])
		}
		lG[sz] = logSumExp(terms)
	}
	terms = terms[:0]
	for m := 0; m <= n; m++ {
		terms = append(terms, lg[n-m]-lfact[m]+lW1[m])
	}
	meanM := math.Exp(logSumExp(terms) - lG[n])
	X = math.Exp(lG[n-1] - lG[n])
	qDisk := 0.0
	for j := 1; j <= n; j++ {
		qDisk += math.Exp(mulPow(lE, j) + lG[n-j] - lG[n])
	}
	return qDisk / X, meanM / float64(d) / X, X
}

// mulPow is log(b^k) from lb = log b, with b^0 = 1 also for b = 0 (lb = −Inf).
func mulPow(lb float64, k int) float64 {
	if k == 0 {
		return 0
	}
	return float64(k) * lb
}

// logSumExp is log Σ exp(v_i), −Inf for an empty or all −Inf input.
func logSumExp(v []float64) float64 {
	mx := math.Inf(-1)
	for _, x := range v {
		mx = math.Max(mx, x)
	}
	if math.IsInf(mx, -1) {
		return mx
	}
	s := 0.0
	for _, x := range v {
		s += math.Exp(x - mx)
	}
	return mx + math.Log(s)
}

// logConvolve returns log of the convolution of exp(a) and exp(b); buf is scratch space.
func logConvolve(a, b, buf []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for M := range out {
		buf = buf[:0]
		for i := max(0, M-len(b)+1); i <= min(M, len(a)-1); i++ {
			buf = append(buf, a[i]+b[M-i])
		}
		out[M] = logSumExp(buf)
	}
	return out
}
