package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
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
