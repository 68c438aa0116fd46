package tpn

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestBlockingSend: A sends 1 MB to B (1 MB/s, no startup, dedicated) and then computes 1 s;
// B computes 3 s and then receives. Closed forms (002 §3; the blocking paradigm is the
// document's "trivial extension"):
//   - non-blocking: A goes on at 0 and ends at 1; the message is delivered at 1, B receives
//     it at 3 and ends at 3.
//   - blocking: A waits for B's receive at 3, computes, and ends at 4; B ends at 3.
func TestBlockingSend(t *testing.T) {
	for _, tc := range []struct {
		blocking string
		a, b     float64
	}{{"false", 1, 3}, {"true", 4, 3}} {
		prog := "processes:\n  - name: A\n    segments: [{send: {to: B, bytes: 1e6, blocking: " + tc.blocking + "}}, {compute: 1}]\n  - name: B\n    segments: [{compute: 3}, {recv: {from: A}}]\n"
		p := parseProgram(t, prog)
		c := &Cluster{Workstations: []Workstation{{Name: "w1", Power: 1}, {Name: "w2", Power: 1}}, Network: Medium{Bandwidth: 1e6}}
		n := build(t, p, c)
		r := runCompleted(t, n, Options{Record: true})
		times, _ := Times(n, r)
		if times[0].Finish != tc.a || times[1].Finish != tc.b || r.Time != toTicks(max(tc.a, tc.b)) {
			t.Errorf("blocking %s: A %g s, B %g s; want %g, %g", tc.blocking, times[0].Finish, times[1].Finish, tc.a, tc.b)
		}
	}
}

// TestBlockingHeadToHead: two processes that both send (blocking) before receiving deadlock;
// non-blocking they complete. Mixing modes on one channel is refused with the line.
func TestBlockingHeadToHead(t *testing.T) {
	c := &Cluster{Workstations: []Workstation{{Name: "w", Power: 1}}, Network: Medium{Bandwidth: 1e6}}
	for _, tc := range []struct {
		blocking string
		deadlock bool
	}{{"no", false}, {"yes", true}} {
		prog := "processes:\n  - name: A\n    segments: [{send: {to: B, bytes: 1, blocking: " + tc.blocking + "}}, {recv: {from: B}}]\n  - name: B\n    segments: [{send: {to: A, bytes: 1, blocking: " + tc.blocking + "}}, {recv: {from: A}}]\n"
		p := parseProgram(t, prog)
		n := build(t, p, c)
		r, err := n.Run(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := errors.Is(r.Err(), fault.ErrDeadlock); got != tc.deadlock {
			t.Errorf("blocking %s: %v", tc.blocking, r.Err())
		}
		if tc.deadlock && !strings.Contains(r.Err().Error(), "wait-for cycle: A -> B -> A") {
			t.Errorf("report: %v", r.Err())
		}
	}
	p := parseProgram(t, "processes:\n  - name: A\n    segments:\n      - send: {to: B, bytes: 1}\n      - send: {to: B, bytes: 1, blocking: true}\n  - name: B\n    segments: [{recv: {from: A, count: 2}}]\n")
	if _, err := Build(p, c); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "p.yaml:5: process \"A\": sends from A to B are both blocking and non-blocking (line 4)") {
		t.Errorf("mixed modes: %v", err)
	}
}
