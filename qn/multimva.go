package qn

import (
	"fmt"
	"sort"
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
// §6.1.6); for each value n₁ of that class the sub-lattice of the others is visited in
// lexicographic order, so Q(n − e₁) lies in the previous slice and Q(n − e_c), c > 1, earlier
// in the current one. Only the two slices are stored: memory is 2·K·Π_{c>1}(N_c+1) floats.
// For C = 3, N = (4095, 177, 127), K = 5 that is 1.8 MB.
//
// Multi-server and load-dependent stations are not supported here (use MVASingle for one
// class, or the approximate solvers).
func MVAMulti(m *Model) (*Result, error) {
	p, err := newMulti(m)
	if err != nil {
		return nil, err
	}
	return p.solve(), nil
}

type multi struct {
	m       *Model
	order   []int // class indices, largest population first
	N       []int // populations in order
	K       int
	d       [][]float64 // d[ci][k] demand, in order
	z       []float64
	queue   []bool
	count   []float64
	strides []int // strides of classes 1..C-1 within a slice
	slice   int
}

func newMulti(m *Model) (*multi, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, err
	}
	for _, c := range m.Classes {
		if c.Open {
			return nil, unsupported("exact multi-class MVA solves closed networks; class %q is open (use the mixed solver)", c.Name)
		}
	}
	for _, s := range m.Stations {
		if s.Kind == LoadDependent || (s.Kind == MultiServer && s.Servers > 1) {
			return nil, unsupported("exact multi-class MVA supports queue and delay stations; station %q is %v (use solver schweitzer or linearizer)", s.Name, s.Kind)
		}
	}
	C := len(m.Classes)
	p := &multi{m: m, K: len(m.Stations)}
	p.order = make([]int, C)
	for i := range p.order {
		p.order[i] = i
	}
	sort.SliceStable(p.order, func(a, b int) bool {
		return m.Classes[p.order[a]].Population > m.Classes[p.order[b]].Population
	})
	for _, c := range p.order {
		p.N = append(p.N, m.Classes[c].Population)
		p.d = append(p.d, m.Demand[c])
		p.z = append(p.z, m.Classes[c].ThinkTime)
	}
	for _, s := range m.Stations {
		p.queue = append(p.queue, s.Kind == Queue || s.Kind == MultiServer)
		p.count = append(p.count, float64(s.Copies()))
	}
	p.strides = make([]int, C)
	p.slice = 1
	for ci := C - 1; ci >= 1; ci-- {
		p.strides[ci] = p.slice
		p.slice *= p.N[ci] + 1
	}
	if float64(p.slice)*float64(p.K)*16 > 8<<30 {
		return nil, fmt.Errorf("exact multi-class MVA would need %.3g GB for its slices; use solver linearizer", float64(p.slice)*float64(p.K)*16/1e9)
	}
	return p, nil
}

func (p *multi) solve() *Result {
	C, K := len(p.N), p.K
	prev := make([]float64, p.slice*K)
	cur := make([]float64, p.slice*K)
	n := make([]int, C)
	rk := make([]float64, K*C) // R[ci*K+k] at the current point
	x := make([]float64, C)
	points := 0
	for n0 := 0; n0 <= p.N[0]; n0++ {
		n[0] = n0
		for i := 1; i < C; i++ {
			n[i] = 0
		}
		for idx := 0; idx < p.slice; idx++ {
			p.point(n, idx, prev, cur, rk, x)
			points++
			for ci := C - 1; ci >= 1; ci-- { // odometer, class C-1 fastest
				n[ci]++
				if n[ci] <= p.N[ci] {
					break
				}
				n[ci] = 0
			}
		}
		prev, cur = cur, prev
	}
	// The last point visited is N itself: rk and x hold its values, prev its queue lengths.
	qN := prev[(p.slice-1)*K : p.slice*K]
	return p.result(x, rk, qN, points)
}

// point computes the MVA step at population n (slice position idx) into cur.
func (p *multi) point(n []int, idx int, prev, cur, rk, x []float64) {
	K := p.K
	q := cur[idx*K : (idx+1)*K : (idx+1)*K]
	for k := range q {
		q[k] = 0
	}
	for ci, nc := range n {
		if nc == 0 {
			x[ci] = 0
			continue
		}
		var nb []float64
		if ci == 0 {
			nb = prev[idx*K : (idx+1)*K : (idx+1)*K]
		} else {
			j := idx - p.strides[ci]
			nb = cur[j*K : (j+1)*K : (j+1)*K]
		}
		dd := p.d[ci][:K]
		r := rk[ci*K : (ci+1)*K : (ci+1)*K]
		tot := p.z[ci]
		for k := 0; k < K; k++ {
			v := dd[k]
			if p.queue[k] {
				v *= 1 + nb[k]
			}
			r[k] = v
			tot += p.count[k] * v
		}
		xc := float64(nc) / tot
		x[ci] = xc
		for k := 0; k < K; k++ {
			q[k] += xc * r[k]
		}
	}
}

// result assembles a Result from the final point's throughputs x, residence times rk (in
// class order) and total queue lengths qN.
func (p *multi) result(x, rk, qN []float64, points int) *Result {
	K := p.K
	res := newResult("mva", len(p.m.Classes), K)
	res.Status = Status{Converged: true, Iterations: points}
	for ci, c := range p.order {
		res.Throughput[c] = x[ci]
		for k := 0; k < K; k++ {
			r := rk[ci*K+k]
			if p.N[ci] == 0 { // empty class: what one arriving job would see
				r = p.d[ci][k]
				if p.queue[k] {
					r *= 1 + qN[k]
				}
			}
			res.Residence[k][c] = r
			res.QueueLength[k][c] = x[ci] * r
			res.ResponseTime[c] += p.count[k] * r
			res.Utilization[k][c] = x[ci] * p.d[ci][k]
		}
	}
	return res
}
