package solveapp

import (
	"context"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/qn"
)

// TestOpenSweepCapacityMark: the figure of an open arrival-rate sweep marks the exact
// capacity, as a population sweep marks N* (review newuser8 P2-10: no saturation marker).
// Model: one open class, db demand 40 ms, so the capacity is 1/0.04 = 25 jobs/s (Lazowska
// et al. §5.2), beyond the last solved value 24.4 of arrival_rate=1:40.
func TestOpenSweepCapacityMark(t *testing.T) {
	m := &qn.Model{
		Classes:  []qn.Class{{Name: "req", Open: true, ArrivalRate: 20}},
		Stations: []qn.Station{{Name: "web", Kind: qn.Queue}, {Name: "db", Kind: qn.Queue}},
		Demand:   [][]float64{{0.01, 0.04}},
	}
	p, vals, err := app.ParseSweep("arrival_rate=1:40", m)
	if err != nil {
		t.Fatal(err)
	}
	pts, err := qn.Sweep(context.Background(), m, p, vals, "auto", qn.AMVAOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, panel := range newSweep(m, p, "auto", pts).Figure() {
		if len(panel.Marks) != 1 || panel.Marks[0].X != 25 || panel.Marks[0].Label != "capacity = 25" || !panel.Marks[0].Widen {
			t.Errorf("panel %q: marks %+v, want one at capacity = 25", panel.Title, panel.Marks)
		}
	}
}
