package sim

import (
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

func TestProductFormNotes(t *testing.T) {
	m := &qn.Model{
		Classes:  []qn.Class{{Name: "a", Population: 2}, {Name: "b", Population: 1}},
		Stations: []qn.Station{{Name: "q", Kind: qn.Queue}, {Name: "same", Kind: qn.Queue}, {Name: "z", Kind: qn.Delay}},
		Demand:   [][]float64{{0.1, 0.2, 1}, {0.3, 0.2, 2}},
	}
	notes := Config{}.ProductFormNotes(m)
	if len(notes) != 1 || !strings.Contains(notes[0], `station "q" is FCFS with class-dependent`) {
		t.Errorf("FCFS, different means at q only: %q", notes)
	}
	if n := (Config{Discipline: map[string]Discipline{"q": PS}}).ProductFormNotes(m); len(n) != 0 {
		t.Errorf("PS at q: %q", n)
	}
	n := Config{Discipline: map[string]Discipline{"q": PS}, Service: map[string]Dist{"same": Deterministic{}, "z": Deterministic{}}}.ProductFormNotes(m)
	if len(n) != 1 || !strings.Contains(n[0], `station "same" is FCFS with deterministic service`) {
		t.Errorf("deterministic FCFS (the delay station is insensitive): %q", n)
	}
}
