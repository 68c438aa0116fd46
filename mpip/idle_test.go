package mpip

import (
	"math"
	"os"
	"strings"
	"testing"
)

// TestIdleCollective (issue 33; 004 §VI, the FT case: "programs where MPI_Wait() is not
// called, but MPI spends time waiting idle"): testdata/ft-alltoall.4.1.1.mpiP is a synthetic
// FT-like report written for this test: 4 ranks of 10 s, all MPI time in one MPI_Alltoall
// site (20 calls per rank; per-call mean 200, 150, 125, 125 ms, so 12 s in all; the * row
// Count 80, Mean 150, Min 100 ms) and a 0.1 ms Bcast per rank; no MPI_Wait. By hand:
//   - default wait operations: MPI_Wait = 0, so 004's D_k = (MPI_Time − 0)/(P·M) counts
//     the Alltoall's waiting as active CPU demand;
//   - --wait-ops Alltoall: idle = Count·(Mean − Min) = 80·(150 − 100) ms = 4 s, active =
//     80·100 ms = 8 s; D_k = (12 − 4)/(4·M) with M = 84 collective messages (80 + 4 Bcast);
//   - Bcast named too: its calls all take 0.1 ms (Mean = Min), idle 0.
//
// A pure wait (Barrier, Wait) named in --wait-ops still counts whole (TestWaitOpsUnknown's
// report and every mpip golden are unchanged).
func TestIdleCollective(t *testing.T) {
	f, err := os.Open("testdata/ft-alltoall.4.1.1.mpiP")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Parse("ft-alltoall.4.1.1.mpiP", f)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	def, err := r.Summarize(Options{IncludeCollectives: true})
	if err != nil {
		t.Fatal(err)
	}
	if def.MPIWait != 0 || def.Messages != 84 {
		t.Errorf("default: MPI_Wait %g s, M %g; want 0 and 84", def.MPIWait, def.Messages)
	}
	s, err := r.Summarize(Options{IncludeCollectives: true, WaitOps: []string{"Alltoall", "Bcast"}})
	if err != nil {
		t.Fatal(err)
	}
	if !near(s.MPIWait, 4) || len(s.IdleByOp) != 2 {
		t.Fatalf("--wait-ops Alltoall,Bcast: MPI_Wait %g s (want 4), splits %+v", s.MPIWait, s.IdleByOp)
	}
	a := s.IdleByOp[0]
	if a.Operation != "Alltoall" || !near(a.TimeS, 12) || !near(a.IdleS, 4) || !near(a.ActiveS, 8) || a.SizeVaries {
		t.Errorf("Alltoall split %+v; want 12 s = 4 idle + 8 active", a)
	}
	if b := s.IdleByOp[1]; b.Operation != "Bcast" || b.IdleS != 0 {
		t.Errorf("Bcast split %+v; want idle 0", b)
	}
	dDef, dIdle := InputsFrom(def, 1e-5, 1e9).Demands(), InputsFrom(s, 1e-5, 1e9).Demands()
	if !near(dDef.Dk, def.MPITime/(4*84)) || !near(dIdle.Dk, (s.MPITime-4)/(4*84)) {
		t.Errorf("D_k %g (default), %g (idle split); want MPI_Time/(P·M) = %g and (MPI_Time − 4)/(P·M) = %g", dDef.Dk, dIdle.Dk, def.MPITime/336, (s.MPITime-4)/336)
	}
	if !strings.Contains(strings.Join(s.Notes, "\n"), "Alltoall (a blocking collective in the wait operations): 4 s of its 12 s counted as idle waiting") {
		t.Errorf("notes %q", s.Notes)
	}
	// a pure wait stays whole: the driver's Barrier
	drv := summarizeFile(t, "../examples/mpip/hpc-mpip__driver.8.253.1.mpiP", Options{WaitOps: []string{"Barrier"}})
	if w, _ := drv.Wait("Barrier"); len(drv.IdleByOp) != 0 || w < 20 {
		t.Errorf("Barrier as a wait op: %g s, splits %+v; want its whole time (≈ 23 s), no split", w, drv.IdleByOp)
	}
}

func summarizeFile(t *testing.T, path string, o Options) Summary {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Parse(path, f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.Summarize(o)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
