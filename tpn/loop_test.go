package tpn

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// unroll is the program with every loop replaced by Count copies of its body: the old
// construction, and the meaning of a loop.
func unroll(segs []Segment) []Segment {
	var out []Segment
	for _, s := range segs {
		if s.Loop == nil {
			out = append(out, s)
			continue
		}
		for i := 0; i < s.Loop.Count; i++ {
			out = append(out, unroll(s.Loop.Body)...)
		}
	}
	return out
}

// TestLoopSubnetSameAsUnrolled: the counter-place subnet of a loop gives the makespan and the
// per-process computing times of the unrolled loop (the definition of a loop), on the ring
// (one loop a process), on a nested loop with a blocking send as the body's last step, and on
// a loop that begins with a nested loop.
func TestLoopSubnetSameAsUnrolled(t *testing.T) {
	ring, c := ringProgram(4, 5)
	nested := &Program{Processes: []Process{
		{Name: "A", Segments: []Segment{{Loop: &Loop{Count: 3, Body: []Segment{
			{Loop: &Loop{Count: 2, Body: []Segment{{Compute: 0.1}}}},
			{Send: &Message{Peer: "B", Bytes: 1000, Blocking: true}}}}}, {Compute: 0.05}}},
		{Name: "B", Segments: []Segment{{Loop: &Loop{Count: 3, Body: []Segment{{Recv: &Message{Peer: "A"}}, {Compute: 0.3}}}}}},
	}}
	for name, p := range map[string]*Program{"ring": ring, "nested": nested} {
		flat := &Program{Name: p.Name}
		for _, pr := range p.Processes {
			flat.Processes = append(flat.Processes, Process{Name: pr.Name, Segments: unroll(pr.Segments)})
		}
		a, b := build(t, p, c), build(t, flat, c)
		ra, rb := runCompleted(t, a, Options{Record: true}), runCompleted(t, b, Options{Record: true})
		if ra.Time != rb.Time {
			t.Errorf("%s: subnet %g s, unrolled %g s", name, Seconds(ra.Time), Seconds(rb.Time))
		}
		ta, _ := Times(a, ra)
		tb, _ := Times(b, rb)
		for i := range tb {
			if d := ta[i].Computing - tb[i].Computing; d > 1e-9 || d < -1e-9 || ta[i].Finish != tb[i].Finish {
				t.Errorf("%s: %+v, unrolled %+v", name, ta[i], tb[i])
			}
		}
		if len(a.Transitions) >= len(b.Transitions) && name == "ring" {
			t.Errorf("%s: %d transitions, unrolled %d", name, len(a.Transitions), len(b.Transitions))
		}
	}
}

// TestMillionIterations (issue 33): a loop of 10⁶ iterations is accepted and solved, and its
// net has as many places and transitions as the same loop with 10 iterations. Two processes
// exchange a message per iteration over a dedicated link (t_s = 10 µs, 1000 B at 1e8 B/s =
// 10 µs): A computes 1 ms and sends, B receives and computes 0.5 ms. A's 1 ms compute is the
// bottleneck: B's last step ends at 10⁶ · 1 ms + 20 µs + 0.5 ms = 1000.00052 s.
func TestMillionIterations(t *testing.T) {
	prog, c := pingLoop, pingCluster()
	small, big := build(t, prog(10), c), build(t, prog(1_000_000), c)
	if len(small.Places) != len(big.Places) || len(small.Transitions) != len(big.Transitions) {
		t.Errorf("10 iterations: %d places, %d transitions; 10⁶: %d, %d", len(small.Places), len(small.Transitions), len(big.Places), len(big.Transitions))
	}
	r := runCompleted(t, big, Options{Record: true})
	if want := toTicks(1000.00052); r.Time != want {
		t.Errorf("makespan %.9f s, want 1000.00052 s", Seconds(r.Time))
	}
	// firings: A enter/exit + 2·10⁶ steps, B the same, 10⁶ transfers
	if want := int64(2*(2+2_000_000) + 1_000_000); r.Firings != want {
		t.Errorf("%d firings, want %d", r.Firings, want)
	}
	if z := Estimate(prog(1_000_000)); z.Firings != float64(r.Firings) {
		t.Errorf("estimate %g firings, run %d", z.Firings, r.Firings)
	}
}

// pingLoop: A computes 1 ms and sends 1000 bytes to B, n times; B receives and computes 0.5 ms.
func pingLoop(n int) *Program {
	return &Program{Name: fmt.Sprintf("ping loop × %d", n), Processes: []Process{
		{Name: "A", Segments: []Segment{{Loop: &Loop{Count: n, Body: []Segment{{Compute: 1e-3}, {Send: &Message{Peer: "B", Bytes: 1000}}}}}}},
		{Name: "B", Segments: []Segment{{Loop: &Loop{Count: n, Body: []Segment{{Recv: &Message{Peer: "A"}}, {Compute: 0.5e-3}}}}}},
	}}
}

