package qn

import "math"

// ClosedABA returns the asymptotic bounds of every non-empty class of a closed network
// (QSP §5.2 for one class; multi-class as in Octave's qncmaba, with the upper response-time
// bound corrected, see below). For class c with population N_c, think time Z_c, total
// demand D_c = D^Q_c + D^IS_c at queueing stations and delay centres, D^max_c the largest
// demand per server at a queueing station, and N = Σ N_c:
//
//	R_c ≥ max(D_c, N_c·D^max_c − Z_c),   R_c ≤ N·D^Q_c + D^IS_c,
//	X_c ≤ min(N_c/(D_c + Z_c), 1/D^max_c),   X_c ≥ N_c/(N·D^Q_c + D^IS_c + Z_c).
//
// The upper response-time bound holds because a class-c job finds at most N − 1 jobs at a
// queueing station, each needing at most one class-c service time there in the
// product-form (MVA) sense R_{c,k} = D_{c,k}(1 + Q_k(N − 1_c)). Octave 1.2.7's qncmaba uses
// Σ_{c'} N_{c'}·D^Q_{c'} instead, which is not a bound when classes' demands differ: one
// station, N = (1, 1), D = (1, 10⁻⁹): exact MVA R₁ = 2, qncmaba's bound 1 + 10⁻⁹. With one
// class both are N·D^Q + D^IS. Load-dependent stations make the bounds not applicable.
func ClosedABA(m *Model) ([]Bound, error) {
	if err := closedOnly(m, "closed asymptotic"); err != nil {
		return nil, err
	}
	ntot := 0.0
	for _, c := range m.Classes {
		ntot += float64(c.Population)
	}
	var out []Bound
	for c, cl := range m.Classes {
		if cl.Population == 0 {
			continue
		}
		d := demandsOf(m, c)
		if d.loadDep {
			return nil, notApplicable("asymptotic bounds: load-dependent stations are not supported")
		}
		n := float64(cl.Population)
		rl := math.Max(d.queue+d.delay, n*d.maxPerServer-cl.ThinkTime)
		ru := ntot*d.queue + d.delay
		out = append(out, closedBound(BoundAsymptotic, "asymptotic bounds (QSP §5.2; Octave qncsaba/qncmaba, multi-class upper R corrected)", cl, rl, ru, d.maxPerServer))
	}
	return out, nil
}

// ClosedBJB returns balanced job bounds of a closed network of single-server queues and
// delay centres. One class: QSP §5.3 (Table 5.3 with think time, as BoundsAt). Several
// classes (the form of Octave's qncmbsb, with a tighter lower response-time bound): with
// N = Σ N_c, the arrival theorem R_c = Σ_k D_{c,k}(1 + Q_k(N − 1_c)) and Σ_k Q_k ≤ N − 1 give
//
//	R_c ≤ D_c + (N − 1)·D^max_c,
//	R_c ≥ D^Q_c + (N − 1)·D^min_c   when no class thinks and there are no delay centres
//	                                 (then Σ_k Q_k(N − 1_c) = N − 1 exactly),
//	R_c ≥ max(D_c, N_c·D^max_c − Z_c) otherwise,
//
// with D^max_c and D^min_c the largest and smallest class-c demand at a queueing station;
// X_c = N_c/(R_c + Z_c) of the other bound, capped at 1/D^max_c. Octave's qncmbsb lower R is
// (K + N − 1)·D^min_c, which is never tighter (D^Q_c ≥ K·D^min_c); its lower X bound is the
// same as here.
func ClosedBJB(m *Model) ([]Bound, error) {
	if err := closedOnly(m, "balanced job"); err != nil {
		return nil, err
	}
	for c := range m.Classes {
		if !demandsOf(m, c).singleOnly {
			return nil, notApplicable("balanced job bounds: need single-server queues and delay centres only (multi-server or load-dependent stations present)")
		}
	}
	if len(m.Classes) == 1 {
		cl := m.Classes[0]
		if cl.Population == 0 {
			return nil, nil
		}
		b, err := BoundsAt(m, cl.Population)
		if err != nil {
			return nil, err
		}
		ru := b.RUpperBJB
		return []Bound{{Name: BoundBalancedJob, Method: "balanced job bounds (QSP §5.3, Table 5.3 with think time)", Class: cl.Name,
			ThroughputLower: b.XLowerBJB, ThroughputUpper: b.XUpperBJB, ResponseTimeLower: b.RLowerBJB, ResponseTimeUpper: &ru}}, nil
	}
	ntot := 0.0
	think := false
	for _, c := range m.Classes {
		ntot += float64(c.Population)
		think = think || c.ThinkTime > 0
	}
	hasDelay := false
	for _, s := range m.Stations {
		hasDelay = hasDelay || s.Kind == Delay
	}
	var out []Bound
	for c, cl := range m.Classes {
		if cl.Population == 0 {
			continue
		}
		d := demandsOf(m, c)
		n := float64(cl.Population)
		ru := d.queue + d.delay + (ntot-1)*d.maxSingle
		rl := math.Max(d.queue+d.delay, n*d.maxSingle-cl.ThinkTime)
		if !think && !hasDelay && d.nQueues > 0 {
			rl = math.Max(rl, d.queue+(ntot-1)*d.minSingle)
		}
		out = append(out, closedBound(BoundBalancedJob, "multi-class balanced job bounds (form of Octave qncmbsb, arrival theorem)", cl, rl, ru, d.maxSingle))
	}
	return out, nil
}
