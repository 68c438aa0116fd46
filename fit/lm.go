package fit

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Problem is a nonlinear least-squares problem: minimise ½Σ r_i(x)² over Lower ≤ x ≤ Upper.
type Problem struct {
	// Residuals writes the M residuals at x into r. It may return an error for x where the
	// model is undefined; the solver then treats the point as infinitely bad.
	Residuals func(x, r []float64) error
	M         int       // number of residuals
	Lower     []float64 // nil: unbounded below
	Upper     []float64 // nil: unbounded above
}

// Settings control Levenberg–Marquardt. The zero value means the defaults in parentheses.
type Settings struct {
	MaxIter int     // iterations (200)
	FTol    float64 // stop when the relative reduction of the cost is below FTol (1e-12)
	XTol    float64 // stop when every parameter's step is below XTol of its magnitude (1e-10; see stepConverged)
	GTol    float64 // stop when the projected gradient's largest component is below GTol (1e-12)
	Lambda0 float64 // initial damping (1e-3)
}

func (s Settings) withDefaults() Settings {
	if s.MaxIter <= 0 {
		s.MaxIter = 200
	}
	if s.FTol <= 0 {
		s.FTol = 1e-12
	}
	if s.XTol <= 0 {
		s.XTol = 1e-10
	}
	if s.GTol <= 0 {
		s.GTol = 1e-12
	}
	if s.Lambda0 <= 0 {
		s.Lambda0 = 1e-3
	}
	return s
}

// Status says why the solver stopped.
type Status string

const (
	// FunctionConvergence: an accepted step reduced the cost by less than FTol relative.
	FunctionConvergence Status = "cost converged"
	// StepConvergence: every parameter's step fell below XTol relative to the parameter
	// (with a floor at its uncertainty, see stepConverged), or no step could reduce the cost
	// any more.
	StepConvergence Status = "step converged"
	// GradientConvergence: the projected gradient's largest component fell below GTol.
	GradientConvergence Status = "gradient converged"
	// IterationLimit: Settings.MaxIter iterations ran without meeting a convergence test
	// (not converged: Status.Converged is false).
	IterationLimit Status = "iteration limit reached"
)

// Converged reports whether s is a convergence status.
func (s Status) Converged() bool {
	return s == FunctionConvergence || s == StepConvergence || s == GradientConvergence
}

// Result of a least-squares solve.
type Result struct {
	X          []float64
	Cost       float64 // Σ r_i² at X
	Residuals  []float64
	Jacobian   *mat.Dense // at X, M × N (forward differences)
	Status     Status
	Iterations int
	Evals      int // residual evaluations
	AtBound    []bool
}

// LevenbergMarquardt minimises Σ r(x)² from x0 within the bounds. Steps solve
// (JᵀJ + λD)δ = −Jᵀr, D the largest diag(JᵀJ) seen so far (MINPACK's scaling) over the free variables — a variable at
// a bound whose gradient pushes outward is held there — and are projected back into the box;
// λ follows the gain ratio ρ of actual to predicted reduction (÷10 when ρ > 0.75, ×2 when
// ρ < 0.25, ×10 after a rejected step). It stops on a relative cost reduction below FTol, a
// step below XTol in every parameter relative to that parameter (stepConverged; also when a
// rejected step is that small: no meaningful step reduces the cost), a small projected
// gradient, or a zero cost. A zero-residual problem converges quadratically until rounding
// makes a step fail, then stops on the step test. The Jacobian is by forward differences with
// steps that stay inside the box.
func LevenbergMarquardt(p Problem, x0 []float64, s Settings) (*Result, error) {
	s = s.withDefaults()
	n := len(x0)
	if p.M < 1 || p.Residuals == nil {
		return nil, errors.New("fit: problem needs residuals")
	}
	lo, hi := bounds(p, n)
	l := &lmSolver{p: p, s: s, n: n, lo: lo, hi: hi, x: make([]float64, n), r: make([]float64, p.M), res: &Result{}}
	for i := range l.x {
		l.x[i] = clamp(x0[i], lo[i], hi[i])
	}
	l.cost = l.eval(l.x, l.r)
	if math.IsInf(l.cost, 1) {
		return nil, fmt.Errorf("fit: the model cannot be evaluated at the starting point %v", l.x)
	}
	l.J = mat.NewDense(p.M, n, nil)
	l.rt, l.xt = make([]float64, p.M), make([]float64, n)
	l.lambda = s.Lambda0
	status := IterationLimit
	l.jac()
	l.g = make([]float64, n)
	l.dscale = make([]float64, n) // MINPACK-style scaling: the largest diag(JᵀJ) seen so far
	for it := 1; it <= s.MaxIter; it++ {
		l.res.Iterations = it
		idx, maxg := l.freeSet()
		if len(idx) == 0 || maxg <= s.GTol || l.cost == 0 {
			status = GradientConvergence
			break
		}
		var improved bool
		improved, status = l.step(idx)
		if status != IterationLimit {
			break
		}
		if !improved {
			status = StepConvergence
			break
		}
		l.jac()
	}
	l.jac()
	x, res := l.x, l.res
	res.X, res.Cost, res.Residuals, res.Jacobian, res.Status = x, l.cost, l.r, l.J, status
	res.AtBound = make([]bool, n)
	for j := range x {
		res.AtBound[j] = x[j] <= lo[j] || x[j] >= hi[j]
	}
	return res, nil
}

