package qn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/clusterperf/clusterperf/fault"
	gmat "gonum.org/v1/gonum/mat"
)

// Integral solves a closed multi-class network of single-server queues and delay stations by
// numerical integration of its exact integral representation (J. McKenna and D. Mitra,
// "Integral representations and asymptotic expansions for closed Markovian queueing
// networks: normal usage", Bell System Technical Journal 61(5), 1982, eq. 2.6; used for
// inference by G. Casale, "Accelerating performance inference over closed systems by
// asymptotic methods", POMACS 1(1), 2017). Its cost does not grow with the population
// lattice Π_c (N_c + 1), nor with the populations at all beyond the grid that resolves the
// integrand: the thesis network N = (4095, 177, 127) takes milliseconds, 4 classes of 1 000
// jobs on 4 queues and a delay well under a second.
//
// The representation. With queue groups k = 1..M (a_k identical copies of demands D_kc at
// one copy) and Z_c = think time + delay demands of class c, |n|! = ∫_0^∞ u^|n| e^{−u} du
// turns the normalising constant into
//
//	G(N) = ∫_{u ≥ 0} Π_k u_k^{a_k−1} e^{−u_k}/(a_k−1)! · Π_c ℓ_c(u)^{N_c}/N_c! du,
//	ℓ_c(u) = Z_c + Σ_k D_kc·u_k,
//
// an M-dimensional integral of a log-concave function (log ℓ_c is concave). Writing E[·] for
// the expectation under the density π(u) ∝ that integrand, the performance measures are
//
//	X_c = G(N − 1_c)/G(N) = N_c·E[1/ℓ_c(u)],
//	Q_kc = D_kc·G^{+k}(N − 1_c)/G(N) = N_c·D_kc·E[u_k/ℓ_c(u)]/a_k   (one copy of group k),
//
// (given u, each class-c job is at copy-group k with probability D_kc·u_k/ℓ_c and at the
// delay with probability Z_c/ℓ_c; G^{+k} is G with one more copy of queue k, whose extra
// factor is u_k/a_k). Every term of every sum is positive: there is no cancellation, unlike
// CoMoM (comom.go), so float64 suffices at any population.
//
// Quadrature. The mode u* of π is found by projected Newton. The coordinates inside the
// orthant at u* are integrated in whitened coordinates y (u_I = u*_I + L·y, L·Lᵀ the
// Laplace covariance, the inverse of −∇² log π restricted to them): by the trapezoidal rule
// with step h, walking out from the mode until the slice falls integralTail nats below its
// peak (marginals of a log-concave density are unimodal), or, where the orthant's edge
// u_k = 0 comes within integralTrapReach of the mode in that coordinate, by Gauss–Legendre
// on [edge, integralTrapReach]. The coordinates at the edge (u*_k = 0) are integrated
// innermost, slice by slice: the slice's own mode and the points integralTail nats below it
// are found by Newton (slice), and the slice is integrated by Gauss–Laguerre at its own
// decay rate α when it falls exponentially from the edge with mild curvature (α·σ ≥
// integralLagSigmas), else by Gauss–Legendre on each side of its mode. All rules converge
// exponentially for this analytic integrand.
//
// Error estimate. A grid at level r (step 1/r, about 15r + 10 Legendre, 10r Laguerre, 24r
// interior Legendre nodes) is compared with the level r/1.5; the largest relative
// difference of any X_c or Q_kc must be below integralTol (1e-10), else the level rises
// 1.5× until the evaluation budget. The result carries that difference as its spread and
// ten times it as its error estimate: on 28 random networks and the thesis network scaled
// by 1/4 … 1/16, the actual difference from exact MVA was at most 1.2× the spread
// (TestIntegralSurvey, integral_test.go). The estimate is a measurement, not a bound: the
// method is numerical integration, reported as approximate (Exact false), however small
// the estimate.
//
// Where it is slow. The cost is the number of grid points, about (30…60)^M for M queue
// groups: it does not grow with the populations, but networks whose density is far from
// both a Gaussian and an exponential in some coordinate (small populations, several queues
// with nearly proportional demand rows, more queues than classes near balance) need fine
// grids; there the budget runs out and the error wraps fault.ErrNotConverged. Measured:
// the thesis network N = (4095, 177, 127) with 390 000 points (spread 8e-14, agreeing with
// exact MVA to 9e-14); 4 classes × 1 000 jobs on 4 queues and a delay (10¹² population
// vectors) with 10–18 million points (spread 2e-11…4e-11; BenchmarkIntegralC4x1000, times
// in bench/qn-timings.md); of 40
// random networks with 100–400 jobs per class, all 20 with 2–3 queues converged and 8 of
// the 20 with 4–5 queues (TestIntegralSurvey); the other 12 stopped within the budget.
//
// Refused (ErrUnsupported): open classes, multi-server and load-dependent stations,
// fork/join nodes.
//
// maxPoints is the budget of integrand evaluations over all grids (IntegralMaxPoints: the
// default; fault.ErrNotConverged when the estimate is still above integralTol there). ctx
// stops it: it is checked every 4096 integrand evaluations (the error wraps ctx.Err()).
func Integral(ctx context.Context, m *Model, maxPoints float64) (*Result, error) {
	return integral(ctx, m, maxPoints)
}

