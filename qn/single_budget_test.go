package qn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// queues returns a single-class model of K identical queue stations of demand d.
func queues(N, K int, d, z float64) *Model {
	m := &Model{Classes: []Class{{Name: "c", Population: N, ThinkTime: z}}, Demand: [][]float64{make([]float64, K)}}
	for k := range K {
		m.Stations = append(m.Stations, Station{Name: fmt.Sprint("s", k), Kind: Queue})
		m.Demand[0][k] = d
	}
	return m
}

// Review finding (P1): one class of 1e8 jobs at 1000 stations is 1e11 population vectors ×
// stations (N·K, the unit of MaxSweepWork) and ran for hours. Exact MVA must refuse it before
// any work (fault.ErrTooLarge naming the estimate and the limit), auto must fall back to an
// approximation and say why, and --exact (RequireExact) must refuse.
func TestSingleClassBudget(t *testing.T) {
	m := queues(100_000_000, 1000, 0.001, 1)
	start := time.Now()
	for _, solve := range []func() error{
		func() error { _, err := MVASingle(context.Background(), m); return err },
		func() error { _, _, err := MVASingleTrajectory(m); return err },
		func() error { _, err := Solve(context.Background(), m, "mva", AMVAOptions{}); return err },
		func() error {
			_, err := Solve(context.Background(), m, "auto", AMVAOptions{RequireExact: true})
			return err
		},
	} {
		err := solve()
		if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "1e+11") || !strings.Contains(err.Error(), "limit 2e+09") {
			t.Errorf("err = %v, want fault.ErrTooLarge naming the estimate 1e+11 and the limit 2e+09", err)
		}
	}
	r, err := Solve(context.Background(), m, "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Exact || r.Solver != "linearizer" || !strings.Contains(r.Reason, "approximated by Linearizer") || r.ErrorEstimate == nil {
		t.Errorf("auto: solver %s exact %v reason %q estimate %v, want Linearizer with its reason and error estimate", r.Solver, r.Exact, r.Reason, r.ErrorEstimate)
	}
	// Asymptote (QSP §5.2): X ≤ 1/D_max = 1000 and, at N ≫ N*, X → 1/D_max.
	if x := r.Throughput[0]; !(x <= 1000*(1+1e-12) && x > 999) {
		t.Errorf("X = %v, want just below 1/D_max = 1000", x)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v: the refusals must come before the work", d)
	}
}

// Ctrl-C: MVASingle looks at ctx about every million operations, so a cancelled ctx
// stops a 1e9-operation solve (population 1e6, 1000 queues: within the budget) at once
// with fault.ErrInterrupted and context.Canceled (exit 130), and so does Solve with
// Solve's ctx.
func TestSingleClassCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := queues(1_000_000, 1000, 0.001, 1)
	marg := &Model{
		Classes:  []Class{{Name: "c", Population: 1_000_000, ThinkTime: 1}},
		Stations: []Station{{Name: "m", Kind: MultiServer, Servers: 100}, {Name: "l", Kind: LoadDependent, Rates: []float64{1, 2, 3, 4}}},
		Demand:   [][]float64{{0.1, 0.1}},
	}
	start := time.Now()
	for _, mm := range []*Model{m, marg} {
		if _, err := MVASingle(ctx, mm); !errors.Is(err, fault.ErrInterrupted) || !errors.Is(err, context.Canceled) {
			t.Errorf("MVASingle: err = %v, want fault.ErrInterrupted and context.Canceled", err)
		}
		if _, err := Solve(ctx, mm, "auto", AMVAOptions{}); !errors.Is(err, context.Canceled) {
			t.Errorf("Solve: err = %v, want context.Canceled", err)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v after cancellation", d)
	}
}

// An m-server station with m ≥ N never queues: it is a delay station, exactly, and the
// recursion treats it as one (review finding: servers 1e8 at N = 1e6 ran O(N²)). Closed
// form for a network of delays: X = N/(Z + ΣD) (QSP §6.2 with R_k = D_k); the per-server
// utilisation is X·D/m.
func TestSingleClassManyServers(t *testing.T) {
	for _, tc := range []struct{ N, servers int }{{5, 5}, {5, 6}, {1_000_000, 100_000_000}} {
		m := &Model{
			Classes:  []Class{{Name: "c", Population: tc.N, ThinkTime: 1}},
			Stations: []Station{{Name: "m", Kind: MultiServer, Servers: tc.servers}},
			Demand:   [][]float64{{0.1}},
		}
		r := solveWith(t, bg(MVASingle), m)
		x := float64(tc.N) / 1.1
		if !closeTo(r.Throughput[0], x, 1e-12) || !closeTo(r.Residence[0][0], 0.1, 1e-12) || !closeTo(r.Utilization[0][0], x*0.1/float64(tc.servers), 1e-12) {
			t.Errorf("%+v: X %v R %v U %v, want %v, 0.1, %v", tc, r.Throughput[0], r.Residence[0][0], r.Utilization[0][0], x, x*0.1/float64(tc.servers))
		}
	}
	// m = N − 1 still queues (the marginal recursion); against the multi-class code path.
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 6, ThinkTime: 1}},
		Stations: []Station{{Name: "m", Kind: MultiServer, Servers: 5}, {Name: "q", Kind: Queue}},
		Demand:   [][]float64{{2, 0.3}},
	}
	want, err := mvaMultiLD(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	compareResults(t, "m = N−1", m, solveWith(t, bg(MVASingle), m), want, 1e-12)
}

