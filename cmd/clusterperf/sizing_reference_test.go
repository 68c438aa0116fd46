package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/spmd"
)

// sizingPartJSON is the part of a result's sizing (sizing.Advice) the tests check.
type sizingPartJSON struct {
	Reference struct {
		Kind   string  `json:"kind"`
		P      int     `json:"reference_p"`
		TimeS  float64 `json:"reference_time_s"`
		T1S    float64 `json:"t1_s"`
		Source string  `json:"source"`
	} `json:"speedup_reference"`
	Recommended struct {
		Config struct {
			P, D int
		} `json:"config"`
	} `json:"recommended"`
	TradeOff []struct {
		P, D       int
		TimeS      float64 `json:"time_s"`
		Speedup    float64 `json:"speedup"`
		Efficiency float64 `json:"efficiency"`
	} `json:"trade_off"`
}

// sizingRefJSON is a result with a sizing.
type sizingRefJSON struct {
	Sizing sizingPartJSON `json:"sizing"`
}

// qcrdModel is 000 Table 4's QCRD stage 2 (examples/spmd/qcrd.yaml) with g(1) = 0
// (no_comm_at_p1), so the model's T(1, 1) = T_ref·(n_IO(S_par + S_ser) + S0_IO + SR_IO)/T_ref
// = 0.71 + 0 + 0 + 0.001 in units of T1 = reference_time = 1: s(1, 1) = 1/0.711 = 1.406
// (the seeds README erratum on Table 4).
const qcrdModel = `name: QCRD stage 2 (000 Table 4), g(1) = 0
architecture: bus-aio
c: 1
w: 0.19
r: inf
no_comm_at_p1: true
seconds:
  s_par: 0.71
  s_ser: 0
  s0_com: 0.049
  sr_com: 0.41
  s0_io: 0
  sr_io: 0.001
  reference_time: 1
`

// qcrdFit fits the same family with every Table 4 parameter free (examples/fit/qcrd.yaml).
const qcrdFit = `name: QCRD refit of its own surface
architecture: bus-aio
c: 1
reference_time: 1
no_comm_at_p1: true
starts: 20
seed: 1
parameters:
  s_par:  {start: 0.5, min: 0, max: 2}
  s_ser:  {start: 0.01, min: 0, max: 1}
  s0_com: {start: 0.01, min: 0, max: 1}
  sr_com: {start: 0.1, min: 0, max: 5}
  s0_io:  {start: 0.01, min: 0, max: 1}
  sr_io:  {start: 0.01, min: 0, max: 1}
  w:      {start: 0.5, min: 0, max: 1}
  g_exponent: -1
`

