package qn

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSolveFiniteOrError: whatever the model (random kinds, populations up to 60, times
// over 1e-300…1e300, open classes near saturation), Solve either returns an error or a
// result whose every number is finite and non-negative, with U ≤ 1 (+rounding) at queueing
// stations and a method label (issue 12's rule, issue 13's labels). An approximation may
// break U ≤ 1 (Linearizer near saturation does, by up to 2e-4 here) only with a note
// saying so.
func TestSolveFiniteOrError(t *testing.T) {
	rng := rand.New(rand.NewPCG(99, 12))
	n := 120
	if testing.Short() {
		n = 60
	}
	answered := 0
	for i := 0; i < n; i++ {
		m := randomLDModel(rng)
		s := math.Pow(10, 600*rng.Float64()-300)
		for c := range m.Classes {
			m.Classes[c].Population = rng.IntN(30)
			m.Classes[c].ThinkTime *= s
			for k := range m.Demand[c] {
				m.Demand[c][k] *= s
			}
		}
		if rng.IntN(4) == 0 { // an open class
			m.Classes[0].Open = true
			m.Classes[0].ArrivalRate = rng.Float64() / s
		}
		for _, solver := range []string{"auto", "schweitzer", "linearizer"} {
			r, err := Solve(context.Background(), m, solver, AMVAOptions{})
			if err != nil {
				continue
			}
			answered++
			if r.Method == "" {
				t.Errorf("case %d %s: no method", i, solver)
			}
			bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
			for c := range m.Classes {
				if bad(r.Throughput[c]) || bad(r.ResponseTime[c]) {
					t.Errorf("case %d %s: class %d X %v R %v", i, solver, c, r.Throughput[c], r.ResponseTime[c])
				}
				for k, st := range m.Stations {
					if bad(r.QueueLength[k][c]) || bad(r.Residence[k][c]) || bad(r.Utilization[k][c]) {
						t.Errorf("case %d %s: station %d class %d Q %v R %v U %v", i, solver, k, c, r.QueueLength[k][c], r.Residence[k][c], r.Utilization[k][c])
					}
					if st.Kind != Delay && r.StationUtilization(k) > 1+1e-12 && (r.Exact || !hasNote(r, "infeasible")) {
						t.Errorf("case %d %s: station %d (%v) U = %v N %v", i, solver, k, st.Kind, r.StationUtilization(k), m.Classes)
					}
				}
			}
		}
	}
	if answered < n {
		t.Fatalf("only %d answers from %d models × 3 solvers", answered, n)
	}
}

func hasNote(r *Result, frag string) bool {
	for _, n := range r.Notes {
		if strings.Contains(n, frag) {
			return true
		}
	}
	return false
}
