package qn

import (
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
)

// MaxLattice is the largest population lattice Π_c (N_c+1) the automatic solver choice
// hands to exact multi-class MVA; larger models go to Linearizer.
const MaxLattice = 2e9

// LatticeSize returns Π_c (N_c+1) over the closed classes, the number of population
// vectors exact multi-class MVA visits.
func LatticeSize(m *Model) float64 {
	s := 1.0
	for _, c := range m.Classes {
		if !c.Open {
			s *= float64(c.Population + 1)
		}
	}
	return s
}

// MVAMulti solves a closed multi-class network of queue and delay stations exactly by the
// multi-class MVA recursion (Reiser & Lavenberg 1980; QSP eq. 7.2):
//
//	R_{k,c}(n) = D_{k,c}·(1 + Q_k(n − e_c))   queue;   D_{k,c}   delay
//	X_c(n)     = n_c / (Z_c + Σ_k Count_k·R_{k,c}(n)),   Q_k(n) = Σ_c X_c(n)·R_{k,c}(n)
//
// The lattice 0 ≤ n ≤ N is walked with the class of largest population outermost (001
// §6.1.6; the other classes keep their order); for each value n₁ of that class the
// sub-lattice of the others is visited in lexicographic order, so Q(n − e₁) lies in the previous slice and Q(n − e_c), c > 1, earlier
// in the current one. Only the two slices are stored: memory is 2·K·Π_{c>1}(N_c+1) floats.
// For C = 3, N = (4095, 177, 127), K = 5 that is 1.8 MB. With two or more classes the walk
// is the row-by-row, skewed one of multirow.go (issue 20: 2.9× fewer instructions than the
// point-by-point walk of solve, bit-identical results).
//
// Multi-server and load-dependent stations are solved by the marginal-probability
// recursion of mvaMultiLD (see there), with reduced networks for the stable p_k(0|n).
//
// WithClassOrder sets another walk order (the same answer, another time and memory).
// MVAMultiSplit is the same walk on several cores (bit-identical results); Solve uses it
// from ParallelThreshold population vectors.
func MVAMulti(m *Model, opts ...ExactOption) (*Result, error) {
	if hasMarginal(m) {
		return mvaMultiLD(m, opts)
	}
	p, err := newMulti(m, opts)
	if err != nil {
		return nil, err
	}
	if len(p.N) >= 2 && p.Kq >= 1 {
		return p.solveRows(), nil
	}
	return p.solve(), nil
}

type multi struct {
	m       *Model
	order   []int // class indices in walk order (default: largest population first)
	N       []int // populations in order
	K       int
	d       [][]float64 // d[ci][k] demand, in order
	z       []float64
	queue   []bool
	count   []float64
	strides []int // strides of classes 1..C-1 within a slice
	slice   int
	// The recursion needs queue lengths at queue stations only (delay residence times do
	// not depend on them), so points store Kq numbers.
	qidx []int       // indices of queue stations
	Kq   int         // len(qidx)
	dq   [][]float64 // dq[ci][j]: demand at queue station qidx[j]
	cdq  [][]float64 // count × demand at queue stations
	zeff []float64   // Z_c + Σ_{delay k} count_k·D_{c,k}
}

func newMulti(m *Model, opts []ExactOption) (*multi, error) {
	order, err := exactClosed(m, opts)
	if err != nil {
		return nil, err
	}
	for _, s := range m.Stations {
		if s.Kind == LoadDependent || (s.Kind == MultiServer && s.Servers > 1) {
			return nil, unsupported("exact multi-class MVA supports queue and delay stations; station %q is %v (use solver schweitzer or linearizer)", s.Name, s.Kind)
		}
	}
	C := len(m.Classes)
	p := &multi{m: m, K: len(m.Stations)}
	// By default the class with the largest population goes first (001 §6.1.6: it should be
	// class 1 of the pipeline); the others keep their order (WithClassOrder: any order).
	p.order = order
	for _, c := range p.order {
		p.N = append(p.N, m.Classes[c].Population)
		p.d = append(p.d, m.Demand[c])
		p.z = append(p.z, m.Classes[c].ThinkTime)
	}
	for _, s := range m.Stations {
		p.queue = append(p.queue, s.Kind == Queue || s.Kind == MultiServer)
		p.count = append(p.count, float64(s.Copies()))
	}
	for k, q := range p.queue {
		if q {
			p.qidx = append(p.qidx, k)
		}
	}
	p.Kq = len(p.qidx)
	for ci := range p.N {
		var dq, cdq []float64
		ze := p.z[ci]
		for k := 0; k < p.K; k++ {
			if p.queue[k] {
				dq = append(dq, p.d[ci][k])
				cdq = append(cdq, p.count[k]*p.d[ci][k])
			} else {
				ze += p.count[k] * p.d[ci][k]
			}
		}
		p.dq = append(p.dq, dq)
		p.cdq = append(p.cdq, cdq)
		p.zeff = append(p.zeff, ze)
	}
	p.strides = make([]int, C)
	p.slice = 1
	for ci := C - 1; ci >= 1; ci-- {
		p.strides[ci] = p.slice
		p.slice *= p.N[ci] + 1
	}
	if float64(p.slice)*float64(p.K)*16 > 8<<30 {
		return nil, fmt.Errorf("%w: exact multi-class MVA would need %.3g GB for its slices (limit 8.6 GB); use solver linearizer", fault.ErrTooLarge, float64(p.slice)*float64(p.K)*16/1e9)
	}
	return p, nil
}

