package qn

import (
	"math"
)

// AMVAOptions controls the approximate MVA solvers. The zero value means Tol = 1e-10 and
// MaxIter = 100000.
type AMVAOptions struct {
	Tol     float64 // stop when the largest change of a queue length, relative to N_c, is below Tol
	MaxIter int
	// MultiServer selects how the approximate solvers treat multi-server and load-dependent
	// stations: MSMarginal (default) or MSSeidmann. See amva.resid.
	MultiServer MSMethod
	// RequireExact makes Solve refuse to approximate: "auto" returns an error (wrapping
	// fault.ErrTooLarge when the exact solver's budget is the reason) instead of falling back
	// to an approximation, and a named approximate solver is refused (fault.ErrInput).
	RequireExact bool
}

// MSMethod is an approximation for multi-server and load-dependent stations in the
// approximate MVA solvers.
type MSMethod int

const (
	// MSMarginal keeps approximate marginal probabilities p_k(j) of each multi-server or
	// load-dependent station, in the spirit of Bruell, Balbo & Afshari (1984) and Akyildiz &
	// Bolch (1988): the exact residence formula with p_k(j | N − e_c) from the exact
	// recursion p(j) = (1/α(j))·Σ_c D_c·X_c·p(j−1), the throughputs at N − e_c estimated
	// as in Schweitzer's approximation, and p(0) by normalisation over j = 0..|N|−1
	// (see updateMarginals). Handles any capacity function α.
	MSMarginal MSMethod = iota
	// MSSeidmann replaces an m-server station by a single-server queue with demand D/m in
	// series with a delay D·(m−1)/m (Seidmann, Schweitzer & Shalev-Oren 1987); the queue
	// part sees only the jobs queued or served there, not those in the delay part. Multi-server
	// stations only.
	MSSeidmann
)

func (m MSMethod) String() string {
	if m == MSSeidmann {
		return "seidmann"
	}
	return "marginal"
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
	ms    MSMethod
	// Marginal method, per station (nil for queue and delay stations): capacity data as in
	// mvaMultiLD and the current approximate marginals p_k(0..L−1).
	invA  [][]float64
	invAL []float64
	coef  [][]float64
	p     [][]float64   // p_k(j | N)
	pc    [][][]float64 // pc[k][c]: p_k(j | N − e_c), what a class-c arrival sees
}

func newAMVA(m *Model, ms MSMethod) (*amva, error) {
	if err := m.solvable(); err != nil {
		return nil, err
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, err
	}
	a := &amva{m: m, C: len(m.Classes), K: len(m.Stations), ms: ms}
	for _, c := range m.Classes {
		if c.Open {
			return nil, unsupported("approximate MVA solves closed networks; class %q is open (use the mixed solver)", c.Name)
		}
		a.z = append(a.z, c.ThinkTime)
	}
	total := 0
	for _, c := range m.Classes {
		total += c.Population
	}
	a.invA = make([][]float64, a.K)
	a.invAL = make([]float64, a.K)
	a.coef = make([][]float64, a.K)
	a.p = make([][]float64, a.K)
	a.pc = make([][][]float64, a.K)
	for k, s := range m.Stations {
		if s.Kind == LoadDependent && ms == MSSeidmann {
			return nil, unsupported("Seidmann's approximation is for multi-server stations; station %q is load-dependent (use the marginal method)", s.Name)
		}
		a.kind = append(a.kind, s.Kind)
		a.serv = append(a.serv, float64(max(1, s.Servers)))
		a.count = append(a.count, float64(s.Copies()))
		L := 0
		switch {
		case s.Kind == MultiServer && s.Servers > 1 && ms == MSMarginal:
			L = min(s.Servers, max(total, 1))
		case s.Kind == LoadDependent:
			L = min(len(s.Rates), max(total, 1))
		}
		if L > 0 {
			a.invA[k] = make([]float64, L)
			a.coef[k] = make([]float64, L)
			for j := 1; j <= L; j++ {
				a.invA[k][j-1] = 1 / s.alpha(j)
			}
			a.invAL[k] = a.invA[k][L-1]
			for j := 1; j <= L; j++ {
				a.coef[k][j-1] = float64(j) * (a.invA[k][j-1] - a.invAL[k])
			}
			a.p[k] = make([]float64, L)
			a.p[k][0] = 1
			a.pc[k] = matrix(a.C, L)
			for c := range a.pc[k] {
				a.pc[k][c][0] = 1
			}
		}
	}
	a.d = m.Demand
	return a, nil
}

// updateMarginals recomputes the approximate marginals of the marginal method from the
// throughputs x at population N. The marginal p_k(j | n) follows from the exact recursion
// p̃(0) = 1, p̃(j) = p̃(j−1)·f/α(j) with f = Σ_c D_{c,k}·X_c(n) (the tail j = L..|n| is
// geometric with ratio f/α_L), then normalised. A class-c arrival needs p_k(j | N − e_c):
// it is computed the same way with the throughputs at N − e_c estimated as in Schweitzer's
// approximation, X_c·(N_c − 1)/N_c for class c and X_{c'} for the others, and |N| − 1 jobs.
// a.p[k] keeps p_k(·|N) (for the utilisation), a.pc[k][c] the arrival marginals.
func (a *amva) updateMarginals(x, N []float64) {
	ntot := 0.0
	for _, n := range N {
		ntot += n
	}
	for k, p := range a.p {
		if p == nil {
			continue
		}
		f := 0.0
		for c := 0; c < a.C; c++ {
			f += a.d[c][k] * x[c]
		}
		a.marginal(k, p, f, ntot)
		for c := 0; c < a.C; c++ {
			if N[c] > 0 {
				a.marginal(k, a.pc[k][c], math.Max(f-a.d[c][k]*x[c]/N[c], 0), ntot-1)
			}
		}
	}
}

