package qn

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// blockingModel is a closed single-class model of single-server queues routed by P.
func blockingModel(t *testing.T, N int, S []float64, P [][]float64) (*Model, []*Routing) {
	t.Helper()
	K := len(S)
	V, err := ClosedVisits(P, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{Classes: []Class{{Name: "c", Population: N}}, Visits: [][]float64{V}, Demand: [][]float64{make([]float64, K)}}
	for k := 0; k < K; k++ {
		m.Stations = append(m.Stations, Station{Name: string(rune('a' + k)), Kind: Queue, Count: 1})
		m.Demand[0][k] = V[k] * S[k]
	}
	return m, []*Routing{{P: P}}
}

// TestMVABLOAkyildiz checks mvablo against the examples of Akyildiz (IEEE TSE 14(4), 1988,
// p. 422 § v and p. 424 examples 2 and 3) as GNU Octave's qncsmvablo tests quote them
// (residence times per visit, 3-4 digits as printed in the paper).
func TestMVABLOAkyildiz(t *testing.T) {
	ring := [][]float64{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}}
	cs := [][]float64{{0, 0.5, 0.5}, {1, 0, 0}, {1, 0, 0}}
	for _, tc := range []struct {
		N   int
		S   []float64
		M   []int
		P   [][]float64
		R   []float64
		tol float64
	}{
		{27, []float64{1, 1.0 / 2, 1.0 / 3}, []int{12, 10, 14}, ring, []float64{11.80, 1.66, 14.4}, 1e-2},
		{10, []float64{1.5, 2, 1}, []int{4, 5, 5}, ring, []float64{6.925, 8.061, 4.185}, 1e-3},
		{12, []float64{1.5, 2, 1}, []int{4, 5, 5}, ring, []float64{7.967, 9.019, 8.011}, 1e-3},
		{10, []float64{0.2, 1.2, 1.4}, []int{8, 7, 6}, cs, []float64{1.674, 5.007, 7.639}, 1e-3},
		{12, []float64{0.2, 1.2, 1.4}, []int{8, 7, 6}, cs, []float64{2.166, 5.372, 6.567}, 1e-3},
	} {
		V, _ := ClosedVisits(tc.P, 0)
		_, r, err := mvablo(tc.S, V, tc.P, tc.M, tc.N)
		if err != nil {
			t.Fatal(err)
		}
		for k := range r {
			if math.Abs(r[k]-tc.R[k]) > tc.tol*1.0001 {
				t.Errorf("N=%d M=%v: R[%d] = %.4f, paper %.4f", tc.N, tc.M, k, r[k], tc.R[k])
			}
		}
	}
}

