package main

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/mpipapp"
	"github.com/clusterperf/clusterperf/mpip/mpipplot"
	"github.com/clusterperf/clusterperf/report"
)

// TestMpipAnswerOnce (issue 29): mpip's table output starts with "does it scale, what limits
// it", says every detail once (the review counted 234 lines and one explanation line 15
// times), and keeps the supporting tables behind --all-tables. Provenance: AMG2013 at
// P = 16, 32, 64 (mpip/testdata/samples): AT* = 0.592/16 = 0.037 s and 17.7/64 = 0.2766 s,
// a growth of 7.47×; the profile of P = 64 gives MPI 96.6 % (most in Iprobe) and compute
// imbalance 41.3 %; the driver profile (examples/mpip) at P = 8 gives 86.5 %.
func TestMpipAnswerOnce(t *testing.T) {
	cases := []struct {
		args  []string
		first []string // in the first line
	}{
		{append([]string{"mpip", "--latency", "5us", "--bandwidth", "1GB/s", "--predict", "128"}, amgReports()...),
			[]string{"Does not scale", "grows 7.47×", "MPI takes 96.6 %, most in Iprobe"}},
		{append([]string{"mpip", "--calibrate", "--predict", "128"}, amgReports()...), []string{"Does not scale"}},
		{[]string{"mpip", "../../examples/mpip/hpc-mpip__driver.8.253.1.mpiP"}, []string{"MPI takes 72.4 %", "compute imbalance 86.5 %"}},
		{[]string{"mpip", "--latency", "5us", "--bandwidth", "1GB/s", "../../examples/mpip/keck_cg_a.csv", "--predict", "128"}, []string{"Scales poorly: from P = 1 to 64 the wall time falls 22.5×"}},
	}
	for _, c := range cases {
		out := runOut(t, c.args...)
		lines := strings.Split(out, "\n")
		for _, s := range c.first {
			if !strings.Contains(lines[0], s) {
				t.Errorf("%v: first line %q lacks %q", c.args[1:], lines[0], s)
			}
		}
		seen := map[string]bool{}
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if len(l) > 40 && seen[l] { // (a wrapped cell's short tail may recur)
				t.Errorf("%v: line said twice: %q", c.args[1:], l)
			}
			seen[l] = true
		}
		if len(lines) > 120 {
			t.Errorf("%v: %d lines (was 256 for AMG --predict)", c.args[1:], len(lines))
		}
		if strings.Contains(out, "Analysis views") || !strings.Contains(out, "More tables (--all-tables") {
			t.Errorf("%v: the detail tables are shown, or not named", c.args[1:])
		}
		if all := runOut(t, append(c.args, "--all-tables")...); !strings.Contains(all, "Analysis views") {
			t.Errorf("%v --all-tables: no analysis views", c.args[1:])
		}
	}
}

// TestMpipPlotRingsTheAnswer (issue 29): the wall-time figure rings the forecast the answer
// states — at P = 128 from the AMG runs the answer says 1.349 s (the wall-time
// extrapolation, the kind the backtest chose), where the figure used to mark only 004's
// power-law model (0.279 s).
func TestMpipPlotRingsTheAnswer(t *testing.T) {
	for _, calibrate := range []bool{false, true} {
		o := mpipapp.Flags{Explain: 0.15, Samples: 200, Seed: 1, Calibrate: calibrate, Predict: "128",
			Sizing: app.DefaultSizingFlags()}
		if !calibrate {
			o.Latency, o.Bandwidth = "5us", "1GB/s"
		}
		q, err := o.Request(new(app.FlagCheck), readInput, amgReports())
		if err != nil {
			t.Fatal(err)
		}
		r, err := mpipapp.Run(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		setAnswer(r)
		f, ok := r.Answer.Fact("predicted_wall_time_s")
		if !ok || f.Value == nil {
			t.Fatalf("calibrate %v: no predicted_wall_time_s in %+v", calibrate, r.Answer.Facts)
		}
		walls := mpipplot.Walls(r.PlotInput())
		ring := walls[0].Points[mpipplot.AnswerFc]
		if len(ring) != 1 || ring[0].X != 128 || math.Abs(ring[0].Y-*f.Value) > 1e-12 {
			t.Errorf("calibrate %v: ring %+v, answer %v s", calibrate, ring, *f.Value)
		}
		if !strings.Contains(r.Answer.Summary+strings.Join(r.Answer.Details, " "), g4(*f.Value)) {
			t.Errorf("calibrate %v: the answer's words lack %s: %+v", calibrate, g4(*f.Value), r.Answer)
		}
	}
}

func g4(v float64) string { return report.Num(v)[:5] }
