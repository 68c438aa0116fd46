package sim

import (
	"context"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// TestBatchMeans: one long run cut into 20 batches agrees with exact MVA (the central-server
// network of TestRoutingMatrix's size: X and R inside their intervals or within 1 %); one
// batch is exactly Run; the batches' events add up to the run's; batch means and a precision
// target are refused together.
func TestBatchMeans(t *testing.T) {
	m := &qn.Model{
		Classes:  []qn.Class{{Name: "u", Population: 8, ThinkTime: 1}},
		Stations: []qn.Station{{Name: "cpu", Kind: qn.Queue}, {Name: "d1", Kind: qn.Queue}, {Name: "d2", Kind: qn.Queue}},
		Demand:   [][]float64{{0.1, 0.1, 0.075}},
	}
	exact, err := qn.MVASingle(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(m, Config{Events: 400000})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Replicate(Options{Seed: 8, Batches: 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != "batch means" || res.Replications != 20 {
		t.Fatalf("method %q, %d batches", res.Method, res.Replications)
	}
	checkAgrees(t, "X", res.Throughput[0], exact.Throughput[0], 0.01)
	checkAgrees(t, "R", res.ResponseTime[0], exact.ResponseTime[0], 0.01)
	checkAgrees(t, "U cpu", res.Utilization[0], exact.Utilization[0][0], 0.01)
	// with 20 batches the lag-1 estimate alone scatters by ≈ 1/√20 ≈ 0.22 (seeds 1–6 here gave
	// 0.02 … 0.40), so only its range is checked
	t.Logf("lag-1 autocorrelation of the batch throughputs: %.3f", res.Lag1)
	if !(res.Lag1 >= 0 && res.Lag1 < 1) {
		t.Errorf("lag-1 %v", res.Lag1)
	}
	total := int64(0)
	for _, b := range res.Reps {
		total += b.Events
	}
	// Config.Events counts the whole run, warm-up included; the first batch carries it
	if total != 400000 || res.Reps[0].Events < res.Reps[0].WarmupEvents {
		t.Errorf("batch events add to %d, want the run's 400000; warm-up %d events, first batch %d", total, res.Reps[0].WarmupEvents, res.Reps[0].Events)
	}
	one, err := s.runBatches(3, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	run, err := s.Run(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if one[0].Throughput[0] != run.Throughput[0] || one[0].Events != run.Events {
		t.Errorf("one batch %v ≠ Run %v", one[0].Throughput[0], run.Throughput[0])
	}
	if _, err := s.Replicate(Options{Batches: 10, Precision: 0.01}); err == nil {
		t.Error("batches with a precision accepted")
	}
	if _, err := s.runBatches(1, 0, 500000); err == nil {
		t.Error("more batches than events accepted")
	}
	if l := lag1([]float64{1, 2, 3, 4, 5, 6}); !(l > 0.4) || math.IsNaN(l) {
		t.Errorf("lag1 of a trend %v, want strongly positive", l)
	}
}
