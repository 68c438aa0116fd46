package validate

import (
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/sim"
)

// TestRelErrorSign: the contract's definition (model − observed)/observed, so a model that
// predicts 2.477 s for a measured 1 s is +1.477 (003's sort table shows this over-prediction
// as "+147.7 %"); zero observed has no relative error.
func TestRelErrorSign(t *testing.T) {
	for _, c := range []struct{ model, obs, want float64 }{
		{2.477, 1, 1.477},
		{1, 2, -0.5},
		{3, 3, 0},
	} {
		if got := RelError(c.model, c.obs); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("RelError(%v, %v) = %v, want %v", c.model, c.obs, got, c.want)
		}
	}
	if !math.IsNaN(RelError(1, 0)) || !math.IsNaN(RelError(math.Inf(1), 1)) {
		t.Error("no NaN where no relative error exists")
	}
}

func TestCompare(t *testing.T) {
	r := Compare("R c", "s", sim.Estimate{Mean: 2, Half: 0.1}, 2.05)
	if r.Inside == nil || !*r.Inside || r.RelError == nil || math.Abs(*r.RelError-0.025) > 1e-12 {
		t.Errorf("inside interval: %+v", r)
	}
	r = Compare("R c", "s", sim.Estimate{Mean: 2, Half: 0.01}, 2.05)
	if !(r.Inside != nil && !*r.Inside) {
		t.Errorf("outside interval reported inside: %+v", r)
	}
	if r := Compare("X", "1/s", sim.Estimate{Mean: 1}, math.NaN()); r.Analytic != nil || r.Inside != nil || r.RelError != nil {
		t.Errorf("no analytic value but columns filled: %+v", r)
	}
	if r := Compare("Q", "jobs", sim.Estimate{}, 0); r.RelError != nil {
		t.Errorf("relative error against a zero estimate: %+v", r)
	}
}

// TestQN: one closed class of N = 2 jobs at one queue of demand 1 s: exact MVA gives
// X = 1/s, R = 2 s, U = 1, Q = 2 (all jobs always at the only station). A simulation that
// estimates exactly those values gives zero relative error and every value inside.
func TestQN(t *testing.T) {
	m, an, res := twoJobsOneQueue(t, 1)
	rep := QNReport(m, "mva", an, nil, res, 7, nil)
	if len(rep.Rows) != 4 || rep.Outside() != 0 {
		t.Fatalf("rows %+v", rep.Rows)
	}
	for _, r := range rep.Rows {
		if r.RelError == nil || math.Abs(*r.RelError) > 1e-12 {
			t.Errorf("%s: rel error %v", r.Quantity, r.RelError)
		}
	}
	rep = QNReport(m, "mva", nil, errFake{}, res, 7, nil)
	if rep.Rows[0].Analytic != nil || len(rep.Notes) != 1 {
		t.Errorf("failed solver: %+v", rep)
	}
}

type errFake struct{}

func (errFake) Error() string { return "fake" }
