package solveapp

import (
	"context"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/qn"
	"math"
	"strings"
	"testing"
)

// TestSetObservedEstimate: the estimate of a fork/join result against observations is
// max |r − mean|/mean (spread) and max (|r − mean| + half)/mean (rel_error), computed here
// by hand from the result; Solve's "no estimate" note goes; bad observations are refused.
func TestSetObservedEstimate(t *testing.T) {
	in, err := ParseInput(input.Read, ex+"qn/striped-write.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := in.Model
	r, err := qn.Solve(context.Background(), m, "auto", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Exact || r.ErrorEstimate != nil || !strings.Contains(strings.Join(r.Notes, "|"), qn.NoEstimateNote) {
		t.Fatalf("fork/join result: exact %v, estimate %v, notes %v: want approximate, none, and the note", r.Exact, r.ErrorEstimate, r.Notes)
	}
	x, rt := r.Throughput[0], r.ResponseTime[0]
	obsX, obsR := Observed{x * 1.02, x * 0.01}, Observed{rt * 0.97, rt * 0.005}
	if err := SetObservedEstimate(r, "simulation", []Observed{obsX}, []Observed{obsR}); err != nil {
		t.Fatal(err)
	}
	dX, dR := math.Abs(x-obsX.Mean)/obsX.Mean, math.Abs(rt-obsR.Mean)/obsR.Mean
	want := math.Max(dX+obsX.Half/obsX.Mean, dR+obsR.Half/obsR.Mean)
	if e := r.ErrorEstimate; e == nil || math.Abs(e.RelError-want) > 1e-15 || math.Abs(e.Spread-math.Max(dX, dR)) > 1e-15 || e.SpreadMethod != "simulation" {
		t.Errorf("estimate %+v, want rel %g spread %g", e, want, math.Max(dX, dR))
	}
	if strings.Contains(strings.Join(r.Notes, "|"), qn.NoEstimateNote) {
		t.Errorf("the no-estimate note stayed: %v", r.Notes)
	}
	r2, _ := qn.Solve(context.Background(), m, "auto", qn.AMVAOptions{})
	for _, bad := range []Observed{{0, 0}, {1, math.Inf(1)}, {math.NaN(), 0}} {
		if err := SetObservedEstimate(r2, "s", []Observed{bad}, []Observed{obsR}); err == nil || r2.ErrorEstimate != nil {
			t.Errorf("observation %+v accepted", bad)
		}
	}
}