// lmSolver is LevenbergMarquardt's state: the point x with its residuals r and cost Σr²,
// the trial point xt, rt, the forward-difference Jacobian J at x, the gradient g = Jᵀr,
// the damping λ and the MINPACK-style scaling dscale (the largest diag(JᵀJ) seen so far).
type lmSolver struct {
	p         Problem
	s         Settings
	n         int
	lo, hi    []float64
	x, r      []float64
	xt, rt    []float64
	J         *mat.Dense
	g, dscale []float64
	lambda    float64
	cost      float64
	res       *Result
}

// eval writes the residuals at x into r and returns the cost Σr² (+Inf where the model
// is undefined or NaN), counting the evaluation.
func (l *lmSolver) eval(x, r []float64) float64 {
	l.res.Evals++
	if err := l.p.Residuals(x, r); err != nil {
		return math.Inf(1)
	}
	c := 0.0
	for _, v := range r {
		c += v * v
	}
	if math.IsNaN(c) {
		return math.Inf(1)
	}
	return c
}

// jac sets J by forward differences, step h = 1e-7·max(|x_j|, 1e-3) (backward at the
// upper bound); a column whose trial point cannot be evaluated is 0.
func (l *lmSolver) jac() {
	x, xt, rt, r := l.x, l.xt, l.rt, l.r
	for j := 0; j < l.n; j++ {
		h := 1e-7 * math.Max(math.Abs(x[j]), 1e-3)
		if x[j]+h > l.hi[j] {
			h = -h
		}
		copy(xt, x)
		xt[j] += h
		c := l.eval(xt, rt)
		for i := 0; i < l.p.M; i++ {
			d := (rt[i] - r[i]) / h
			if math.IsInf(c, 1) {
				d = 0
			}
			l.J.Set(i, j, d)
		}
	}
}

// freeSet computes the gradient g = Jᵀr and returns the free parameters (those not held at
// a bound by the gradient) and the largest scaled gradient |g_j|·max(|x_j|, 1) among them.
func (l *lmSolver) freeSet() (idx []int, maxg float64) {
	x, g := l.x, l.g
	for j := 0; j < l.n; j++ {
		g[j] = 0
		for i := 0; i < l.p.M; i++ {
			g[j] += l.J.At(i, j) * l.r[i]
		}
	}
	for j := 0; j < l.n; j++ {
		atLo, atHi := x[j] <= l.lo[j], x[j] >= l.hi[j]
		if !((atLo && g[j] > 0) || (atHi && g[j] < 0)) {
			idx = append(idx, j)
			maxg = math.Max(maxg, math.Abs(g[j])*math.Max(math.Abs(x[j]), 1))
		}
	}
	return idx, maxg
}

// step forms the normal equations A = JᵀJ, b = −g on the free parameters idx and tries
// damped steps, raising λ tenfold after each failure (at most 30 tries), until one reduces
// the cost. It reports whether a step was accepted and the status it reached
// (IterationLimit: go on).
func (l *lmSolver) step(idx []int) (improved bool, status Status) {
	k := len(idx)
	A := gram(l.J, idx)
	b := mat.NewVecDense(k, nil)
	for a, ja := range idx {
		b.SetVec(a, -l.g[ja])
		l.dscale[ja] = math.Max(l.dscale[ja], A.At(a, a))
	}
	// Solve in the variables scaled by D^½ (MINPACK's diag): (Â + λI)y = D^-½b with
	// Â = D^-½AD^-½, δ = D^-½y. The same step as (A + λD)δ = b, but Â has a unit-order
	// diagonal whatever the parameters' magnitudes: a time of 1e4 s next to a fraction of
	// 1e-3 makes diag(A) span 20 decades, which the unscaled Cholesky refuses as
	// ill-conditioned at every λ.
	sc := make([]float64, k)
	for a, ja := range idx {
		sc[a] = 1 / math.Sqrt(math.Max(l.dscale[ja], 1e-12))
	}
	As := mat.NewSymDense(k, nil)
	bs := mat.NewVecDense(k, nil)
	for a := 0; a < k; a++ {
		for c := a; c < k; c++ {
			As.SetSym(a, c, A.At(a, c)*sc[a]*sc[c])
		}
		bs.SetVec(a, b.AtVec(a)*sc[a])
	}
	for tries := 0; tries < 30; tries++ {
		if !l.trial(idx, As, bs, sc) {
			l.lambda *= 10
			continue
		}
		small := stepConverged(l.x, l.xt, idx, l.dscale, l.cost, l.s.XTol)
		c := l.eval(l.xt, l.rt)
		if c < l.cost {
			return true, l.accept(c, l.predicted(idx, A), small)
		}
		l.lambda *= 10
		if small {
			return false, StepConvergence
		}
	}
	return false, IterationLimit
}

