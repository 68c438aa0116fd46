package qn

import (
	"context"
	"math"
	"testing"
)

// TestSaturationDemandPerJobOfTheMix: the bottleneck demand is per job of the solved mix,
// so Ceiling = 1/Demand for a single-server bottleneck (X ≤ 1/D_max, Lazowska et al. 1984
// §5.2). Hostile review 8 P1-5: four closed classes of 0.03 s each at one queue gave
// Demand 0.12 s (the sum) beside Ceiling 33.33 jobs/s (= 1/0.03). Expected: Demand 0.03 s,
// Ceiling 1/0.03 = 33.33 jobs/s; a one-class model keeps D_max = its demand.
func TestSaturationDemandPerJobOfTheMix(t *testing.T) {
	for _, tc := range []struct {
		name        string
		classes     int
		demand      float64
		wantDemand  float64
		wantCeiling float64
	}{
		{"one class", 1, 0.03, 0.03, 1 / 0.03},
		{"four classes alike", 4, 0.03, 0.03, 1 / 0.03},
	} {
		m := &Model{Stations: []Station{{Name: "cpu", Kind: Queue, Count: 1}, {Name: "think", Kind: Delay, Count: 1}}}
		for c := 0; c < tc.classes; c++ {
			m.Classes = append(m.Classes, Class{Name: string(rune('a' + c)), Population: 5})
			m.Demand = append(m.Demand, []float64{tc.demand, 1})
		}
		r, err := Solve(context.Background(), m, "auto", AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := SaturationOf(m, r)
		if math.Abs(s.Demand-tc.wantDemand) > 1e-12 || math.Abs(s.Ceiling-tc.wantCeiling) > 1e-9*tc.wantCeiling {
			t.Errorf("%s: demand %g s, ceiling %g jobs/s; want %g s, %g jobs/s", tc.name, s.Demand, s.Ceiling, tc.wantDemand, tc.wantCeiling)
		}
	}
}

// TestSaturationZeroDemand: a queue whose demand is 0 limits nothing; Demand and Ceiling are
// 0, which package answer words as "no station limits throughput" (hostile review 8 P1-4:
// "throughput 5 of at most 0 jobs/s"). Expected X = N/Z = 5/1 jobs/s (think time only).
func TestSaturationZeroDemand(t *testing.T) {
	m := &Model{Classes: []Class{{Name: "a", Population: 5, ThinkTime: 1}},
		Stations: []Station{{Name: "cpu", Kind: Queue, Count: 1}}, Demand: [][]float64{{0}}}
	r, err := Solve(context.Background(), m, "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := SaturationOf(m, r)
	if s.Demand != 0 || s.Ceiling != 0 || math.Abs(r.SystemThroughput()-5) > 1e-12 {
		t.Errorf("demand %g, ceiling %g, X %g; want 0, 0, 5", s.Demand, s.Ceiling, r.SystemThroughput())
	}
}
