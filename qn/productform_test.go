package qn

import (
	"context"
	"strings"
	"testing"
)

// TestExactnessPerModel (issue 28): exact MVA on a FCFS station whose service times per visit
// differ by class is not product form (BCMP), so the result says exact false with a note;
// the same network with the station processor sharing (PS) is product form and exact; equal
// service times per visit with different visit counts are product form too; demands that
// differ without visits leave the label and add a note on the condition. The numbers are
// the same in every case (MVA solves the PS network): only the label and the notes differ.
func TestExactnessPerModel(t *testing.T) {
	base := func() *Model {
		return &Model{
			Classes:  []Class{{Name: "a", Population: 3, ThinkTime: 1}, {Name: "b", Population: 2, ThinkTime: 2}},
			Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "disk", Kind: Queue}},
			Demand:   [][]float64{{0.10, 0.20}, {0.30, 0.40}},
			Visits:   [][]float64{{1, 2}, {1, 4}},
		}
	}
	cases := []struct {
		name      string
		edit      func(m *Model)
		exact     bool
		noteHas   string // "" : no note on product form
		noteLacks bool
	}{
		// cpu: S = 0.1 vs 0.3 per visit; disk: 0.1 vs 0.1 (visits 2 and 4)
		{"fcfs-class-dependent", func(m *Model) {}, false, `not product form (BCMP): the service times per visit at "cpu"`, false},
		{"ps", func(m *Model) { m.Stations[0].PS = true }, true, "", true},
		{"equal-per-visit", func(m *Model) { m.Demand[1][0] = 0.10 }, true, "", true},
		{"no-visits", func(m *Model) { m.Visits = nil }, true, "exact only if the service time per visit is the same for every class at \"cpu\", \"disk\"", false},
		{"delay", func(m *Model) { m.Stations[0].Kind = Delay }, true, "", true},
	}
	var x0 float64
	for i, c := range cases {
		m := base()
		c.edit(m)
		r, err := Solve(context.Background(), m, "mva", AMVAOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		notes := strings.Join(r.Notes, " | ")
		if r.Exact != c.exact {
			t.Errorf("%s: exact %v, want %v (notes %q)", c.name, r.Exact, c.exact, notes)
		}
		if c.noteHas != "" && !strings.Contains(notes, c.noteHas) {
			t.Errorf("%s: notes %q lack %q", c.name, notes, c.noteHas)
		}
		if c.noteLacks && (strings.Contains(notes, "product form") || strings.Contains(notes, "BCMP")) {
			t.Errorf("%s: product-form note where none applies: %q", c.name, notes)
		}
		if i == 0 {
			x0 = r.Throughput[0]
		}
		if c.name == "ps" && r.Throughput[0] != x0 {
			t.Errorf("ps: throughput %v differs from the FCFS label's %v: only the label may change", r.Throughput[0], x0)
		}
	}
}
