package scaling_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/scaling"
)

// Fit measured run times T(p) and predict an unmeasured process count. The times here follow
// Amdahl's law exactly, T(p) = 10 + 90/p s (serial fraction 10/(10+90) = 0.1), so Amdahl is
// chosen and T(64) = 10 + 90/64 = 11.40625 s (Amdahl and USL, which reduces to Amdahl here,
// agree with it, so the equal-weight combination is that value too).
func ExampleFit() {
	csv := `# scaling: strong
p,time
1,100
2,55
4,32.5
8,21.25
16,15.625
32,12.8125
`
	d, err := scaling.ReadCSV("runs.csv", strings.NewReader(csv))
	if err != nil {
		panic(err)
	}
	r, err := scaling.Fit(context.Background(), d)
	if err != nil {
		panic(err)
	}
	fmt.Printf("chosen: %s, T(p) = %s, serial fraction %.3f\n", r.Chosen.Name, r.Chosen.Formula, *r.Chosen.SerialFraction)
	pr, err := r.Predict(64)
	if err != nil {
		panic(err)
	}
	fmt.Printf("T(64) = %.3f s (%.0f× the largest measured p)\n", pr.TimeS, pr.Extrapolation)
	// Output:
	// chosen: amdahl, T(p) = c0 + c1·p^(-1), serial fraction 0.100
	// T(64) = 11.406 s (2× the largest measured p)
}