// TestBlockingCTMCUnlimited: with capacities that never bind (≥ N) the blocking CTMC is the
// product-form network, so it must equal exact MVA (Reiser–Lavenberg) to rounding.
func TestBlockingCTMCUnlimited(t *testing.T) {
	S := []float64{1, 1 / 0.8, 1 / 0.4}
	P := [][]float64{{0, 0.7, 0.3}, {1, 0, 0}, {1, 0, 0}}
	for _, N := range []int{1, 4, 9} {
		m, r := blockingModel(t, N, S, P)
		ex, err := SolveBlocking(m, []int{N, N, 0}, r, "exact")
		if err != nil {
			t.Fatal(err)
		}
		mv, err := Solve(context.Background(), m, "mva", AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !ex.Exact || rel(ex.Throughput[0], mv.Throughput[0]) > 1e-10 {
			t.Errorf("N=%d: CTMC X = %.12g, MVA %.12g", N, ex.Throughput[0], mv.Throughput[0])
		}
		for k := range S {
			if math.Abs(ex.QueueLength[k][0]-mv.QueueLength[k][0]) > 1e-10*float64(N) {
				t.Errorf("N=%d: Q[%d] CTMC %.12g, MVA %.12g", N, k, ex.QueueLength[k][0], mv.QueueLength[k][0])
			}
		}
	}
}

func rel(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }

// TestBlockingCTMCTwoStation: a two-station ring with capacities 3, 3 and 5 jobs under
// blocking after service. Invariants of the exact chain: equal throughput at both stations
// (flow conservation), Q1 + Q2 = N, the capacities respected, and a binding capacity lowers
// the throughput against the unlimited network.
func TestBlockingCTMCTwoStation(t *testing.T) {
	S := []float64{1, 0.7}
	P := [][]float64{{0, 1}, {1, 0}}
	m, r := blockingModel(t, 5, S, P)
	ex, err := SolveBlocking(m, []int{3, 3}, r, "exact")
	if err != nil {
		t.Fatal(err)
	}
	free, err := SolveBlocking(m, []int{0, 0}, r, "exact")
	if err != nil {
		t.Fatal(err)
	}
	if q := ex.QueueLength[0][0] + ex.QueueLength[1][0]; math.Abs(q-5) > 1e-10 {
		t.Errorf("Q1 + Q2 = %v, want 5", q)
	}
	if x1, x2 := ex.Utilization[0][0]/S[0], ex.Utilization[1][0]/S[1]; rel(x1, x2) > 1e-10 || rel(x1, ex.Throughput[0]) > 1e-10 {
		t.Errorf("station throughputs %v, %v, cycle %v: want equal", x1, x2, ex.Throughput[0])
	}
	if !(ex.Throughput[0] < free.Throughput[0]) {
		t.Errorf("blocking X = %v not below the unlimited %v", ex.Throughput[0], free.Throughput[0])
	}
	// Station 2 never holds more than 3, so station 1 holds at least 2
	if ex.QueueLength[0][0] < 2 || ex.QueueLength[1][0] > 3 {
		t.Errorf("Q = %v outside the capacities", ex.QueueLength)
	}
}

// TestSolveBlockingRefuses: what MVABLO and the CTMC do not cover is refused as input,
// naming capacity; a population that fills every capacity deadlocks.
func TestSolveBlockingRefuses(t *testing.T) {
	S := []float64{1, 1}
	P := [][]float64{{0, 1}, {1, 0}}
	m, r := blockingModel(t, 4, S, P)
	if _, err := SolveBlocking(m, []int{2, 2}, r, "exact"); !errors.Is(err, fault.ErrDeadlock) {
		t.Errorf("N = ΣM: %v, want deadlock", err)
	}
	if _, err := SolveBlocking(m, []int{1, 2}, r, "auto"); !errors.Is(err, fault.ErrInput) {
		t.Errorf("N > ΣM: %v, want input error", err)
	}
	m.Classes[0].ThinkTime = 1
	if _, err := SolveBlocking(m, []int{3, 3}, r, "auto"); !errors.Is(err, fault.ErrInput) {
		t.Errorf("think time: %v, want input error", err)
	}
	m.Classes[0].ThinkTime = 0
	m.Classes = append(m.Classes, Class{Name: "d", Open: true, ArrivalRate: 1})
	if _, err := SolveBlocking(m, []int{3, 3}, r, "auto"); !errors.Is(err, fault.ErrInput) {
		t.Errorf("two classes: %v, want input error", err)
	}
}

// TestSolveBlockingAuto: auto solves a small network exactly and a large one by MVABLO with
// its error measured against the exact CTMC of the network scaled down (population and
// capacities) to the largest population within the budget; the labels say which.
func TestSolveBlockingAuto(t *testing.T) {
	S := []float64{0.2, 0.5, 0.6}
	P := [][]float64{{0.2, 0.5, 0.3}, {1, 0, 0}, {0.6, 0.4, 0}}
	m, r := blockingModel(t, 5, S, P)
	res, err := SolveBlocking(m, []int{4, 3, 2}, r, "auto")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exact || res.ErrorEstimate != nil || res.Solver != "auto" || res.Method != "ctmc-blocking-after-service" {
		t.Errorf("small network: method %q exact %v estimate %v", res.Method, res.Exact, res.ErrorEstimate)
	}
	m, r = blockingModel(t, 150, S, P)
	res, err = SolveBlocking(m, []int{80, 80, 80}, r, "auto")
	if err != nil {
		t.Fatal(err)
	}
	e := res.ErrorEstimate
	if res.Exact || res.Method != "mvablo" || e == nil || e.MeasuredRelError == nil || len(e.MeasuredPopulation) != 1 {
		t.Fatalf("large network: method %q exact %v estimate %+v", res.Method, res.Exact, e)
	}
	n := e.MeasuredPopulation[0]
	if n < 2 || n >= 150 || !(e.RelError >= 0) {
		t.Errorf("measured at population %d, error %v", n, e.RelError)
	}
	t.Logf("N = 150: mvablo X = %.5g, error %.4f measured at N = %d", res.Throughput[0], e.RelError, n)
	if _, err := SolveBlocking(m, []int{80, 80, 80}, r, "linearizer"); !errors.Is(err, fault.ErrInput) {
		t.Errorf("solver linearizer: %v, want input error", err)
	}
}

func benchBlocking(b *testing.B, solver string, N int, M []int) {
	S := []float64{0.2, 0.5, 0.6}
	P := [][]float64{{0.2, 0.5, 0.3}, {1, 0, 0}, {0.6, 0.4, 0}}
	V, _ := ClosedVisits(P, 0)
	m := &Model{Classes: []Class{{Name: "c", Population: N}}, Visits: [][]float64{V}, Demand: [][]float64{{V[0] * S[0], V[1] * S[1], V[2] * S[2]}},
		Stations: []Station{{Name: "a", Kind: Queue}, {Name: "b", Kind: Queue}, {Name: "c", Kind: Queue}}}
	r := []*Routing{{P: P}}
	for b.Loop() {
		if _, err := SolveBlocking(m, M, r, solver); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolveBlockingExact: a 3-station network whose CTMC is near the budget.
func BenchmarkSolveBlockingExact(b *testing.B) { benchBlocking(b, "exact", 17, []int{12, 10, 8}) }

// BenchmarkSolveBlockingMVABLO: N = 150, with the error measurement (a CTMC near the budget).
func BenchmarkSolveBlockingMVABLO(b *testing.B) { benchBlocking(b, "mvablo", 150, []int{80, 80, 80}) }
