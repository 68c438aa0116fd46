package qn

import (
	"fmt"
	"strconv"
	"strings"
)

// MVASingle solves a single-class closed network exactly by Mean Value Analysis
// (QSP ch. 6, eqs. 6.1–6.3):
//
//	R_k(n) = D_k·(1 + Q_k(n−1))   queue
//	R_k(n) = D_k                  delay
//	X(n)   = n / (Z + Σ_k Count_k·R_k(n)),   Q_k(n) = X(n)·R_k(n)
//
// Multi-server (m servers) and load-dependent stations use the marginal probabilities
// p_k(j|n) (QSP §20.3, BGdMT eq. 8.43):
//
//	multi-server: R_k(n) = (D_k/m)·(1 + Q_k(n−1) + Σ_{j=0}^{m−2} (m−1−j)·p_k(j|n−1))
//	load-dep.:    R_k(n) = D_k·Σ_{j=1}^{n} j/α(j)·p_k(j−1|n−1)
//	              p_k(j|n) = D_k·X(n)/α(j)·p_k(j−1|n−1),  j ≥ 1
//
// and p_k(0|n) = p_k(0|n−1)·X(n)/X₋ₖ(n), where X₋ₖ is the throughput of the network with one
// copy of k removed. That identity follows from p_k(0|n) = G₋ₖ(n)/G(n) and X(n) = G(n−1)/G(n);
// unlike the textbook 1 − Σ_{j≥1} p_k(j|n) it involves no subtraction and so cannot cancel
// to a negative probability. The reduced networks are solved recursively (memoised), which
// costs one extra solve per distinct count vector of multi-server/load-dependent stations.
//
// Cost: O(N·K) for queue and delay stations; O(N·m) per multi-server and O(N²) per
// load-dependent station. The model must have exactly one class, closed.
func MVASingle(m *Model) (*Result, error) {
	if err := m.solvable(); err != nil {
		return nil, err
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, err
	}
	if len(m.Classes) != 1 || m.Classes[0].Open {
		return nil, unsupported("exact single-class MVA needs exactly one closed class (model has %d classes)", len(m.Classes))
	}
	s := newSCSolver(m, 0)
	N := m.Classes[0].Population
	fin := s.run(s.counts, N, false)
	res := newResult("mva", 1, len(m.Stations))
	res.Status = Status{Converged: true, Iterations: N}
	res.Throughput[0] = fin.x
	for k := range m.Stations {
		res.Residence[k][0] = fin.r[k]
		res.QueueLength[k][0] = fin.x * fin.r[k]
		res.ResponseTime[0] += float64(m.Stations[k].Copies()) * fin.r[k]
		res.Utilization[k][0] = fin.u[k]
	}
	return res, nil
}

// MVASingleTrajectory returns X(n) and R(n) for n = 0..N of a single-class closed model
// (exact MVA computes every population on its way to N, so a population sweep is free).
func MVASingleTrajectory(m *Model) (x, r []float64, err error) {
	if err := m.solvable(); err != nil {
		return nil, nil, err
	}
	if len(m.Classes) != 1 || m.Classes[0].Open {
		return nil, nil, unsupported("exact single-class MVA needs exactly one closed class")
	}
	s := newSCSolver(m, 0)
	N := m.Classes[0].Population
	fin := s.run(s.counts, N, true)
	r = make([]float64, N+1)
	for n := 1; n <= N; n++ {
		r[n] = float64(n)/fin.xs[n] - s.z
	}
	return fin.xs, r, nil
}

type scStation struct {
	st Station
	d  float64
}

type scSolver struct {
	z      float64
	st     []scStation
	counts []int // copies per station
	memo   map[string][]float64
}

type scFinal struct {
	x  float64
	r  []float64 // residence per copy at N
	u  []float64
	xs []float64 // X(n), n = 0..N, when requested
}

func newSCSolver(m *Model, class int) *scSolver {
	s := &scSolver{z: m.Classes[class].ThinkTime, memo: map[string][]float64{}}
	for k, st := range m.Stations {
		s.st = append(s.st, scStation{st: st, d: m.Demand[class][k]})
		s.counts = append(s.counts, st.Copies())
	}
	return s
}

func (s *scSolver) isMarginal(k int) bool {
	kd := s.st[k].st.Kind
	return (kd == MultiServer && s.st[k].st.Servers > 1) || kd == LoadDependent
}