// IntegralMaxPoints is Integral's default budget of integrand evaluations over all its
// grids (its time: bench/qn-timings.md).
const IntegralMaxPoints = 3e7

const (
	integralTol         = 1e-10 // target of the difference from the coarser grid (relative)
	integralTail        = 46.0  // nats below the peak at which the walk-out stops (e^−46 ≈ 1e-20)
	integralMaxLevel    = 10.0  // finest level: step 0.1, 100 Laguerre, 240 Legendre nodes
	integralOuterMargin = 14.0  // extra nats for a boundary coordinate's range while inner ones sit at the mode
	integralTrapReach   = 12.0  // whitened distance beyond which the trapezoid's walk-out never reaches
	integralTailReach   = 60.0  // the end of an edge-bounded coordinate's tail piece (exponential tails of small populations)
	integralLagSigmas   = 2.0   // a boundary coordinate decays exponentially when α·σ ≥ this
)

// intNet is the network in the form the integral needs: scaled times, queue groups.
type intNet struct {
	M, C  int
	d     [][]float64 // d[c][k], demand at one copy of group k, times divided by scale
	z     []float64   // z[c]
	n     []float64   // populations N_c (active classes only)
	a     []float64   // copies per group
	scale float64
	act   []int   // model class of each active class
	grp   [][]int // model stations of each group
}

// integral is Integral.
func integral(ctx context.Context, m *Model, maxPoints float64) (*Result, error) {
	net, err := newIntNet(m)
	if err != nil {
		return nil, err
	}
	res := newResult("integral", len(m.Classes), len(m.Stations))
	if net.C == 0 {
		// No jobs: nothing to integrate; the zero convention's values are exact.
		fillIntegral(m, net, res, nil, nil)
		res.Status = Status{Converged: true}
		res.ErrorEstimate = &ErrorEstimate{SpreadMethod: "none: no jobs"}
		return res, nil
	}
	q, err := net.quadrature(ctx, maxPoints)
	if err != nil {
		return nil, err
	}
	for c := range q.x {
		bad := !(q.x[c] > 0) || math.IsInf(q.x[c], 0)
		for k := range q.q {
			bad = bad || !(q.q[k][c] >= 0) || math.IsInf(q.q[k][c], 0)
		}
		if bad {
			return nil, fmt.Errorf("%w: integral: the quadrature gave a non-finite or non-positive measure for class %q (the density is too concentrated for float64 here); use solver mva, comom or linearizer", fault.ErrNotConverged, m.Classes[net.act[c]].Name)
		}
	}
	fillIntegral(m, net, res, q.x, q.q)
	// Iterations counts the grids, Residual is the last two grids' difference (the spread).
	res.Status = Status{Converged: true, Iterations: q.grids, Residual: q.est}
	res.ErrorEstimate = &ErrorEstimate{RelError: 10 * q.est, Spread: q.est, SpreadMethod: "integral on the next coarser grid"}
	res.Notes = append(res.Notes, fmt.Sprintf("numerical integration of the exact integral representation (McKenna & Mitra 1982) on %d points: the grid and the next coarser one differ by %.1e (relative); the error estimate is ten times that", q.points, q.est))
	return res, nil
}

func newIntNet(m *Model) (*intNet, error) {
	if err := closedSolver(m, "integral"); err != nil {
		return nil, err
	}
	if err := singleServerOnly(m, "integral"); err != nil {
		return nil, err
	}
	net := &intNet{}
	zc := thinkPlusDelay(m)
	for c, cl := range m.Classes {
		if cl.Population > 0 {
			net.act = append(net.act, c)
		}
	}
	// Queues with identical demand rows are one group of their copies together (two
	// identical coordinates would make the density flat along their difference).
	net.grp, net.a = queueGroups(m, net.act)
	net.M, net.C = len(net.grp), len(net.act)
	big := 0.0
	for _, c := range net.act {
		big = math.Max(big, zc[c])
		for _, g := range net.grp {
			big = math.Max(big, m.Demand[c][g[0]])
		}
	}
	net.scale = big
	for _, c := range net.act {
		row := make([]float64, net.M)
		for k, g := range net.grp {
			row[k] = m.Demand[c][g[0]] / big
		}
		net.d = append(net.d, row)
		net.z = append(net.z, zc[c]/big)
		net.n = append(net.n, float64(m.Classes[c].Population))
	}
	return net, nil
}

