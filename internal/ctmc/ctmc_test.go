package ctmc

import (
	"errors"
	"math"
	"testing"
)

func rel(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / math.Max(math.Abs(a), math.Abs(b))
}

// The machine-repairman model M/M/m//N (N terminals with think time Z, one m-server
// station with service time S) has the closed form (Kleinrock vol. 1 §3.9; BGdMT §6.4)
//
//	p(n) ∝ N!/(N−n)! · (S/Z)^n / β(n),  β(n) = n! for n ≤ m, m!·m^(n−m) otherwise.
func TestMachineRepairman(t *testing.T) {
	for _, tc := range []struct {
		N, m int
		S, Z float64
	}{{5, 1, 1, 2}, {8, 3, 2, 1}, {12, 4, 0.7, 0.3}, {3, 5, 1, 1}} {
		m := tc.m
		capf := func(n int) float64 { return math.Min(float64(n), float64(m)) }
		net := Demands([]func(int) float64{capf}, [][]float64{{tc.S}}, []float64{tc.Z}, []int{tc.N})
		sol, err := Solve(net, 10000)
		if err != nil {
			t.Fatal(err)
		}
		w := make([]float64, tc.N+1)
		tot := 0.0
		for n := 0; n <= tc.N; n++ {
			v := 1.0
			for i := 0; i < n; i++ {
				v *= float64(tc.N-i) * tc.S / tc.Z
				v /= math.Min(float64(i+1), float64(m))
			}
			w[n] = v
			tot += v
		}
		q := 0.0
		for n := range w {
			w[n] /= tot
			q += float64(n) * w[n]
			if e := rel(sol.Marginal[0][n], w[n]); e > 1e-11 {
				t.Errorf("%+v: P(n=%d) = %.15g, closed form %.15g", tc, n, sol.Marginal[0][n], w[n])
			}
		}
		if e := rel(sol.QueueLength[0][0], q); e > 1e-11 {
			t.Errorf("%+v: Q = %.15g, closed form %.15g", tc, sol.QueueLength[0][0], q)
		}
		// Little at the terminals: Q_terminal = X·Z, and Σ Q = N.
		x := sol.ClassThroughput(0, [][]float64{{tc.S}}, []float64{tc.Z})
		if e := rel(sol.QueueLength[1][0], x*tc.Z); e > 1e-11 {
			t.Errorf("%+v: terminals hold %g, X·Z = %g", tc, sol.QueueLength[1][0], x*tc.Z)
		}
		if sol.Residual > 1e-12 {
			t.Errorf("%+v: residual %g", tc, sol.Residual)
		}
	}
}

// Two classes at one PS queue, no think time: the product form (BCMP) gives
// P(n₁, n₂) ∝ (n₁+n₂)!/(n₁!n₂!)·D₁^n₁·D₂^n₂ at the queue; with nothing else in the network
// every job is at the queue, so the state is fixed and Q = N; the throughputs are
// X_c = (N_c/N)/D_c (each class gets the server in proportion to its jobs).
func TestSingleStationTwoClasses(t *testing.T) {
	D := [][]float64{{2}, {0.5}}
	net := Demands([]func(int) float64{func(int) float64 { return 1 }}, D, []float64{0, 0}, []int{3, 1})
	sol, err := Solve(net, 100)
	if err != nil {
		t.Fatal(err)
	}
	if sol.States != 1 {
		t.Fatalf("states = %d, want 1", sol.States)
	}
	for c, want := range []float64{0.75 / 2, 0.25 / 0.5} {
		if x := sol.ClassThroughput(c, D, []float64{0, 0}); rel(x, want) > 1e-14 {
			t.Errorf("X_%d = %g, want %g", c, x, want)
		}
	}
}

func TestTooLarge(t *testing.T) {
	capf := func(int) float64 { return 1 }
	net := Demands([]func(int) float64{capf, capf, capf}, [][]float64{{1, 1, 1}}, []float64{1}, []int{100})
	if _, err := Solve(net, 1000); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

// GTH and LU agree on the means of a three-station network (an independent check of the
// elimination code).
func TestGTHvsLU(t *testing.T) {
	capf := []func(int) float64{
		func(int) float64 { return 1 },
		func(n int) float64 { return math.Min(float64(n), 2) },
		func(n int) float64 { return []float64{1, 1.6, 2.1, 2.4}[min(n, 4)-1] },
	}
	D := [][]float64{{0.3, 1.1, 0.4}, {0.2, 0, 0.9}}
	Z := []float64{1, 0}
	N := []int{3, 2}
	a, err := Solve(Demands(capf, D, Z, N), 5000)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SolveLU(Demands(capf, D, Z, N), 5000)
	if err != nil {
		t.Fatal(err)
	}
	for k := range a.QueueLength {
		for c := range a.QueueLength[k] {
			if e := rel(a.QueueLength[k][c], b.QueueLength[k][c]); e > 1e-12 {
				t.Errorf("Q[%d][%d]: GTH %.15g, LU %.15g", k, c, a.QueueLength[k][c], b.QueueLength[k][c])
			}
		}
	}
}

// BenchmarkSolve: three stations (queue, 2-server, load-dependent) plus terminals, two
// classes (3, 2): 700 states by GTH.
func BenchmarkSolve(b *testing.B) {
	capf := []func(int) float64{
		func(int) float64 { return 1 },
		func(n int) float64 { return math.Min(float64(n), 2) },
		func(n int) float64 { return []float64{1, 1.6, 2.1, 2.4}[min(n, 4)-1] },
	}
	net := Demands(capf, [][]float64{{0.3, 1.1, 0.4}, {0.2, 0.5, 0.9}}, []float64{1, 2}, []int{3, 2})
	for b.Loop() {
		if _, err := Solve(net, 5000); err != nil {
			b.Fatal(err)
		}
	}
}
