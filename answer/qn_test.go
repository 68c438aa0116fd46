package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// TestSolveZeroDemand: a closed class (N = 5, Z = 1 s) at a queue of demand 0 is limited by
// nothing but its think time (X = N/Z = 5 jobs/s); the answer says so and claims no
// ceiling (hostile review 8 P1-4: "throughput 5 of at most 0 jobs/s",
// throughput_ceiling_per_s 0).
func TestSolveZeroDemand(t *testing.T) {
	m := &qn.Model{Classes: []qn.Class{{Name: "a", Population: 5, ThinkTime: 1}},
		Stations: []qn.Station{{Name: "cpu", Kind: qn.Queue, Count: 1}}, Demand: [][]float64{{0}}}
	r, err := qn.Solve(context.Background(), m, "auto", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := Solve(m, r)
	if !strings.Contains(a.Summary, "No station limits throughput") || strings.Contains(a.Summary, "at most 0") {
		t.Errorf("summary %q", a.Summary)
	}
	for _, f := range a.Facts {
		if f.Name == "throughput_ceiling_per_s" {
			t.Errorf("fact %s given for a model without a limiting station", f.Name)
		}
	}
}