func pingCluster() *Cluster {
	return &Cluster{Workstations: []Workstation{{Name: "a", Power: 1}, {Name: "b", Power: 1}}, Network: Medium{Startup: 1e-5, Bandwidth: 1e8}}
}

// TestLoopPNML: the counter-place subnet survives a PNML round trip (its arc weights N, the
// places' roles and the transitions' loop names), and the net read back gives the same
// makespan, the same grouped Gantt spans and critical path. The critical path of pingLoop(1000)
// is A's 1000 iterations (A is the bottleneck: 1 ms against 0.5 ms) grouped into one step,
// then the last transfer and B's last receive and compute.
func TestLoopPNML(t *testing.T) {
	p := parseProgram(t, `processes:
  - name: A
    segments:
      - loop: {count: 1000, body: [{compute: 1e-3}, {send: {to: B, bytes: 1000}}]}
  - name: B
    segments:
      - loop: {count: 1000, body: [{recv: {from: A}}, {compute: 0.5e-3}]}
`)
	n := build(t, p, pingCluster())
	var buf bytes.Buffer
	if err := WritePNML(&buf, n); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "<text>1000</text>") {
		t.Errorf("no arc of weight 1000 in the PNML")
	}
	m, err := ReadPNML(&buf)
	if err != nil {
		t.Fatal(err)
	}
	r1, r2 := runCompleted(t, n, Options{Record: true}), runCompleted(t, m, Options{Record: true})
	if r1.Time != r2.Time || len(m.Transitions) != len(n.Transitions) {
		t.Fatalf("round trip: %g s vs %g s", Seconds(r1.Time), Seconds(r2.Time))
	}
	for i := range n.Transitions {
		if n.Transitions[i].Loop != m.Transitions[i].Loop {
			t.Errorf("transition %d: loop %q read back as %q", i, n.Transitions[i].Loop, m.Transitions[i].Loop)
		}
	}
	for i := range n.Places {
		if n.Places[i].Label != m.Places[i].Label {
			t.Errorf("place %d: label %q read back as %q", i, n.Places[i].Label, m.Places[i].Label)
		}
	}
	_, s1 := Times(n, r1)
	_, s2 := Times(m, r2)
	if fmt.Sprint(s1) != fmt.Sprint(s2) {
		t.Errorf("Gantt spans differ:\n%v\n%v", s1, s2)
	}
	loops := 0
	for _, s := range s1 {
		if s.Kind == "loop" {
			loops++
		}
	}
	if loops != 2 || len(s1) > 5 {
		t.Errorf("Gantt spans not grouped by loop: %v", s1)
	}
	cp := CriticalPath(m, r2)
	if len(cp) == 0 || len(cp) > 8 || cp[0].Kind != "loop" || !strings.HasPrefix(cp[0].Name, "loop#1 (p.yaml:4): ") || !strings.HasSuffix(cp[0].Name, "(1 process)") {
		t.Errorf("critical path not grouped: %v", cp)
	}
	if end := cp[len(cp)-1].End; end != Seconds(r2.Time) {
		t.Errorf("critical path ends at %g s, the run at %g s", end, Seconds(r2.Time))
	}
}

// TestDeadlockInitialPlace (issue 33): a transition that misses tokens on a place only the
// initial marking fills (no transition produces into it) was reported "only  put tokens
// there" (an empty producer list); the report now says no transition puts tokens there, and
// names a transition of no process as such. The net: place a (1 token, process P) and place
// b (0 tokens, no producer) feed transition t of P; b is never marked.
func TestDeadlockInitialPlace(t *testing.T) {
	n := &Net{FinalSet: true}
	a := n.AddPlace(Place{Name: "a", Initial: 1, Process: "P"})
	b := n.AddPlace(Place{Name: "b"})
	c := n.AddPlace(Place{Name: "c", Final: 1, Process: "P"})
	n.AddTransition(Transition{Name: "t", In: []Arc{{a, 1}, {b, 1}}, Out: []Arc{{c, 1}}, Process: "P"})
	r, err := n.Run(Options{})
	if err != nil || r.Outcome != Deadlock {
		t.Fatalf("%v %v", err, r.Outcome)
	}
	msg := r.Deadlock.Error()
	if strings.Contains(msg, "only  put") || !strings.Contains(msg, "needs b >= 1, has 0 (process P; no transition puts tokens there: only its initial marking did)") {
		t.Errorf("report:\n%s", msg)
	}
	if got := producedBy([]string{"", "Q"}); got != "only a transition of no process, Q put tokens there" {
		t.Errorf("producers: %q", got)
	}
}
