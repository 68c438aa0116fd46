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

// TestSaturationOfNoLoad: a network with no jobs (population 0) has every utilization 0, so
// the bottleneck is the station of the largest demand per server, and the ceiling is
// 1/D_max (Lazowska et al., Quantitative System Performance, §5.2). Expected values by hand
// from examples/qn/web-tier.yaml (demands 10, 20, 40 ms, Z = 0.5 s): bottleneck db,
// D_max = 0.04 s, ceiling 1/0.04 = 25 jobs/s, N* = (0.07 + 0.5)/0.04 = 14.25; the same
// network with 50 users (the example as shipped) names db too. Review newuser8 P1-2: before
// the fix population 0 named "web and app and db" with demand 0.01 s and ceiling 0.
func TestSaturationOfNoLoad(t *testing.T) {
	web := func(n int, open bool, rate float64) *Model {
		return &Model{
			Classes:  []Class{{Name: "users", Population: n, ThinkTime: 0.5, Open: open, ArrivalRate: rate}},
			Stations: []Station{{Name: "web", Kind: Queue}, {Name: "app", Kind: Queue}, {Name: "db", Kind: Queue}},
			Demand:   [][]float64{{0.01, 0.02, 0.04}},
		}
	}
	two := &Model{ // two closed classes, no jobs: equal shares; D = (0.5·0.03+0.5·0.01, 0.5·0.01+0.5·0.05) = (0.02, 0.03)
		Classes:  []Class{{Name: "a"}, {Name: "b"}},
		Stations: []Station{{Name: "s1", Kind: Queue}, {Name: "s2", Kind: Queue}},
		Demand:   [][]float64{{0.03, 0.01}, {0.01, 0.05}},
	}
	cases := []struct {
		name    string
		m       *Model
		bn      []int
		demand  float64
		ceiling float64
		nstar   float64
		maxRate float64
	}{
		{"closed N=0", web(0, false, 0), []int{2}, 0.04, 25, 14.25, 0},
		{"closed N=50", web(50, false, 0), []int{2}, 0.04, 25, 14.25, 0},
		{"open λ=0", web(0, true, 0), []int{2}, 0.04, 25, 0, 25},
		{"two classes no jobs", two, []int{1}, 0.03, 1 / 0.03, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Solve(context.Background(), tc.m, "auto", AMVAOptions{})
			if err != nil {
				t.Fatal(err)
			}
			s := SaturationOf(tc.m, r)
			if len(s.Bottlenecks) != len(tc.bn) || s.Bottlenecks[0] != tc.bn[0] {
				t.Fatalf("bottlenecks %v, want %v", s.Bottlenecks, tc.bn)
			}
			for _, q := range []struct {
				what      string
				got, want float64
			}{{"demand", s.Demand, tc.demand}, {"ceiling", s.Ceiling, tc.ceiling}, {"N*", s.NStar, tc.nstar}, {"max rate", s.MaxRate, tc.maxRate}} {
				if math.Abs(q.got-q.want) > 1e-9*math.Max(1, q.want) {
					t.Errorf("%s = %g, want %g", q.what, q.got, q.want)
				}
			}
		})
	}
}