// fillIntegral writes X_c and Q_kc (scaled back) into res with the derived measures.
func fillIntegral(m *Model, net *intNet, res *Result, x []float64, q [][]float64) {
	for i, c := range net.act {
		X := x[i] / net.scale
		res.Throughput[c] = X
		for k, s := range m.Stations {
			D := m.Demand[c][k]
			res.Utilization[k][c] = X * D
			if s.Kind == Delay {
				res.QueueLength[k][c] = X * D
				res.Residence[k][c] = D
			}
		}
		for g, ks := range net.grp {
			for _, k := range ks {
				res.QueueLength[k][c] = q[g][i]
				res.Residence[k][c] = q[g][i] / X
			}
		}
		rc := 0.0
		for k, s := range m.Stations {
			rc += float64(s.Copies()) * res.Residence[k][c]
		}
		res.ResponseTime[c] = rc
	}
	for c, cl := range m.Classes {
		if cl.Population != 0 {
			continue
		}
		// The package's zero convention: what ONE arriving job of the class would see,
		// by the arrival theorem R_kc = D_kc·(1 + Q_k(N)) at a queue, D_kc at a delay.
		for k, s := range m.Stations {
			d := m.Demand[c][k]
			if s.Kind != Delay {
				d *= 1 + res.StationQueueLength(k)
			}
			res.Residence[k][c] = d
			res.ResponseTime[c] += float64(s.Copies()) * d
		}
	}
}

// logPi is log π(u) up to a constant, with its gradient g and Hessian h (when not nil).
func (net *intNet) logPi(u, g []float64, h [][]float64) float64 {
	f := 0.0
	for k, uk := range u {
		f -= uk
		if net.a[k] > 1 {
			f += (net.a[k] - 1) * math.Log(uk)
		}
		if g != nil {
			g[k] = -1
			if net.a[k] > 1 {
				g[k] += (net.a[k] - 1) / uk
			}
		}
		if h != nil {
			for j := range h[k] {
				h[k][j] = 0
			}
			if net.a[k] > 1 {
				h[k][k] = -(net.a[k] - 1) / (uk * uk)
			}
		}
	}
	for c := range net.d {
		l := net.z[c]
		for k, uk := range u {
			l += net.d[c][k] * uk
		}
		f += net.n[c] * math.Log(l)
		if g != nil {
			for k := range u {
				g[k] += net.n[c] * net.d[c][k] / l
			}
		}
		if h != nil {
			w := net.n[c] / (l * l)
			for k := range u {
				for j := range u {
					h[k][j] -= w * net.d[c][k] * net.d[c][j]
				}
			}
		}
	}
	return f
}

// mode maximises log π over u ≥ 0 with the coordinates in fixed held at their values
// (projected Newton with a Levenberg shift; log π is concave). It returns u.
func (net *intNet) mode(u []float64, fixed []bool) []float64 {
	M := net.M
	g := make([]float64, M)
	h := matrix(M, M)
	for k := range u {
		if !fixed[k] && u[k] <= 0 {
			u[k] = 1
		}
	}
	try := make([]float64, M)
	f := net.logPi(u, g, h)
	mu := 1e-12
	for it := 0; it < 500; it++ {
		// Free set: positive coordinates, and those at 0 whose gradient points inward.
		var free []int
		for k := range u {
			if fixed[k] {
				continue
			}
			if u[k] > 0 || g[k] > 0 {
				free = append(free, k)
			}
		}
		if len(free) == 0 {
			return u
		}
		gn := 0.0
		for _, k := range free {
			gn = math.Max(gn, math.Abs(g[k])*math.Max(u[k], 1))
		}
		if gn < 1e-13*math.Max(1, math.Abs(f)) {
			return u
		}
		// Solve (−H_FF + μ·diag) d = g_F.
		n := len(free)
		A := matrix(n, n)
		b := make([]float64, n)
		for i, k := range free {
			for j, l := range free {
				A[i][j] = -h[k][l]
			}
			A[i][i] += mu * (1 + A[i][i])
			b[i] = g[k]
		}
		d, ok := solveSPD(A, b)
		if !ok {
			mu = math.Max(mu*10, 1e-8)
			continue
		}
		t := 1.0
		improved := false
		for ls := 0; ls < 60; ls++ {
			copy(try, u)
			for i, k := range free {
				try[k] = math.Max(0, u[k]+t*d[i])
				if net.a[k] > 1 && try[k] == 0 {
					try[k] = u[k] / 2
				}
			}
			ft := net.logPi(try, nil, nil)
			if ft >= f {
				improved = ft > f || t == 1
				copy(u, try)
				f = net.logPi(u, g, h)
				break
			}
			t /= 2
		}
		if !improved {
			return u
		}
		mu = math.Max(mu/10, 1e-14)
	}
	return u
}

