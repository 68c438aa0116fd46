package qn

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// Bounds are equivariant under scaling every time by s (X → X/s, R → s·R), and AllBounds
// computes them in scaled units: at demand 1e300 (whose square overflows) every bound is
// finite and equals the bound at demand 1 scaled by 1e300 to rounding (issue 12). The
// single-station network with N = 10 has X = 1/D and R = N·D exactly (closed form), which
// every bound must then bracket.
func TestBoundsScaleFree(t *testing.T) {
	for _, scale := range []float64{1e300, 1e-300, 0x1p900} {
		mk := func(d float64) *Model {
			return &Model{
				Classes:  []Class{{Name: "c", Population: 10}},
				Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "disk", Kind: Queue}},
				Demand:   [][]float64{{d, d / 2}},
			}
		}
		ref, err := AllBounds(mk(1))
		if err != nil {
			t.Fatal(err)
		}
		got, err := AllBounds(mk(scale))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Bounds) != len(ref.Bounds) || len(ref.Bounds) < 4 {
			t.Fatalf("scale %g: %d bounds, want %d (≥ 4): notes %v", scale, len(got.Bounds), len(ref.Bounds), got.Notes)
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Abs(b) }
		for i, b := range got.Bounds {
			r := ref.Bounds[i]
			if !near(b.ThroughputLower*scale, r.ThroughputLower) || !near(b.ThroughputUpper*scale, r.ThroughputUpper) ||
				!near(b.ResponseTimeLower/scale, r.ResponseTimeLower) || !near(*b.ResponseTimeUpper/scale, *r.ResponseTimeUpper) {
				t.Errorf("scale %g: %s bound %+v is not the unit bound %+v scaled", scale, b.Name, b, r)
			}
		}
	}
}

// A sweep whose estimated work (population vectors × stations, summed over its points)
// exceeds MaxSweepWork is refused before any point is solved (issue 12: population=1:100000
// on two stations is Σ (N+1)·2 ≈ 1e10), with fault.ErrTooLarge; a modest one runs.
func TestSweepWorkBudget(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 1}},
		Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "disk", Kind: Queue}},
		Demand:   [][]float64{{0.1, 0.05}},
	}
	p := SweepParam{What: "population", Class: 0, Label: "population"}
	big := make([]float64, 100000)
	for i := range big {
		big[i] = float64(i + 1)
	}
	if _, err := Sweep(context.Background(), m, p, big, "auto", AMVAOptions{}, nil); !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("population 1:100000: %v, want fault.ErrTooLarge", err)
	}
	if pts, err := Sweep(context.Background(), m, p, big[:100], "auto", AMVAOptions{}, nil); err != nil || len(pts) != 100 {
		t.Fatalf("population 1:100: %d points, %v", len(pts), err)
	}
}
