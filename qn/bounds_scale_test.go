package qn

import (
	"math"
	"testing"
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
