package qn

import "math"

// Saturation is where a solved network saturates: its bottleneck and the load at which the
// bottleneck's servers are busy all the time (Lazowska et al., Quantitative System
// Performance, 1984, §5.2: X ≤ 1/D_max, N* = (D + Z)/D_max).
//
//   - Bottlenecks: the queueing (non-delay) stations of the highest utilization per server U
//     in the solution (ties within 1e-9 relative), in model order. With one class this is the
//     station of the largest demand per server D_k/m_k; with several it depends on the mix of
//     the solved point, so it is the bottleneck of that mix.
//   - Utilization: that U (per server, 0–1).
//   - Demand: D_max, the bottleneck's demand per job of the solved mix, per server (s):
//     Σ_c X_c·D_c/X over the classes (X = Σ_c X_c), the demand of one class when there is
//     one; with no throughput (nothing solved moves) the classes' mean. Before session 8
//     it was the sum over classes, which for four classes of 0.03 s said "0.12 s per job,
//     so at most 33.33 jobs/s" where 1/0.12 = 8.3 (hostile review 8 P1-5).
//   - Ceiling: the system throughput (jobs/s) at which the bottleneck saturates with the
//     solved mix of classes: X/U (U = X·D/m grows in proportion to X); 1/D_max for one
//     class. 0 when U = 0.
//   - NStar: single-class closed networks: N* = (D + Z)/D_max, D = Σ_k D_k·copies_k over all
//     stations, the knee of the asymptotic bounds (beyond it jobs only queue); 0 otherwise.
//   - MaxRate: open networks: the total arrival rate (jobs/s) at which the bottleneck
//     saturates, scaling every open class's rate alike: λ/U; 0 for closed or mixed networks.
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
