package qn

import "math"

// Saturation is where a solved network saturates: its bottleneck and the load at which the
// bottleneck's servers are busy all the time (Lazowska et al., Quantitative System
// Performance, 1984, §5.2: X ≤ 1/D_max, N* = (D + Z)/D_max).
//
//   - Bottlenecks: the queueing (non-delay) stations of the highest utilization per server U
//     in the solution (ties within 1e-9 relative), in model order. With one class this is the
//     station of the largest demand per server D_k/m_k; with several it depends on the mix of
//     the solved point, so it is the bottleneck of that mix. A solution without load (no
//     jobs, no arrivals: every U is 0) names the station(s) of the largest demand per server
//     at the model's mix of classes (byDemand): the one that saturates first once jobs come.
//   - Utilization: that U (per server, 0–1).
//   - Demand: D_max, the bottleneck's demand per job of the solved mix, per server (s):
//     Σ_c X_c·D_c/X over the classes (X = Σ_c X_c), the demand of one class when there is
//     one; with no throughput (nothing solved moves) the classes' mean. Before session 8
//     it was the sum over classes, which for four classes of 0.03 s said "0.12 s per job,
//     so at most 33.33 jobs/s" where 1/0.12 = 8.3 (hostile review 8 P1-5).
//   - Ceiling: the system throughput (jobs/s) at which the bottleneck saturates with the
//     solved mix of classes: X/U (U = X·D/m grows in proportion to X); 1/D_max for one
//     class. Without load (U = 0): 1/D_max at the model's mix.
//   - NStar: single-class closed networks: N* = (D + Z)/D_max, D = Σ_k D_k·copies_k over all
//     stations, the knee of the asymptotic bounds (beyond it jobs only queue); 0 otherwise.
//   - MaxRate: open networks: the total arrival rate (jobs/s) at which the bottleneck
//     saturates, scaling every open class's rate alike: λ/U (1/D_max without load); 0 for
//     closed or mixed networks.
//
// Both `clusterperf solve` (through package answer) and `explore` read the bottleneck and
// N* from here, so they name the same station.
type Saturation struct {
	Bottlenecks []int
	Utilization float64
	Demand      float64
	Ceiling     float64
	NStar       float64
	MaxRate     float64
}

// SaturationOf analyses the solution r of m (see Saturation). A network without a queueing
// station has no bottleneck (Bottlenecks empty).
func SaturationOf(m *Model, r *Result) Saturation {
	var s Saturation
	umax := -1.0
	for k, st := range m.Stations {
		if st.Kind == Delay {
			continue
		}
		if u := r.StationUtilization(k); u > umax {
			umax = u
		}
	}
	if umax < 0 {
		return s
	}
	if umax == 0 {
		return byDemand(m)
	}
	for k, st := range m.Stations {
		if st.Kind == Delay {
			continue
		}
		if u := r.StationUtilization(k); u >= umax-1e-9*math.Abs(umax) {
			s.Bottlenecks = append(s.Bottlenecks, k)
		}
	}
	bk := s.Bottlenecks[0]
	s.Utilization = umax
	s.Demand = mixDemand(m, r, bk)
	if st := m.Stations[bk]; st.Kind == MultiServer && st.Servers > 0 {
		s.Demand /= float64(st.Servers)
	}
	if umax > 0 {
		s.Ceiling = r.SystemThroughput() / umax
	}
	open, closed, rate := 0, 0, 0.0
	for _, c := range m.Classes {
		if c.Open {
			open++
			rate += c.ArrivalRate
		} else {
			closed++
		}
	}
	if open > 0 && closed == 0 && umax > 0 {
		s.MaxRate = rate / umax
	}
	if closed == 1 && open == 0 {
		s.NStar = NStar(m)
	}
	return s
}

// mixDemand is station k's demand per job of the solved mix of r: Σ_c X_c·D_{c,k}/Σ_c X_c,
// or the classes' mean demand when no class has throughput.
func mixDemand(m *Model, r *Result, k int) float64 {
	if len(m.Classes) == 1 {
		return m.Demand[0][k]
	}
	x, xd, sum := 0.0, 0.0, 0.0
	for c := range m.Classes {
		sum += m.Demand[c][k]
		if c < len(r.Throughput) {
			x += r.Throughput[c]
			xd += r.Throughput[c] * m.Demand[c][k]
		}
	}
	if x > 0 {
		return xd / x
	}
	return sum / float64(len(m.Classes))
}