// solveSPD solves A x = b for a symmetric positive definite A by Cholesky; ok false when A
// is not numerically positive definite.
func solveSPD(A [][]float64, b []float64) ([]float64, bool) {
	L, ok := cholesky(A)
	if !ok {
		return nil, false
	}
	n := len(b)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		s := b[i]
		for j := 0; j < i; j++ {
			s -= L[i][j] * y[j]
		}
		y[i] = s / L[i][i]
	}
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for j := i + 1; j < n; j++ {
			s -= L[j][i] * y[j]
		}
		y[i] = s / L[i][i]
	}
	return y, true
}

func cholesky(A [][]float64) ([][]float64, bool) {
	n := len(A)
	L := matrix(n, n)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			s := A[i][j]
			for k := 0; k < j; k++ {
				s -= L[i][k] * L[j][k]
			}
			if i == j {
				if !(s > 0) {
					return nil, false
				}
				L[i][i] = math.Sqrt(s)
			} else {
				L[i][j] = s / L[j][j]
			}
		}
	}
	return L, true
}

// intQuad is a quadrature's outcome: X_c and Q_kc (scaled times), the estimate, the work.
type intQuad struct {
	x      []float64
	q      [][]float64
	est    float64
	points int
	grids  int // grids computed, the check grid included
}

// intPlan is how each coordinate is integrated: the whitened interior ones (I, with the
// Cholesky factor L of the Laplace covariance at the mode u0) and the ones at the edge
// (B, slice by slice: see boundary).
type intPlan struct {
	u0 []float64
	I  []int
	L  [][]float64
	B  []int
}

// plan finds the mode and chooses each coordinate's rule.
func (net *intNet) plan() *intPlan {
	M := net.M
	p := &intPlan{u0: net.mode(make([]float64, M), make([]bool, M))}
	u0 := p.u0
	g := make([]float64, M)
	h := matrix(M, M)
	net.logPi(u0, g, h)
	// Whitened: the coordinates inside the orthant at the mode.
	inter := make([]bool, M)
	for k := range u0 {
		inter[k] = u0[k] > 0
	}
	for {
		p.I = p.I[:0]
		for k := range u0 {
			if inter[k] {
				p.I = append(p.I, k)
			}
		}
		if len(p.I) == 0 {
			break
		}
		A := matrix(len(p.I), len(p.I))
		for i, k := range p.I {
			for j, l := range p.I {
				A[i][j] = -h[k][l]
			}
		}
		cov, ok := invertSPD(A)
		if !ok {
			// Singular in the interior (more interior queues than the classes can tell
			// apart): treat the least interior coordinate as a boundary one.
			kmin := p.I[0]
			for _, k := range p.I {
				if u0[k] < u0[kmin] {
					kmin = k
				}
			}
			inter[kmin] = false
			continue
		}
		if L, ok := cholesky(cov); ok {
			p.L = L
			break
		}
		// Not numerically positive definite: drop the least interior coordinate.
		kmin := p.I[0]
		for _, k := range p.I {
			if u0[k] < u0[kmin] {
				kmin = k
			}
		}
		inter[kmin] = false
	}
	for k := range u0 {
		if !inter[k] {
			p.B = append(p.B, k)
		}
	}
	return p
}

// quadrature integrates at increasing resolution (1.5× per level) until the difference from
// the previous level is below integralTol, within maxPoints integrand evaluations.
func (net *intNet) quadrature(ctx context.Context, maxPoints float64) (*intQuad, error) {
	p := net.plan()
	dims := float64(len(p.I) + len(p.B))
	if math.Pow(10, dims) > maxPoints {
		return nil, fmt.Errorf("%w: integral: %d queue groups with distinct demands: its grid needs at least 1e%d integrand evaluations, over the budget of %g (use solver mva, comom or linearizer)", fault.ErrTooLarge, net.M, int(dims), maxPoints)
	}
	// Level r (intResAt): trapezoid step 1/r, 10r Laguerre, 15r + 10 edge and 24r interior
	// Legendre nodes. The check grid is the previous level (r/1.5).
	r := 2.0
	notConverged := func(est float64, points int) error {
		why := fmt.Sprintf("the grid of %d points and a coarser one differ by %.1e (relative), above %.0e, and a finer grid would exceed", points, est, integralTol)
		if math.IsInf(est, 1) || math.IsNaN(est) {
			why = fmt.Sprintf("after %d points no grid fine enough to compare fits", points)
		}
		return fmt.Errorf("%w: integral: %s the budget of %g integrand evaluations (the density is far from Gaussian or exponential in some direction: use solver mva, comom or linearizer)", fault.ErrNotConverged, why, maxPoints)
	}
	check, err := net.grid(ctx, p, intResAt(r/1.5), maxPoints)
	if errors.Is(err, errIntegralBudget) {
		return nil, notConverged(math.Inf(1), int(maxPoints))
	}
	if err != nil {
		return nil, err
	}
	total, grids := check.points, 1
	last := math.Inf(1)
	for {
		full, err := net.grid(ctx, p, intResAt(r), maxPoints-float64(total))
		if errors.Is(err, errIntegralBudget) {
			return nil, notConverged(last, total)
		}
		if err != nil {
			return nil, err
		}
		total += full.points
		grids++
		full.est = relDiffQuad(full, check)
		full.points = total
		full.grids = grids
		last = full.est
		if full.est <= integralTol {
			return full, nil
		}
		if math.IsNaN(full.est) || r*1.5 > integralMaxLevel || float64(total)*math.Pow(1.5, dims) > maxPoints {
			return nil, notConverged(full.est, full.points)
		}
		check = full
		r *= 1.5
	}
}

