package qn

import (
	"context"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// MaxLDWork is the largest estimated work (floating-point operations) MVAMulti accepts for
// a network with multi-server or load-dependent stations; beyond it the solver refuses with
// fault.ErrTooLarge.
const MaxLDWork = 2e10

// mvaMultiLD solves a closed multi-class network with multi-server and load-dependent
// stations exactly: multi-class MVA with marginal probabilities (Reiser & Lavenberg 1980;
// BGdMT §8.2.4, eqs. 8.43–8.46; QSP §20.4). For a station k with capacity α(j) (α(j) = j up
// to m servers, or the rates α(1..L) and α(L) beyond), writing L for the last point where α
// changes and α_L = α(L):
//
//	R_{k,c}(n) = D_{k,c}·Σ_{j≥1} j/α(j)·p_k(j−1 | n−e_c)
//	           = D_{k,c}·[(1 + Q_k(n−e_c))/α_L + Σ_{j=1}^{L} j·(1/α(j) − 1/α_L)·p_k(j−1 | n−e_c)]
//	p_k(j | n) = (1/α(j))·Σ_c D_{k,c}·X_c(n)·p_k(j−1 | n−e_c),   1 ≤ j < L
//	p_k(0 | n) = p_k(0 | n−e_c)·X_c(n) / X₋ₖ,c(n)   (any class c with n_c > 0)
//
// The second form of R uses Σ_j j·p(j−1|·) = 1 + Q, so only L marginal probabilities per
// station are kept (m for an m-server station: R = (D/m)·(1 + Q + Σ_{j=0}^{m−2}(m−1−j)p(j)),
// BGdMT eq. 8.48). The last line is the multi-class form of the single-class code's
// cancellation-free identity: p_k(0|n) = G₋ₖ(n)/G(n) and X_c(n) = G(n−e_c)/G(n), so the ratio
// p_k(0|n)/p_k(0|n−e_c) is X_c(n)/X₋ₖ,c(n), with X₋ₖ the throughput of the network with one
// copy of station k removed. The textbook p_k(0|n) = 1 − Σ_{j≥1} p_k(j|n) subtracts numbers
// close to 1 at high utilisation and goes negative (it is not used). The product of ratios
// has only multiplications and divisions of positive numbers, so its relative error grows at
// most linearly in |n| (ε·|n|); it is stable at any utilisation and population.
//
// The reduced networks (every combination of removed copies of the multi-server and
// load-dependent stations: Π_k (Count_k + 1) networks) are solved in the same walk of the
// population lattice, smaller networks first at each point, so X₋ₖ(n) is at hand when
// p_k(0|n) is needed. The lattice is walked as in MVAMulti, keeping two slices.
//
// Cost: Π_c(N_c+1) points × networks × C·(K + Σ L_k); memory 2·Π_{c>1}(N_c+1) × networks ×
// (K + Σ L_k) floats.
func mvaMultiLD(m *Model, opts []ExactOption) (*Result, error) {
	return mvaMultiLDContext(context.Background(), m, opts)
}

// mvaMultiLDContext is mvaMultiLD stopped by ctx, which it checks about every million
// operations (the error wraps fault.ErrInterrupted and ctx's error).
func mvaMultiLDContext(ctx context.Context, m *Model, opts []ExactOption) (*Result, error) {
	s, err := newLDSolver(m, -1, opts...)
	if err != nil {
		return nil, err
	}
	s.ctx = ctx
	return s.solve()
}

// NormalizingConstant returns ln G(N) of a closed product-form network (every class
// closed): G(N) = Σ over states Π_k F_k(n_k) · Π_c Z_c^{m_c}/m_c!, with F_k(n) =
// |n|!·Π_c (D_{c,k}^{n_c}/n_c!) / Π_{j=1}^{|n|} α_k(j) (queue α = 1, delay α(j) = j), m_c the
// class-c jobs thinking, times in the model's unit (BGdMT §8.1). It is computed without
// the convolution's overflow: X_c(n) = G(n − e_c)/G(n) (BGdMT eq. 8.31), so
// ln G(N) = −Σ ln X_{c_i}(n_i) along the lattice path 0 → N that adds the jobs of one class
// after another, with X from exact MVA (the marginal-probability form of mvaMultiLD). The
// value changes by |N|·ln s when all times are scaled by s.
func NormalizingConstant(m *Model) (float64, error) {
	s, err := newLDSolver(m, -1)
	if err != nil {
		return 0, err
	}
	if _, err := s.solve(); err != nil {
		return 0, err
	}
	return s.logG, nil
}

// QueueLengthDistribution returns P(n_k = j), j = 0..|N|, the exact marginal distribution of
// the number of jobs (all classes) at one copy of station k of a closed product-form
// network, and so P(empty) = P[0] and queue-length percentiles. Station k is solved as a
// load-dependent station keeping every marginal p_k(j | n), j ≤ |n| (BGdMT eq. 8.45), with
// p_k(0 | n) by the cancellation-free ratio of mvaMultiLD. Cost: the lattice times |N|.
func QueueLengthDistribution(m *Model, k int) ([]float64, error) {
	if k < 0 || k >= len(m.Stations) {
		return nil, fmt.Errorf("%w: station index %d out of range (model has %d stations)", fault.ErrInput, k, len(m.Stations))
	}
	s, err := newLDSolver(m, k)
	if err != nil {
		return nil, err
	}
	if _, err := s.solve(); err != nil {
		return nil, err
	}
	return s.dist, nil
}

type ldStation struct {
	k      int       // station index in the model
	L      int       // marginal probabilities kept (0: plain queue)
	invA   []float64 // invA[j-1] = 1/α(j), j = 1..L
	invAL  float64   // 1/α_L (1 for a plain queue)
	coef   []float64 // coef[j-1] = j·(1/α(j) − 1/α_L)
	pOff   int       // offset of p_k(0..L−1) in a record
	margID int       // index among marginal stations, −1 for a plain queue
}

type ldNet struct {
	copies []float64 // copies of each record station in this network
	child  []int     // per record station: the network with one copy fewer (−1: none)
	zeff   []float64 // per class (in order): Z + Σ delay copies·D
	dead   []bool    // per class: no demand anywhere and no think time (G(n) = 0 for n_c > 0)
}

type ldSolver struct {
	m       *Model
	order   []int
	N       []int
	C, K    int
	d       [][]float64 // [ci][k]
	st      []ldStation
	rec     int // record size per network: len(st) queue lengths + Σ L
	nets    []ldNet
	strides []int
	slice   int
	full    int // record index of the station whose whole distribution is kept (−1: none)
	logG    float64
	dist    []float64       // P(n_full = j | N)
	ctx     context.Context // stops solve (nil: never)
}

// newLDSolver prepares the solver; distK ≥ 0 asks for the whole queue-length distribution
// of station distK (see QueueLengthDistribution).
func newLDSolver(m *Model, distK int, opts ...ExactOption) (*ldSolver, error) {
	order, err := exactClosed(m, opts)
	if err != nil {
		return nil, err
	}
	s := &ldSolver{m: m, C: len(m.Classes), K: len(m.Stations), full: -1}
	s.order = order
	for _, c := range s.order {
		s.N = append(s.N, m.Classes[c].Population)
		s.d = append(s.d, m.Demand[c])
	}
	margCount := s.addStations(distK)
	nn, err := s.addNets(distK, margCount)
	if err != nil {
		return nil, err
	}
	s.strides = make([]int, s.C)
	s.slice = 1
	for ci := s.C - 1; ci >= 1; ci-- {
		s.strides[ci] = s.slice
		s.slice *= s.N[ci] + 1
	}
	points := LatticeSize(m)
	work := points * float64(nn) * float64(s.C) * float64(s.rec+s.K)
	mem := 2 * float64(s.slice) * float64(nn) * float64(s.rec) * 8
	if work > MaxLDWork || mem > 4<<30 {
		return nil, fmt.Errorf("%w: exact multi-class MVA with multi-server/load-dependent stations: estimated %.3g operations (limit %.3g) and %.3g GB (limit 4 GB); use solver linearizer", fault.ErrTooLarge, work, MaxLDWork, mem/1e9)
	}
	return s, nil
}

// addStations lays out the record stations (every non-delay station, and distK): for a
// marginal one (multi-server with m > 1, load-dependent, or distK, whose whole
// distribution of total+1 values is kept) L = min(m or len(Rates), max(total, 1))
// marginal probabilities, 1/α(j) and coef_j = j·(1/α(j) − 1/α_L); then the record size
// and each station's offset in it. It returns the copy count of each marginal station.
func (s *ldSolver) addStations(distK int) []int {
	total := 0
	for _, n := range s.N {
		total += n
	}
	var margCount []int
	for k, st := range s.m.Stations {
		if st.Kind == Delay && k != distK {
			continue
		}
		ls := ldStation{k: k, invAL: 1, margID: -1}
		switch {
		case k == distK:
			ls.L = total + 1
			s.full = len(s.st)
		case st.Kind == MultiServer && st.Servers > 1:
			ls.L = min(st.Servers, max(total, 1))
		case st.Kind == LoadDependent:
			ls.L = min(len(st.Rates), max(total, 1))
		}
		if ls.L > 0 {
			ls.invA = make([]float64, ls.L)
			for j := 1; j <= ls.L; j++ {
				ls.invA[j-1] = 1 / st.alpha(j)
			}
			ls.invAL = ls.invA[ls.L-1]
			ls.coef = make([]float64, ls.L)
			for j := 1; j <= ls.L; j++ {
				ls.coef[j-1] = float64(j) * (ls.invA[j-1] - ls.invAL)
			}
			ls.margID = len(margCount)
			margCount = append(margCount, st.Copies())
		}
		s.st = append(s.st, ls)
	}
	s.rec = len(s.st)
	for i := range s.st {
		if s.st[i].L > 0 {
			s.st[i].pOff = s.rec
			s.rec += s.st[i].L
		}
	}
	return margCount
}

// addNets builds the reduced networks and returns their number: every vector of copy
// counts 0..Count of the marginal stations, in mixed radix with the first marginal
// station fastest; a network's children (one copy fewer) have smaller indices, so
// increasing index is a valid order. More than 2^16 networks is refused (ErrTooLarge).
func (s *ldSolver) addNets(distK int, margCount []int) (int, error) {
	nn := 1
	radix := make([]int, len(margCount))
	for i, c := range margCount {
		radix[i] = nn
		nn *= c + 1
		if nn > 1<<16 {
			return 0, fmt.Errorf("%w: exact multi-class MVA with %d multi-server/load-dependent station groups needs more than %d reduced networks (Π (count+1)); use solver linearizer", fault.ErrTooLarge, len(margCount), 1<<16)
		}
	}
	cv := make([]int, len(margCount))
	for v := 0; v < nn; v++ {
		r := v
		for i := len(cv) - 1; i >= 0; i-- {
			cv[i] = r / radix[i]
			r %= radix[i]
		}
		net := ldNet{copies: make([]float64, len(s.st)), child: make([]int, len(s.st))}
		for j, ls := range s.st {
			net.child[j] = -1
			if ls.margID < 0 {
				net.copies[j] = float64(s.m.Stations[ls.k].Copies())
				continue
			}
			net.copies[j] = float64(cv[ls.margID])
			if cv[ls.margID] > 0 {
				net.child[j] = v - radix[ls.margID]
			}
		}
		s.addClassTerms(&net, distK)
		s.nets = append(s.nets, net)
	}
	return nn, nil
}

// addClassTerms sets a network's per-class effective think time Z + Σ delay copies·D
// (distK, a record station, excluded) and whether the class is dead (no demand anywhere
// and no think time, so G(n) = 0 for n_c > 0).
func (s *ldSolver) addClassTerms(net *ldNet, distK int) {
	m := s.m
	for ci, c := range s.order {
		ze := m.Classes[c].ThinkTime
		for k, st := range m.Stations {
			if st.Kind == Delay && k != distK { // distK is a record station
				ze += float64(st.Copies()) * s.d[ci][k]
			}
		}
		tot := ze
		for j, ls := range s.st {
			tot += net.copies[j] * s.d[ci][ls.k]
		}
		net.zeff = append(net.zeff, ze)
		net.dead = append(net.dead, tot == 0)
	}
}

func (s *ldSolver) solve() (*Result, error) {
	C, nn, rec := s.C, len(s.nets), s.rec
	pt := nn * rec // floats per lattice point
	every := max(1, checkEvery/(pt*C+1))
	prev := make([]float64, s.slice*pt)
	cur := make([]float64, s.slice*pt)
	n := make([]int, C)
	xs := make([]float64, nn*C)
	r := make([]float64, C*len(s.st)) // residence of the top network at the current point
	nbs := make([][]float64, C)
	points := 0
	for n0 := 0; n0 <= s.N[0]; n0++ {
		n[0] = n0
		for i := 1; i < C; i++ {
			n[i] = 0
		}
		for idx := 0; idx < s.slice; idx++ {
			nbs[0] = nil
			if n0 > 0 {
				nbs[0] = prev[idx*pt : (idx+1)*pt]
			}
			for ci := 1; ci < C; ci++ {
				nbs[ci] = nil
				if n[ci] > 0 {
					j := idx - s.strides[ci]
					nbs[ci] = cur[j*pt : (j+1)*pt]
				}
			}
			if points%every == 0 && s.ctx != nil && s.ctx.Err() != nil {
				return nil, fmt.Errorf("%w: exact multi-class MVA stopped after %d of %.3g population vectors: %w", fault.ErrInterrupted, points, LatticeSize(s.m), s.ctx.Err())
			}
			here := cur[idx*pt : (idx+1)*pt]
			for v := 0; v < nn; v++ {
				s.kernel(v, n, nbs, here, xs, r)
			}
			// ln G(n) = ln G(n − e_h) − ln X_h(n) on the path that fills class 0, then 1, …
			if h := s.onPath(n); h >= 0 {
				s.logG -= math.Log(xs[(nn-1)*C+h])
			}
			points++
			for ci := C - 1; ci >= 1; ci-- {
				n[ci]++
				if n[ci] <= s.N[ci] {
					break
				}
				n[ci] = 0
			}
		}
		prev, cur = cur, prev
	}
	last := prev[(s.slice-1)*pt : s.slice*pt]
	if s.full >= 0 {
		ls := s.st[s.full]
		top := last[(nn-1)*rec : nn*rec]
		s.dist = append([]float64(nil), top[ls.pOff:ls.pOff+ls.L]...)
	}
	return s.result(xs[(nn-1)*C:nn*C], r, last, points), nil
}

// onPath returns h if n lies on the lattice path 0 → N that adds class 0's jobs, then
// class 1's, …, with h the class whose job the step to n added (−1 if n is off the path or 0).
func (s *ldSolver) onPath(n []int) int {
	h := -1
	for ci := len(n) - 1; ci >= 0; ci-- {
		if n[ci] > 0 {
			h = ci
			break
		}
	}
	for ci := 0; ci < h; ci++ {
		if n[ci] != s.N[ci] {
			return -1
		}
	}
	return h
}

// resid returns R_{k,c} of class ci at record station j of network v, given the record nb
// at n − e_c (or at N itself for the arrival of an extra job of an empty class).
func (s *ldSolver) resid(ci, j int, nb []float64) float64 {
	ls := &s.st[j]
	d := s.d[ci][ls.k]
	if d == 0 {
		return 0
	}
	a := (1 + nb[j]) * ls.invAL
	if ls.L > 0 {
		p := nb[ls.pOff : ls.pOff+ls.L]
		for i, c := range ls.coef {
			a += c * p[i]
		}
	}
	return d * a
}

// kernel computes network v at population n: its record in here[v*rec:], its throughputs
// in xs[v*C:], and, for the top network, the residence times in r.
func (s *ldSolver) kernel(v int, n []int, nbs [][]float64, here, xs, r []float64) {
	C, rec := s.C, s.rec
	out := here[v*rec : (v+1)*rec]
	x := xs[v*C : (v+1)*C]
	tot := 0
	for _, k := range n {
		tot += k
	}
	for i := range out {
		out[i] = 0
	}
	if tot == 0 {
		for ci := range x {
			x[ci] = 0
		}
		for _, ls := range s.st {
			if ls.L > 0 {
				out[ls.pOff] = 1
			}
		}
		return
	}
	top := v == len(s.nets)-1
	s.kernelThroughputs(v, n, nbs, x, r, top)
	s.kernelQueues(v, n, nbs, out, x, r, top)
	s.kernelIdle(v, n, nbs, out, xs)
}

// kernelThroughputs sets X_c(n) = n_c / (Z_eff,c + Σ_j copies_j·R_c,j(n)) of network v for
// every class (0 when n_c = 0, +Inf for a dead class); the top network keeps its
// residences in r.
func (s *ldSolver) kernelThroughputs(v int, n []int, nbs [][]float64, x, r []float64, top bool) {
	rec := s.rec
	net := &s.nets[v]
	for ci := 0; ci < s.C; ci++ {
		if n[ci] == 0 {
			x[ci] = 0
			continue
		}
		if net.dead[ci] {
			x[ci] = math.Inf(1)
			continue
		}
		nb := nbs[ci][v*rec : (v+1)*rec]
		sum := net.zeff[ci]
		for j := range s.st {
			if net.copies[j] == 0 {
				continue
			}
			rr := s.resid(ci, j, nb)
			if top {
				r[ci*len(s.st)+j] = rr
			}
			sum += net.copies[j] * rr
		}
		x[ci] = float64(n[ci]) / sum
	}
}

// kernelQueues accumulates network v's queue lengths Q_j(n) = Σ_c X_c(n)·R_c,j(n) and
// marginals p_j(i|n) = Σ_c D_c,j·X_c(n)/α(i)·p_j(i−1|n−e_c) for i ≥ 1 into out.
func (s *ldSolver) kernelQueues(v int, n []int, nbs [][]float64, out, x, r []float64, top bool) {
	rec := s.rec
	net := &s.nets[v]
	for ci := 0; ci < s.C; ci++ {
		if n[ci] == 0 || math.IsInf(x[ci], 0) {
			continue
		}
		nb := nbs[ci][v*rec : (v+1)*rec]
		for j, ls := range s.st {
			if net.copies[j] == 0 {
				continue
			}
			var rr float64
			if top {
				rr = r[ci*len(s.st)+j]
			} else {
				rr = s.resid(ci, j, nb)
			}
			out[j] += x[ci] * rr
			if ls.L > 1 {
				f := s.d[ci][ls.k] * x[ci]
				if f == 0 {
					continue
				}
				p := out[ls.pOff : ls.pOff+ls.L]
				q := nb[ls.pOff : ls.pOff+ls.L]
				for i := 1; i < ls.L; i++ {
					p[i] += f * ls.invA[i-1] * q[i-1]
				}
			}
		}
	}
}

// kernelIdle sets p_j(0|n) of network v's marginal stations by the cancellation-free
// ratio to the reduced network w (one copy of j fewer): p_j(0|n) = p_j(0|n−e_c)·X_c(n)/
// X₋ⱼ,c(n) for any present class c, or 0 when some present class cannot exist without j.
func (s *ldSolver) kernelIdle(v int, n []int, nbs [][]float64, out, xs []float64) {
	C, rec := s.C, s.rec
	net := &s.nets[v]
	x := xs[v*C : (v+1)*C]
	for j, ls := range s.st {
		if ls.L == 0 || net.copies[j] == 0 {
			continue
		}
		w := net.child[j]
		xc := xs[w*C : (w+1)*C]
		p0 := -1.0
		for ci := 0; ci < C; ci++ {
			if n[ci] > 0 && math.IsInf(xc[ci], 1) {
				p0 = 0 // G₋ₖ(n) = 0: some present class cannot exist without station k
				break
			}
		}
		if p0 < 0 {
			for ci := 0; ci < C; ci++ {
				if n[ci] > 0 {
					nb := nbs[ci][v*rec : (v+1)*rec]
					p0 = nb[ls.pOff] * x[ci] / xc[ci]
					break
				}
			}
		}
		out[ls.pOff] = p0
	}
}

// result assembles the Result at N. Residence times follow the package's zero convention
// (see doc.go): a class with population 0 gets the residence time one arriving job of that
// class would have (arrival theorem: the network at N seen by the arrival), a station a
// class never visits 0.
func (s *ldSolver) result(x, r, last []float64, points int) *Result {
	m := s.m
	res := newResult("mva", s.C, s.K)
	res.Method = "mva-load-dependent"
	res.Status = Status{Converged: true, Iterations: points}
	topRec := last[(len(s.nets)-1)*s.rec : len(s.nets)*s.rec]
	recOf := make([]int, s.K)
	for k := range recOf {
		recOf[k] = -1
	}
	for j, ls := range s.st {
		recOf[ls.k] = j
	}
	for ci, c := range s.order {
		res.Throughput[c] = x[ci]
		for k, st := range m.Stations {
			d := s.d[ci][k]
			var rr float64
			switch j := recOf[k]; {
			case j < 0: // delay
				rr = d
			case s.N[ci] == 0:
				rr = s.resid(ci, j, topRec)
			default:
				rr = r[ci*len(s.st)+j]
			}
			res.Residence[k][c] = rr
			res.QueueLength[k][c] = x[ci] * rr
			res.ResponseTime[c] += float64(st.Copies()) * rr
			u := x[ci] * d
			switch {
			case st.Kind == MultiServer:
				u /= float64(st.Servers)
			case st.Kind == LoadDependent:
				// busy probability 1 − p(0|N), shared by the classes in proportion to X·D
				j := recOf[k]
				busy := 1 - topRec[s.st[j].pOff]
				tot := 0.0
				for cj := range s.order {
					tot += x[cj] * s.d[cj][k]
				}
				if tot > 0 {
					u = busy * x[ci] * d / tot
				} else {
					u = 0
				}
			}
			res.Utilization[k][c] = u
		}
	}
	return res
}
