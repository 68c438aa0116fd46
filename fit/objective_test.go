package fit

import (
	"testing"

	"github.com/clusterperf/clusterperf/spmd"
)

// The two objectives on the QCRD speedups (examples/fit, 000 §5.2): each fit is the best of
// its own criterion, so the absolute fit's Σ(m − o)² is at most the relative fit's, and the
// relative fit's Σ((m − o)/o)² at most the absolute fit's (a property of the minima; the
// thesis's ε of 001 §6.2 is the absolute one).
func TestObjectives(t *testing.T) {
	mb, data := qcrdFiles(t)
	costs := map[string][2]float64{} // objective → (Σ abs², Σ rel²)
	for _, obj := range Objectives() {
		sp, err := ParseSpec("qcrd.yaml", append(mb, []byte("objective: "+obj+"\n")...))
		if err != nil {
			t.Fatal(err)
		}
		sp.Starts = 8
		r := fitSPMD(t, sp, spmd.BusAIO, data)
		var a, rel float64
		for _, res := range r.Residuals {
			d := res.Fitted - res.Observed
			a += d * d
			rel += res.RelError * res.RelError
		}
		costs[obj] = [2]float64{a, rel}
	}
	ab, re := costs["absolute"], costs["relative"]
	if ab[0] > re[0]*(1+1e-6) || re[1] > ab[1]*(1+1e-6) {
		t.Errorf("absolute fit (Σabs² %.6g, Σrel² %.6g) vs relative fit (%.6g, %.6g)", ab[0], ab[1], re[0], re[1])
	}
	if _, err := ParseSpec("x.yaml", append(mb, []byte("objective: median\n")...)); err == nil {
		t.Error("objective: median accepted")
	}
}

// The w band: contention only adds queueing, so with the other parameters fixed the time at
// w = 0 ≤ the fitted time ≤ the time at w = 1 (speedups in reverse), for a model whose
// transfer is not moved between delay and queue parts unevenly: BUS-AIO's network delay
// (1 − w)·g·SR_COM plus queue w·g·SR_COM has the same total demand, and a queue's residence
// time is at least its demand (MVA), so time grows with w.
func TestBand(t *testing.T) {
	r := &SPMDResult{Architecture: "bus-aio", Target: "speedup", model: &spmd.Model{Arch: spmd.BusAIO, Phases: []spmd.Phase{{NIO: 1, SPar: 0.7, S0Com: 0.01, SRCom: 0.3, SRIO: 0.05, W: 0.3, C: 1, GExp: -0.5, Ref: 1}}}}
	pts := [][2]int{{1, 1}, {4, 1}, {16, 2}, {64, 4}}
	band, err := Band(r, pts)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range band {
		if !(b.W1 <= b.Fitted*(1+1e-12) && b.Fitted <= b.W0*(1+1e-12)) {
			t.Errorf("p = %d d = %d: speedup w=1 %.6g, fitted %.6g, w=0 %.6g", b.P, b.D, b.W1, b.Fitted, b.W0)
		}
	}
	if band[0].W0 != band[0].W1 {
		// p = 1: one job, no queueing at all: w changes nothing (MVA with N = 1: R = D)
		t.Errorf("p = 1: %.17g vs %.17g", band[0].W0, band[0].W1)
	}
}