// The load-dependent recursion keeps L = min(len(Rates), N) marginal probabilities (it kept
// N + 1: O(N²), review finding with rates [1,2,3,4] at N = 1e6). Checks: rates 1..4 equal a
// 4-server station (α(j) = min(j, 4): the multi-server branch of the same code), and the
// multi-class code (mvaMultiLD, its own L-truncated form), for N below and above len(Rates).
func TestSingleClassLDTruncated(t *testing.T) {
	for _, N := range []int{1, 2, 3, 4, 5, 50, 2000} {
		ld := &Model{
			Classes:  []Class{{Name: "c", Population: N, ThinkTime: 1}},
			Stations: []Station{{Name: "l", Kind: LoadDependent, Rates: []float64{1, 2, 3, 4}}, {Name: "q", Kind: Queue}},
			Demand:   [][]float64{{0.9, 0.2}},
		}
		ms := ld.Clone()
		ms.Stations[0] = Station{Name: "l", Kind: MultiServer, Servers: 4}
		got := solveWith(t, bg(MVASingle), ld)
		want := solveWith(t, bg(MVASingle), ms)
		for k := range ld.Stations {
			if !closeTo(got.QueueLength[k][0], want.QueueLength[k][0], 1e-10) || !closeTo(got.Throughput[0], want.Throughput[0], 1e-12) {
				t.Errorf("N=%d: LD X %v Q[%d] %v, 4-server %v %v", N, got.Throughput[0], k, got.QueueLength[k][0], want.Throughput[0], want.QueueLength[k][0])
			}
		}
		mc, err := mvaMultiLD(ld, nil)
		if err != nil {
			t.Fatal(err)
		}
		compareResults(t, fmt.Sprint("N=", N), ld, got, mc, 1e-10)
	}
}

// Review finding (P2): --solver forkjoin on a model without fork/join nodes printed
// "APPROXIMATE; no error estimate" though the recursion is then exact MVA (QSP eqs.
// 6.1–6.3): the result must be marked exact, equal exact MVA, and be allowed with
// RequireExact. A huge population is refused before the work (fault.ErrTooLarge).
func TestForkJoinWithoutForksIsExact(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 64, ThinkTime: 0.5}},
		Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "net", Kind: Delay}, {Name: "disk", Kind: Queue, Count: 3}},
		Demand:   [][]float64{{0.2, 0.1, 0.05}},
	}
	want := solveWith(t, bg(MVASingle), m)
	for _, opt := range []AMVAOptions{{}, {RequireExact: true}} {
		r, err := Solve(context.Background(), m, "forkjoin", opt)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exact || r.ErrorEstimate != nil || !strings.Contains(r.Reason, "no fork/join nodes") {
			t.Errorf("exact %v estimate %v reason %q, want exact with the reason", r.Exact, r.ErrorEstimate, r.Reason)
		}
		compareResults(t, "forkjoin without forks", m, r, want, 1e-12)
	}
	big := queues(100_000_000, 1000, 0.001, 1)
	if _, err := ForkJoinMVA(context.Background(), big); !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "limit 2e+09") {
		t.Errorf("err = %v, want fault.ErrTooLarge with the limit", err)
	}
}

// Ctrl-C in exact multi-class MVA with multi-server/load-dependent stations (up to
// MaxLDWork = 2e10 operations, tens of seconds): Solve passes its ctx to
// mvaMultiLDContext, which stops within about a million operations.
func TestMultiLDCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := &Model{
		Classes:  []Class{{Name: "a", Population: 2000}, {Name: "b", Population: 2000}},
		Stations: []Station{{Name: "ms", Kind: MultiServer, Servers: 8}, {Name: "q", Kind: Queue}},
		Demand:   [][]float64{{1, 0.2}, {0.5, 0.4}},
	}
	start := time.Now()
	_, err := Solve(ctx, m, "mva", AMVAOptions{})
	if !errors.Is(err, fault.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want fault.ErrInterrupted and context.Canceled", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v after cancellation", d)
	}
}

// BenchmarkMVASingleLD: one class of 20000 jobs, a queue and a load-dependent station with 4
// rates: O(N·L) since the recursion keeps L = 4 marginal probabilities (it kept N + 1: O(N²)).
func BenchmarkMVASingleLD(b *testing.B) {
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 20000, ThinkTime: 1}},
		Stations: []Station{{Name: "q", Kind: Queue}, {Name: "l", Kind: LoadDependent, Rates: []float64{1, 2, 3, 4}}},
		Demand:   [][]float64{{0.05, 0.1}},
	}
	for b.Loop() {
		if _, err := MVASingle(context.Background(), m); err != nil {
			b.Fatal(err)
		}
	}
}
