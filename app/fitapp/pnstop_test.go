package fitapp

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestPNStopsScaling: p,n,time data say where the time stops scaling along p at the largest
// n measured at the largest p, by the rule Extra-P experiments and CUBE sets use
// (extrap.StopsScaling). Data T = 10 + 0.0015·n/p (p = 1 … 64, n = 10⁴ … 4·10⁴, exact): at
// n = 4·10⁴, T = 10 + 60/p, whose doubling gain first exceeds 0.9 at p = 32 (0.864 at 16,
// 0.921 at 32) — extrap's TestFirstToStopPN law.
func TestPNStopsScaling(t *testing.T) {
	var b strings.Builder
	b.WriteString("p,n,time\n")
	for _, p := range []float64{1, 2, 4, 8, 16, 32, 64} {
		for _, n := range []float64{1e4, 2e4, 4e4} {
			fmt.Fprintf(&b, "%g,%g,%.12g\n", p, n, 10+0.0015*n/p)
		}
	}
	r, err := RunPN(context.Background(), PNRequest{Path: "pn.csv", Input: []byte(b.String())})
	if err != nil {
		t.Fatal(err)
	}
	if r.Trend != "falls" || r.StopsScalingAt != 32 || r.TrendAtN != 4e4 || !strings.Contains(r.Notes[0], "at n = 40000 (the largest n measured at the largest p) the modelled time stops scaling at p = 32") {
		t.Errorf("trend %q, stops at %d at n = %g, notes %q; want falls, 32, 40000", r.Trend, r.StopsScalingAt, r.TrendAtN, r.Notes)
	}
}
