package spmd

import (
	"math"
	"strings"
	"testing"
)

// Closed-form limits (closedLimitP) against the model evaluated at a large p: the closed form
// is the limit, so s(p) approaches it (within tol at p = big). Formulas: 001 §5.2.1 eq. 5.9
// (τ_IO = σ_n + σ_d/d), §5.3.1 and §5.5.1 (max of the total queue demands), §5.1.
func TestClosedLimitsAgainstLargeP(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *Model
		d    int
		want float64 // the closed form, written out
		big  int
		tol  float64
	}{
		{"BUS-SIO w=0 r=∞ σ_r0=0", sigmaModel(BusSIO, 0.8, 0, 0.01, 0.01, 0, 1, -1), 4, 1 / (0.01 + 0.2/4), 1 << 20, 0.01},
		{"BUS-SIO w=0 r=3", sigmaModel(BusSIO, 0.8, 0, 0.05, 0, 0, 1, GFromR(3)), 2, 1 / (0.2 / 2), 1 << 20, 0.05},
		{"BUS-AIO w=0 σ_n=0", sigmaModel(BusAIO, 0.8, 0.001, 0.01, 0, 0, 1, 0), 4, 4 / 0.2, 1 << 20, 0.01},
		{"BUS-AIO w=0.5 g=−1 (network bound)", sigmaModel(BusAIO, 0.8, 0, 0.6, 0, 0.5, 1, -1), 4, 1 / math.Max(0.2/4, 0.5*0.6), 1 << 20, 0.01},
		{"BUS-AIO w=0.5 g=−1 c=2", sigmaModel(BusAIO, 0.8, 0, 0.6, 0, 0.5, 2, -1), 1, 1 / math.Max(0.2, 0.5*0.6/2), 1 << 20, 0.01},
		{"BUS-AIO w=0, delay bound (σ_r0 = 0.3 > σ_d/d)", sigmaModel(BusAIO, 0.8, 0.3, 0, 0, 0, 1, 0), 4, 1 / 0.3, 1 << 20, 0.01},
		{"CLU-AIO w=0", sigmaModel(CluAIO, 0.8, 0, 0, 0, 0, 1, 0), 2, 2 / 0.2, 1 << 11, 0.02},
		{"optimistic SIO", sigmaModel(OptimisticSIO, 0.8, 0, 0, 0.01, 0, 1, 0), 4, 1 / (0.01 + 0.2/4), 1 << 20, 0.01},
	} {
		e, err := NewEvaluator(c.m)
		if err != nil {
			t.Fatal(err)
		}
		l, err := e.LimitP(c.d, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !l.ClosedForm || math.Abs(l.Speedup-c.want) > 1e-12*c.want {
			t.Errorf("%s: %+v, want closed form %g", c.name, l, c.want)
		}
		if strings.Contains(l.Note, "s → 0") {
			t.Errorf("%s: note %q states s → 0 beside a finite limit", c.name, l.Note)
		}
		pt, err := e.Evaluate(c.big, c.d)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pt.Speedup-c.want) > c.tol*c.want {
			t.Errorf("%s: s(%d, %d) = %g, far from the limit %g", c.name, c.big, c.d, pt.Speedup, c.want)
		}
	}
}

// Vanishing limits: each case's speedup falls at large p (s(2^20) < s(2^10)) and the closed
// form says 0.
func TestClosedLimitsZero(t *testing.T) {
	for _, c := range []struct {
		name string
		m    *Model
	}{
		{"BUS-SIO σ_r0 > 0", sigmaModel(BusSIO, 0.8, 0.001, 0.01, 0.01, 0, 1, -1)},
		{"BUS-SIO r = 1", sigmaModel(BusSIO, 0.8, 0, 0.01, 0.01, 0, 1, 0)},
		{"BUS-AIO σ_n > 0", sigmaModel(BusAIO, 0.8, 0.001, 0.01, 0.01, 0.2, 1, 0)},
		{"BUS-AIO w > 0, g > −1", sigmaModel(BusAIO, 0.8, 0, 0.01, 0, 0.2, 1, -0.5)},
	} {
		e, _ := NewEvaluator(c.m)
		l, err := e.LimitP(1, 0)
		if err != nil || !l.ClosedForm || l.Speedup != 0 {
			t.Errorf("%s: %+v %v", c.name, l, err)
		}
		a, _ := e.Evaluate(1<<10, 1)
		b, _ := e.Evaluate(1<<20, 1)
		if !(b.Speedup < a.Speedup) {
			t.Errorf("%s: s(2^10) = %g, s(2^20) = %g: not falling", c.name, a.Speedup, b.Speedup)
		}
	}
	// optimistic AIO without a serial part grows without bound
	e, _ := NewEvaluator(sigmaModel(OptimisticAIO, 0.8, 0, 0, 0, 0, 1, 0))
	if l, _ := e.LimitP(1, 0); !l.Unbounded || !math.IsNaN(l.Speedup) {
		t.Errorf("optimistic AIO: %+v", l)
	}
}
