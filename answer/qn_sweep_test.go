package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// TestSweepOpenCapacityAndGrid: an open arrival-rate sweep's answer names the exact
// capacity and says its grid (review newuser8 P2-10: the headline gave only grid values
// 24.4 and 26.35, never 25). Model: one open class, demands web 10 ms, app 20 ms, db 40 ms;
// capacity 1/D_db = 1/0.04 = 25 jobs/s (Lazowska et al. §5.2). The grid arrival_rate=1:40
// is 21 values, step (40−1)/20 = 1.95. With a second open class at 5 jobs/s and db demand
// 0.04 s, the first class's capacity is (1 − 5·0.04)/0.04 = 20 jobs/s.
func TestSweepOpenCapacityAndGrid(t *testing.T) {
	model := func(other float64) *qn.Model {
		m := &qn.Model{
			Classes:  []qn.Class{{Name: "req", Open: true, ArrivalRate: 20}},
			Stations: []qn.Station{{Name: "web", Kind: qn.Queue}, {Name: "app", Kind: qn.Queue}, {Name: "db", Kind: qn.Queue}},
			Demand:   [][]float64{{0.01, 0.02, 0.04}},
		}
		if other > 0 {
			m.Classes = append(m.Classes, qn.Class{Name: "bg", Open: true, ArrivalRate: other})
			m.Demand = append(m.Demand, []float64{0, 0, 0.04})
		}
		return m
	}
	values := make([]float64, 21)
	for i := range values {
		values[i] = 1 + 1.95*float64(i)
	}
	for _, tc := range []struct {
		name     string
		m        *qn.Model
		capacity float64
		words    string
	}{
		{"one class", model(0), 25, "capacity arrival_rate = 25 jobs/s"},
		{"with background", model(5), 20, "capacity arrival_rate = 20 jobs/s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := qn.SweepParam{What: "arrival_rate", Class: 0, Label: "arrival_rate"}
			pts, err := qn.Sweep(context.Background(), tc.m, p, values, "auto", qn.AMVAOptions{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			a := Sweep(tc.m, p, pts)
			if !strings.Contains(a.Summary, tc.words) {
				t.Errorf("summary %q lacks %q", a.Summary, tc.words)
			}
			if f, ok := a.Fact("max_arrival_rate_per_s"); !ok || f.Value == nil || *f.Value != tc.capacity {
				t.Errorf("max_arrival_rate_per_s = %v, want %g", f, tc.capacity)
			}
			if f, ok := a.Fact("sweep_points"); !ok || f.Value == nil || *f.Value != 21 {
				t.Errorf("sweep_points = %v, want 21", f)
			}
			if !strings.Contains(strings.Join(a.Details, " "), "21 values of arrival_rate from 1 to 40, step 1.95") {
				t.Errorf("details do not state the grid: %q", a.Details)
			}
		})
	}
}