// errIntegralBudget stops a grid whose points exceed its budget.
var errIntegralBudget = errors.New("integral: grid budget exhausted")

// intResAt is the resolution of level r.
func intResAt(r float64) intRes {
	return intRes{h: 1 / r, nB: int(math.Round(15*r)) + 10, nLag: int(math.Round(10 * r)), nGL: int(math.Round(24 * r))}
}

// intRes is a grid's resolution: trapezoid step, and the Gauss–Legendre (edge coordinates,
// interior coordinates near the edge) and Gauss–Laguerre node counts.
type intRes struct {
	h             float64
	nB, nLag, nGL int
}

func relDiffQuad(a, b *intQuad) float64 {
	est := 0.0
	for c := range a.x {
		est = math.Max(est, math.Abs(a.x[c]-b.x[c])/a.x[c])
		for k := range a.q {
			if a.q[k][c] > 0 {
				est = math.Max(est, math.Abs(a.q[k][c]-b.q[k][c])/a.q[k][c])
			}
		}
	}
	return est
}

func invertSPD(A [][]float64) ([][]float64, bool) {
	n := len(A)
	inv := matrix(n, n)
	for j := 0; j < n; j++ {
		e := make([]float64, n)
		e[j] = 1
		x, ok := solveSPD(A, e)
		if !ok {
			return nil, false
		}
		for i := range x {
			inv[i][j] = x[i]
		}
	}
	return inv, true
}

// gridWork is one goroutine's state while it walks a grid.
type gridWork struct {
	net    *intNet
	p      *intPlan
	ctx    context.Context
	res    intRes
	glX    []float64 // Gauss–Legendre nodes and weights on [0, 1]
	glW    []float64
	glTX   []float64 // Gauss–Legendre nodes and weights for the tail piece
	glTW   []float64
	bX     []float64 // Gauss–Legendre nodes and weights for the boundary coordinates
	bW     []float64
	lagX   []float64 // Gauss–Laguerre nodes, and log(weight) + node
	lagLW  []float64
	u, y   []float64
	w      []float64 // w[i]: the product of the outer interior coordinates' weights
	dl, l0 []float64
	inv    []float64
	lc     []float64
	sum    []float64 // Σw, Σw/ℓ_c, Σw·u_k/ℓ_c
	lin    float64   // Σ_k −(u_k − u*_k) + (a_k − 1)·log(u_k/u*_k)
	points int
	err    error
	// nextCheck: the point count at which ctx and the budget limit are checked next.
	nextCheck int
	limit     float64
}

// check looks at ctx and the budget (every 4096 points, from leaf and interior).
func (gw *gridWork) check() {
	gw.nextCheck = gw.points + 4096
	if gw.err != nil {
		return
	}
	gw.err = gw.ctx.Err()
	if gw.err == nil && float64(gw.points) > gw.limit {
		gw.err = errIntegralBudget
	}
}

// leaf adds the point u (log-weight lw relative to the peak, quadrature weight w).
func (gw *gridWork) leaf(lw, w float64) {
	net := gw.net
	C, M := net.C, net.M
	for c := 0; c < C; c++ {
		lw += net.n[c] * math.Log1p(gw.dl[c]/gw.l0[c])
	}
	gw.points++
	if gw.points >= gw.nextCheck {
		gw.check()
	}
	if lw < -3*integralTail {
		return
	}
	wf := w * math.Exp(lw)
	gw.sum[0] += wf
	for c := 0; c < C; c++ {
		gw.inv[c] = wf / (gw.l0[c] + gw.dl[c])
		gw.sum[1+c] += gw.inv[c]
	}
	s := gw.sum[1+C:]
	for k := 0; k < M; k++ {
		uk := gw.u[k]
		for c := 0; c < C; c++ {
			s[k*C+c] += uk * gw.inv[c]
		}
	}
}

