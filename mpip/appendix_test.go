package mpip

import (
	"fmt"
	"math"
	"testing"
)

// TestAppendix004 reproduces 004 appendix B from its "Collected Values" (App_Time, MPI_Time,
// MPI_Wait, M, L, BW, Lat): the model's application time AT, MPI time MT, wait time WT and
// throughput X, and the modelled components, for every CG row. Expected numbers are the
// appendix's printed values (3–4 significant digits); tolerance 0.6 %.
// Errata: CG B P = 16 prints X·R = 4 ≠ N (seeds README): a correct solve gives R ≈ 11.47 ms,
// X ≈ 1395 msg/s, so AT = R·M/P ≈ 160.4 s. CG B P = 64's outputs were solved with
// D_k = 6.967e-6 instead of the 6.868e-6 its collected values give (found in issue 2): AT and
// X agree within 0.6 %, MT and WT do not and are not checked.
func TestAppendix004(t *testing.T) {
	for _, tc := range []struct {
		app           string
		in            Inputs
		AT, MT, WT, X float64
		errata        string
	}{
		{"A", Inputs{P: 1, AppTime: 35.5, MPITime: 50e-6, MPIWait: 0, M: 1, L: 8, BW: 920e3, Lat: 8.29e-6}, 35.5, 66.986e-6, 16.986e-6, 28.169e-3, ""},
		{"A", Inputs{P: 4, AppTime: 49.7, MPITime: 3.05, MPIWait: 897.322e-3, M: 6.724e3, L: 27.721e3, BW: 156.978e6, Lat: 165.253e-6}, 12.793, 1.13, 591.99e-3, 525.603, ""},
		{"A", Inputs{P: 16, AppTime: 65.2, MPITime: 13.3, MPIWait: 4.47, M: 47.12e3, L: 11.87e3, BW: 105.416e6, Lat: 104.789e-6}, 4.506, 1.263, 711.218e-3, 10.458e3, ""},
		{"A", Inputs{P: 64, AppTime: 101.0, MPITime: 41.2, MPIWait: 36.813, M: 269.376e3, L: 5.539e3, BW: 74.338e6, Lat: 69.621e-6}, 1.613, 678.197e-3, 609.647e-3, 167.047e3, ""},
		{"B", Inputs{P: 1, AppTime: 2.14e3, MPITime: 64e-6, MPIWait: 0, M: 1, L: 8, BW: 920e3, Lat: 8.29e-6}, 2.14e3, 80.986e-6, 16.986e-6, 467.29e-6, ""},
		{"B", Inputs{P: 4, AppTime: 2.84e3, MPITime: 125, MPIWait: 28.185, M: 31924, L: 148.557e3, BW: 206.038e6, Lat: 685.107e-6}, 714.802, 36.05, 11.847, 44.661, ""},
		{"B", Inputs{P: 16, AppTime: 2.48e3, MPITime: 371, MPIWait: 92.25, M: 223.76e3, L: 63.587e3, BW: 189.205e6, Lat: 319.528e-6}, 11.47e-3 * 223.76e3 / 16, 0, 0, 1395, "X·R = N"},
		{"B", Inputs{P: 64, AppTime: 2.94e3, MPITime: 812, MPIWait: 249.803, M: 1.279e6, L: 29.661e3, BW: 160.884e6, Lat: 173.6e-6}, 51.15, 0, 0, 25.011e3, "D_k"},
		{"C", Inputs{P: 4, AppTime: 9.23e3, MPITime: 121, MPIWait: 7.67, M: 31.924e3, L: 297.11e3, BW: 213.469e6, Lat: 1.325e-3}, 2.328e3, 50.277, 21.945, 13.716, ""},
		{"C", Inputs{P: 16, AppTime: 8.63e3, MPITime: 787, MPIWait: 164.455, M: 223.76e3, L: 127.17e3, BW: 204.124e6, Lat: 593.033e-6}, 548.86, 58.672, 19.763, 407.681, ""},
		{"C", Inputs{P: 64, AppTime: 7.91e3, MPITime: 1.92e3, MPIWait: 595.254, M: 1.279e6, L: 59.318e3, BW: 186.148e6, Lat: 301.164e-6}, 130.497, 36.908, 16.209, 9.803e3, ""},
		{"D", Inputs{P: 64, AppTime: 336.0e3, MPITime: 30.2e3, MPIWait: 6.284e3, M: 1.7e6, L: 593.14e3, BW: 217.381e6, Lat: 2.6e-3}, 5.321e3, 542.946, 169.254, 319.503, ""},
	} {
		t.Run(fmt.Sprintf("CG%s-%d", tc.app, tc.in.P), func(t *testing.T) {
			r, err := Solve(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			near := func(what string, got, want float64) {
				if math.Abs(got-want) > 6e-3*math.Abs(want) {
					t.Errorf("%s: %.5g, 004 prints %.5g", what, got, want)
				}
			}
			near("AT", r.AppTime.Model, tc.AT)
			near("X", r.X, tc.X)
			if tc.errata != "" {
				return
			}
			near("MT", r.MPITime.Model, tc.MT)
			near("WT", r.WaitTime.Model, tc.WT)
			// The components add up to the modelled aggregate time R·M (each message cycle).
			c := r.Model
			near("components", c.SwitchDelay+c.MPIContention+c.MPIActive+c.Compute, r.R*tc.in.M)
		})
	}
}
