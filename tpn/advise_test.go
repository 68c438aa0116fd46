package tpn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
	// The allocation places every process once, in the program's order, and its JSON is an
	// array of {name, workstation}: process names are values, never keys (output contract).
	for i, pl := range a.Allocation {
		if i >= len(p.Processes) || pl.Process != p.Processes[i].Name || pl.Workstation == "" {
			t.Errorf("allocation[%d] = %+v; want process %d of %d in program order", i, pl, i, len(p.Processes))
		}
	}
	b, err := json.Marshal(a.Allocation)
	if len(a.Allocation) != len(p.Processes) || err != nil || !strings.HasPrefix(string(b), `[{"name":"`+p.Processes[0].Name+`","workstation":"`) {
		t.Errorf("allocation %s (%d placements, %v); want one {name, workstation} per process (%d)", b, len(a.Allocation), err, len(p.Processes))
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

// TestAdviseWorkBudget: a program of 1003 firings per simulation (Estimate: 1000 + 1 steps,
// the loop's enter and exit) with 1e4 firings allowed gets its heuristic budget cut to
// ⌊1e4/1003⌋ = 9 simulations, said
// in a note (the 2² = 4 mappings are then searched exhaustively); with 500 allowed it is
// refused as too large.
func TestAdviseWorkBudget(t *testing.T) {
	p := &Program{Processes: []Process{{Name: "A", Segments: []Segment{{Loop: &Loop{Count: 1000, Body: []Segment{{Compute: 1e-6}}}}}}, {Name: "B", Segments: []Segment{{Compute: 1}}}}}
	c := &Cluster{Workstations: []Workstation{{Name: "a", Power: 1}, {Name: "b", Power: 0.5}}}
	z := Estimate(p)
	if z.Firings != 1003 {
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

// TestAdviseByWorkstations: the best mapping per number of workstations used (the sizing
// points) — each entry's allocation uses exactly that many workstations and, simulated
// again, takes the time recorded; the overall best is the least of them; exhaustively, no
// mapping of the same k is better (checked against every mapping of AdviseStudy.Eval).
func TestAdviseByWorkstations(t *testing.T) {
	p, c := load(t, "../examples/tpn/masterworker.yaml", "../examples/tpn/cluster.yaml")
	a, err := Advise(p, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewAdviseStudy(p, c, AdviseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	brute := map[int]float64{}
	for k := 0; k < s.Items(); k++ {
		mt, err := s.Eval(k)
		if err != nil || !mt.Completed {
			t.Fatal(err)
		}
		used := map[int]bool{}
		for _, w := range s.mapping(k) {
			used[w] = true
		}
		if v, ok := brute[len(used)]; !ok || Seconds(mt.TimeNs) < v {
			brute[len(used)] = Seconds(mt.TimeNs)
		}
	}
	least := math.Inf(1)
	for _, kb := range a.ByWorkstations {
		used := map[string]bool{}
		for _, pl := range kb.Allocation {
			used[pl.Workstation] = true
		}
		q := *p
		q.Allocation = kb.Allocation.Map()
		n, err := Build(&q, c)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := n.Run(Options{})
		if len(used) != kb.Workstations || Seconds(r.Time) != kb.TimeS || kb.TimeS != brute[kb.Workstations] {
			t.Errorf("k = %d: %d workstations used, time %g (again %g, every mapping's best %g)", kb.Workstations, len(used), kb.TimeS, Seconds(r.Time), brute[kb.Workstations])
		}
		least = math.Min(least, kb.TimeS)
	}
	if len(a.ByWorkstations) != len(brute) || least != a.Time {
		t.Errorf("%d entries (want %d), least %g, best %g", len(a.ByWorkstations), len(brute), least, a.Time)
	}
}

// TestAdviseCancel: a search whose context is cancelled returns the best mapping simulated
// so far, marked partial, with the context's error; Progress counts simulations up to W^P.
func TestAdviseCancel(t *testing.T) {
	p, c := load(t, "../examples/tpn/masterworker.yaml", "../examples/tpn/cluster.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	var calls, total int
	a, err := AdviseContext(ctx, p, c, AdviseOptions{Progress: func(done, tot int) {
		calls, total = done, tot
		if done == 10 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || a == nil || !a.Partial || a.Evaluated != 10 || calls != 10 || total != 256 {
		t.Fatalf("%v %+v (progress %d/%d)", err, a, calls, total)
	}
	full, _ := Advise(p, c, 0)
	if a.Time < full.Time {
		t.Errorf("partial %g below the full search's %g", a.Time, full.Time)
	}
}

// BenchmarkAdvise: the exhaustive search of the master/worker example (4⁴ = 256 mappings),
// with the best mapping per number of workstations kept.
func BenchmarkAdvise(b *testing.B) {
	p, c := load(b, "../examples/tpn/masterworker.yaml", "../examples/tpn/cluster.yaml")
	for b.Loop() {
		if _, err := Advise(p, c, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSizingT1: sizing's T_1 is the best mapping on one workstation, by the model of every
// other T(k); without a one-workstation entry there is none (sizing estimates it, noted).
func TestSizingT1(t *testing.T) {
	by := []KBest{{Workstations: 1, TimeS: 4.5}, {Workstations: 2, TimeS: 3}}
	if r := SizingT1(by); r == nil || r.Kind != "t1_model" || r.P != 1 || r.T1S != 4.5 {
		t.Fatalf("T1 %+v, want t1_model 4.5 at p = 1", r)
	}
	if r := SizingT1(by[1:]); r != nil {
		t.Fatalf("no one-workstation entry: T1 %+v, want nil", r)
	}
}
