package sim

import (
	"math"
	"testing"
)

// checkAgrees fails t unless the simulated estimate e agrees with the analytic value: inside its
// 95 % interval, or within the relative tolerance rel (a 95 % interval misses one time in
// twenty, so a deterministic test allows a small absolute-relative margin as well).
func checkAgrees(t *testing.T, what string, e Estimate, exact, rel float64) {
	t.Helper()
	if !e.Contains(exact) && math.Abs(e.Mean-exact) > rel*math.Abs(exact) {
		t.Errorf("%s: simulated %.5g ± %.3g, analytic %.5g (outside the interval and %.2g %%)", what, e.Mean, e.Half, exact, 100*rel)
		return
	}
	t.Logf("%s: simulated %.5g ± %.3g, analytic %.5g", what, e.Mean, e.Half, exact)
}
