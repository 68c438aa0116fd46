package qn

import (
	"context"
	"math"
	"testing"
)

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