// TestSizingOneSpeedupAcrossCommands: one definition of speedup and efficiency (package
// sizing, S = T_1/T(p), E = S/p). The speedup command sizes 000 Table 4's QCRD model; fit
// refits the same family to that model's own speedup surface (exact, noise-free data, so the
// fit reproduces the model) and sizes the winner. Both must report T_1 = T_ref = 1 (kind
// t1_model: reference_time) and the same speedup and efficiency at every trade-off
// configuration both show, and the same recommendation (p = 16, d = 4). Checked to fail under
// the old rule: fit then divided by its smallest p's time at the fastest d, T(1, 4) = 1/1.408,
// so its efficiencies were the speedup command's ÷ 1.408 and it recommended p = 5 where the
// speedup definition of 000 eq. 3 (S = T_ref/T) gives p = 16.
func TestSizingOneSpeedupAcrossCommands(t *testing.T) {
	write := tempWriter(t, t.TempDir())
	model, fitFile := write("qcrd.yaml", qcrdModel), write("fit.yaml", qcrdFit)
	var sp struct {
		Points []struct {
			P, D    int
			Speedup float64 `json:"speedup"`
		} `json:"points"`
		sizingRefJSON
	}
	runJSON(t, &sp, "speedup", model, "--p", "1:32", "--d", "1:4", "--all", "--format", "json")
	var csv strings.Builder
	csv.WriteString("p,d,speedup\n")
	for _, pt := range sp.Points {
		if pt.P&(pt.P-1) == 0 || pt.P%3 == 0 { // powers of two and multiples of 3: 17 p × 4 d
			fmt.Fprintf(&csv, "%d,%d,%.17g\n", pt.P, pt.D, pt.Speedup)
		}
	}
	data := write("surface.csv", csv.String())
	var ft sizingRefJSON
	runJSON(t, &ft, "fit", fitFile, data, "--pmax", "32", "--dmax", "4", "--format", "json")
	for name, r := range map[string]sizingRefJSON{"speedup": sp.sizingRefJSON, "fit": ft} {
		if ref := r.Sizing.Reference; ref.Kind != "t1_model" || ref.P != 1 || ref.T1S != 1 || ref.TimeS != 1 {
			t.Errorf("%s: speedup_reference %+v, want t1_model T_1 = T_ref = 1 at p = 1", name, ref)
		}
	}
	type pd struct{ p, d int }
	want := map[pd][2]float64{}
	for _, c := range sp.Sizing.TradeOff {
		want[pd{c.P, c.D}] = [2]float64{c.Speedup, c.Efficiency}
	}
	common := 0
	for _, c := range ft.Sizing.TradeOff {
		w, ok := want[pd{c.P, c.D}]
		if !ok {
			continue
		}
		common++
		// 1e-6: the fit reproduces the model to its convergence tolerance, not bit for bit.
		if math.Abs(c.Speedup-w[0]) > 1e-6*w[0] || math.Abs(c.Efficiency-w[1]) > 1e-6*w[1] {
			t.Errorf("p = %d, d = %d: fit speedup %.9g efficiency %.9g, speedup command %.9g %.9g", c.P, c.D, c.Speedup, c.Efficiency, w[0], w[1])
		}
	}
	t.Logf("%d configurations in common; recommended %+v", common, sp.Sizing.Recommended.Config)
	if common < 3 {
		t.Errorf("only %d trade-off configurations in common (fit %v, speedup %v)", common, ft.Sizing.TradeOff, sp.Sizing.TradeOff)
	}
	if a, b := ft.Sizing.Recommended.Config, sp.Sizing.Recommended.Config; a != b {
		t.Errorf("recommended: fit p = %d, d = %d; speedup p = %d, d = %d", a.P, a.D, b.P, b.D)
	}
}

// TestFitT1Undetermined: a time fit of BUS-AIO with w = 0 holds s_ser and s0_com only as their
// sum (fit.TestIdentifyStructural), so T_ref = s_par + s_ser — the sizing's T_1 — is not
// determined by the times while every fitted time is: the notes must say so, with T_ref's
// range along the direction (its width is s_ser + s0_com, the segment running from bound to
// bound), and say nothing when T_1 is not the model's (fit.TestRefTimeRange: the given
// reference_time of speedup data does not move either).
func TestFitT1Undetermined(t *testing.T) {
	gen := tempWriter(t, t.TempDir())("gen.yaml", "name: gen\narchitecture: bus-aio\nc: 1\nw: 0\nseconds:\n  s_par: 0.8\n  s_ser: 0.03\n  s0_com: 0.02\n  sr_com: 0.1\n")
	var sp struct {
		Points []struct {
			P, D  int
			TimeS float64 `json:"time_s"`
		} `json:"points"`
	}
	runJSON(t, &sp, "speedup", gen, "--p", "1,2,4,8,16,32", "--d", "1", "--all", "--format", "json")
	noise := []float64{0.004, -0.007, 0.01, -0.002, 0.006, -0.009} // fixed ±1 % so the fit has noise
	data := &fit.Data{Target: "time"}
	for i, pt := range sp.Points {
		data.Obs = append(data.Obs, fit.Observation{P: pt.P, D: pt.D, Value: pt.TimeS * (1 + noise[i])})
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
	r := &fitResult{best: best, Architecture: "bus-aio", Target: "time"}
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
