package solveapp

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

const ex = "../../examples/"

// TestForkJoinValidateSimulatesOnce: a fork/join model's approximate result takes its error
// estimate from a simulation, and --validate simulates it too; with --validate the two are
// one simulation (review: every point was simulated twice, for the same numbers — same
// seed, replications and events). Counted by simapp.Options.Count: a sweep of 4 points with
// --validate runs 4 simulations (8 before), without it 4 (the estimates); one model with
// --validate runs 1 (2 before). Every point still has its error estimate.
func TestForkJoinValidateSimulatesOnce(t *testing.T) {
	in, err := ParseInput(input.Read, ex+"qn/striped-write.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		sweep    string
		validate bool
		want     int
	}{
		{"sweep --validate", "population=1:4", true, 4},
		{"sweep", "population=1:4", false, 4},
		{"one model --validate", "", true, 1},
	} {
		n := 0
		q := Request{Input: in, Sweep: tc.sweep, Validate: tc.validate,
			Sim: simapp.Options{Seed: 1, Reps: 2, Events: 4000, Count: func() { n++ }}}
		res, err := Run(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var results []*qn.Result
		if res.Sweep != nil {
			for _, pt := range res.Sweep.points {
				results = append(results, pt.Result)
			}
		} else {
			results = append(results, res.QN)
		}
		if n != tc.want {
			t.Errorf("%s: %d simulations, want %d", tc.name, n, tc.want)
		}
		for i, r := range results {
			if r.ErrorEstimate == nil {
				t.Errorf("%s: result %d has no error estimate", tc.name, i)
			}
		}
	}
}

// TestSweepBoundLines: --sweep draws every bound qn.AllBounds gives, a lower and an upper
// line per bound name and panel, each its own colour (no Group; issue 29: every curve one
// blue) and legend entry "<name> lower|upper bound" (issue 29: upper and lower shared one
// entry), one dash pattern per bound name, clipped at the frame (Clip: issue 29, an 18 s
// bound squashed the curve); the figure's every string lies within the canvas (session
// 4's review: legend cut at the SVG width).
func TestSweepBoundLines(t *testing.T) {
	in, err := ParseInput(input.Read, ex+"keck/cg-a-4.yaml")
	if err != nil {
		t.Fatal(err)
	}
	p, vals, err := app.ParseSweep("population=1:5", in.Model)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := qn.Sweep(context.Background(), in.Model, p, vals, "auto", qn.AMVAOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := newSweep(in.Model, p, "auto", pts)
	xs, rs := boundSeries(r)
	var legend []string
	dash := map[string]int{}
	for _, s := range append(xs, rs...) {
		if s.Dash == 0 || len(s.X) != len(vals) || s.Group != "" || !s.Clip || s.NoLegend || !strings.HasSuffix(s.Name, " bound") {
			t.Errorf("series %q: dash %d, %d points (want %d), group %q (want none), clip %v, no legend %v", s.Name, s.Dash, len(s.X), len(vals), s.Group, s.Clip, s.NoLegend)
		}
		kind := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s.Name, " bound"), " lower"), " upper")
		if d, ok := dash[kind]; ok && d != s.Dash {
			t.Errorf("%q drawn with dash patterns %d and %d", kind, d, s.Dash)
		}
		dash[kind] = s.Dash
		legend = append(legend, s.Name)
	}
	for _, b := range []string{qn.BoundAsymptotic, qn.BoundBalancedJob, qn.BoundProportional, qn.BoundGeometric} {
		for _, side := range []string{" lower bound", " upper bound"} {
			if n := strings.Count(strings.Join(legend, "|")+"|", b+side+"|"); n != 2 {
				t.Errorf("%q in the legend %d times, want 2 (throughput and response time): %v", b+side, n, legend)
			}
		}
	}
	if len(dash) != 4 {
		t.Errorf("dash patterns %v, want one per bound name", dash)
	}
	path := filepath.Join(t.TempDir(), "sweep.svg")
	if err := r.Plot(path); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := report.CheckSVGText(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range bad {
		t.Error(m)
	}
	// the exact answer lies within every bound at every point (bounds bracket exact MVA)
	for _, pt := range r.Points {
		x, rt := pt.Classes[0].Throughput, pt.Classes[0].ResponseTime
		for _, b := range pt.Bounds {
			if x < b.ThroughputLower*(1-1e-12) || x > b.ThroughputUpper*(1+1e-12) || rt < b.ResponseTimeLower*(1-1e-12) {
				t.Errorf("N = %g: %s bound [%g, %g] does not bracket X = %g", pt.Value, b.Name, b.ThroughputLower, b.ThroughputUpper, x)
			}
		}
	}
}

// FuzzLegacySweep: LegacySweep never panics; what it recognises is a demand or arrival_rate
// range whose third field it spells nN (recognised once: the nN form is not legacy), and
// PlanSweepParam on it gives either an error or the N values FROM … TO it names.
func FuzzLegacySweep(f *testing.F) {
	for _, s := range []string{"demand.cpu=0.04:0.11:5", "arrival_rate=1:2:3", "population=1:10:2", "demand.cpu=1:1:4", "demand.cpu=0:1:1e3", "demand.cpu=a:b:2", "demand.cpu=1:2:n5"} {
		f.Add(s)
	}
	m := "classes: [{name: a, population: 2, think_time: 1s}, {name: o, arrival_rate: 1}]\nstations: [{name: cpu, demand: 5ms}]\n"
	in, err := ParseInput(func(string) ([]byte, error) { return []byte(m), nil }, "m.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, legacy := LegacySweep(s)
		if !legacy {
			if n != s {
				t.Fatalf("%q changed to %q without being legacy", s, n)
			}
			return
		}
		if _, again := LegacySweep(n); again {
			t.Fatalf("%q: its nN form %q is legacy again", s, n)
		}
		_, vals, err := PlanSweepParam(in, s)
		if err != nil {
			return
		}
		for i, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) || (i > 0 && v < vals[i-1]) {
				t.Fatalf("%q: value %d = %v in %v", s, i, v, vals[:min(len(vals), 10)])
			}
		}
	})
}
