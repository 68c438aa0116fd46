package sim

import (
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// TestRoutingMatrix: a central-server network routed by probabilities — from the CPU to disk 1
// (0.5), disk 2 (0.3) or back to the terminals (0.2), disks back to the CPU — has visits
// V_cpu = 5, V_d1 = 2.5, V_d2 = 1.5 (traffic equations), so exact MVA on demands V·S applies.
func TestRoutingMatrix(t *testing.T) {
	S := []float64{0.02, 0.04, 0.05}
	V := []float64{5, 2.5, 1.5}
	m := &qn.Model{
		Classes:  []qn.Class{{Name: "u", Population: 8, ThinkTime: 1}},
		Stations: []qn.Station{{Name: "cpu", Kind: qn.Queue}, {Name: "d1", Kind: qn.Queue}, {Name: "d2", Kind: qn.Queue}},
		Demand:   [][]float64{{V[0] * S[0], V[1] * S[1], V[2] * S[2]}},
		Visits:   [][]float64{V},
	}
	R := [][]float64{
		{0, 1, 0, 0},
		{0.2, 0, 0.5, 0.3},
		{0, 1, 0, 0},
		{0, 1, 0, 0},
	}
	exact, _ := qn.MVASingle(m)
	s, err := New(m, Config{Events: 60000, Routing: map[string][][]float64{"u": R}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Replicate(Options{Seed: 5, Reps: 12})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		e    Estimate
		v    float64
	}{{"X", res.Throughput[0], exact.Throughput[0]}, {"R", res.ResponseTime[0], exact.ResponseTime[0]}, {"U cpu", res.Utilization[0], exact.Utilization[0][0]}} {
		if !c.e.Contains(c.v) && math.Abs(c.e.Mean-c.v) > 0.01*c.v {
			t.Errorf("%s: simulated %.5g ± %.3g, exact %.5g", c.what, c.e.Mean, c.e.Half, c.v)
		}
	}
	if _, err := New(m, Config{Routing: map[string][][]float64{"u": {{0, 1, 0, 0}, {0.5, 0, 0, 0}, {0, 1, 0, 0}, {0, 1, 0, 0}}}}); err == nil {
		t.Error("a row summing to 0.5 was accepted")
	}
}

// TestForkJoin: one job forks into two exponential branches with means a and b and waits for
// both: the cycle takes E[max] = a + b − ab/(a+b), so X = 1/E[max] with no think time.
func TestForkJoin(t *testing.T) {
	a, b := 1.0, 2.0
	m := &qn.Model{
		Classes:  []qn.Class{{Name: "j", Population: 1}},
		Stations: []qn.Station{{Name: "A", Kind: qn.Queue}, {Name: "B", Kind: qn.Queue}},
		Demand:   [][]float64{{a, b}},
	}
	R := [][]float64{ // nodes: 0 ref, 1 A, 2 B, 3 fork/join
		{0, 0, 0, 1},
		{0, 0, 0, 0},
		{0, 0, 0, 0},
		{1, 0, 0, 0},
	}
	s, err := New(m, Config{Events: 60000, Routing: map[string][][]float64{"j": R}, ForkJoins: []ForkJoin{{Name: "fj", Branches: []string{"A", "B"}}}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Replicate(Options{Seed: 2, Reps: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := a + b - a*b/(a+b)
	if e := res.ResponseTime[0]; !e.Contains(want) && math.Abs(e.Mean-want) > 0.01*want {
		t.Errorf("fork/join cycle %.4g ± %.3g, E[max] = %.4g", e.Mean, e.Half, want)
	}
}
