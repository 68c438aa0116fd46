package tpn

import (
	"strings"
	"testing"
)

func sec(s float64) int64 { return toTicks(s) }

// gather2 is the PNML example of the notes: two workers (4 s and 6 s) send to a master that
// receives both messages (0.5 s). Completion: 6 + 0.5 = 6.5 s.
func gather2() *Net {
	n := &Net{Name: "gather2", FinalSet: true}
	w1 := n.AddPlace(Place{Name: "w1_start", Initial: 1, Process: "W1"})
	w2 := n.AddPlace(Place{Name: "w2_start", Initial: 1, Process: "W2"})
	in := n.AddPlace(Place{Name: "inbox"})
	ms := n.AddPlace(Place{Name: "m_start", Initial: 1, Process: "M"})
	me := n.AddPlace(Place{Name: "m_end", Final: 1, Process: "M"})
	n.AddTransition(Transition{Name: "w1_compute", Delay: sec(4), In: []Arc{{w1, 1}}, Out: []Arc{{in, 1}}, Process: "W1"})
	n.AddTransition(Transition{Name: "w2_compute", Delay: sec(6), In: []Arc{{w2, 1}}, Out: []Arc{{in, 1}}, Process: "W2"})
	n.AddTransition(Transition{Name: "m_recv", Delay: sec(0.5), In: []Arc{{in, 2}, {ms, 1}}, Out: []Arc{{me, 1}}, Process: "M"})
	return n
}

func TestGather(t *testing.T) {
	r, err := gather2().Run(Options{})
	if err != nil || r.Outcome != Completed || r.Time != sec(6.5) {
		t.Fatalf("%v %v at %g, want completed at 6.5", err, r.Outcome, Seconds(r.Time))
	}
}

// TestServerSemantics: three tokens through a 1 s transition: single server 3 s, 2 servers
// 2 s, infinite 1 s.
func TestServerSemantics(t *testing.T) {
	for _, tc := range []struct {
		servers int
		want    float64
	}{{1, 3}, {2, 2}, {InfiniteServers, 1}} {
		n := &Net{FinalSet: true}
		a := n.AddPlace(Place{Name: "a", Initial: 3})
		b := n.AddPlace(Place{Name: "b", Final: 3})
		n.AddTransition(Transition{Name: "t", Delay: sec(1), Servers: tc.servers, In: []Arc{{a, 1}}, Out: []Arc{{b, 1}}})
		r, _ := n.Run(Options{})
		if r.Time != sec(tc.want) {
			t.Errorf("servers %d: %g s, want %g", tc.servers, Seconds(r.Time), tc.want)
		}
	}
}

// conflict: one token, A (2 s) declared before B (1 s). Tokens taken at the start
// (preselection): A takes it and fires at 2. Atomic firing (race): B finishes first at 1.
func conflict() *Net {
	n := &Net{FinalSet: true}
	p := n.AddPlace(Place{Name: "p", Initial: 1})
	done := n.AddPlace(Place{Name: "done", Final: 1})
	n.AddTransition(Transition{Name: "A", Delay: sec(2), In: []Arc{{p, 1}}, Out: []Arc{{done, 1}}})
	n.AddTransition(Transition{Name: "B", Delay: sec(1), In: []Arc{{p, 1}}, Out: []Arc{{done, 1}}})
	return n
}

func TestTokenTimingSwitch(t *testing.T) {
	r, _ := conflict().Run(Options{Record: true})
	if r.Time != sec(2) || r.Log[0].T != 0 {
		t.Errorf("tokens at start: %g s by %d, want 2 s by A", Seconds(r.Time), r.Log[0].T)
	}
	r, _ = conflict().Run(Options{AtomicFiring: true, Record: true})
	if r.Time != sec(1) || r.Log[0].T != 1 {
		t.Errorf("atomic: %g s by %d, want 1 s by B", Seconds(r.Time), r.Log[0].T)
	}
}

// TestPriorityTieBreak: same instant, one token: the lower priority number wins; with equal
// priorities, the earlier declaration.
func TestPriorityTieBreak(t *testing.T) {
	for _, tc := range []struct {
		pa, pb int
		want   int
	}{{0, 0, 0}, {1, 0, 1}} {
		n := conflict()
		n.Transitions[0].Delay, n.Transitions[1].Delay = sec(1), sec(1)
		n.Transitions[0].Priority, n.Transitions[1].Priority = tc.pa, tc.pb
		r, _ := n.Run(Options{Record: true})
		if r.Log[0].T != tc.want {
			t.Errorf("priorities %d/%d: transition %d fired, want %d", tc.pa, tc.pb, r.Log[0].T, tc.want)
		}
	}
}

// TestExactTime: 0.1 s + 0.2 s meets 0.3 s at exactly the same instant: the join fires at
// 0.3 s (with float64 seconds, 0.1 + 0.2 > 0.3 and the join would wait).
func TestExactTime(t *testing.T) {
	n := &Net{FinalSet: true}
	a := n.AddPlace(Place{Name: "a", Initial: 1})
	b := n.AddPlace(Place{Name: "b"})
	x := n.AddPlace(Place{Name: "x"})
	c := n.AddPlace(Place{Name: "c", Initial: 1})
	y := n.AddPlace(Place{Name: "y"})
	end := n.AddPlace(Place{Name: "end", Final: 1})
	n.AddTransition(Transition{Name: "t01", Delay: sec(0.1), In: []Arc{{a, 1}}, Out: []Arc{{b, 1}}})
	n.AddTransition(Transition{Name: "t02", Delay: sec(0.2), In: []Arc{{b, 1}}, Out: []Arc{{x, 1}}})
	n.AddTransition(Transition{Name: "t03", Delay: sec(0.3), In: []Arc{{c, 1}}, Out: []Arc{{y, 1}}})
	n.AddTransition(Transition{Name: "join", In: []Arc{{x, 1}, {y, 1}}, Out: []Arc{{end, 1}}})
	r, _ := n.Run(Options{})
	x1, x2, x3 := 0.1, 0.2, 0.3 // float64 (untyped constants would be exact)
	if r.Time != sec(0.3) || !(x1+x2 > x3) {
		t.Errorf("join at %v ticks, want %v", r.Time, sec(0.3))
	}
}

