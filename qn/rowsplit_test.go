package qn

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// populations lists m's class populations, for messages.
func populations(m *Model) []int {
	var N []int
	for _, c := range m.Classes {
		N = append(N, c.Population)
	}
	return N
}

// TestSplitIdentical: the row-split walk on any number of workers gives bit-for-bit the
// results of MVAMulti (the same arithmetic in the same order per point; the boundary rows
// are copies). Random networks C = 2 … 4, K = 2 … 7 (K_q = 1 … 6, incl. the unrolled 4),
// populations up to 14 so that the slices have 2 … 15² rows and 2, 3 and 5 workers split
// them (several splits, incl. ranges of exactly B rows), some classes empty.
func TestSplitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 27))
	split := 0
	for i := range 72 {
		C, K := 2+i%3, 2+i%6
		m := randomClosed(rng, C, K, 14)
		if i%5 == 2 {
			m.Classes[rng.IntN(C)].Population = 0
		}
		want, err := MVAMulti(m)
		p, err2 := newMulti(m, nil) // for a ring of one slice
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		for _, w := range []int{1, 2, 3, 5} {
			got, st, err := MVAMultiSplit(context.Background(), m, w)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameResult(got, want); d != 0 {
				t.Fatalf("model %d (C=%d K=%d N=%v) %d workers (%d ran, rows %v): differs from MVAMulti by %.3g relative", i, C, K, populations(m), w, st.Workers, st.Range, d)
			}
			if st.Points != want.Status.Iterations || got.Status.Iterations != want.Status.Iterations {
				t.Fatalf("model %d: %d/%d points, want %d", i, st.Points, got.Status.Iterations, want.Status.Iterations)
			}
			// a ring of one slice: the predecessor waits at every slice
			small, _, err := p.splitRows(context.Background(), w, 1)
			if err != nil {
				t.Fatal(err)
			}
			if d := sameResult(small, want); d != 0 {
				t.Fatalf("model %d, %d workers, ring of 1 slice: differs by %.3g", i, w, d)
			}
			if st.Workers > 1 {
				split++
				if got.Method != "mva-split" || !got.Exact {
					t.Fatalf("model %d: method %q exact %v on %d workers", i, got.Method, got.Exact, st.Workers)
				}
			}
		}
	}
	if split < 40 {
		t.Fatalf("only %d of the runs split a slice", split)
	}
}

// TestSplitThesisQuarter: the thesis network at N/4 = (1023, 44, 31) (1.5e6 vectors, 45
// rows of 32 points per slice) on 2 workers is bit-identical to MVAMulti, and each worker
// has about half the rows.
func TestSplitThesisQuarter(t *testing.T) {
	m := thesisScaled(4)
	want, err := MVAMulti(m)
	if err != nil {
		t.Fatal(err)
	}
	got, st, err := MVAMultiSplit(context.Background(), m, 2)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameResult(got, want); d != 0 {
		t.Fatalf("differs from MVAMulti by %.3g relative", d)
	}
	if st.Workers != 2 || len(st.Range) != 2 || st.Range[0]+st.Range[1] != 45 || st.Range[0] < 20 || st.Range[1] < 20 {
		t.Fatalf("workers %d, rows per worker %v (want 2 workers sharing the 45 rows about evenly)", st.Workers, st.Range)
	}
}

