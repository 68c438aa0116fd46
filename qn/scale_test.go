package qn

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// MVA is equivariant under scaling all times by s: X → X/s, R → s·R, Q and U unchanged
// (every MVA equation is homogeneous in the times). Solve works in scaled units, so a
// scale by a power of two gives bit-identical Q and U, and X, R scaled exactly; any other
// factor agrees to rounding. Issue 12: demand 1e300 / 1e-300 with N = 10 at one queue gives
// U = 1, Q = 10 (closed form: all ten jobs at the only station).
func TestScaleEquivariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 5))
	for i := 0; i < 20; i++ {
		m := randomLDModel(rng)
		base, err := Solve(context.Background(), m, "auto", AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []float64{0x1p-900, 0x1p+900, 1e-250, 3e280, 7} {
			ms := m.Clone()
			for c := range ms.Classes {
				ms.Classes[c].ThinkTime *= s
				for k := range ms.Demand[c] {
					ms.Demand[c][k] *= s
				}
			}
			r, err := Solve(context.Background(), ms, "auto", AMVAOptions{})
			if err != nil {
				t.Fatalf("case %d, scale %g: %v", i, s, err)
			}
			tol := 1e-13
			if s == 0x1p-900 || s == 0x1p+900 {
				tol = 0 // exact
			}
			for c := range m.Classes {
				if !closeTo(r.Throughput[c]*s, base.Throughput[c], tol) || !closeTo(r.ResponseTime[c]/s, base.ResponseTime[c], tol) {
					t.Errorf("case %d, scale %g, class %d: X·s %g vs %g, R/s %g vs %g", i, s, c, r.Throughput[c]*s, base.Throughput[c], r.ResponseTime[c]/s, base.ResponseTime[c])
				}
				for k := range m.Stations {
					if !closeTo(r.QueueLength[k][c], base.QueueLength[k][c], tol) || !closeTo(r.Utilization[k][c], base.Utilization[k][c], tol) {
						t.Errorf("case %d, scale %g: Q/U at %d,%d differ", i, s, k, c)
					}
				}
			}
		}
	}
}

func TestExtremeDemands(t *testing.T) {
	for _, d := range []float64{1e300, 1e-300, 1e-306} {
		m := &Model{Classes: []Class{{Name: "c", Population: 10}}, Stations: []Station{{Name: "q", Kind: Queue}}, Demand: [][]float64{{d}}}
		r, err := Solve(context.Background(), m, "auto", AMVAOptions{})
		if err != nil {
			t.Fatalf("D = %g: %v", d, err)
		}
		if !closeTo(r.Utilization[0][0], 1, 1e-15) || !closeTo(r.QueueLength[0][0], 10, 1e-15) || !closeTo(r.ResponseTime[0], 10*d, 1e-15) {
			t.Errorf("D = %g: U %g Q %g R %g; want 1, 10, %g", d, r.Utilization[0][0], r.QueueLength[0][0], r.ResponseTime[0], 10*d)
		}
	}
	// R = 10·1e308 and X = 1/1e-320 do not fit a float64: refused, never printed as Inf or 0.
	for _, d := range []float64{1e308, 1e-320} {
		m := &Model{Classes: []Class{{Name: "c", Population: 10}}, Stations: []Station{{Name: "q", Kind: Queue}}, Demand: [][]float64{{d}}}
		if _, err := Solve(context.Background(), m, "auto", AMVAOptions{}); !errors.Is(err, fault.ErrInput) {
			t.Errorf("D = %g: err = %v, want a refusal wrapping fault.ErrInput", d, err)
		}
	}
}