// setU moves coordinate k to v, updating δℓ and lin, the linear and copy terms of
// log π(u) − log π(u*).
func (gw *gridWork) setU(k int, v float64) {
	net := gw.net
	old := gw.u[k]
	du := v - old
	for c := 0; c < net.C; c++ {
		gw.dl[c] += net.d[c][k] * du
	}
	gw.u[k] = v
	gw.lin -= du
	if net.a[k] > 1 {
		gw.lin += (net.a[k] - 1) * math.Log(v/old)
	}
}

// boundary integrates the coordinates B[b:] for the current interior point, each by
// Gauss–Legendre on the range of its own slice (slice).
func (gw *gridWork) boundary(b int, w float64) {
	p := gw.p
	if gw.err != nil {
		return
	}
	if b == len(p.B) {
		gw.leaf(gw.lin, w)
		return
	}
	k := p.B[b]
	tail := integralTail
	if b < len(p.B)-1 {
		tail += integralOuterMargin // the inner coordinates are held at the mode here
	}
	lo, mid, hi, alpha, beta := gw.slice(k, tail)
	if span := mid - lo; span > 0 {
		for j, x := range gw.bX {
			gw.setU(k, lo+span*x)
			gw.boundary(b+1, w*span*gw.bW[j])
		}
	}
	if span := hi - mid; span > 0 {
		if mid == 0 && alpha*alpha >= integralLagSigmas*integralLagSigmas*beta {
			// An exponential decay from the edge, mild curvature against it (α·σ large):
			// Gauss–Laguerre at the slice's own rate α.
			for j, x := range gw.lagX {
				gw.setU(k, x/alpha)
				gw.boundary(b+1, w*math.Exp(gw.lagLW[j])/alpha)
			}
		} else {
			for j, x := range gw.bX {
				gw.setU(k, mid+span*x)
				gw.boundary(b+1, w*span*gw.bW[j])
			}
		}
	}
	gw.setU(k, p.u0[k])
}

// slice finds, along coordinate k with the others at their current values, the mode mid of
// the slice φ(t) = log π(u | u_k = t) (concave) and where φ falls tail below φ(mid): lo (0
// when it does not fall that far before the edge) and hi. Both ends are reached by Newton
// steps from outside the range (the tangent of a concave function lies above it), so the
// range returned always contains the one asked for.
func (gw *gridWork) slice(k int, tail float64) (lo, mid, hi, alpha, beta float64) {
	net := gw.net
	lc := gw.lc
	for c := 0; c < net.C; c++ {
		lc[c] = gw.l0[c] + gw.dl[c] - net.d[c][k]*gw.u[k]
	}
	phi := slicePhi{net: net, k: k, a1: net.a[k] - 1, lc: lc}
	mid = phi.mode()
	fm, d1m, d2m := phi.at(mid)
	alpha, beta = math.Max(-d1m, 0), -d2m
	target := fm - tail
	s := 1 / math.Sqrt(math.Max(-d2m, 1e-300))
	hi = phi.right(mid, target, s)
	lo = 0
	if mid > 0 {
		if f0, _, _ := phi.at(math.SmallestNonzeroFloat64); phi.a1 > 0 || f0 < target {
			lo = phi.left(mid, target, s)
		}
	}
	return lo, mid, hi, alpha, beta
}

// slicePhi is the slice φ(t) = log π(u | u_k = t) + const along coordinate k:
// φ(t) = −t + (a_k − 1)·log t + Σ_c n_c·log(ℓ_c + D_{c,k}·t), with ℓ_c the other
// coordinates' part (lc); at returns φ, φ′ and φ″.
type slicePhi struct {
	net *intNet
	k   int
	a1  float64 // a_k − 1
	lc  []float64
}

func (p *slicePhi) at(t float64) (f, d1, d2 float64) {
	net, k, a1 := p.net, p.k, p.a1
	f, d1 = -t, -1
	if a1 > 0 {
		f += a1 * math.Log(t)
		d1 += a1 / t
		d2 -= a1 / (t * t)
	}
	for c := 0; c < net.C; c++ {
		dk := net.d[c][k]
		if dk == 0 {
			continue
		}
		l := p.lc[c] + dk*t
		f += net.n[c] * math.Log(l)
		r := dk / l
		d1 += net.n[c] * r
		d2 -= net.n[c] * r * r
	}
	return
}

// mode is the slice's maximum: 0 when the slope at the edge points out, else found by
// doubling a bracket and bisection/Newton on φ' (φ is concave).
func (p *slicePhi) mode() float64 {
	if _, d0, _ := p.at(math.SmallestNonzeroFloat64); p.a1 == 0 && d0 <= 0 {
		return 0
	}
	l, r := 0.0, 1.0
	for {
		if _, d, _ := p.at(r); d < 0 {
			break
		}
		l, r = r, 2*r
	}
	t := (l + r) / 2
	for it := 0; it < 100 && r-l > 1e-12*r; it++ {
		_, d, d2 := p.at(t)
		if d > 0 {
			l = t
		} else {
			r = t
		}
		nt := t - d/d2
		if !(nt > l && nt < r) {
			nt = (l + r) / 2
		}
		t = nt
	}
	return t
}

