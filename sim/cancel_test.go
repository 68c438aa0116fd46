package sim

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/spmd"
)

// cancelModel is TestBatchMeans's central-server network (exact MVA is its reference).
func cancelModel() *qn.Model {
	return &qn.Model{
		Classes:  []qn.Class{{Name: "u", Population: 8, ThinkTime: 1}},
		Stations: []qn.Station{{Name: "cpu", Kind: qn.Queue}, {Name: "d1", Kind: qn.Queue}, {Name: "d2", Kind: qn.Queue}},
		Demand:   [][]float64{{0.1, 0.1, 0.075}},
	}
}

// TestReplicateCancelled: on one worker, cancelling the context once 3.5 replications'
// events are done leaves replications 0, 1, 2 finished and 3 abandoned. The partial result
// is exactly summarise of Run(seed, 0…2) (the same streams), marked Partial with a note,
// and the error is fault.ErrInterrupted wrapping context.Canceled. Progress counts events
// and never passes the planned total.
func TestReplicateCancelled(t *testing.T) {
	const events = 20000
	s, err := New(cancelModel(), Config{Events: events})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	progress := func(done, total int) {
		calls++
		if total != 10*events || done > total {
			t.Errorf("progress %d/%d, want a total of 10 replications × %d events", done, total, events)
		}
		if done >= 3*events+events/2 {
			cancel()
		}
	}
	res, err := s.ReplicateContext(ctx, Options{Seed: 5, Reps: 10, Workers: 1, Progress: progress})
	if !errors.Is(err, fault.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want ErrInterrupted wrapping context.Canceled", err)
	}
	if res == nil || !res.Partial || res.Replications != 3 {
		t.Fatalf("result %+v, want 3 finished replications marked partial", res)
	}
	if calls < 3*chunksFor(1) {
		t.Errorf("%d progress calls, want one per chunk (%d per replication)", calls, chunksFor(1))
	}
	var want []*RepResult
	for k := range 3 {
		r, err := s.Run(5, uint64(k))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, r)
	}
	ref := summarise(want)
	if res.Throughput[0] != ref.Throughput[0] || res.ResponseTime[0] != ref.ResponseTime[0] {
		t.Errorf("partial X %v R %v, want Run(5, 0…2)'s %v %v", res.Throughput[0], res.ResponseTime[0], ref.Throughput[0], ref.ResponseTime[0])
	}
	if last := res.Notes[len(res.Notes)-1]; last[:8] != "partial:" {
		t.Errorf("last note %q, want the partial note", last)
	}
}

// TestReplicateCancelledEarly: cancelled before two replications finish there is no
// interval to report: no result, the error is still ErrInterrupted.
func TestReplicateCancelledEarly(t *testing.T) {
	s, err := New(cancelModel(), Config{Events: 20000})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := s.ReplicateContext(ctx, Options{Seed: 5, Reps: 10})
	if res != nil || !errors.Is(err, fault.ErrInterrupted) {
		t.Fatalf("result %v, error %v: want none and ErrInterrupted", res, err)
	}
}

