package qn

import "math"

// AMVAOptions controls the approximate MVA solvers. The zero value means Tol = 1e-10 and
// MaxIter = 100000.
type AMVAOptions struct {
	Tol     float64 // stop when the largest change of a queue length, relative to N_c, is below Tol
	MaxIter int
}

func (o AMVAOptions) withDefaults() AMVAOptions {
	if o.Tol <= 0 {
		o.Tol = 1e-10
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 100000
	}
	return o
}

// amva holds a closed network prepared for the approximate solvers.
type amva struct {
	m     *Model
	C, K  int
	kind  []Kind
	serv  []float64
	count []float64
	d     [][]float64 // d[c][k]
	z     []float64
	lastQ [][]float64 // queue lengths at the last fixed point
}

func newAMVA(m *Model) (*amva, error) {
	if err := m.solvable(); err != nil {
		return nil, err
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, err
	}
	a := &amva{m: m, C: len(m.Classes), K: len(m.Stations)}
	for _, c := range m.Classes {
		if c.Open {
			return nil, unsupported("approximate MVA solves closed networks; class %q is open (use the mixed solver)", c.Name)
		}
		a.z = append(a.z, c.ThinkTime)
	}
	for _, s := range m.Stations {
		if s.Kind == LoadDependent {
			return nil, unsupported("approximate MVA does not handle load-dependent station %q (use exact MVA for one class)", s.Name)
		}
		a.kind = append(a.kind, s.Kind)
		a.serv = append(a.serv, float64(max(1, s.Servers)))
		a.count = append(a.count, float64(s.Copies()))
	}
	a.d = m.Demand
	return a, nil
}

// resid returns the residence time at station k of a class-c job that finds arrQ customers
// there. Multi-server stations use Seidmann's approximation (a queue with D/m followed by a
// delay of D·(m−1)/m; Seidmann, Schweitzer & Shalev-Oren 1987): exact at m = 1, approximate
// otherwise.
func (a *amva) resid(k, c int, arrQ float64) float64 {
	d := a.d[c][k]
	switch a.kind[k] {
	case Delay:
		return d
	case MultiServer:
		m := a.serv[k]
		return d/m*(1+arrQ) + d*(m-1)/m
	}
	return d * (1 + arrQ)
}

// Schweitzer solves a closed (multi-class) network with the Bard–Schweitzer approximation
// (Schweitzer 1979; QSP §7.4.2): the queue an arriving class-c job sees is
// Q_k(N − e_c) ≈ Q_k(N) − Q_{k,c}(N)/N_c, iterated to a fixed point.
func Schweitzer(m *Model, opt AMVAOptions) (*Result, error) {
	a, err := newAMVA(m)
	if err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	N := make([]float64, a.C)
	for c, cl := range m.Classes {
		N[c] = float64(cl.Population)
	}
	q := a.initialQ(N)
	res := newResult("schweitzer", a.C, a.K)
	st := a.fixedPoint(N, q, opt, func(k, c int, q [][]float64) float64 {
		tot := 0.0
		for j := 0; j < a.C; j++ {
			tot += q[k][j]
		}
		return tot - q[k][c]/N[c]
	}, res)
	res.Status = st
	return res, nil
}

func (a *amva) initialQ(N []float64) [][]float64 {
	q := matrix(a.K, a.C)
	tot := 0.0
	for _, c := range a.count {
		tot += c
	}
	for k := range q {
		for c := range q[k] {
			q[k][c] = N[c] / tot
		}
	}
	return q
}