// TestSplitPoints: the row ranges cover the slice in order, each at least B rows long (a
// worker may read only its predecessor's rows), with work as equal as the rows allow. Row
// work = 2 + active classes among 1 … C−2 (splitPoints); each expected bound is worked out
// by hand in the comment (cum = cumulative work, target = total·j/workers, nearest bound).
func TestSplitPoints(t *testing.T) {
	for _, tc := range []struct {
		N             []int
		workers, back int
		want          []int
	}{
		{[]int{9, 9, 9}, 2, 1, []int{0, 5, 10}},                  // work 2,3×9 = 29: cum[5] = 14 nearest 14.5
		{[]int{9, 3, 9}, 5, 1, []int{0, 1, 2, 3, 4}},             // 4 rows: at most 4 workers
		{[]int{9, 2, 4, 9}, 2, 5, []int{0, 8, 15}},               // rows (n1, n2), B = 5: 14+19+19 = 52, cum[8] = 25 nearest 26
		{[]int{9, 1, 4, 9}, 3, 5, []int{0, 5, 10}},               // 10 rows, B = 5: 2 workers; nearest 6 capped at 10 − 5
		{[]int{9, 0, 9}, 2, 1, []int{0, 1}},                      // one row: sequential
		{[]int{9, 99, 9}, 3, 1, []int{0, 34, 67, 100}},           // 299: cum[34] = 101 ≈ 99.7, cum[67] = 200 ≈ 199.3
		{[]int{9, 3, 0, 9}, 2, 1, []int{0, 2, 4}},                // class 2 empty: B = 1 row; 2,3,3,3: cum[2] = 5 ≈ 5.5
		{[]int{5, 2, 2, 5}, 2, 3, []int{0, 5, 9}},                // B = 3; 8+11+11 = 30: cum[5] = 15
		{[]int{5, 2, 2, 5}, 3, 3, []int{0, 3, 6, 9}},             // B = 3: exactly B rows each
		{[]int{5, 1, 1, 1, 5}, 2, 4, []int{0, 4, 8}},             // C = 5: B = 2·2 rows; 12+16: nearest 5 capped at 8 − 4
		{[]int{5, 7, 5}, 1, 1, []int{0, 8}},                      // one worker
		{[]int{5, 7, 5}, 8, 1, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}}, // a row each
		{[]int{5, 7, 5}, 9, 1, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}}, // more workers than rows
	} {
		m := randomClosed(rand.New(rand.NewPCG(1, 2)), len(tc.N), 3, 1)
		order := make([]int, len(tc.N))
		for c, n := range tc.N {
			m.Classes[c].Population, order[c] = n, c
		}
		p, err := newMulti(m, []ExactOption{WithClassOrder(order)})
		if err != nil {
			t.Fatal(err)
		}
		rows := p.slice / (tc.N[len(tc.N)-1] + 1)
		if back := p.strides[1] / (tc.N[len(tc.N)-1] + 1); back != tc.back {
			t.Fatalf("N %v: B = %d rows, want %d", tc.N, back, tc.back)
		}
		if got := p.splitPoints(tc.workers, rows, tc.back); !slices.Equal(got, tc.want) {
			t.Errorf("N %v, %d workers: rows split at %v, want %v", tc.N, tc.workers, got, tc.want)
		}
	}
}

// TestSplitCancel: a cancelled ctx stops the split walk within a slice and returns the
// ctx's error, on 1 and 2 workers; a ctx cancelled before the call computes nothing.
func TestSplitCancel(t *testing.T) {
	m := thesisScaled(2) // 1.2e7 vectors: 0.1–0.5 s
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := MVAMultiSplit(ctx, m, 2); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: %v", err)
	}
	for _, w := range []int{1, 2} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		t0 := time.Now()
		_, _, err := MVAMultiSplit(ctx, m, w)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%d workers: err %v after %v, want the deadline's", w, err, time.Since(t0))
		}
		// The error alone shows the walk stopped: run to the end it returns nil. A slice of
		// N/2 is 89 rows of 64 points (~0.1 ms); the bound allows for a host so loaded that
		// the process waits for a CPU for hundreds of milliseconds.
		if dt := time.Since(t0); dt > time.Second {
			t.Errorf("%d workers: stopped %v after the call, want within a few slices of 5 ms", w, dt)
		}
	}
}

// BenchmarkMVAMultiSplitThesis: the thesis network on GOMAXPROCS workers (2 here), each
// slice split by rows; compare BenchmarkMVAMultiThesis (sequential) in paired runs
// (bench/paired).
func BenchmarkMVAMultiSplitThesis(b *testing.B) {
	benchSolve(b, ThesisNetwork(), func(m *Model) (*Result, error) {
		r, _, err := MVAMultiSplit(context.Background(), m, 0)
		return r, err
	})
}

// TestSolveMVASplit: Solve's exact multi-class MVA uses MVAMultiSplit from
// ParallelThreshold population vectors (method "mva-split" and the cores in the reason when
// GOMAXPROCS ≥ 2), MVAMulti below it, with the same numbers; and a ctx deadline stops it.
func TestSolveMVASplit(t *testing.T) {
	big := thesisScaled(4) // 1.5e6 vectors
	small := thesisScaled(8)
	for _, tc := range []struct {
		m      *Model
		solver string
	}{{big, "mva"}, {big, "auto"}, {small, "mva"}} {
		r, err := Solve(context.Background(), tc.m, tc.solver, AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Method == "comom" { // auto may find comom cheaper (its cost model is comom.go's)
			continue
		}
		want, err := MVAMulti(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		if d := sameResult(r, want); d != 0 {
			t.Errorf("%s on %v: differs from MVAMulti by %.3g", tc.solver, populations(tc.m), d)
		}
		split := LatticeSize(tc.m) >= ParallelThreshold && runtime.GOMAXPROCS(0) >= 2
		if got := r.Method == "mva-split" && strings.Contains(r.Reason, "cores"); got != split || !r.Exact {
			t.Errorf("%s on %v: method %q exact %v reason %q; want the split: %v", tc.solver, populations(tc.m), r.Method, r.Exact, r.Reason, split)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	if _, err := Solve(ctx, thesisScaled(2), "mva", AMVAOptions{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v after %v, want the deadline's", err, time.Since(t0))
	}
}
