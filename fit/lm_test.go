package fit

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/optimize/functions"
)

// mgh is a Moré–Garbow–Hillstrom test problem in residual form, paired with gonum's
// optimize/functions implementation of its sum of squares.
type mgh struct {
	name  string
	f     interface{ Func([]float64) float64 }
	m     int
	r     func(x, r []float64)
	x0    []float64
	fmin  float64 // gonum's listed minimum F (functions.*.Minima)
	lower []float64
	upper []float64
}

func mghProblems() []mgh {
	sq10, sq90, sq5 := math.Sqrt(10), math.Sqrt(90), math.Sqrt(5)
	gy := []float64{0.0009, 0.0044, 0.0175, 0.0540, 0.1295, 0.2420, 0.3521, 0.3989, 0.3521, 0.2420, 0.1295, 0.0540, 0.0175, 0.0044, 0.0009}
	return []mgh{
		{name: "Beale", f: functions.Beale{}, m: 3, x0: []float64{1, 1}, fmin: 0, r: func(x, r []float64) {
			for i, y := range []float64{1.5, 2.25, 2.625} {
				r[i] = y - x[0]*(1-math.Pow(x[1], float64(i+1)))
			}
		}},
		{name: "ExtendedRosenbrock", f: functions.ExtendedRosenbrock{}, m: 2, x0: []float64{-1.2, 1}, fmin: 0, r: func(x, r []float64) {
			r[0], r[1] = 10*(x[1]-x[0]*x[0]), 1-x[0]
		}},
		{name: "Box3D", f: functions.Box3D{}, m: 10, x0: []float64{0, 10, 20}, fmin: 0, r: func(x, r []float64) {
			for i := 1; i <= 10; i++ {
				c := -float64(i) / 10
				r[i-1] = math.Exp(c*x[0]) - math.Exp(c*x[1]) - x[2]*(math.Exp(c)-math.Exp(10*c))
			}
		}},
		{name: "BrownBadlyScaled", f: functions.BrownBadlyScaled{}, m: 3, x0: []float64{1, 1}, fmin: 0, r: func(x, r []float64) {
			r[0], r[1], r[2] = x[0]-1e6, x[1]-2e-6, x[0]*x[1]-2
		}},
		{name: "BrownAndDennis", f: functions.BrownAndDennis{}, m: 20, x0: []float64{25, 5, -5, -1}, fmin: 85822.20162635634, r: func(x, r []float64) {
			for i := 1; i <= 20; i++ {
				c := float64(i) / 5
				f1 := x[0] + c*x[1] - math.Exp(c)
				f2 := x[2] + x[3]*math.Sin(c) - math.Cos(c)
				r[i-1] = f1*f1 + f2*f2
			}
		}},
		{name: "HelicalValley", f: functions.HelicalValley{}, m: 3, x0: []float64{-1, 0, 0}, fmin: 0, r: func(x, r []float64) {
			theta := 0.5 * math.Atan(x[1]/x[0]) / math.Pi
			if x[0] < 0 {
				theta += 0.5
			}
			r[0], r[1], r[2] = 10*(x[2]-10*theta), 10*(math.Hypot(x[0], x[1])-1), x[2]
		}},
		{name: "PowellBadlyScaled", f: functions.PowellBadlyScaled{}, m: 2, x0: []float64{0, 1}, fmin: 0, r: func(x, r []float64) {
			r[0], r[1] = 1e4*x[0]*x[1]-1, math.Exp(-x[0])+math.Exp(-x[1])-1.0001
		}},
		{name: "Wood", f: functions.Wood{}, m: 6, x0: []float64{-3, -1, -3, -1}, fmin: 0, r: func(x, r []float64) {
			r[0], r[1] = 10*(x[1]-x[0]*x[0]), 1-x[0]
			r[2], r[3] = sq90*(x[3]-x[2]*x[2]), 1-x[2]
			r[4], r[5] = sq10*(x[1]+x[3]-2), (x[1]-x[3])/sq10
		}},
		{name: "ExtendedPowellSingular", f: functions.ExtendedPowellSingular{}, m: 4, x0: []float64{3, -1, 0, 1}, fmin: 0, r: func(x, r []float64) {
			r[0], r[1] = x[0]+10*x[1], sq5*(x[2]-x[3])
			r[2], r[3] = (x[1]-2*x[2])*(x[1]-2*x[2]), sq10*(x[0]-x[3])*(x[0]-x[3])
		}},
		{name: "Gaussian", f: functions.Gaussian{}, m: 15, x0: []float64{0.4, 1, 0}, fmin: 1.12793276961912e-08, r: func(x, r []float64) {
			for i := 1; i <= 15; i++ {
				b := 0.5*float64(8-i) - x[2]
				r[i-1] = x[0]*math.Exp(-0.5*x[1]*b*b) - gy[i-1]
			}
		}},
		// Bounded: Rosenbrock with x₀ ≤ 0.5 — the minimum moves to the bound: x = (0.5, 0.25), F = 0.25.
		{name: "Rosenbrock bounded", f: functions.ExtendedRosenbrock{}, m: 2, x0: []float64{-1.2, 1}, fmin: 0.25, upper: []float64{0.5, 10}, r: func(x, r []float64) {
			r[0], r[1] = 10*(x[1]-x[0]*x[0]), 1-x[0]
		}},
	}
}

// TestResidualsMatchGonum: our residual forms square-sum to gonum's functions (so the
// problems are the standard ones).
func TestResidualsMatchGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, p := range mghProblems() {
		r := make([]float64, p.m)
		for trial := 0; trial < 20; trial++ {
			x := make([]float64, len(p.x0))
			for i := range x {
				x[i] = p.x0[i] + rng.NormFloat64()
			}
			if x[0] == 0 {
				x[0] = 0.1
			}
			p.r(x, r)
			s := 0.0
			for _, v := range r {
				s += v * v
			}
			want := p.f.Func(x)
			if math.Abs(s-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("%s at %v: Σr² = %g, gonum %g", p.name, x, s, want)
			}
		}
	}
}

// TestLMStandardProblems: from the standard starting points LM reaches gonum's listed minima.
func TestLMStandardProblems(t *testing.T) {
	for _, p := range mghProblems() {
		pr := Problem{M: p.m, Lower: p.lower, Upper: p.upper, Residuals: func(x, r []float64) error { p.r(x, r); return nil }}
		res, err := LevenbergMarquardt(pr, p.x0, Settings{MaxIter: 2000})
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		tol := 1e-8 * math.Max(1, p.fmin)
		if math.Abs(res.Cost-p.fmin) > tol+1e-6*p.fmin {
			t.Errorf("%s: F = %.10g after %d iterations (%s), want %.10g", p.name, res.Cost, res.Iterations, res.Status, p.fmin)
		}
		if !res.Status.Converged() {
			t.Errorf("%s: status %s", p.name, res.Status)
		}
	}
}
