package tpn_test

import (
	"fmt"

	"github.com/clusterperf/clusterperf/tpn"
)

// Run the timed-Petri-net engine on a fork/join: a job forks (no delay) into two tasks of
// 2 s and 3 s running in parallel, then a join of 1 s. With earliest firing the final
// marking (one token in done) is reached at max(2, 3) + 1 = 4 s after 4 firings.
func ExampleNet_Run() {
	n := &tpn.Net{Name: "fork-join", FinalSet: true}
	start := n.AddPlace(tpn.Place{Name: "start", Initial: 1})
	a, b := n.AddPlace(tpn.Place{Name: "a"}), n.AddPlace(tpn.Place{Name: "b"})
	aDone, bDone := n.AddPlace(tpn.Place{Name: "a_done"}), n.AddPlace(tpn.Place{Name: "b_done"})
	done := n.AddPlace(tpn.Place{Name: "done", Final: 1})
	arc := func(p int) []tpn.Arc { return []tpn.Arc{{Place: p, Weight: 1}} }
	n.AddTransition(tpn.Transition{Name: "fork", In: arc(start), Out: append(arc(a), arc(b)...)})
	n.AddTransition(tpn.Transition{Name: "task_a", Delay: tpn.ToTicks(2), In: arc(a), Out: arc(aDone)})
	n.AddTransition(tpn.Transition{Name: "task_b", Delay: tpn.ToTicks(3), In: arc(b), Out: arc(bDone)})
	n.AddTransition(tpn.Transition{Name: "join", Delay: tpn.ToTicks(1), In: append(arc(aDone), arc(bDone)...), Out: arc(done)})
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
