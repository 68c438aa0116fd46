package ctmc

import (
	"errors"
	"math"
	"testing"
)

// TestBlockingTwoStationClosedForm: a two-station ring (1 → 2 → 1) with capacities M1, M2 < N
// under blocking after service is a birth–death chain on the sequence
// B1, n1 = N−M2, …, n1 = M1, B2 (B1: station 1 blocked with station 2 full, B2 the converse):
// a completion at 2 moves one step up, at 1 one step down, and both stations hold jobs in
// every state, so p_i ∝ ρ^i with ρ = μ2/μ1. Station 2 serves in every state but B2:
// X = μ2·(1 − p(B2)); Q1 = Σ p·n1 (n1 = N−M2 in B1, M1 in B2). Derived by hand from the
// BAS rules (Akyildiz 1988, §II).
func TestBlockingTwoStationClosedForm(t *testing.T) {
	for _, tc := range []struct {
		N, M1, M2 int
		S1, S2    float64
	}{{5, 3, 3, 1, 0.7}, {7, 4, 5, 0.5, 1.3}, {4, 3, 2, 2, 2}} {
		sol, err := SolveBlocking(BlockingNetwork{Service: []float64{tc.S1, tc.S2}, Routing: [][]float64{{0, 1}, {1, 0}},
			Limit: []int{tc.M1, tc.M2}, Population: tc.N}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		rho := (1 / tc.S2) / (1 / tc.S1)
		lo, hi := tc.N-tc.M2, tc.M1
		var p, n1 []float64
		p, n1 = append(p, 1), append(n1, float64(lo)) // B1
		for n := lo; n <= hi; n++ {
			p, n1 = append(p, p[len(p)-1]*rho), append(n1, float64(n))
		}
		p, n1 = append(p, p[len(p)-1]*rho), append(n1, float64(hi)) // B2
		tot := 0.0
		for _, v := range p {
			tot += v
		}
		q1 := 0.0
		for i := range p {
			p[i] /= tot
			q1 += p[i] * n1[i]
		}
		x := (1 / tc.S2) * (1 - p[len(p)-1])
		if sol.States != len(p) || rel(sol.Throughput[1], x) > 1e-12 || rel(sol.Throughput[0], x) > 1e-12 || rel(sol.QueueLength[0], q1) > 1e-12 {
			t.Errorf("%+v: %d states, X %.15g/%.15g, Q1 %.15g; closed form %d states, X %.15g, Q1 %.15g",
				tc, sol.States, sol.Throughput[0], sol.Throughput[1], sol.QueueLength[0], len(p), x, q1)
		}
		if rel(sol.Blocked[0], p[0]) > 1e-12 || rel(sol.Blocked[1], p[len(p)-1]) > 1e-12 {
			t.Errorf("%+v: blocked %v, closed form %v, %v", tc, sol.Blocked, p[0], p[len(p)-1])
		}
	}
}

// TestBlockingDeadlock: N = M1 + M2 fills both stations of a ring; the first completion blocks
// one station on the other, and the next blocks the other: a state with no way out.
func TestBlockingDeadlock(t *testing.T) {
	_, err := SolveBlocking(BlockingNetwork{Service: []float64{1, 1}, Routing: [][]float64{{0, 1}, {1, 0}}, Limit: []int{2, 2}, Population: 4}, 1000)
	if !errors.Is(err, ErrDeadlock) {
		t.Errorf("got %v, want ErrDeadlock", err)
	}
	_, err = SolveBlocking(BlockingNetwork{Service: []float64{1, 1, 1}, Routing: [][]float64{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}, Limit: []int{0, 0, 0}, Population: 60}, 100)
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
}

// TestBlockingUnlimitedProductForm: without limits the chain is the product-form network of
// Solve (same routing, single servers): equal queue lengths.
func TestBlockingUnlimitedProductForm(t *testing.T) {
	S := []float64{0.3, 0.8, 0.5}
	P := [][]float64{{0.1, 0.6, 0.3}, {1, 0, 0}, {0.5, 0.5, 0}}
	b, err := SolveBlocking(BlockingNetwork{Service: S, Routing: P, Limit: []int{0, 0, 0}, Population: 6}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	one := func(int) float64 { return 1 }
	pf, err := Solve(Network{Capacity: []func(int) float64{one, one, one}, Service: [][]float64{S}, Routing: [][][]float64{P}, Population: []int{6}, Start: []int{0}}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for k := range S {
		if math.Abs(b.QueueLength[k]-pf.QueueLength[k][0]) > 1e-12 || rel(b.Throughput[k], pf.Throughput[k][0]) > 1e-12 {
			t.Errorf("station %d: Q %.15g vs %.15g, X %.15g vs %.15g", k, b.QueueLength[k], pf.QueueLength[k][0], b.Throughput[k], pf.Throughput[k][0])
		}
	}
}

func BenchmarkSolveBlocking(b *testing.B) {
	net := BlockingNetwork{Service: []float64{0.2, 0.5, 0.6}, Routing: [][]float64{{0.2, 0.5, 0.3}, {1, 0, 0}, {0.6, 0.4, 0}}, Limit: []int{12, 10, 8}, Population: 17}
	for b.Loop() {
		if _, err := SolveBlocking(net, 1000); err != nil {
			b.Fatal(err)
		}
	}
}
