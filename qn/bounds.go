package qn

import "math"

// Bounds holds throughput and response-time bounds of a single-class closed network at
// population N.
type Bounds struct {
	N                               int
	XLowerABA, XUpperABA, RLowerABA float64
	RUpperABA                       float64 // N·D (all others ahead at every station)
	XLowerBJB, XUpperBJB            float64
	RLowerBJB, RUpperBJB            float64
}

// BoundsAt computes asymptotic (ABA) and balanced job bounds (BJB) of a single-class closed
// network at population N (QSP §5.2–5.3, Tables 5.1 and 5.3 with think time):
//
//	ABA: N/(N·D + Z) ≤ X ≤ min(N/(D+Z), 1/D_max),   max(D, N·D_max − Z) ≤ R ≤ N·D
//	BJB: N/(D + Z + (N−1)·D_max/(1 + Z/(N·D))) ≤ X ≤ min(1/D_max, N/(D + Z + (N−1)·D_avg/(1 + Z/D)))
//	     max(N·D_max − Z, D + (N−1)·D_avg/(1 + Z/D)) ≤ R ≤ D + (N−1)·D_max/(1 + Z/(N·D))
//
// D is the total demand at queueing stations (all copies), D_max the largest per copy (for m
// servers D/m, in ABA only), D_avg = D/K over the K queueing copies; in the throughput bounds
// delay-centre demand D_IS is added to the think time Z, and the response-time bounds, which
// like Result.ResponseTime include time at delay centres, are N/X − Z of the throughput
// bounds (so D_IS is added to them). Octave's qncsaba instead takes D_max over delay centres
// too, which is not a valid bound; without delay centres the two agree. BJB assumes single-server queues: with multi-server or
// load-dependent stations only the ABA fields are set and the BJB fields are NaN.
func BoundsAt(m *Model, N int) (Bounds, error) {
	if err := m.solvable(); err != nil {
		return Bounds{}, err
	}
	if len(m.Classes) != 1 || m.Classes[0].Open {
		return Bounds{}, unsupported("bounds are for single-class closed networks")
	}
	z0 := m.Classes[0].ThinkTime
	z := z0
	var d, dmax, dmaxABA, kq, dd float64
	bjb := true
	for k, s := range m.Stations {
		dk := m.Demand[0][k]
		cnt := float64(s.Copies())
		switch s.Kind {
		case Delay:
			z += cnt * dk
			dd += cnt * dk
			continue
		case MultiServer:
			if s.Servers > 1 {
				bjb = false
			}
			dmaxABA = math.Max(dmaxABA, dk/float64(s.Servers))
		case LoadDependent:
			bjb = false
			amax := 0.0
			for _, a := range s.Rates {
				amax = math.Max(amax, a)
			}
			dmaxABA = math.Max(dmaxABA, dk/amax)
		default:
			dmaxABA = math.Max(dmaxABA, dk)
		}
		d += cnt * dk
		dmax = math.Max(dmax, dk)
		kq += cnt
	}
	n := float64(N)
	b := Bounds{N: N}
	xup := n / (d + z)
	if dmaxABA > 0 {
		xup = math.Min(xup, 1/dmaxABA)
	}
	b.XUpperABA = xup
	b.XLowerABA = n / (n*d + z)
	b.RLowerABA = math.Max(d+dd, n*dmaxABA-z0)
	b.RUpperABA = n*d + dd
	b.XLowerBJB, b.XUpperBJB, b.RLowerBJB, b.RUpperBJB = math.NaN(), math.NaN(), math.NaN(), math.NaN()
	if bjb && d > 0 && N > 0 {
		davg := d / kq
		b.XUpperBJB = math.Min(1/dmax, n/(d+z+(n-1)*davg/(1+z/d)))
		b.XLowerBJB = n / (d + z + (n-1)*dmax/(1+z/(n*d)))
		b.RLowerBJB = math.Max(n*dmax-z0, d+dd+(n-1)*davg/(1+z/d))
		b.RUpperBJB = d + dd + (n-1)*dmax/(1+z/(n*d))
	}
	if bjb && d == 0 && N > 0 {
		// No queue demand: the jobs only cycle through the delays, X = N/Z exactly, and the
		// balanced job bounds collapse onto the asymptotic ones (their formula would divide
		// by D = 0: hostile-review finding, a delay-only model printed NaN bounds).
		b.XLowerBJB, b.XUpperBJB, b.RLowerBJB, b.RUpperBJB = b.XLowerABA, b.XUpperABA, b.RLowerABA, b.RUpperABA
	}
	return b, nil
}