// fixedPoint iterates the MVA equations with the arrival-queue estimate arr until the
// queue lengths settle, filling res at the fixed point.
func (a *amva) fixedPoint(N []float64, q [][]float64, opt AMVAOptions, arr func(k, c int, q [][]float64) float64, res *Result) Status {
	r := matrix(a.K, a.C)
	x := make([]float64, a.C)
	qn := matrix(a.K, a.C)
	st := Status{}
	for it := 1; it <= opt.MaxIter; it++ {
		for c := 0; c < a.C; c++ {
			if N[c] == 0 {
				x[c] = 0
				continue
			}
			tot := a.z[c]
			for k := 0; k < a.K; k++ {
				r[k][c] = a.resid(k, c, arr(k, c, q))
				tot += a.count[k] * r[k][c]
			}
			x[c] = N[c] / tot
		}
		resid := 0.0
		for k := 0; k < a.K; k++ {
			for c := 0; c < a.C; c++ {
				qn[k][c] = x[c] * r[k][c]
				if N[c] > 0 {
					resid = math.Max(resid, math.Abs(qn[k][c]-q[k][c])/N[c])
				}
			}
		}
		q, qn = qn, q
		st = Status{Iterations: it, Residual: resid}
		if resid < opt.Tol {
			st.Converged = true
			break
		}
	}
	a.lastQ = matrix(a.K, a.C)
	for k := range q {
		copy(a.lastQ[k], q[k])
	}
	if res != nil {
		for c := 0; c < a.C; c++ {
			res.Throughput[c] = x[c]
			for k := 0; k < a.K; k++ {
				res.Residence[k][c] = r[k][c]
				res.QueueLength[k][c] = q[k][c]
				res.ResponseTime[c] += a.count[k] * r[k][c]
				res.Utilization[k][c] = x[c] * a.d[c][k] / a.serv[k]
				if a.kind[k] == Delay {
					res.Utilization[k][c] = x[c] * a.d[c][k]
				}
			}
		}
	}
	return st
}

// Linearizer solves a closed multi-class network with Chandy & Neuse's Linearizer (1982;
// QSP §7.4.3): the fraction F_{k,c}(n) = Q_{k,c}(n)/n_c is assumed to change linearly when one
// job leaves, F_{k,c}(N − e_j) = F_{k,c}(N) + Δ_{k,c,j}; Δ is estimated from solutions at
// N − e_j, three outer iterations as in the paper. It is exact at N_c ≤ 1 for every class and
// typically an order of magnitude more accurate than Schweitzer.
func Linearizer(m *Model, opt AMVAOptions) (*Result, error) {
	a, err := newAMVA(m)
	if err != nil {
		return nil, err
	}
	opt = opt.withDefaults()
	C, K := a.C, a.K
	N := make([]float64, C)
	for c, cl := range m.Classes {
		N[c] = float64(cl.Population)
	}
	delta := make([][][]float64, K) // delta[k][c][j]
	for k := range delta {
		delta[k] = matrix(C, C)
	}
	iters := 0
	core := func(n []float64, q [][]float64, res *Result) Status {
		st := a.fixedPoint(n, q, opt, func(k, j int, q [][]float64) float64 {
			tot := 0.0
			for c := 0; c < C; c++ {
				nc := n[c]
				if c == j {
					nc--
				}
				if nc <= 0 || n[c] == 0 {
					continue
				}
				tot += nc * (q[k][c]/n[c] + delta[k][c][j])
			}
			return math.Max(tot, 0)
		}, res)
		iters += st.Iterations
		return st
	}
	qN := a.initialQ(N)
	next := make([][][]float64, K) // Δ estimated in this outer iteration (Jacobi update)
	for k := range next {
		next[k] = matrix(C, C)
	}
	for outer := 0; outer < linOuter; outer++ {
		core(N, qN, nil)
		qN = a.lastQ
		for j := 0; j < C; j++ {
			if N[j] < 1 {
				continue
			}
			nj := append([]float64(nil), N...)
			nj[j]--
			qj := matrix(K, C)
			for k := 0; k < K; k++ {
				for c := 0; c < C; c++ {
					if N[c] > 0 {
						qj[k][c] = nj[c] * qN[k][c] / N[c]
					}
				}
			}
			core(nj, qj, nil)
			qj = a.lastQ
			for k := 0; k < K; k++ {
				for c := 0; c < C; c++ {
					next[k][c][j] = 0
					if nj[c] > 0 && N[c] > 0 {
						next[k][c][j] = qj[k][c]/nj[c] - qN[k][c]/N[c]
					}
				}
			}
		}
		for k := range delta {
			for c := range delta[k] {
				copy(delta[k][c], next[k][c])
			}
		}
	}
	res := newResult("linearizer", C, K)
	st := core(N, qN, res)
	st.Iterations = iters
	res.Status = st
	return res, nil
}

// linOuter is the number of outer Linearizer iterations (Chandy & Neuse use three).
const linOuter = 3
