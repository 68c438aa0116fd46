package fitapp

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/spmd"
)

// TestFitT1Undetermined: a time fit of BUS-AIO with w = 0 holds s_ser and s0_com only as their
// sum (fit.TestIdentifyStructural), so T_ref = s_par + s_ser — the sizing's T_1 — is not
// determined by the times while every fitted time is: the notes must say so, with T_ref's
// range along the direction (its width is s_ser + s0_com, the segment running from bound to
// bound), and say nothing when T_1 is not the model's (fit.TestRefTimeRange: the given
// reference_time of speedup data does not move either).
func TestFitT1Undetermined(t *testing.T) {
	// The times of the speedup command's model (spmd.Evaluator.Surface, as speedup prints them).
	gen, err := spmd.ParseModel("gen.yaml", []byte("name: gen\narchitecture: bus-aio\nc: 1\nw: 0\nseconds:\n  s_par: 0.8\n  s_ser: 0.03\n  s0_com: 0.02\n  sr_com: 0.1\n"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := spmd.NewEvaluator(gen)
	if err != nil {
		t.Fatal(err)
	}
	sp, _, err := ev.Surface([]int{1, 2, 4, 8, 16, 32}, []int{1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	noise := []float64{0.004, -0.007, 0.01, -0.002, 0.006, -0.009} // fixed ±1 % so the fit has noise
	data := &fit.Data{Target: "time"}
	for i, pt := range sp {
		data.Obs = append(data.Obs, fit.Observation{P: pt.P, D: pt.D, Value: pt.Time * (1 + noise[i])})
	}
	spec := fit.Spec{Arch: "bus-aio", C: 1, Starts: 8, Seed: 1, Params: []fit.Param{
		{Name: "s_par", Value: 0.5, Min: 0, Max: 2, Free: true},
		{Name: "s_ser", Value: 0.05, Min: 0, Max: 1, Free: true},
		{Name: "s0_com", Value: 0.05, Min: 0, Max: 1, Free: true},
		{Name: "sr_com", Value: 0.1}, {Name: "w", Value: 0}, {Name: "g_exponent", Value: -1},
	}}
	best, err := fit.SPMD(spec, spmd.BusAIO, data)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{best: best, Architecture: "bus-aio", Target: "time"}
	if r.Sizing, err = sizing.Advise([]sizing.Point{{P: 1, TimeS: 1}, {P: 2, TimeS: 0.6}}, sizing.Options{T1: r.sizingT1()}); err != nil {
		t.Fatal(err)
	}
	dirs := best.Identifiability(64, 1)
	r.explainT1(dirs)
	if len(dirs) != 1 || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "not determined by the data") {
		t.Fatalf("directions %d, notes %q", len(dirs), r.Notes)
	}
	lo, hi := best.RefTimeRange(dirs[0])
	sum := 0.0
	for _, p := range dirs[0].Parameters {
		sum += p.Fitted
	}
	if math.Abs((hi-lo)-sum) > 1e-6*sum || !strings.Contains(r.Notes[0], fmt.Sprintf("%.6g … %.6g", lo, hi)) {
		t.Errorf("T_ref range %.6g … %.6g, width want s_ser + s0_com = %.6g; note %q", lo, hi, sum, r.Notes[0])
	}
	t.Log(r.Notes[0])
	// A T_1 that is not the model's T_ref (a measured run) does not move with the parameters.
	r.Notes, r.Sizing.SpeedupReference = nil, *sizing.MeasuredT1(1, "a run at p = 1")
	r.explainT1(dirs)
	if len(r.Notes) != 0 {
		t.Errorf("a measured T_1: notes %q", r.Notes)
	}
}
