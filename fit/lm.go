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
	x := make([]float64, n)
	for i := range x {
		x[i] = clamp(x0[i], lo[i], hi[i])
	}
	res := &Result{}
	r := make([]float64, p.M)
	eval := func(x, r []float64) float64 {
		res.Evals++
		if err := p.Residuals(x, r); err != nil {
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
	cost := eval(x, r)
	if math.IsInf(cost, 1) {
		return nil, fmt.Errorf("fit: the model cannot be evaluated at the starting point %v", x)
	}
	J := mat.NewDense(p.M, n, nil)
	rt := make([]float64, p.M)
	xt := make([]float64, n)
	jac := func() {
		for j := 0; j < n; j++ {
			h := 1e-7 * math.Max(math.Abs(x[j]), 1e-3)
			if x[j]+h > hi[j] {
				h = -h
			}
			copy(xt, x)
			xt[j] += h
			c := eval(xt, rt)
			for i := 0; i < p.M; i++ {
				d := (rt[i] - r[i]) / h
				if math.IsInf(c, 1) {
					d = 0
				}
				J.Set(i, j, d)
			}
		}
	}
	lambda := s.Lambda0
	status := IterationLimit
	jac()
	g := make([]float64, n)
	free := make([]bool, n)
	dscale := make([]float64, n) // MINPACK-style scaling: the largest diag(JᵀJ) seen so far
	for it := 1; it <= s.MaxIter; it++ {
		res.Iterations = it
		// gradient Jᵀr and the free set
		for j := 0; j < n; j++ {
			g[j] = 0
			for i := 0; i < p.M; i++ {
				g[j] += J.At(i, j) * r[i]
			}
		}
		maxg := 0.0
		var idx []int
		for j := 0; j < n; j++ {
			atLo, atHi := x[j] <= lo[j], x[j] >= hi[j]
			free[j] = !((atLo && g[j] > 0) || (atHi && g[j] < 0))
			if free[j] {
				idx = append(idx, j)
				maxg = math.Max(maxg, math.Abs(g[j])*math.Max(math.Abs(x[j]), 1))
			}
		}
		if len(idx) == 0 || maxg <= s.GTol || cost == 0 {
			status = GradientConvergence
			break
		}
		k := len(idx)
		A := mat.NewSymDense(k, nil)
		b := mat.NewVecDense(k, nil)
		for a, ja := range idx {
			for c := a; c < k; c++ {
				jc := idx[c]
				v := 0.0
				for i := 0; i < p.M; i++ {
					v += J.At(i, ja) * J.At(i, jc)
				}
				A.SetSym(a, c, v)
			}
			b.SetVec(a, -g[ja])
			dscale[ja] = math.Max(dscale[ja], A.At(a, a))
		}
		// Solve in the variables scaled by D^½ (MINPACK's diag): (Â + λI)y = D^-½b with
		// Â = D^-½AD^-½, δ = D^-½y. The same step as (A + λD)δ = b, but Â has a unit-order
		// diagonal whatever the parameters' magnitudes: a time of 1e4 s next to a fraction of
		// 1e-3 makes diag(A) span 20 decades, which the unscaled Cholesky refuses as
		// ill-conditioned at every λ.
		sc := make([]float64, k)
		for a, ja := range idx {
			sc[a] = 1 / math.Sqrt(math.Max(dscale[ja], 1e-12))
		}
		As := mat.NewSymDense(k, nil)
		bs := mat.NewVecDense(k, nil)
		for a := 0; a < k; a++ {
			for c := a; c < k; c++ {
				As.SetSym(a, c, A.At(a, c)*sc[a]*sc[c])
			}
			bs.SetVec(a, b.AtVec(a)*sc[a])
		}
		improved := false
		for tries := 0; tries < 30; tries++ {
			Ad := mat.NewSymDense(k, nil)
			Ad.CopySym(As)
			for a := 0; a < k; a++ {
				Ad.SetSym(a, a, As.At(a, a)+lambda)
			}
			var y mat.VecDense
			var chol mat.Cholesky
			if !chol.Factorize(Ad) {
				lambda *= 10
				continue
			}
			if err := chol.SolveVecTo(&y, bs); err != nil {
				lambda *= 10
				continue
			}
			copy(xt, x)
			for a, j := range idx {
				xt[j] = clamp(x[j]+y.AtVec(a)*sc[a], lo[j], hi[j])
			}
			small := stepConverged(x, xt, idx, dscale, cost, s.XTol)
			c := eval(xt, rt)
			// gain ratio: actual reduction over the Gauss–Newton model's, which for
			// (A + λD)δ = −g is δᵀAδ + 2λδᵀDδ (for the cost Σr², projected step)
			pred := 0.0
			for a, ja := range idx {
				da := xt[ja] - x[ja]
				for c2, jc := range idx {
					pred += da * A.At(a, c2) * (xt[jc] - x[jc])
				}
				pred += 2 * lambda * math.Max(dscale[ja], 1e-12) * da * da
			}
			if c < cost {
				rel := (cost - c) / math.Max(cost, 1e-300)
				rho := (cost - c) / math.Max(pred, 1e-300)
				copy(x, xt)
				copy(r, rt)
				cost = c
				// Nielsen (1999): shrink λ by up to a factor 3 when the model was good
				switch {
				case rho > 0.75:
					lambda /= 10
				case rho < 0.25:
					lambda *= 2
				}
				lambda = math.Max(lambda, 1e-15)

				improved = true
				if rel < s.FTol {
					status = FunctionConvergence
				} else if small {
					status = StepConvergence
				}
				break
			}
			lambda *= 10
			if small {
				status = StepConvergence
				break
			}
		}
		if status != IterationLimit {
			break
		}
		if !improved {
			status = StepConvergence
			break
		}
		jac()
	}
	jac()
	res.X, res.Cost, res.Residuals, res.Jacobian, res.Status = x, cost, r, J, status
	res.AtBound = make([]bool, n)
	for j := range x {
		res.AtBound[j] = x[j] <= lo[j] || x[j] >= hi[j]
	}
	return res, nil
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