// marginal fills p with p(j), j < L, of station k for flow f and ntot jobs.
func (a *amva) marginal(k int, p []float64, f, ntot float64) {
	L := len(p)
	p[0] = 1
	sum := 1.0
	for j := 1; j < L; j++ {
		p[j] = p[j-1] * f * a.invA[k][j-1]
		sum += p[j]
	}
	rho := f * a.invAL[k]
	terms := ntot - float64(L) + 1 // j = L..ntot
	tail := 0.0
	switch {
	case terms <= 0 || rho == 0:
	case rho == 1:
		tail = p[L-1] * terms
	default:
		tail = p[L-1] * rho * (math.Pow(rho, terms) - 1) / (rho - 1)
	}
	sum += tail
	if math.IsInf(sum, 0) || math.IsNaN(sum) {
		for j := range p {
			p[j] = 0
		}
		return
	}
	for j := range p {
		p[j] /= sum
	}
}

// resid returns the residence time at station k of a class-c job that finds arrQ customers
// there, and the part of it spent in the station's queue part (the part whose queue
// length the fixed point tracks):
//
//	queue, 1 server:  R = D·(1 + A)
//	marginal method:  R = D·[(1 + A)/α_L + Σ_{j=1}^{L} j·(1/α(j) − 1/α_L)·p_k(j−1 | N−e_c)]
//	                  (exact form, BGdMT eq. 8.48, with approximate marginals: updateMarginals)
//	Seidmann:         R = (D/m)·(1 + A) + D·(m−1)/m, queue part (D/m)·(1 + A), where A
//	                  counts the jobs in the queue part only.
//
// The Seidmann formula of earlier versions added D·(m−1)/m but let A count every job at the
// station, including those in the delay part: jobs in service counted as waiting (issue 13).
func (a *amva) resid(k, c int, arrQ float64) (r, rq float64) {
	d := a.d[c][k]
	switch {
	case d == 0:
		return 0, 0
	case a.kind[k] == Delay:
		return d, d
	case a.p[k] != nil:
		s := (1 + arrQ) * a.invAL[k]
		for j, cf := range a.coef[k] {
			s += cf * a.pc[k][c][j]
		}
		return d * s, d * s
	case a.kind[k] == MultiServer && a.serv[k] > 1:
		m := a.serv[k]
		rq = d / m * (1 + arrQ)
		return rq + d*(m-1)/m, rq
	}
	return d * (1 + arrQ), d * (1 + arrQ)
}

// Schweitzer solves a closed (multi-class) network with the Bard–Schweitzer approximation
// (Schweitzer 1979; QSP §7.4.2): the queue an arriving class-c job sees is
// Q_k(N − e_c) ≈ Q_k(N) − Q_{k,c}(N)/N_c, iterated to a fixed point.
func Schweitzer(m *Model, opt AMVAOptions) (*Result, error) {
	opt = opt.withDefaults()
	a, err := newAMVA(m, opt.MultiServer)
	if err != nil {
		return nil, err
	}
	N := make([]float64, a.C)
	for c, cl := range m.Classes {
		N[c] = float64(cl.Population)
	}
	q := a.initialQ(N)
	res := newResult("schweitzer", a.C, a.K)
	res.Method = a.method("schweitzer")
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

// method names the approximation: the solver, and the multi-server correction when the
// model has multi-server or load-dependent stations.
func (a *amva) method(solver string) string {
	if hasMarginal(a.m) {
		return solver + "+" + a.ms.String()
	}
	return solver
}

// stationQ is the total tracked queue length at station k.
func (a *amva) stationQ(k int, q [][]float64) float64 {
	s := 0.0
	for _, v := range q[k] {
		s += v
	}
	return s
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
	rq := matrix(a.K, a.C)
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
				r[k][c], rq[k][c] = a.resid(k, c, arr(k, c, q))
				tot += a.count[k] * r[k][c]
			}
			x[c] = N[c] / tot
		}
		a.updateMarginals(x, N)
		resid := 0.0
		for k := 0; k < a.K; k++ {
			for c := 0; c < a.C; c++ {
				qn[k][c] = x[c] * rq[k][c]
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
				if N[c] == 0 { // zero convention: what one arriving job would see
					r[k][c], _ = a.resid(k, c, a.stationQ(k, q))
				}
				res.Residence[k][c] = r[k][c]
				res.QueueLength[k][c] = x[c] * r[k][c]
				res.ResponseTime[c] += a.count[k] * r[k][c]
				res.Utilization[k][c] = x[c] * a.d[c][k] / a.serv[k]
				switch a.kind[k] {
				case Delay:
					res.Utilization[k][c] = x[c] * a.d[c][k]
				case LoadDependent:
					f := 0.0
					for j := 0; j < a.C; j++ {
						f += x[j] * a.d[j][k]
					}
					if f > 0 {
						res.Utilization[k][c] = (1 - a.p[k][0]) * x[c] * a.d[c][k] / f
					}
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
	opt = opt.withDefaults()
	a, err := newAMVA(m, opt.MultiServer)
	if err != nil {
		return nil, err
	}
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
	res.Method = a.method("linearizer")
	st := core(N, qN, res)
	st.Iterations = iters
	res.Status = st
	return res, nil
}

// linOuter is the number of outer Linearizer iterations (Chandy & Neuse use three).
const linOuter = 3
