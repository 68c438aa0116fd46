package qn

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// openLoads returns the utilisation per server U_k = Σ_c λ_c·D_{c,k}/m_k of each station
// (0 for delay centres), and an error wrapping fault.ErrSaturated if some U_k ≥ 1.
func openLoads(m *Model, what string) ([]float64, error) {
	for _, c := range m.Classes {
		if !c.Open {
			return nil, notApplicable("%s bounds: class %q is closed (these bounds are for open networks)", what, c.Name)
		}
	}
	u := make([]float64, len(m.Stations))
	for k, s := range m.Stations {
		if s.Kind == LoadDependent {
			return nil, notApplicable("%s bounds: load-dependent station %q is not supported", what, s.Name)
		}
		if s.Kind == Delay {
			continue
		}
		for c, cl := range m.Classes {
			u[k] += cl.ArrivalRate * m.Demand[c][k]
		}
		if s.Kind == MultiServer {
			u[k] /= float64(s.Servers)
		}
		if u[k] >= 1 {
			return nil, fmt.Errorf("%w: station %q: utilization %.4g ≥ 1, no steady state", fault.ErrSaturated, s.Name, u[k])
		}
	}
	return u, nil
}

// OpenABA returns the asymptotic bounds of an open network (QSP §5.2; Octave qnosaba): class
// c's throughput is its arrival rate λ_c as long as every station is below saturation (flow
// balance, QSP §3.2; openLoads refuses a saturated one), so both throughput bounds are λ_c
// (Octave's upper end λ_c/U_max — with one class 1/D_max — is the throughput at saturation,
// not a bound at this λ_c), and R_c ≥ D_c with no finite upper bound (ResponseTimeUpper nil).
func OpenABA(m *Model) ([]Bound, error) {
	u, err := openLoads(m, "open asymptotic")
	if err != nil {
		return nil, err
	}
	umax := 0.0
	for _, v := range u {
		umax = math.Max(umax, v)
	}
	var out []Bound
	for c, cl := range m.Classes {
		dc := 0.0
		for k, s := range m.Stations {
			dc += float64(s.Copies()) * m.Demand[c][k]
		}
		if cl.ArrivalRate == 0 || umax == 0 {
			continue // no load: nothing to bound
		}
		out = append(out, Bound{Name: BoundAsymptotic, Method: "open asymptotic bounds (QSP §5.2; Octave qnosaba)", Class: cl.Name,
			ThroughputLower: cl.ArrivalRate, ThroughputUpper: cl.ArrivalRate, ResponseTimeLower: dc})
	}
	return out, nil
}

// OpenBJB returns balanced job bounds of an open network of single-server queues and delay
// centres. Class c's response time is R_c = D^IS_c + Σ_k D_{c,k}/(1 − U_k) over the queues;
// 1/(1 − U) is convex, so with the demand-weighted mean load Ū_c = Σ_k D_{c,k}U_k / D^Q_c
// (Jensen) and the largest load U^max_c at a queue class c visits,
//
//	D^IS_c + D^Q_c/(1 − Ū_c) ≤ R_c ≤ D^IS_c + D^Q_c/(1 − U^max_c).
//
// With one class the upper bound is QSP §5.3's D/(1 − λD_max) (Octave qnosbsb) and the lower
// one is at least QSP's D/(1 − λD/K) (Ū ≥ λD/K). Octave 1.2.7's qnosbsb takes
// D_ave = mean(D_tot) of a scalar, i.e. D itself instead of D/K, so its lower bound
// D/(1 − λD) exceeds the exact answer (D = (0.5, 0.5), λ = 1: exact 2, qnosbsb ∞).
// Throughput bounds as in OpenABA: λ_c.
func OpenBJB(m *Model) ([]Bound, error) {
	u, err := openLoads(m, "open balanced job")
	if err != nil {
		return nil, err
	}
	umax := 0.0
	for k, s := range m.Stations {
		if s.Kind == MultiServer && s.Servers > 1 {
			return nil, notApplicable("open balanced job bounds: multi-server station %q is not supported", s.Name)
		}
		umax = math.Max(umax, u[k])
	}
	var out []Bound
	for c, cl := range m.Classes {
		if cl.ArrivalRate == 0 || umax == 0 {
			continue
		}
		var dq, dd, du, uc float64
		for k, s := range m.Stations {
			dk := float64(s.Copies()) * m.Demand[c][k]
			if s.Kind == Delay {
				dd += dk
				continue
			}
			dq += dk
			du += dk * u[k]
			if dk > 0 {
				uc = math.Max(uc, u[k])
			}
		}
		rl, ru := dd, dd
		if dq > 0 {
			rl += dq / (1 - du/dq)
			ru += dq / (1 - uc)
		}
		out = append(out, Bound{Name: BoundBalancedJob, Method: "open balanced job bounds (QSP §5.3, convexity of 1/(1−U))", Class: cl.Name,
			ThroughputLower: cl.ArrivalRate, ThroughputUpper: cl.ArrivalRate, ResponseTimeLower: rl, ResponseTimeUpper: &ru})
	}
	return out, nil
}