// NStar is N* = (D + Z)/D_max of the first class of m taken alone (Lazowska et al. §5.2):
// D = Σ_k D_k·copies_k over every station, Z the think time, D_max the largest demand per
// server of a queueing (non-delay) station; 0 when there is none.
func NStar(m *Model) float64 {
	d, dmax := 0.0, 0.0
	for k, st := range m.Stations {
		d += m.Demand[0][k] * float64(st.Copies())
		if st.Kind != Delay {
			dd := m.Demand[0][k]
			if st.Kind == MultiServer && st.Servers > 0 {
				dd /= float64(st.Servers)
			}
			dmax = math.Max(dmax, dd)
		}
	}
	if dmax <= 0 {
		return 0
	}
	return (d + m.Classes[0].ThinkTime) / dmax
}

// mixWeights is the share w_c of class c in the model's mix: its population (closed) or
// arrival rate (open) over the total, or equal shares when every one is 0.
func mixWeights(m *Model) []float64 {
	w := make([]float64, len(m.Classes))
	tot := 0.0
	for c, cl := range m.Classes {
		if cl.Open {
			w[c] = cl.ArrivalRate
		} else {
			w[c] = float64(cl.Population)
		}
		tot += w[c]
	}
	for c := range w {
		if tot > 0 {
			w[c] /= tot
		} else {
			w[c] = 1 / float64(len(w))
		}
	}
	return w
}

// byDemand is the Saturation of m without load (every utilization 0): the bottleneck is
// the queueing station of the largest demand per server D_k = Σ_c w_c·D_ck/m_k at the
// model's mix w (mixWeights; one class: D_k/m_k), ties within 1e-9 relative; Ceiling
// = 1/D_max, the throughput at which it saturates (Lazowska et al. §5.2, X ≤ 1/D_max);
// MaxRate = Ceiling for an open network; NStar as SaturationOf.
func byDemand(m *Model) Saturation {
	var s Saturation
	w := mixWeights(m)
	d := make([]float64, len(m.Stations))
	for k, st := range m.Stations {
		for c := range m.Classes {
			d[k] += w[c] * m.Demand[c][k]
		}
		if st.Kind == MultiServer && st.Servers > 0 {
			d[k] /= float64(st.Servers)
		}
		if st.Kind != Delay {
			s.Demand = math.Max(s.Demand, d[k])
		}
	}
	for k, st := range m.Stations {
		if st.Kind != Delay && d[k] >= s.Demand-1e-9*s.Demand {
			s.Bottlenecks = append(s.Bottlenecks, k)
		}
	}
	if s.Demand > 0 {
		s.Ceiling = 1 / s.Demand
	}
	open, closed := 0, 0
	for _, c := range m.Classes {
		if c.Open {
			open++
		} else {
			closed++
		}
	}
	if open > 0 && closed == 0 {
		s.MaxRate = s.Ceiling
	}
	if closed == 1 && open == 0 {
		s.NStar = NStar(m)
	}
	return s
}

// MaxArrivalRate is the capacity of an open network along open class c's arrival rate:
// the largest λ_c, the other open classes' rates fixed, at which every queueing station
// keeps a per-server utilization by the open classes below 1 (Lazowska et al. §5.2: U_k =
// Σ λ_c·D_ck/m_k < 1), λ_c* = min_k (m_k − Σ_{c'≠c} λ_c'·D_c'k)/D_ck over the queueing
// stations with D_ck > 0, and the station of that minimum (the first in model order on a
// tie). +Inf and -1 when class c loads no queueing station; 0 when the other classes
// alone saturate one.
func MaxArrivalRate(m *Model, c int) (rate float64, station int) {
	rate, station = math.Inf(1), -1
	for k, st := range m.Stations {
		if st.Kind == Delay || m.Demand[c][k] <= 0 {
			continue
		}
		servers := 1.0
		if st.Kind == MultiServer && st.Servers > 0 {
			servers = float64(st.Servers)
		}
		free := servers
		for o, cl := range m.Classes {
			if o != c && cl.Open {
				free -= cl.ArrivalRate * m.Demand[o][k]
			}
		}
		if v := math.Max(free, 0) / m.Demand[c][k]; v < rate {
			rate, station = v, k
		}
	}
	return rate, station
}