func key(counts []int) string {
	var b strings.Builder
	for _, c := range counts {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	return b.String()
}

// throughputs returns X(0..N) of the network with the given copy counts.
func (s *scSolver) throughputs(counts []int, N int) []float64 {
	k := key(counts)
	if xs, ok := s.memo[k]; ok && len(xs) > N {
		return xs
	}
	fin := s.run(counts, N, true)
	s.memo[k] = fin.xs
	return fin.xs
}

func (s *scSolver) run(counts []int, N int, traj bool) scFinal {
	if s.simple() {
		return s.runSimple(counts, N, traj)
	}
	K := len(s.st)
	q := make([]float64, K)
	r := make([]float64, K)
	p := make([][]float64, K)      // marginal p_k(j|n) of one copy
	xminus := make([][]float64, K) // X₋ₖ(n)
	for k := range s.st {
		if counts[k] == 0 || !s.isMarginal(k) || s.st[k].d == 0 {
			continue
		}
		size := N + 1
		if s.st[k].st.Kind == MultiServer {
			size = min(s.st[k].st.Servers, N+1)
		}
		p[k] = make([]float64, size)
		p[k][0] = 1
		red := append([]int(nil), counts...)
		red[k]--
		xminus[k] = s.throughputs(red, N)
	}
	var xs []float64
	if traj {
		xs = make([]float64, N+1)
	}
	x := 0.0
	for n := 1; n <= N; n++ {
		total := s.z
		for k, st := range s.st {
			if counts[k] == 0 {
				continue
			}
			d := st.d
			switch {
			case d == 0:
				r[k] = 0
			case st.st.Kind == Delay:
				r[k] = d
			case st.st.Kind == Queue || (st.st.Kind == MultiServer && st.st.Servers == 1):
				r[k] = d * (1 + q[k])
			case st.st.Kind == MultiServer:
				mm := st.st.Servers
				sum := 0.0
				pk := p[k]
				for j := 0; j <= mm-2 && j < len(pk); j++ {
					sum += float64(mm-1-j) * pk[j]
				}
				r[k] = d / float64(mm) * (1 + q[k] + sum)
			default: // LoadDependent
				pk := p[k]
				sum := 0.0
				for j := 1; j <= n; j++ {
					sum += float64(j) / st.st.alpha(j) * pk[j-1]
				}
				r[k] = d * sum
			}
			total += float64(counts[k]) * r[k]
		}
		if total > 0 {
			x = float64(n) / total
		} else {
			x = 0 // degenerate: no demand anywhere; reported as infinite elsewhere
		}
		for k := range s.st {
			q[k] = x * r[k]
			pk := p[k]
			if pk == nil {
				continue
			}
			d := s.st[k].d
			top := min(n, len(pk)-1)
			for j := top; j >= 1; j-- {
				pk[j] = d * x / s.st[k].st.alpha(j) * pk[j-1]
			}
			if xm := xminus[k][n]; xm > 0 {
				pk[0] *= x / xm
			} else {
				pk[0] = 0
			}
		}
		if traj {
			xs[n] = x
		}
	}
	if N == 0 { // zero convention (doc.go): the residence one arriving job would have
		for k, st := range s.st {
			r[k] = st.d / st.st.alpha(1)
		}
	}
	fin := scFinal{x: x, r: r, u: make([]float64, K), xs: xs}
	for k, st := range s.st {
		switch {
		case st.st.Kind == Delay:
			fin.u[k] = x * st.d
		case st.st.Kind == MultiServer:
			fin.u[k] = x * st.d / float64(st.st.Servers)
		case st.st.Kind == LoadDependent && p[k] != nil:
			fin.u[k] = 1 - p[k][0]
		default:
			fin.u[k] = x * st.d
		}
	}
	return fin
}

// String describes a station for error messages.
func (s Station) String() string {
	if s.Copies() > 1 {
		return fmt.Sprintf("%s ×%d", s.Name, s.Copies())
	}
	return s.Name
}

// simple reports whether every station is a queue (or one-server multi-server) or a delay,
// for which the recursion needs no marginal probabilities.
func (s *scSolver) simple() bool {
	for k := range s.st {
		if s.isMarginal(k) {
			return false
		}
	}
	return true
}

// runSimple is the O(N·K) recursion for queue and delay stations, with the delay stations
// folded into the think time (their residence is constant) and tight arrays for the queues.
func (s *scSolver) runSimple(counts []int, N int, traj bool) scFinal {
	K := len(s.st)
	var dq, cq []float64
	var idx []int
	z := s.z
	for k, st := range s.st {
		if counts[k] == 0 || st.d == 0 {
			continue
		}
		if st.st.Kind == Delay {
			z += float64(counts[k]) * st.d
			continue
		}
		dq = append(dq, st.d)
		cq = append(cq, float64(counts[k])*st.d)
		idx = append(idx, k)
	}
	q := make([]float64, len(dq))
	var xs []float64
	if traj {
		xs = make([]float64, N+1)
	}
	x := 0.0
	for n := 1; n <= N; n++ {
		total := z
		for j, c := range cq {
			total += c * (1 + q[j])
		}
		if total > 0 {
			x = float64(n) / total
		} else {
			x = 0
		}
		for j, d := range dq {
			q[j] = x * d * (1 + q[j])
		}
		if traj {
			xs[n] = x
		}
	}
	// residence times at N: R_k = D_k(1 + Q_k(N−1)) = Q_k(N)/X(N)
	fin := scFinal{x: x, r: make([]float64, K), u: make([]float64, K), xs: xs}
	for k, st := range s.st {
		fin.r[k] = st.d
		fin.u[k] = x * st.d
		if st.st.Kind == MultiServer {
			fin.u[k] = x * st.d / float64(st.st.Servers)
		}
	}
	for j, k := range idx {
		if x > 0 {
			fin.r[k] = q[j] / x
		} else {
			fin.r[k] = dq[j]
		}
	}
	return fin
}
