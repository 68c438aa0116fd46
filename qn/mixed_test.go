package qn

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// withOpenClass adds an open class of arrival rate lambda with demand d at every station.
func withOpenClass(m *Model, lambda, d float64) *Model {
	m.Classes = append(m.Classes, Class{Name: "open", Open: true, ArrivalRate: lambda})
	row := make([]float64, len(m.Stations))
	for k := range row {
		row[k] = d
	}
	m.Demand = append(m.Demand, row)
	return m
}

// Ctrl-C in a mixed network: the closed part is solved by exact MVA, which looks at ctx
// about every million operations with one closed class (population 1e6 on 1000 queues:
// 1e9 operations, within the budget, about a second of work) and at every lattice slice with
// several (N = (1500, 1000) on 2 queues: 1.5e6 population vectors, the split walk). A
// cancelled ctx stops Mixed and Solve (auto, mva, mixed) at once with
// context.Canceled, and with fault.ErrInterrupted for one closed class (exit 130).
func TestMixedCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	one := withOpenClass(queues(1_000_000, 1000, 0.001, 1), 1, 1e-4)
	two := &Model{
		Classes:  []Class{{Name: "a", Population: 1500, ThinkTime: 1}, {Name: "b", Population: 1000, ThinkTime: 2}},
		Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}},
		Demand:   [][]float64{{0.01, 0.02}, {0.02, 0.01}},
	}
	two = withOpenClass(two, 1, 0.1)
	start := time.Now()
	for i, m := range []*Model{one, two} {
		_, err := Mixed(ctx, m)
		if !errors.Is(err, context.Canceled) || (i == 0 && !errors.Is(err, fault.ErrInterrupted)) {
			t.Errorf("model %d: Mixed: err = %v, want context.Canceled (and fault.ErrInterrupted with one closed class)", i, err)
		}
		for _, solver := range []string{"auto", "mva", "mixed"} {
			if _, err := Solve(ctx, m, solver, AMVAOptions{}); !errors.Is(err, context.Canceled) {
				t.Errorf("model %d: Solve %s: err = %v, want context.Canceled", i, solver, err)
			}
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v after cancellation", d)
	}
}