// right is where φ falls to target right of the mode mid, reached by tangent (Newton)
// steps from the right of the root, s the step while still on the flat top.
func (p *slicePhi) right(mid, target, s float64) float64 {
	t := mid + s
	for it := 0; it < 60; it++ {
		f, d, _ := p.at(t)
		if f <= target && it > 0 {
			if d >= 0 {
				break
			}
			nt := t + (target-f)/d // moves left, stays right of the root
			if t-nt < 1e-3*t {
				break
			}
			t = nt
			continue
		}
		if d >= 0 { // still left of the mode's flat top
			t += s
			continue
		}
		t += (target - f) / d // tangent: overshoots to the right of the root
	}
	return t
}

// left is where φ falls to target left of the mode mid (> 0), by tangent steps from the
// left of the root, clamped at 0.
func (p *slicePhi) left(mid, target, s float64) float64 {
	t := mid - s
	for it := 0; it < 60 && t > 0; it++ {
		f, d, _ := p.at(t)
		if f <= target && it > 0 {
			nt := t + (target-f)/d // moves right, stays left of the root
			if nt-t < 1e-3*mid {
				break
			}
			t = nt
			continue
		}
		if d <= 0 {
			t -= s
			continue
		}
		t += (target - f) / d // overshoots to the left of the root
	}
	return math.Max(t, 0)
}

// interior integrates the whitened coordinate i (and, below it, the rest) for the current
// outer ones: walking out from the mode in direction dir (both when dir is 0), or by
// Gauss–Legendre where the edge is near. It returns the log of the largest slice mass met,
// which the outer walk-outs compare.
func (gw *gridWork) interior(i int, dir int) float64 {
	p := gw.p
	if i == len(p.I) {
		return gw.interiorLeaf()
	}
	// The orthant's edge u_k = 0 in this coordinate, given the outer ones.
	k := p.I[i]
	off := p.u0[k]
	for b := 0; b < i; b++ {
		off += p.L[i][b] * gw.y[b]
	}
	ymin := -off / p.L[i][i]
	if ymin > -integralTrapReach {
		return gw.interiorEdge(i, ymin)
	}
	best := math.Inf(-1)
	for _, d := range []int{1, -1} {
		if dir != 0 && d != dir {
			continue
		}
		j := 0
		if d < 0 {
			j = -1
		}
		for ; ; j += d {
			gw.y[i] = float64(j) * gw.res.h
			gw.w[i+1] = gw.w[i] * gw.res.h
			v := gw.interior(i+1, 0)
			best = math.Max(best, v)
			if j != 0 && (v < best-integralTail || math.IsInf(v, -1)) {
				break
			}
		}
	}
	gw.y[i] = 0
	return best
}

// interiorLeaf maps the whitened point y to u = u* + L·y (−Inf outside the orthant),
// integrates the boundary coordinates there, and returns the log of this slice's mass
// (its integral over the boundary coordinates, per unit of the outer weights), which the
// walk-out compares.
func (gw *gridWork) interiorLeaf() float64 {
	p := gw.p
	if gw.points >= gw.nextCheck {
		gw.check()
	}
	if gw.err != nil {
		return math.Inf(-1)
	}
	for a, k := range p.I {
		du := 0.0
		for b := 0; b <= a; b++ {
			du += p.L[a][b] * gw.y[b]
		}
		if p.u0[k]+du <= 0 {
			return math.Inf(-1)
		}
		gw.setU(k, p.u0[k]+du)
	}
	w := gw.w[len(p.I)]
	before := gw.sum[0]
	gw.boundary(0, w)
	if mass := (gw.sum[0] - before) / w; mass > 0 {
		return math.Log(mass)
	}
	return math.Inf(-1)
}

// interiorEdge integrates coordinate i when the orthant's edge ymin is inside the
// integrand's reach: Gauss–Legendre on [ymin, reach], and a second piece [reach,
// integralTailReach] with the tail nodes, which holds the exponential tails of small
// populations (a Gaussian slice has e^−72 there).
func (gw *gridWork) interiorEdge(i int, ymin float64) float64 {
	best := math.Inf(-1)
	if ymin >= integralTrapReach {
		return best
	}
	w := gw.w[i]
	for _, piece := range [2][2]float64{{ymin, integralTrapReach}, {integralTrapReach, integralTailReach}} {
		span := piece[1] - piece[0]
		xs, ws := gw.glX, gw.glW
		if piece[0] == integralTrapReach {
			xs, ws = gw.glTX, gw.glTW
		}
		for j, x := range xs {
			gw.y[i] = piece[0] + span*x
			gw.w[i+1] = w * span * ws[j]
			best = math.Max(best, gw.interior(i+1, 0))
		}
	}
	gw.y[i] = 0
	return best
}

