//go:build unix

package qn

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// ccModel is the hostile reviewer's cc shape (issue 20/12): 3 classes of n jobs on 3
// queues, demands spanning a factor 10 within a class (scaled by 10^-200 from the review's
// 1e199 values: comom scales each class by a power of two, so the cost does not change).
func ccModel(n int) *Model {
	return &Model{
		Classes:  []Class{{Name: "c0", Population: n}, {Name: "c1", Population: n}, {Name: "c2", Population: n}},
		Stations: []Station{{Name: "s0", Kind: Queue}, {Name: "s1", Kind: Queue}, {Name: "s2", Kind: Queue}},
		Demand:   [][]float64{{1.34364, 2.55069, 6.51593}, {8.47434, 4.95435, 7.88723}, {7.63775, 4.49491, 0.938596}},
	}
}

// oneClassModel: one class of n jobs at queues of 0.01 and 0.02 s and a 5 s delay (the
// review's h10000000.yaml at a smaller n).
func oneClassModel(n int) *Model {
	return &Model{
		Classes:  []Class{{Name: "a", Population: n}},
		Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "d", Kind: Queue}, {Name: "z", Kind: Delay}},
		Demand:   [][]float64{{0.01, 0.02, 5}},
	}
}

// cpuTime is the process's user + system CPU time (getrusage).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestComomCostEstimate: ComomCost (CPU seconds, see plan, estimate and work) against the
// CPU time Comom measurably takes, on the cc shape at 4 populations (its precision grows
// with N) and one class: from a third to 4 times the measured time. The estimate is the
// pilots' modelled work plus the planned answer and check runs; a check that fails would
// add runs (measured at load 6–16 on 2 vCPUs: ratios estimate/measured 0.51–0.92,
// 0.73–1.29, 0.82–1.19, 0.71–1.31, 0.88–1.04 for N = 100, 200, 400, one class, N = 800).
// CPU time, not wall time, so a loaded host does not make it flake; runs under 100 ms of
// CPU (N = 100, 200: timer and GC noise) are logged only.
func TestComomCostEstimate(t *testing.T) {
	cases := []struct {
		name string
		m    *Model
	}{
		{"cc N=100", ccModel(100)},
		{"cc N=200", ccModel(200)},
		{"cc N=400", ccModel(400)},
		{"one class N=1e5", oneClassModel(100000)},
		{"cc N=800", ccModel(800)},
	}
	if testing.Short() {
		cases = cases[:4]
	}
	for _, tc := range cases {
		est, err := ComomCost(tc.m)
		if err != nil {
			t.Fatalf("%s: ComomCost: %v", tc.name, err)
		}
		c0 := cpuTime()
		if _, err := Comom(context.Background(), tc.m); err != nil {
			t.Fatalf("%s: Comom: %v", tc.name, err)
		}
		got := (cpuTime() - c0).Seconds()
		ratio := est / got
		t.Logf("%s: estimated %.3g s, measured %.3g s CPU, ratio %.2f", tc.name, est, got, ratio)
		if got > 0.1 && (ratio < 1.0/3 || ratio > 4) {
			t.Errorf("%s: estimate %.3g s vs measured %.3g s CPU: outside [1/3, 4]×", tc.name, est, got)
		}
	}
}

// TestComomCancel: a cancelled context stops Comom mid-run, directly and through Solve's
// named solver: the error wraps context.Canceled and comes well within a second of the
// cancellation (the cc shape at N = 1500 runs for seconds); and auto, when it picks Comom
// (comomAutoModel), does not fall back to another solver on a cancelled context.
func TestComomCancel(t *testing.T) {
	m := ccModel(1500)
	for _, run := range []struct {
		name  string
		solve func(ctx context.Context) error
	}{
		{"Comom", func(ctx context.Context) error { _, err := Comom(ctx, m); return err }},
		{"Solve comom", func(ctx context.Context) error {
			_, err := Solve(ctx, m, "comom", AMVAOptions{})
			return err
		}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run.solve(ctx) }()
		time.Sleep(200 * time.Millisecond)
		cancel()
		t0 := time.Now()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("%s: %v, want an error wrapping context.Canceled", run.name, err)
			}
			t.Logf("%s: stopped %v after the cancellation: %v", run.name, time.Since(t0), err)
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still running 5 s after the cancellation", run.name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, comomAutoModel(), "auto", AMVAOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Solve auto with a cancelled context: %v, want an error wrapping context.Canceled", err)
	}
}

// TestComomC4x1000FourQueues: issue 20's second target, 4 classes × 1000 jobs on 4 queues
// and a delay (MomentsNetworkC4), is out of this method's reach: Comom refuses it with
// fault.ErrTooLarge before its expensive runs (its pilots stop early in the third class's
// phase, whose loss of about 48 bits per job puts the precision over ComomMaxBits or the
// time over ComomMaxWork), naming the estimate.
func TestComomC4x1000FourQueues(t *testing.T) {
	c0 := cpuTime()
	_, err := Comom(context.Background(), MomentsNetworkC4(1000))
	if !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("4 × 1000 on 4 queues: %v, want fault.ErrTooLarge", err)
	}
	t.Logf("refused after %v of CPU: %v", cpuTime()-c0, err)
}
