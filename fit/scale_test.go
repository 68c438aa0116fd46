package fit

import (
	"math"
	"testing"
)

// TestBaselinesScaleInvariant: Amdahl's and USL's relative least squares are invariant under
// T → a·T (T1 scales by a; f, σ, κ stay), so the baselines fitted to the same times in
// seconds × 1e-9, × 1 and × 1e9 (inside ReadData's range 1e-12 … 1e12 s) must agree to
// rounding (review item: fits must not depend on the time unit; before the rescaling the
// baselines of times × 1e9 came back at their start values f = σ = 0.05, κ = 1e-4). Data: Amdahl with T1 = 100 s, f = 0.1 (closed form T = T1(f + (1−f)/p)),
// and a retrograde surface (USL with σ = 0.03, κ = 2e-4, T1 = 100 s), as more_test.go's.
func TestBaselinesScaleInvariant(t *testing.T) {
	sets := map[string]func(p float64) float64{
		"amdahl": func(p float64) float64 { return 100 * (0.1 + 0.9/p) },
		"usl":    func(p float64) float64 { return 100 * (1 + 0.03*(p-1) + 2e-4*p*(p-1)) / p },
	}
	for name, T := range sets {
		var base []*BaselineResult
		for _, a := range []float64{1, 1e-9, 1e9} {
			d := &Data{Target: "time"}
			for p := 1; p <= 64; p *= 2 {
				d.Obs = append(d.Obs, Observation{P: p, D: 1, Value: a * T(float64(p))})
			}
			bs, err := Baselines(d)
			if err != nil {
				t.Errorf("%s × %g: %v", name, a, err)
				continue
			}
			if a == 1 {
				base = bs
				continue
			}
			for i, b := range bs {
				for j, p := range b.Parameters {
					want := base[i].Parameters[j].Value
					if j == 0 { // T1, in seconds
						want *= a
					}
					if !(math.Abs(p.Value-want) <= 1e-6*math.Abs(want)+1e-12) {
						t.Errorf("%s × %g: %s %s = %v, want %v", name, a, b.Name, p.Name, p.Value, want)
					}
				}
			}
		}
	}
}
