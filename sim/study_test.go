package sim

import (
	"fmt"
	"testing"

	"github.com/clusterperf/clusterperf/spmd"
)

// TestExpansionPoisson: with Poisson background arrivals a processor-sharing CPU slows a task
// by exactly 1/(1 − U) on average, whatever the demand distribution (M/G/1-PS is insensitive):
// 002's expansion factor is then exact and the simulation must agree within its interval
// (or 2 %).
func TestExpansionPoisson(t *testing.T) {
	for _, tc := range []struct {
		U      float64
		demand Dist
	}{{0.3, Exponential{}}, {0.6, Deterministic{}}, {0.5, HyperExp{C2: 4}}} {
		e := ExpansionStudy(tc.U, 5, Exponential{}, tc.demand, 200, 8, 1)
		want := 1 / (1 - tc.U)
		checkAgrees(t, fmt.Sprintf("U=%g %v: slowdown vs 1/(1−U)", tc.U, tc.demand), e, want, 0.02)
	}
}

// TestForkJoinExponential: with exponential CPU bursts and no contention the direct SPMD
// simulation of a synchronised group matches eq. (5): c processors take h(c)·(S_par/p) on
// average (here BUS-SIO with one group, c = p, and no I/O or communication).
func TestForkJoinExponential(t *testing.T) {
	ph, _ := spmd.Normalized{SigmaP: 1}.Phase()
	ph.C = 8
	m := &spmd.Model{Arch: spmd.BusSIO, Phases: []spmd.Phase{ph}}
	e, err := ReplicateSPMD(m, 8, 1, SPMDConfig{Cycles: 4000}, 3, 8)
	if err != nil {
		t.Fatal(err)
	}
	want := spmd.Exponential.H(8) / 8
	checkAgrees(t, "cycle vs h(8)/8", e, want, 0.01)
}

func BenchmarkSPMDSim(b *testing.B) {
	ph, _ := spmd.Normalized{SigmaP: 0.8, SigmaR: 0.01, SigmaR0: 0.001}.Phase()
	ph.W = 0.3
	m := &spmd.Model{Arch: spmd.BusAIO, Phases: []spmd.Phase{ph}}
	var ev int64
	for b.Loop() {
		r, _ := SimulateSPMD(m, 64, 4, SPMDConfig{Cycles: 20000}, 1, 1)
		ev += r.Events
	}
	b.ReportMetric(float64(ev)/b.Elapsed().Seconds(), "events/s")
}