// TestDeadlockHeadToHead: P0 and P1 both receive before sending.
func TestDeadlockHeadToHead(t *testing.T) {
	n := &Net{FinalSet: true}
	p0 := n.AddPlace(Place{Name: "P0.ctl", Initial: 1, Process: "P0"})
	p1 := n.AddPlace(Place{Name: "P1.ctl", Initial: 1, Process: "P1"})
	c01 := n.AddPlace(Place{Name: "msg P0->P1"})
	c10 := n.AddPlace(Place{Name: "msg P1->P0"})
	e0 := n.AddPlace(Place{Name: "P0.end", Final: 1, Process: "P0"})
	e1 := n.AddPlace(Place{Name: "P1.end", Final: 1, Process: "P1"})
	n.AddTransition(Transition{Name: "P0.recv<-P1", In: []Arc{{p0, 1}, {c10, 1}}, Out: []Arc{{e0, 1}, {c01, 1}}, Process: "P0"})
	n.AddTransition(Transition{Name: "P1.recv<-P0", In: []Arc{{p1, 1}, {c01, 1}}, Out: []Arc{{e1, 1}, {c10, 1}}, Process: "P1"})
	r, _ := n.Run(Options{})
	if r.Outcome != Deadlock || r.Deadlock == nil {
		t.Fatalf("outcome %v", r.Outcome)
	}
	msg := r.Deadlock.Error()
	for _, want := range []string{"DEADLOCK at t=0", "P0.recv<-P1", "needs msg P1->P0 >= 1, has 0", "wait-for cycle: P0 -> P1 -> P0"} {
		if !strings.Contains(msg, want) {
			t.Errorf("report lacks %q:\n%s", want, msg)
		}
	}
}

// TestDeadlockGather: the master waits for 3 messages, the workers send 2: no cycle, the
// report says the tokens will never come.
func TestDeadlockGather(t *testing.T) {
	n := gather2()
	n.Transitions[2].In[0].Weight = 3
	r, _ := n.Run(Options{})
	if r.Outcome != Deadlock {
		t.Fatalf("outcome %v", r.Outcome)
	}
	msg := r.Deadlock.Error()
	for _, want := range []string{"at t=6 s", "needs inbox >= 3, has 2", "no wait-for cycle"} {
		if !strings.Contains(msg, want) {
			t.Errorf("report lacks %q:\n%s", want, msg)
		}
	}
}

// TestSharedMedium: two 1 MB transfers start together on a 1 MB/s medium without startup.
// Dedicated: both take 1 s. Shared, static at start: the first counts k = 1 (1 s), the second
// k = 2 (2 s). Shared, fluid: both run at 0.5 MB/s and end at 2 s.
func TestSharedMedium(t *testing.T) {
	for _, tc := range []struct {
		shared bool
		policy SharePolicy
		ends   [2]float64
	}{{false, StaticAtStart, [2]float64{1, 1}}, {true, StaticAtStart, [2]float64{1, 2}}, {true, FluidSharing, [2]float64{2, 2}}} {
		n := &Net{FinalSet: true, Media: []Medium{{Name: "eth", Bandwidth: 1e6, Shared: tc.shared, Policy: tc.policy}}}
		a := n.AddPlace(Place{Name: "a", Initial: 1})
		b := n.AddPlace(Place{Name: "b", Initial: 1})
		x := n.AddPlace(Place{Name: "x", Final: 1})
		y := n.AddPlace(Place{Name: "y", Final: 1})
		n.AddTransition(Transition{Name: "m1", Medium: 1, Bytes: 1e6, In: []Arc{{a, 1}}, Out: []Arc{{x, 1}}})
		n.AddTransition(Transition{Name: "m2", Medium: 1, Bytes: 1e6, In: []Arc{{b, 1}}, Out: []Arc{{y, 1}}})
		r, err := n.Run(Options{Record: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.Log[0].End != sec(tc.ends[0]) || r.Log[1].End != sec(tc.ends[1]) {
			t.Errorf("shared %v policy %d: ends %g, %g; want %v", tc.shared, tc.policy, Seconds(r.Log[0].End), Seconds(r.Log[1].End), tc.ends)
		}
	}
}

func TestCutOff(t *testing.T) {
	n := &Net{FinalSet: true}
	a := n.AddPlace(Place{Name: "a", Initial: 1})
	n.AddPlace(Place{Name: "never", Final: 1})
	n.AddTransition(Transition{Name: "loop", Delay: sec(1), In: []Arc{{a, 1}}, Out: []Arc{{a, 1}}})
	r, _ := n.Run(Options{MaxTime: sec(10)})
	if r.Outcome != CutOff {
		t.Errorf("outcome %v", r.Outcome)
	}
}
