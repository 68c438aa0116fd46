package tpn

import (
	"fmt"
	"testing"
)

// TestAdviseExhaustive: the master/worker example on 4 workstations (4⁴ = 256 mappings) is
// searched exhaustively; the answer is no worse than the file's own allocation, and no
// better than the bound.
func TestAdviseExhaustive(t *testing.T) {
	p, c := load(t, "../examples/tpn/masterworker.yaml", "../examples/tpn/cluster.yaml")
	a, err := Advise(p, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Exhaustive || a.Evaluated != 256 || a.Time > a.Given || a.Time < a.LowerBound {
		t.Errorf("%+v", a)
	}
}

// TestAdviseHeuristic: 12 independent tasks of different sizes on 3 workstations
// (3¹² mappings): the heuristic's answer lies within 10 % of the lower bound (no
// communication: the bound is nearly tight).
func TestAdviseHeuristic(t *testing.T) {
	p := &Program{}
	for i := 0; i < 12; i++ {
		p.Processes = append(p.Processes, Process{Name: fmt.Sprint("T", i), Segments: []Segment{{Compute: float64(1 + i%5)}}})
	}
	c := &Cluster{Workstations: []Workstation{{Name: "a", Power: 1}, {Name: "b", Power: 0.5}, {Name: "c", Power: 0.5, Background: []BgClass{{ArrivalRate: 0.2, Demand: 1}}}}, Network: Medium{Bandwidth: 1e9}}
	a, err := Advise(p, c, 500)
	if err != nil {
		t.Fatal(err)
	}
	if a.Exhaustive || a.Gap > 0.10 {
		t.Errorf("heuristic: time %g, bound %g, gap %.3g", a.Time, a.LowerBound, a.Gap)
	}
	t.Logf("heuristic: %g s against a bound of %g s (gap %.1f %%), %d simulations", a.Time, a.LowerBound, 100*a.Gap, a.Evaluated)
}