// TestBatchMeansCancelled: batch means cancelled halfway analyse the half simulated as a
// shorter run: all 20 batches, events = the events simulated (< Config.Events, ≥ half),
// Partial, and X, R still agree with exact MVA (within their interval or 2 %).
func TestBatchMeansCancelled(t *testing.T) {
	const events = 400000
	m := cancelModel()
	exact, err := qn.MVASingle(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(m, Config{Events: events})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	progress := func(done, total int) {
		if done >= events/2 && done < total {
			cancel()
		}
	}
	res, err := s.ReplicateContext(ctx, Options{Seed: 8, Batches: 20, Progress: progress})
	if !errors.Is(err, fault.ErrInterrupted) {
		t.Fatalf("error %v, want ErrInterrupted", err)
	}
	if res == nil || !res.Partial || res.Replications != 20 || res.Events >= events || res.Events < events/2 {
		t.Fatalf("result %+v: want 20 batches over the ≥ %d and < %d events simulated, partial", res, events/2, events)
	}
	checkAgrees(t, "X", res.Throughput[0], exact.Throughput[0], 0.02)
	checkAgrees(t, "R", res.ResponseTime[0], exact.ResponseTime[0], 0.02)
}

// TestReplicateProgressEvents: progress counts events over all replications, from two
// workers at once: it only grows, ends at Reps × Events (every replication runs its
// Config.Events), and the result is the same as without progress (progress never changes
// the numbers).
func TestReplicateProgressEvents(t *testing.T) {
	const events = 20000
	s, err := New(cancelModel(), Config{Events: events})
	if err != nil {
		t.Fatal(err)
	}
	last, total := 0, 0
	res, err := s.Replicate(Options{Seed: 3, Reps: 6, Workers: 2, Progress: func(done, tot int) {
		if done < last {
			t.Errorf("progress went back from %d to %d", last, done)
		}
		last, total = done, tot
	}})
	if err != nil {
		t.Fatal(err)
	}
	if last != 6*events || total != 6*events {
		t.Errorf("progress ended at %d/%d, want %d/%d", last, total, 6*events, 6*events)
	}
	plain, err := s.Replicate(Options{Seed: 3, Reps: 6, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Throughput[0] != plain.Throughput[0] || res.ResponseTime[0] != plain.ResponseTime[0] {
		t.Errorf("with progress X %v R %v, without %v %v", res.Throughput[0], res.ResponseTime[0], plain.Throughput[0], plain.ResponseTime[0])
	}
}

// TestReplicateSPMDCancelled: on one worker, cancelling once 3.5 replications' cycles are
// ticked leaves replications 0, 1, 2 finished and 3 abandoned. The partial result is
// exactly SPMDEstimate of SimulateSPMD(seed, 0…2) (the same streams), marked Partial, and
// the error is fault.ErrInterrupted wrapping context.Canceled. The ticks never pass the
// planned total (reps × CyclesPerReplication).
func TestReplicateSPMDCancelled(t *testing.T) {
	// one phase of runlength_test.go's BUS-AIO program (c = 1, n_IO = 1)
	m := &spmd.Model{Arch: spmd.BusAIO, Phases: []spmd.Phase{{C: 1, NIO: 1, SPar: 1, SRIO: 0.1, S0IO: 0.01}}}
	cfg := SPMDConfig{Cycles: 20000}
	per := cfg.CyclesPerReplication()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ticked int64
	tick := func(c int64) {
		ticked += c
		if ticked > 10*per {
			t.Errorf("ticked %d cycles, above the planned %d", ticked, 10*per)
		}
		if ticked >= 3*per+per/2 {
			cancel()
		}
	}
	res, err := ReplicateSPMDContext(ctx, m, 4, 2, cfg, SPMDOptions{Seed: 5, Reps: 10, Workers: 1, Tick: tick})
	if !errors.Is(err, fault.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want ErrInterrupted wrapping context.Canceled", err)
	}
	if res == nil || !res.Partial || res.Replications != 3 || len(res.CycleTimes) != 3 {
		t.Fatalf("result %+v, want 3 finished replications marked partial", res)
	}
	want, err := SPMDEstimate(spmdCycleTimes(t, m, cfg, 5, 3))
	if err != nil || res.Estimate != want {
		t.Errorf("partial estimate %+v, want SimulateSPMD(5, 0…2)'s %+v (%v)", res.Estimate, want, err)
	}
}

// TestReplicateSPMDTicksAndEarlyCancel: an uninterrupted run ticks exactly reps ×
// CyclesPerReplication cycles (also under SIO, where all groups end a cycle at once) and
// equals ReplicateSPMD with any number of workers; cancelled before two replications finish
// there is no interval: no result, ErrInterrupted.
func TestReplicateSPMDTicksAndEarlyCancel(t *testing.T) {
	for _, arch := range []spmd.Architecture{spmd.BusAIO, spmd.BusSIO} {
		m := &spmd.Model{Arch: arch, Phases: []spmd.Phase{{C: 1, NIO: 1, SPar: 1, SRIO: 0.1, S0IO: 0.01}}}
		cfg := SPMDConfig{Cycles: 3000}
		var mu sync.Mutex
		var ticked int64
		res, err := ReplicateSPMDContext(context.Background(), m, 4, 2, cfg, SPMDOptions{Seed: 2, Reps: 4, Workers: 2, Tick: func(c int64) { mu.Lock(); ticked += c; mu.Unlock() }})
		if err != nil {
			t.Fatal(err)
		}
		if ticked != 4*cfg.CyclesPerReplication() {
			t.Errorf("%v: ticked %d cycles, want 4 × %d", arch, ticked, cfg.CyclesPerReplication())
		}
		plain, err := ReplicateSPMD(m, 4, 2, cfg, 2, 4)
		if err != nil || res.Estimate != plain || res.Partial || res.Replications != 4 {
			t.Errorf("%v: %+v, ReplicateSPMD %+v (%v)", arch, res, plain, err)
		}
	}
	m := &spmd.Model{Arch: spmd.BusAIO, Phases: []spmd.Phase{{C: 1, NIO: 1, SPar: 1, SRIO: 0.1, S0IO: 0.01}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := ReplicateSPMDContext(ctx, m, 4, 2, SPMDConfig{}, SPMDOptions{Seed: 1, Reps: 10})
	if res != nil || !errors.Is(err, fault.ErrInterrupted) {
		t.Fatalf("result %v, error %v: want none and ErrInterrupted", res, err)
	}
}
