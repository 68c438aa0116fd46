package tpn_test

import (
	"fmt"

	"github.com/clusterperf/clusterperf/tpn"
)

// Run the timed-Petri-net engine on a fork/join: a job forks (no delay) into two tasks of
// 2 s and 3 s running in parallel, then a join of 1 s. With earliest firing the final
// marking (one token in done) is reached at max(2, 3) + 1 = 4 s after 4 firings.
func ExampleNet_Run() {
	n := forkJoin()
	if err := n.Validate(); err != nil {
		panic(err)
	}
	r, err := n.Run(tpn.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v at %g s after %d firings\n", r.Outcome, tpn.Seconds(r.Time), r.Firings)
	// Output:
	// completed at 4 s after 4 firings
}

// The fork/join of ExampleNet_Run is acyclic and conflict-free, so its completion time is
// the PERT critical path: max(2, 3) + 1 = 4 s, what the simulation gives.
func ExampleCriticalPathLength() {
	t, err := tpn.CriticalPathLength(forkJoin())
	if err != nil {
		panic(err)
	}
	fmt.Printf("%g s\n", tpn.Seconds(t))
	// Output:
	// 4 s
}

// A ring of two single-server transitions of 2 s and 3 s with one token circulating is a
// timed marked graph whose cycle time is (2 + 3)/1 = 5 s per round (Ramamoorthy & Ho 1980).
func ExampleMaxCycleRatio() {
	n := &tpn.Net{Name: "ring"}
	p, q := n.AddPlace(tpn.Place{Name: "p", Initial: 1}), n.AddPlace(tpn.Place{Name: "q"})
	n.AddTransition(tpn.Transition{Name: "a", Delay: ticks(2), In: []tpn.Arc{{Place: p, Weight: 1}}, Out: []tpn.Arc{{Place: q, Weight: 1}}})
	n.AddTransition(tpn.Transition{Name: "b", Delay: ticks(3), In: []tpn.Arc{{Place: q, Weight: 1}}, Out: []tpn.Arc{{Place: p, Weight: 1}}})
	c, err := tpn.MaxCycleRatio(n)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%g s per token\n", c)
	// Output:
	// 5 s per token
}

// ticks is tpn.Ticks for durations known to be valid.
func ticks(s float64) int64 {
	t, err := tpn.Ticks(s)
	if err != nil {
		panic(err)
	}
	return t
}

// forkJoin: a job forks (no delay) into two tasks of 2 s and 3 s, then a join of 1 s.
func forkJoin() *tpn.Net {
	n := &tpn.Net{Name: "fork-join", FinalSet: true}
	start := n.AddPlace(tpn.Place{Name: "start", Initial: 1})
	a, b := n.AddPlace(tpn.Place{Name: "a"}), n.AddPlace(tpn.Place{Name: "b"})
	aDone, bDone := n.AddPlace(tpn.Place{Name: "a_done"}), n.AddPlace(tpn.Place{Name: "b_done"})
	done := n.AddPlace(tpn.Place{Name: "done", Final: 1})
	arc := func(p int) []tpn.Arc { return []tpn.Arc{{Place: p, Weight: 1}} }
	n.AddTransition(tpn.Transition{Name: "fork", In: arc(start), Out: append(arc(a), arc(b)...)})
	n.AddTransition(tpn.Transition{Name: "task_a", Delay: ticks(2), In: arc(a), Out: arc(aDone)})
	n.AddTransition(tpn.Transition{Name: "task_b", Delay: ticks(3), In: arc(b), Out: arc(bDone)})
	n.AddTransition(tpn.Transition{Name: "join", Delay: ticks(1), In: append(arc(aDone), arc(bDone)...), Out: arc(done)})
	return n
}
