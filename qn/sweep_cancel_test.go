package qn

import (
	"context"
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestSweepCancelled: a sweep whose context is cancelled after its third point returns the
// three points solved (the first values, each equal to solving the model at that value on
// its own) and an error wrapping fault.ErrInterrupted and context.Canceled.
func TestSweepCancelled(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "u", Population: 1, ThinkTime: 1}},
		Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "disk", Kind: Queue}},
		Demand:   [][]float64{{0.1, 0.05}},
	}
	p, vals := SweepParam{What: "population", Class: 0, Label: "population"}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pts, err := Sweep(ctx, m, p, vals, "auto", AMVAOptions{}, func(done, total int) {
		if done == 3 {
			cancel()
		}
	})

	if !errors.Is(err, fault.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want ErrInterrupted wrapping context.Canceled", err)
	}
	if len(pts) != 3 {
		t.Fatalf("%d points, want the 3 solved", len(pts))
	}
	for i, pt := range pts {
		one, err := Solve(context.Background(), p.Apply(m, vals[i]), "auto", AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if pt.Value != vals[i] || pt.Result.Throughput[0] != one.Throughput[0] {
			t.Errorf("point %d: N = %v X = %v, want N = %v X = %v", i, pt.Value, pt.Result.Throughput[0], vals[i], one.Throughput[0])
		}
	}
}
