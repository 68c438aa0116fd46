package validate

import (
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
)

// TestSPMDNotes: a note exactly when an analytic value lies outside its interval, naming
// the assumptions the simulation does not share (docs/studies.md §2: the fixed burst count
// and non-exponential CPU bursts each move the simulation away from eq. 16) and the study.
func TestSPMDNotes(t *testing.T) {
	in, out := true, false
	m := &spmd.Model{Phases: []spmd.Phase{{NIO: 5}}}
	one := &spmd.Model{Phases: []spmd.Phase{{NIO: 1}}}
	cases := []struct {
		name string
		m    *spmd.Model
		cfg  sim.SPMDConfig
		rows []Row
		want []string // substrings of the one note; nil: no note
	}{
		{"inside: no note", m, sim.SPMDConfig{CPU: sim.Erlang{K: 4}}, []Row{{Quantity: "q", Inside: &in}}, nil},
		{"fixed count", m, sim.SPMDConfig{}, []Row{{Quantity: "q", Inside: &out}}, []string{"bursts_per_io = 5", "runs exactly 5", "--bursts geometric", "docs/studies.md"}},
		{"fixed count and erlang", m, sim.SPMDConfig{CPU: sim.Erlang{K: 4}}, []Row{{Quantity: "q", Inside: &in}, {Quantity: "r", Inside: &out}}, []string{"(r)", "runs exactly 5", "SCV 0.25", "docs/studies.md"}},
		{"model's assumptions", m, sim.SPMDConfig{GeometricBursts: true, CPU: sim.Exponential{}}, []Row{{Quantity: "q", Inside: &out}}, []string{"shares the model's assumptions", "docs/studies.md"}},
		{"one burst per I/O", one, sim.SPMDConfig{}, []Row{{Quantity: "q", Inside: &out}}, []string{"shares the model's assumptions"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := SPMDNotes(tc.m, tc.cfg, tc.rows)
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("notes %q, want none", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("notes %q, want one", got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got[0], w) {
					t.Errorf("note %q lacks %q", got[0], w)
				}
			}
		})
	}
}