// trial solves (Â + λI)y = D^-½b by Cholesky and sets the trial point xt = clamp(x + D^-½y);
// false when the damped matrix is not positive definite.
func (l *lmSolver) trial(idx []int, As *mat.SymDense, bs *mat.VecDense, sc []float64) bool {
	k := len(idx)
	Ad := mat.NewSymDense(k, nil)
	Ad.CopySym(As)
	for a := 0; a < k; a++ {
		Ad.SetSym(a, a, As.At(a, a)+l.lambda)
	}
	var y mat.VecDense
	var chol mat.Cholesky
	if !chol.Factorize(Ad) {
		return false
	}
	if err := chol.SolveVecTo(&y, bs); err != nil {
		return false
	}
	copy(l.xt, l.x)
	for a, j := range idx {
		l.xt[j] = clamp(l.x[j]+y.AtVec(a)*sc[a], l.lo[j], l.hi[j])
	}
	return true
}

// predicted is the Gauss–Newton model's reduction for the trial step δ = xt − x, which
// for (A + λD)δ = −g is δᵀAδ + 2λδᵀDδ (for the cost Σr², projected step).
func (l *lmSolver) predicted(idx []int, A *mat.SymDense) float64 {
	pred := 0.0
	for a, ja := range idx {
		da := l.xt[ja] - l.x[ja]
		for c2, jc := range idx {
			pred += da * A.At(a, c2) * (l.xt[jc] - l.x[jc])
		}
		pred += 2 * l.lambda * math.Max(l.dscale[ja], 1e-12) * da * da
	}
	return pred
}

// accept moves to the trial point of cost c and adapts λ by the gain ratio ρ = actual /
// predicted reduction (Nielsen 1999: λ/10 when ρ > 0.75, 2λ when ρ < 0.25, at least
// 1e-15); it returns FunctionConvergence when the relative reduction is below FTol,
// StepConvergence when the step was small, else IterationLimit (go on).
func (l *lmSolver) accept(c, pred float64, small bool) Status {
	rel := (l.cost - c) / math.Max(l.cost, 1e-300)
	rho := (l.cost - c) / math.Max(pred, 1e-300)
	copy(l.x, l.xt)
	copy(l.r, l.rt)
	l.cost = c
	switch {
	case rho > 0.75:
		l.lambda /= 10
	case rho < 0.25:
		l.lambda *= 2
	}
	l.lambda = math.Max(l.lambda, 1e-15)
	switch {
	case rel < l.s.FTol:
		return FunctionConvergence
	case small:
		return StepConvergence
	}
	return IterationLimit
}

// stepConverged is the step test, per free parameter: every component of the step from x to
// xt satisfies |δ_j| ≤ XTol·(|x_j| + ‖r‖/D_j), D_j = sqrt(dscale_j) the largest column norm of
// the Jacobian seen (MINPACK lmder's diag, mode 1) and ‖r‖ = sqrt(cost). The first term makes
// the test relative to the parameter's own magnitude, so a time of 1e4 s and a fraction of
// 1e-3 are each converged to XTol of themselves (the old test, ‖δ‖ ≤ XTol·‖x‖ over the whole
// vector, let the fraction stop 1e-3 off). The floor ‖r‖/D_j is the change of x_j that moves
// the residuals by their own norm — at most √(m−k) standard errors of x_j at a
// least-squares minimum — so a parameter near zero, or one the data hardly determine, stops once its steps
// are XTol of its uncertainty; with no residual left (an exact fit) the test is purely
// relative. A parameter the residuals do not depend on (D_j = 0) passes.
func stepConverged(x, xt []float64, idx []int, dscale []float64, cost, xtol float64) bool {
	rn := math.Sqrt(cost)
	for _, j := range idx {
		d := math.Abs(xt[j] - x[j])
		if d == 0 {
			continue
		}
		floor := math.Inf(1)
		if dscale[j] > 0 {
			floor = rn / math.Sqrt(dscale[j])
		}
		if !(d <= xtol*(math.Abs(x[j])+floor)) {
			return false
		}
	}
	return true
}

func bounds(p Problem, n int) (lo, hi []float64) {
	lo, hi = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		lo[i], hi[i] = math.Inf(-1), math.Inf(1)
		if p.Lower != nil {
			lo[i] = p.Lower[i]
		}
		if p.Upper != nil {
			hi[i] = p.Upper[i]
		}
	}
	return lo, hi
}

func clamp(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }
