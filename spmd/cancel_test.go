package spmd

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// TestSurfaceContextCancelledWithinP: Ctrl-C during one BUS-SIO evaluation at a large p
// (the fork/join sum of 000 eq. 16 takes p/c MVA steps, about 2–9 s at p = 2e8 on the
// shared machine) stops it within a second, and the partial surface is exactly the full
// surface of the p values finished before (the invariant: a partial result is a prefix of
// the full run). Model: examples/spmd/hybrid.yaml's parameters (001 Fig. 5.8, BUS-SIO).
func TestSurfaceContextCancelledWithinP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs an evaluation at p = 2e8 until cancelled")
	}
	m := hybridModel(t)
	ps, ds := []int{100, 1000, 200_000_000}, []int{1, 4, 16}
	e, err := NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var cancelled time.Time
	progress := func(done, total int) {
		if done == 2 { // the large p starts next: cancel 50 ms into it
			time.AfterFunc(50*time.Millisecond, func() { cancelled = time.Now(); cancel() })
		}
	}
	pts, skipped, err := e.SurfaceContext(ctx, ps, ds, progress)
	took := time.Since(cancelled)
	if !errors.Is(err, fault.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want fault.ErrInterrupted and context.Canceled", err)
	}
	if took > time.Second {
		t.Errorf("returned %v after the cancellation, want within a second", took)
	}
	full, err := NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	want, wantSkipped, err := full.Surface(ps[:2], ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pts, want) || !reflect.DeepEqual(skipped, wantSkipped) {
		t.Errorf("partial surface (%d points) differs from the full surface of p = %v (%d points)", len(pts), ps[:2], len(want))
	}
	// nothing of the interrupted p was cached: evaluating it afresh still matches a new evaluator
	if _, err := e.EvaluateContext(t.Context(), 2000, 4); err != nil {
		t.Fatal(err)
	}
}

// TestEvaluateContextCancelled: a cancelled context stops an SIO evaluation at its first
// check (sioCheckSteps steps) with fault.ErrInterrupted; the AIO models, O(1) per point,
// ignore it.
func TestEvaluateContextCancelled(t *testing.T) {
	e, err := NewEvaluator(hybridModel(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = e.EvaluateContext(ctx, 4*sioCheckSteps, 1)
	if !errors.Is(err, fault.ErrInterrupted) || !strings.Contains(err.Error(), "fork/join MVA steps") {
		t.Fatalf("err %v, want fault.ErrInterrupted from the fork/join sum", err)
	}
	if _, err := e.EvaluateContext(ctx, sioCheckSteps-1, 1); err != nil {
		t.Errorf("below one check interval: %v, want the point", err)
	}
}

func hybridModel(t *testing.T) *Model {
	t.Helper()
	m, err := ParseModel("hybrid.yaml", []byte("name: hybrid\narchitecture: bus-sio\nc: 1\nw: 0.4\nr: 1\nnormalized: {sigma_p: 0.2, sigma_r0: 0.001, sigma_r: 0.002, sigma_n: 0.02}\n"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// BenchmarkEvaluateSIOLargeP is one BUS-SIO evaluation at p = 2^22 (the fork/join sum's
// 4M MVA steps with the context check every 2^20).
func BenchmarkEvaluateSIOLargeP(b *testing.B) {
	m, err := ParseModel("hybrid.yaml", []byte("name: hybrid\narchitecture: bus-sio\nc: 1\nw: 0.4\nr: 1\nnormalized: {sigma_p: 0.2, sigma_r0: 0.001, sigma_r: 0.002, sigma_n: 0.02}\n"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		e, err := NewEvaluator(m) // a new evaluator: no cached sum
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.EvaluateContext(b.Context(), 1<<22, 1); err != nil {
			b.Fatal(err)
		}
	}
}
