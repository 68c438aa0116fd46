package mpip

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/internal/testfile"
)

// sampleDir holds verbatim copies of the eight reports of shared/data/mpip (see its README).
const sampleDir = "testdata/samples"

func parseSample(t testing.TB, name string) *Report {
	t.Helper()
	return testfile.Parse(t, filepath.Join(sampleDir, name), name, Parse)
}

// TestSamples: all eight real reports parse; for each, the Callsite Time statistics add up to
// the MPI Time * row to the report's 3 significant digits; and the totals of the samples'
// README (computed there with an independent quick parser) are reproduced.
func TestSamples(t *testing.T) {
	for _, tc := range []struct {
		file           string
		ranks          int
		app, mpi       float64 // Σ AppTime, Σ MPITime (README table)
		coreWait       float64 // Wait + Waitall + Barrier (README table)
		msgs, avgBytes float64 // all sent ops (README table), 2 significant digits
	}{
		{"nunatak__mpi_workload.4.2586003.1.mpiP", 4, 1.80, 1.65, 0, 350, 4.8e6},
		{"hpc-mpip__driver.8.253.1.mpiP", 8, 163, 118, 92.7, 2.45e6, 2.2e4},
		{"mpiP_cm__amg2013.16.5362.1.mpiP", 16, 0.592, 0.547, 0.061, 1.0e4, 48},
		{"mpiP_cm__amg2013.32.5386.1.mpiP", 32, 2.24, 2.13, 0.362, 4.4e4, 41},
		{"mpiP_cm__amg2013.64.5412.1.mpiP", 64, 17.7, 17.1, 1.71, 1.4e5, 38},
		{"armhack2021__nwchem.32.57998.1.mpiP", 32, 1795, 1606, 4.2, 4.57e7, 111},
		{"armhack2021__clover_leaf.64.5895.1.mpiP", 64, 1171, 68.1, 37.3, 1.37e5, 2.2e4},
		{"energytail__su3_rmd.128.9161.1.mpiP", 128, 44800, 12887, 8007, 3.13e8, 1.4e4},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := parseSample(t, tc.file)
			if r.Ranks != tc.ranks {
				t.Errorf("ranks %d, want %d", r.Ranks, tc.ranks)
			}
			near := func(what string, got, want, tol float64) {
				if math.Abs(got-want) > tol*math.Abs(want)+1e-9 {
					t.Errorf("%s: %.5g, want %.5g", what, got, want)
				}
			}
			near("Σ AppTime", r.TotalApp, tc.app, 0.005)
			near("Σ MPITime", r.TotalMPI, tc.mpi, 0.005)
			// Callsite totals vs the * row: 3 significant digits on both sides.
			near("callsite Σ Count×Mean vs MPI Time *", callsiteMPITime(r), r.TotalMPI, 0.01)
			s, err := r.Summarize(Options{IncludeCollectives: true})
			if err != nil {
				t.Fatal(err)
			}
			core := 0.0
			for _, op := range []string{"Wait", "Waitall", "Barrier"} {
				w, _ := s.Wait(op)
				core += w
			}
			near("Wait+Waitall+Barrier", core, tc.coreWait, 0.02)
			near("messages (all sent ops)", s.Messages, tc.msgs, 0.05)
			near("average bytes", s.AvgSize, tc.avgBytes, 0.05)
		})
	}
}
