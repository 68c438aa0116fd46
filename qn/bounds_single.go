package qn

import "math"

// singleClass is what the single-class bounds share: a closed single-class network of
// single-server queues and delay centres, with its per-copy queue demands D_k and copy
// counts, the think time with delay-centre demand added (Z' = Z + D^IS: for throughput a
// delay centre is think time), D = Σ copies·D_k and D_max = max D_k.
type singleClass struct {
	cl         Class
	n          float64   // population N
	d, cnt     []float64 // per-copy queue demands and their copy counts
	z          float64   // Z' = Z + D^IS
	dtot, dmax float64   // D = Σ cnt_k·D_k, D_max = max_k D_k
}

// singleClassQueues checks that m is such a network and returns its set-up; nil (and no
// error) for a population of 0, which has no bounds to give.
func singleClassQueues(m *Model, what string) (*singleClass, error) {
	if len(m.Classes) != 1 || m.Classes[0].Open {
		return nil, notApplicable("%s bounds: for closed single-class networks only", what)
	}
	sc := &singleClass{cl: m.Classes[0], n: float64(m.Classes[0].Population), z: m.Classes[0].ThinkTime}
	for k, s := range m.Stations {
		dk := m.Demand[0][k]
		switch {
		case s.Kind == Delay:
			sc.z += float64(s.Copies()) * dk
		case s.Kind == Queue || (s.Kind == MultiServer && s.Servers == 1):
			sc.d = append(sc.d, dk)
			sc.cnt = append(sc.cnt, float64(s.Copies()))
			sc.dtot += float64(s.Copies()) * dk
			sc.dmax = math.Max(sc.dmax, dk)
		default:
			return nil, notApplicable("%s bounds: station %q: single-server queues and delay centres only", what, s.Name)
		}
	}
	if sc.dmax == 0 {
		return nil, notApplicable("%s bounds: no demand at any queueing station", what)
	}
	if sc.cl.Population == 0 {
		return nil, nil
	}
	return sc, nil
}

// bound is the Bound from throughput bounds xl ≤ X ≤ xu: R = N/X − Z for the opposite one.
func (sc *singleClass) bound(name, method string, xl, xu float64) []Bound {
	ru := sc.n/xl - sc.cl.ThinkTime
	return []Bound{{Name: name, Method: method, Class: sc.cl.Name,
		ThroughputLower: xl, ThroughputUpper: xu, ResponseTimeLower: sc.n/xu - sc.cl.ThinkTime, ResponseTimeUpper: &ru}}
}

// ProportionalBounds returns Hsieh and Lam's proportional bounds of a closed single-class
// network of single-server queues (C. H. Hsieh, S. Lam, "Two classes of performance bounds
// for closed queueing networks", Performance Evaluation 7(1), 1987; Octave qncspb). With
// D = Σ D_k, D_max = max D_k and Z' = Z + D^IS:
//
//	X ≥ N / (Z' + D + (N − 1)·Σ D_k^N / Σ D_k^{N−1}),
//	X ≤ min(1/D_max, N/(D + Z'), N / (Z' + D + (N − 1 − Z'/D_max)·Σ D_k² / Σ D_k)),
//	R = N/X − Z for the opposite throughput bound.
//
// The powers are taken of D_k/D_max, so they cannot overflow at any N. The cap N/(D + Z')
// (the asymptotic bound) is added to Octave's formula: with large think time the last term's
// factor goes negative and the formula alone exceeds it.
func ProportionalBounds(m *Model) ([]Bound, error) {
	sc, err := singleClassQueues(m, "proportional")
	if sc == nil {
		return nil, err
	}
	n, d, cnt, z, dtot, dmax := sc.n, sc.d, sc.cnt, sc.z, sc.dtot, sc.dmax
	var sN, sN1, s2, s1 float64
	for i, v := range d {
		r := v / dmax
		sN += cnt[i] * math.Pow(r, n)
		sN1 += cnt[i] * math.Pow(r, n-1)
		s2 += cnt[i] * v * v
		s1 += cnt[i] * v
	}
	xl := n / (z + dtot + (n-1)*dmax*sN/sN1)
	xu := math.Min(1/dmax, n/(dtot+z))
	xu = math.Min(xu, n/(z+dtot+(n-1-z/dmax)*s2/s1))
	return sc.bound(BoundProportional, "proportional bounds (Hsieh & Lam 1987; Octave qncspb)", xl, xu), nil
}

