package mpip

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

func summarize(t *testing.T, name string) (*Report, Summary) {
	t.Helper()
	r := parseSample(t, name)
	s, err := r.Summarize(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, s
}

// TestProfileWithoutNetwork: the profile of a report needs no latency or bandwidth. Expected
// values: smallReport's own numbers (Σ MPI 1.0 s; Wait 100 × 5 ms = 0.5 s; Allreduce
// 20 × 20 ms = 0.4 s; per-rank MPI 0.4 and 0.6 s, mean 0.5, so max/mean − 1 = 0.2; compute
// 0.6 and 0.4 s, imbalance 0.2; sizes 4096 B (Send) and 8 B (Allreduce): log10(512) = 2.709),
// and for AMG at P = 64 the samples README (Σ MPI 17.1 s of Σ App 17.7 s).
func TestProfileWithoutNetwork(t *testing.T) {
	r, err := Parse("small.2.1.1.mpiP", strings.NewReader(smallReport))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := r.Summarize(Options{})
	p := Profile(r, s, 2)
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9+1e-3*math.Abs(want) {
			t.Errorf("%s = %.6g, want %.6g", what, got, want)
		}
	}
	near("wait share", p.WaitShareOfMPI, 0.5)
	near("collective share", p.CollectiveShareOfMPI, 0.4)
	near("MPI imbalance", p.Imbalance.MPIImbalance, 0.2)
	near("compute imbalance", p.Imbalance.ComputeImbalance, 0.2)
	near("size spread", p.SizeSpreadDecades, math.Log10(4096.0/8))
	near("mean AT*", p.MeanAppTimeS, 1.0)
	if len(p.Top) != 2 || p.Top[0].Operation != "Wait" || p.Top[1].Operation != "Allreduce" || p.Executable != "ring" {
		t.Errorf("top %+v executable %q", p.Top, p.Executable)
	}

	amg, as := summarize(t, "mpiP_cm__amg2013.64.5412.1.mpiP")
	pa := Profile(amg, as, 5)
	near("AMG 64 MPI share", pa.MPIShare, 17.1/17.7)
	if !pa.Imbalance.Available || pa.Ranks != 64 || len(pa.Top) != 5 {
		t.Errorf("AMG profile %+v", pa)
	}
	if _, err := json.Marshal(pa); err != nil {
		t.Error(err)
	}
}

// TestMixedPrograms: hpc-mpip's driver and NWChem together are refused, naming both commands;
// --allow-mixed accepts them with a note; the three AMG runs (same executable, process grid
// arguments following P) pass with a note on the differing arguments.
func TestMixedPrograms(t *testing.T) {
	drv := parseSample(t, "hpc-mpip__driver.8.253.1.mpiP")
	nw := parseSample(t, "armhack2021__nwchem.32.57998.1.mpiP")
	_, err := CheckSameProgram([]*Report{drv, nw}, false)
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `"./driver"`) || !strings.Contains(err.Error(), "nwchem nwchem.nw") || !strings.Contains(err.Error(), "--allow-mixed") {
		t.Errorf("mixed reports: %v", err)
	}
	pc, err := CheckSameProgram([]*Report{drv, nw}, true)
	if err != nil || !pc.Mixed || len(pc.Notes) != 1 {
		t.Errorf("allow mixed: %+v %v", pc, err)
	}
	var amg []*Report
	for _, f := range amgFiles {
		amg = append(amg, parseSample(t, f))
	}
	pc, err = CheckSameProgram(amg, false)
	if err != nil || pc.Mixed || len(pc.Executables) != 1 || pc.Executables[0] != "amg2013" || len(pc.Notes) != 2 {
		t.Errorf("AMG: %+v %v", pc, err)
	}
}

var amgFiles = []string{"mpiP_cm__amg2013.16.5362.1.mpiP", "mpiP_cm__amg2013.32.5386.1.mpiP", "mpiP_cm__amg2013.64.5412.1.mpiP"}

// TestWaitOpsUnknown (issue 12): a wait operation no report has is refused, naming it and
// the operations the reports contain; a case slip gets a suggestion; known names pass.
func TestWaitOpsUnknown(t *testing.T) {
	drv := parseSample(t, "hpc-mpip__driver.8.253.1.mpiP")
	err := CheckWaitOps([]*Report{drv}, []string{"Wait", "Waitt"})
	if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "Waitt") || !strings.Contains(err.Error(), "Allreduce, Barrier, Irecv, Isend, Reduce, Wait") {
		t.Errorf("Waitt: %v", err)
	}
	err = CheckWaitOps([]*Report{drv}, []string{"MPI_WAIT"})
	if err == nil || !strings.Contains(err.Error(), "MPI_WAIT → Wait") {
		t.Errorf("MPI_WAIT: %v", err)
	}
	if err := CheckWaitOps([]*Report{drv}, []string{"Wait", "Barrier"}); err != nil {
		t.Error(err)
	}
}

// TestPredictBudget (issue 12): --predict 1e8 and --samples 1e8 are refused before any work,
// as too large, with the estimate; negative samples are bad input.
func TestPredictBudget(t *testing.T) {
	runs := []Inputs{
		{P: 4, AppTime: 9.23e3, MPITime: 121, MPIWait: 7.67, M: 31.924e3, L: 297.11e3, BW: 213.469e6, Lat: 1.325e-3},
		{P: 16, AppTime: 8.63e3, MPITime: 787, MPIWait: 164.455, M: 223.76e3, L: 127.17e3, BW: 204.124e6, Lat: 593.033e-6},
		{P: 64, AppTime: 7.91e3, MPITime: 1.92e3, MPIWait: 595.254, M: 1.279e6, L: 59.318e3, BW: 186.148e6, Lat: 301.164e-6},
	}
	net := ConstNetwork(1e-4, 1e8)
	for _, tc := range []struct {
		targets []int
		samples int
		want    error
		msg     string
	}{
		{[]int{100_000_000}, 10, fault.ErrTooLarge, "exceeds the limit"},
		{[]int{128}, 100_000_000, fault.ErrTooLarge, "--samples 100000000"},
		{[]int{100_000}, 100_000, fault.ErrTooLarge, "MVA steps"},
		{[]int{128}, -1, fault.ErrInput, "--samples -1"},
		{[]int{0}, 10, fault.ErrInput, "P = 0"},
	} {
		_, err := Predict(runs, net, tc.targets, tc.samples, 1)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v × %d: %v", tc.targets, tc.samples, err)
		}
	}
}
