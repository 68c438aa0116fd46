package qn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// permutations returns every ordering of 0 … n−1.
func permutations(n int) [][]int {
	if n == 1 {
		return [][]int{{0}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// sameResult reports the largest relative difference between two results' X, R, Q, U.
func sameResult(a, b *Result) float64 {
	worst := 0.0
	cmp := func(x, y float64) {
		if d := math.Abs(x-y) / math.Max(math.Abs(y), 1e-300); x != y && d > worst {
			worst = d
		}
	}
	for c := range a.Throughput {
		cmp(a.Throughput[c], b.Throughput[c])
		cmp(a.ResponseTime[c], b.ResponseTime[c])
	}
	for k := range a.QueueLength {
		for c := range a.QueueLength[k] {
			cmp(a.QueueLength[k][c], b.QueueLength[k][c])
			cmp(a.Residence[k][c], b.Residence[k][c])
			cmp(a.Utilization[k][c], b.Utilization[k][c])
		}
	}
	return worst
}

// TestClassOrderSameAnswer: the walk order is a matter of time only. On random closed
// networks (C = 2 … 4, queue and delay stations; every 3rd with a multi-server and a
// load-dependent station, solved by the marginal recursion) every permutation of the
// classes, given to MVAMulti, MVAMultiParallel and MVAMultiInterleaved (2 workers), gives the
// default order's X, R, Q and U to a relative 1e-12: exact MVA is order free (the product-
// form solution does not depend on the path through the lattice), so only rounding differs.
func TestClassOrderSameAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 8))
	for i := 0; i < 24; i++ {
		C, K := 2+i%3, 2+i%4
		m := randomClosed(rng, C, K, 7)
		marginal := i%3 == 2
		if marginal {
			m.Stations[0].Kind, m.Stations[0].Servers = MultiServer, 2
			m.Stations[1].Kind = LoadDependent
			m.Stations[1].Rates = []float64{1, 1.6, 2}
		}
		want, err := MVAMulti(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, order := range permutations(C) {
			got, err := MVAMulti(m, WithClassOrder(order))
			if err != nil {
				t.Fatal(err)
			}
			if d := sameResult(got, want); d > 1e-12 {
				t.Errorf("model %d (C=%d, marginal %v), order %v: MVAMulti differs by %.3g", i, C, marginal, order, d)
			}
			if marginal {
				continue // the parallel walks solve queue and delay stations only
			}
			for name, f := range map[string]func(*Model, int, ...ExactOption) (*Result, *ParallelStats, error){
				"parallel": MVAMultiParallel, "interleaved": MVAMultiInterleaved} {
				got, _, err := f(m, 2, WithClassOrder(order))
				if err != nil {
					t.Fatal(err)
				}
				if d := sameResult(got, want); d > 1e-12 {
					t.Errorf("model %d, order %v: %s differs by %.3g", i, order, name, d)
				}
			}
		}
	}
}

// TestClassOrderIsUsed: the order reaches the walk — with the small class first the
// pipelined solver's class 1 has that class's populations (its workers get its range), and
// the default order puts the largest class first.
func TestClassOrderIsUsed(t *testing.T) {
	m := &Model{Classes: []Class{{Name: "a", Population: 3}, {Name: "b", Population: 9}},
		Stations: []Station{{Name: "cpu"}, {Name: "disk"}}, Demand: [][]float64{{1, 2}, {2, 1}}}
	_, st, err := MVAMultiParallel(m, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != 4 { // default: b (N = 9) is class 1; positions = N_a + 1
		t.Errorf("default order: %d positions, want 4", st.Positions)
	}
	_, st, err = MVAMultiParallel(m, 1, WithClassOrder([]int{0, 1}))
	if err != nil {
		t.Fatal(err)
	}
	if st.Positions != 10 { // a first: positions = N_b + 1
		t.Errorf("order a,b: %d positions, want 10", st.Positions)
	}
}

// TestClassOrderRefused: an order that is not a permutation of the classes is input.
func TestClassOrderRefused(t *testing.T) {
	m := &Model{Classes: []Class{{Name: "a", Population: 3}, {Name: "b", Population: 2}},
		Stations: []Station{{Name: "cpu"}}, Demand: [][]float64{{1}, {2}}}
	for _, o := range [][]int{{0}, {0, 0}, {0, 2}, {-1, 0}, {0, 1, 2}} {
		if _, err := MVAMulti(m, WithClassOrder(o)); !errors.Is(err, fault.ErrInput) {
			t.Errorf("order %v: %v, want fault.ErrInput", o, err)
		}
		if _, _, err := MVAMultiParallel(m, 2, WithClassOrder(o)); !errors.Is(err, fault.ErrInput) {
			t.Errorf("parallel, order %v: %v, want fault.ErrInput", o, err)
		}
	}
}

// fig68Network is the network of 001 Fig. 6.8: N_A = 4095, N_B = 127, N_C = 63 (3.4e7
// population vectors), with ThesisNetwork's stations and demands.
func fig68Network() *Model {
	m := ThesisNetwork()
	m.Classes[0].Name, m.Classes[1].Name, m.Classes[2].Name = "A", "B", "C"
	m.Classes[1].Population, m.Classes[2].Population = 127, 63
	return m
}

// BenchmarkFig68ClassOrder times the pipelined parallel MVA (MVAMultiParallel) on the Fig. 6.8
// network in each of the six class orders (ABC: A is class 1) at p = 1 and 2 workers, and
// reports the process's user CPU seconds per run (user-s/op) beside the wall time: on a
// shared machine the CPU time is the steadier figure. Run with -benchtime 1x -count 5.
func BenchmarkFig68ClassOrder(b *testing.B) {
	m := fig68Network()
	for _, order := range permutations(3) {
		name := ""
		for _, c := range order {
			name += m.Classes[c].Name
		}
		for _, p := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/p=%d", name, p), func(b *testing.B) {
				var before, after syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
				for b.Loop() {
					if _, _, err := MVAMultiParallel(m, p, WithClassOrder(order)); err != nil {
						b.Fatal(err)
					}
				}
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
				user := time.Duration(after.Utime.Nano() - before.Utime.Nano())
				b.ReportMetric(user.Seconds()/float64(b.N), "user-s/op")
			})
		}
	}
}