// GeometricBounds returns the geometric bounds of a closed single-class network of
// single-server queues (G. Casale, R. R. Muntz, G. Serazzi, "Geometric bounds: a
// non-iterative analysis technique for closed queueing networks", IEEE Trans. Computers
// 57(6), 2008; Octave qncsgb). With L_k the demands, L_max their maximum (at m_max stations),
// Z' = Z + D^IS, and X⁻, X⁺ the asymptotic throughput bounds, the queue lengths of the
// non-bottleneck stations at population n are bounded by (eqs. 8 and 13)
//
//	Q⁻_k(n) = y_k(1 − y_kⁿ)/(1 − y_k), y_k = L_k·n/(Z' + L + L_max·n),
//	Q⁺_k(n) = Y_k(1 − Y_kⁿ)/(1 − Y_k), Y_k = L_k·X⁺,
//
// and then, for Z' = 0,
//
//	X⁻ = N/(L + L_max(N − 1) − Σ_{L_k<L_max}(L_max − L_k)·Q⁻_k(N − 1)),
//	X⁺ = N/(L + L_max(N − 1) − Σ_{L_k<L_max}(L_max − L_k)·Q⁺_k(N − 1)),
//
// and for Z' > 0, with b(Q) = Z' + L + L_max(N − 1) − Σ(L_max − L_k)·Q_k(N − 1),
// X⁻ = 2N/(b(Q⁻) + √(b(Q⁻)² − 4Z'·L_max(N − 1))), X⁺ = 2N/(b(Q⁺) + √(b(Q⁺)² − 4Z'·L_max·N)).
// R = N/X − Z for the opposite throughput bound. Octave 1.2.7's qncsgb returns its two
// response-time bounds in the swapped order; here the lower is the lower.
func GeometricBounds(m *Model) ([]Bound, error) {
	sc, err := singleClassQueues(m, "geometric")
	if sc == nil {
		return nil, err
	}
	n, d, cnt, z, ltot, lmax := sc.n, sc.d, sc.cnt, sc.z, sc.dtot, sc.dmax
	xminus := n / (n*ltot + z)
	xplus := math.Min(1/lmax, n/(ltot+z))
	// Σ_{L_k < L_max} (L_max − L_k)·Q_k(N − 1) for the lower and upper queue bounds.
	nm1 := n - 1
	var sumLo, sumHi float64
	for i, v := range d {
		if v >= lmax {
			continue
		}
		y := v * nm1 / (z + ltot + lmax*nm1)
		yy := v * xplus
		sumLo += cnt[i] * (lmax - v) * geomQ(y, nm1)
		sumHi += cnt[i] * (lmax - v) * geomQ(yy, nm1)
	}
	var xl, xu float64
	if z > 0 {
		b := z + ltot + lmax*nm1 - sumLo
		xl = 2 * n / (b + math.Sqrt(math.Max(0, b*b-4*z*lmax*nm1)))
		b = z + ltot + lmax*nm1 - sumHi
		xu = 2 * n / (b + math.Sqrt(math.Max(0, b*b-4*z*lmax*n)))
	} else {
		xl = n / (ltot + lmax*nm1 - sumLo)
		xu = n / (ltot + lmax*nm1 - sumHi)
	}
	xu = math.Min(xu, xplus)
	xl = math.Max(xl, xminus)
	return sc.bound(BoundGeometric, "geometric bounds (Casale, Muntz & Serazzi 2008; Octave qncsgb)", xl, xu), nil
}

// geomQ is y(1 − yⁿ)/(1 − y), the mean of a geometric queue truncated at n (y < 1).
func geomQ(y, n float64) float64 {
	if y >= 1 {
		return n // the limit of the truncated sum as y → 1 is n; larger y cannot occur
	}
	return y * (1 - math.Pow(y, n)) / (1 - y)
}
