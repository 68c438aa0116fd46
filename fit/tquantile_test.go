package fit

import (
	"math"
	"testing"
)

// TestTQuantile: fit.TQuantile is the project's Student-t quantile (internal/stats): table
// values, and NaN — never a panic or an infinite factor — outside its domain.
func TestTQuantile(t *testing.T) {
	for _, c := range []struct {
		q    float64
		dof  int
		want float64 // NaN: refused
		src  string
	}{
		{0.975, 1, 12.706204736174707, "t table, ν = 1: tan(π(0.975 − 1/2)) (Cauchy)"},
		{0.975, 10, 2.2281388519649385, "t table (NIST/SEMATECH e-Handbook 1.3.6.7.2), ν = 10: 2.228"},
		{0.5, 7, 0, "symmetry: the median is 0"},
		{0.975, 0, math.NaN(), "no degrees of freedom"},
		{0, 5, math.NaN(), "q = 0: outside (0, 1) (the quantile would be −Inf)"},
		{1, 5, math.NaN(), "q = 1: outside (0, 1) (+Inf)"},
		{1.5, 5, math.NaN(), "q > 1: not a probability"},
		{math.NaN(), 5, math.NaN(), "q NaN"},
	} {
		got := TQuantile(c.q, c.dof)
		if math.IsNaN(c.want) {
			if !math.IsNaN(got) {
				t.Errorf("TQuantile(%v, %d) = %v, want NaN (%s)", c.q, c.dof, got, c.src)
			}
			continue
		}
		if math.Abs(got-c.want) > 1e-9*math.Max(1, math.Abs(c.want)) {
			t.Errorf("TQuantile(%v, %d) = %v, want %v (%s)", c.q, c.dof, got, c.want, c.src)
		}
	}
}
