package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/spmd"
)

// eq16Grid is the grid over which the error of 000 eq. 16's fork/join approximation is
// measured against the direct simulation under the model's own assumptions (exponential
// CPU bursts, a geometric number of bursts per I/O burst, 000 §3.4): two programs (a
// compute-bound one, σ_p = 0.8, and an I/O-heavier one, σ_p = 0.5 with more communication),
// c ∈ {1, 4}, p ∈ {4, 8, 16, 32, 64}, d ∈ {1, 4, 16}. spmd.ForkJoinErrorEstimate states
// the result; TestEq16Error checks it.
var eq16Grid = struct {
	models []string
	cs     []int
	ps, ds []int
}{
	models: []string{
		"architecture: clu-sio\nw: 0.3\nr: 2\nseconds: {s_par: 0.8, s_ser: 0, n_io: 5, s0_com: 0.001, sr_com: 0.02, s0_io: 0.001, sr_io: 0.2}\n",
		"architecture: clu-sio\nw: 0.6\nr: 2\nseconds: {s_par: 0.5, s_ser: 0.01, n_io: 2, s0_com: 0.002, sr_com: 0.1, s0_io: 0.01, sr_io: 0.5}\n",
	},
	cs: []int{1, 4},
	ps: []int{4, 8, 16, 32, 64},
	ds: []int{1, 4, 16},
}

// TestEq16Error measures (eq. 16 − simulated)/simulated per cycle over eq16Grid and checks
// that every point lies within spmd.ForkJoinErrorEstimate's range, widened by the
// simulation's own 95 % half-width. With -short only the corners of the grid run.
func TestEq16Error(t *testing.T) {
	est := spmd.ForkJoinErrorEstimate
	lo, hi := math.Inf(1), math.Inf(-1)
	for mi, src := range eq16Grid.models {
		for _, c := range eq16Grid.cs {
			m, err := spmd.ParseModel("eq16.yaml", []byte(src+fmt.Sprintf("c: %d\n", c)))
			if err != nil {
				t.Fatal(err)
			}
			e, err := spmd.NewEvaluator(m)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range eq16Grid.ps {
				for _, d := range eq16Grid.ds {
					corner := (p == eq16Grid.ps[0] || p == eq16Grid.ps[len(eq16Grid.ps)-1]) && (d == eq16Grid.ds[0] || d == eq16Grid.ds[len(eq16Grid.ds)-1])
					if testing.Short() && !corner || m.CheckConfig(p, d) != nil {
						continue
					}
					pt, err := e.Evaluate(p, d)
					if err != nil {
						t.Fatal(err)
					}
					an := pt.Time / max(1, m.Phases[0].Cycles) // per cycle, as validate.SPMD compares
					sim, err := ReplicateSPMD(m, p, d, SPMDConfig{GeometricBursts: true, Cycles: 2000}, 7, 8)
					if err != nil {
						t.Fatal(err)
					}
					rel := (an - sim.Mean) / sim.Mean
					half := sim.Half / sim.Mean
					lo, hi = math.Min(lo, rel), math.Max(hi, rel)
					t.Logf("model %d c=%d p=%2d d=%2d: eq.16 %.5g, simulated %.5g ± %.2g, error %+.2f %%", mi, c, p, d, an, sim.Mean, sim.Half, 100*rel)
					if rel < est.MinRelError-half || rel > est.MaxRelError+half {
						t.Errorf("model %d c=%d p=%d d=%d: error %+.3f outside the stated %+.3f … %+.3f (± %.3f)", mi, c, p, d, rel, est.MinRelError, est.MaxRelError, half)
					}
				}
			}
		}
	}
	t.Logf("eq. 16 error over the grid: %+.2f %% … %+.2f %%", 100*lo, 100*hi)
}
