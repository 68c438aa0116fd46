package tpn

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
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

// TestAdviseDeterministic: tpn has no randomness and no goroutines; Advise (the only search)
// is sequential, so its answer is identical under GOMAXPROCS 1, 2 and 16 and across runs
// (map iteration order never decides: allocations are walked in process order).
func TestAdviseDeterministic(t *testing.T) {
	p, c := load(t, "../examples/tpn/masterworker.yaml", "../examples/tpn/cluster.yaml")
	var first string
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 16, 1} {
		runtime.GOMAXPROCS(procs)
		a, err := Advise(p, c, 50)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(a)
		if first == "" {
			first = string(b)
		} else if string(b) != first {
			t.Errorf("GOMAXPROCS %d: %s\nwant %s", procs, b, first)
		}
	}
}

// TestAdviseWorkBudget: a program of 1001 firings per simulation (Estimate: 1000 + 1 steps)
// with 1e4 firings allowed gets its heuristic budget cut to ⌊1e4/1001⌋ = 9 simulations, said
// in a note (the 2² = 4 mappings are then searched exhaustively); with 500 allowed it is
// refused as too large.
func TestAdviseWorkBudget(t *testing.T) {
	p := &Program{Processes: []Process{{Name: "A", Segments: []Segment{{Loop: &Loop{Count: 1000, Body: []Segment{{Compute: 1e-6}}}}}}, {Name: "B", Segments: []Segment{{Compute: 1}}}}}
	c := &Cluster{Workstations: []Workstation{{Name: "a", Power: 1}, {Name: "b", Power: 0.5}}}
	z := Estimate(p)
	if z.Firings != 1001 {
		t.Fatalf("estimate %+v", z)
	}
	a, err := AdviseWith(p, c, AdviseOptions{Budget: 1_000_000, MaxFirings: 1e4})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Notes) != 1 || !strings.Contains(a.Notes[0], "cut from 1000000 to 9 simulations") || a.Evaluated > 9 {
		t.Errorf("notes %q, %d simulations", a.Notes, a.Evaluated)
	}
	if _, err := AdviseWith(p, c, AdviseOptions{MaxFirings: 500}); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("500 firings allowed: %v", err)
	}
}