// grid evaluates the sums on one grid, split in two halves (the outermost coordinate's
// two directions) on two goroutines.
func (net *intNet) grid(ctx context.Context, p *intPlan, res intRes, budget float64) (*intQuad, error) {
	M, C := net.M, net.C
	glX, glW := gaussLegendre(res.nGL)
	glTX, glTW := gaussLegendre(res.nGL / 2)
	bX, bW := gaussLegendre(res.nB)
	lagX, lagLW := gaussLaguerre(res.nLag)
	newWork := func() *gridWork {
		gw := &gridWork{net: net, p: p, ctx: ctx, res: res, glX: glX, glW: glW, glTX: glTX, glTW: glTW, bX: bX, bW: bW, lagX: lagX, lagLW: lagLW,
			u: append([]float64(nil), p.u0...), y: make([]float64, len(p.I)), w: make([]float64, len(p.I)+1), dl: make([]float64, C),
			l0: make([]float64, C), inv: make([]float64, C), lc: make([]float64, C), sum: make([]float64, 1+C+M*C)}
		gw.w[0] = 1
		gw.limit = budget / 2 // per goroutine
		for c := 0; c < C; c++ {
			gw.l0[c] = net.z[c]
			for k := 0; k < M; k++ {
				gw.l0[c] += net.d[c][k] * p.u0[k]
			}
		}
		return gw
	}
	var parts []*gridWork
	if len(p.I) == 0 {
		gw := newWork()
		gw.boundary(0, 1)
		parts = append(parts, gw)
	} else {
		var wg sync.WaitGroup
		for _, d := range []int{1, -1} {
			gw := newWork()
			parts = append(parts, gw)
			wg.Add(1)
			go func() { defer wg.Done(); gw.interior(0, d) }()
		}
		wg.Wait()
	}
	sum := make([]float64, 1+C+M*C)
	out := &intQuad{x: make([]float64, C), q: matrix(M, C)}
	for _, gw := range parts {
		if errors.Is(gw.err, errIntegralBudget) {
			return nil, errIntegralBudget
		}
		if gw.err != nil {
			return nil, fmt.Errorf("integral: %w", gw.err)
		}
		for i := range sum {
			sum[i] += gw.sum[i]
		}
		out.points += gw.points
	}
	if !(sum[0] > 0) || math.IsInf(sum[0], 0) {
		return nil, fmt.Errorf("%w: integral: the density's mass is %g on the grid (it under- or overflows float64 here); use solver mva, comom or linearizer", fault.ErrNotConverged, sum[0])
	}
	for c := 0; c < C; c++ {
		out.x[c] = net.n[c] * sum[1+c] / sum[0]
		for k := 0; k < M; k++ {
			out.q[k][c] = net.n[c] * net.d[c][k] * sum[1+C+k*C+c] / sum[0] / net.a[k]
		}
	}
	return out, nil
}

// gaussLegendre returns the n nodes and weights of the Gauss–Legendre rule on [0, 1]
// (Golub–Welsch: Jacobi matrix with zero diagonal and off-diagonal i/√(4i² − 1)).
func gaussLegendre(n int) ([]float64, []float64) {
	a := gmat.NewSymDense(n, nil)
	for i := 1; i < n; i++ {
		fi := float64(i)
		a.SetSym(i, i-1, fi/math.Sqrt(4*fi*fi-1))
	}
	x, w := golubWelsch(a)
	for i := range x {
		x[i] = (x[i] + 1) / 2 // weights on [−1, 1] sum to 2; on [0, 1] to 1
	}
	return x, w
}

// golubWelsch returns the eigenvalues of the Jacobi matrix a (the rule's nodes) and the
// squares of their eigenvectors' first components (the weights over the weight function's
// total mass).
func golubWelsch(a *gmat.SymDense) ([]float64, []float64) {
	var es gmat.EigenSym
	es.Factorize(a, true)
	x := es.Values(nil)
	var v gmat.Dense
	es.VectorsTo(&v)
	w := make([]float64, len(x))
	for i := range x {
		v0 := v.At(0, i)
		w[i] = v0 * v0
	}
	return x, w
}

// gaussLaguerre returns the n nodes x_i of the Gauss–Laguerre rule (∫_0^∞ e^{−x} f(x) dx ≈
// Σ w_i f(x_i)) and log(w_i) + x_i, by the Golub–Welsch method (Jacobi matrix of the
// Laguerre polynomials: diagonal 2i + 1, off-diagonal i).
func gaussLaguerre(n int) ([]float64, []float64) {
	a := gmat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, float64(2*i+1))
		if i > 0 {
			a.SetSym(i, i-1, float64(i))
		}
	}
	x, lw := golubWelsch(a)
	for i := range x {
		lw[i] = math.Log(lw[i]) + x[i]
	}
	return x, lw
}