func (p *multi) solve() *Result {
	C, Kq := len(p.N), p.Kq
	prev := make([]float64, p.slice*Kq)
	cur := make([]float64, p.slice*Kq)
	n := make([]int, C)
	rk := make([]float64, Kq*C) // R at queue stations, [ci*Kq+j], at the current point
	x := make([]float64, C)
	nbs := make([][]float64, C)
	points := 0
	for n0 := 0; n0 <= p.N[0]; n0++ {
		n[0] = n0
		clear(n[1:])
		for idx := 0; idx < p.slice; idx++ {
			nbs[0] = prev[idx*Kq : (idx+1)*Kq]
			p.neighbours(n, idx, cur, nbs)
			p.kernel(n, nbs, cur[idx*Kq:(idx+1)*Kq], rk, x)
			points++
			p.advance(n)
		}
		prev, cur = cur, prev
	}
	// The last point visited is N itself: rk and x hold its values, prev its queue lengths.
	return p.result(x, rk, prev[(p.slice-1)*Kq:p.slice*Kq], points)
}

// neighbours points nbs[c], c ≥ 1, at the queue lengths of n − e_c in the slice cur, for
// the point n at position idx of its slice (classes with n_c = 0 are left alone).
func (p *multi) neighbours(n []int, idx int, cur []float64, nbs [][]float64) {
	Kq := p.Kq
	for ci := 1; ci < len(n); ci++ {
		if n[ci] > 0 {
			j := idx - p.strides[ci]
			nbs[ci] = cur[j*Kq : (j+1)*Kq]
		}
	}
}

// advance moves n to the next point of its slice: an odometer over classes 1 … C−1, class
// C−1 fastest (after the slice's last point it wraps to the first).
func (p *multi) advance(n []int) {
	for ci := len(n) - 1; ci >= 1; ci-- {
		n[ci]++
		if n[ci] <= p.N[ci] {
			return
		}
		n[ci] = 0
	}
}

// kernel computes one MVA step (QSP eq. 7.2) at population n: nbs[c] holds the queue
// lengths at the queue stations at n − e_c (unused when n_c = 0); q receives them at n, rk
// the residence times at queue stations and x the throughputs. Sequential and parallel
// solvers share it, so their results are identical.
func (p *multi) kernel(n []int, nbs [][]float64, q, rk, x []float64) {
	Kq := p.Kq
	for j := range q {
		q[j] = 0
	}
	for ci, nc := range n {
		if nc == 0 {
			x[ci] = 0
			continue
		}
		nb := nbs[ci][:Kq]
		dq := p.dq[ci][:Kq]
		cdq := p.cdq[ci][:Kq]
		r := rk[ci*Kq : (ci+1)*Kq : (ci+1)*Kq]
		tot := p.zeff[ci]
		for j := 0; j < Kq; j++ {
			a := 1 + nb[j]
			r[j] = dq[j] * a
			tot += cdq[j] * a
		}
		xc := float64(nc) / tot
		x[ci] = xc
		for j := 0; j < Kq; j++ {
			q[j] += xc * r[j]
		}
	}
}

// result assembles a Result from the final point's throughputs x, residence times at queue
// stations rk (class order) and queue-station queue lengths qN.
func (p *multi) result(x, rk, qN []float64, points int) *Result {
	K, Kq := p.K, p.Kq
	res := newResult("mva", len(p.m.Classes), K)
	res.Status = Status{Converged: true, Iterations: points}
	for ci, c := range p.order {
		res.Throughput[c] = x[ci]
		j := 0
		for k := 0; k < K; k++ {
			r := p.d[ci][k] // delay: R = D
			if p.queue[k] {
				if p.N[ci] == 0 { // empty class: what one arriving job would see
					r = p.d[ci][k] * (1 + qN[j])
				} else {
					r = rk[ci*Kq+j]
				}
				j++
			}
			res.Residence[k][c] = r
			res.QueueLength[k][c] = x[ci] * r
			res.ResponseTime[c] += p.count[k] * r
			res.Utilization[k][c] = x[ci] * p.d[ci][k]
		}
	}
	return res
}
