package tpn

import "fmt"

// A loop with a known count N becomes 002's counter-place subnet, whose size does not
// depend on N:
//
//	enter: ctl → gate + N·todo            (N iterations to do)
//	body:  gate + todo → … → gate + count  (its first step takes one todo token, its last
//	                                        puts one token per completed iteration on count)
//	exit:  gate + N·count → next           (enabled when the count is reached)
//
// The body is marked once. While iterations remain, count < N and exit is disabled; after
// the N-th, todo is empty and the body's first step is disabled, so the net is conflict-free
// (the invariant todo + count + [inside the body] = N holds after enter). exit consumes
// the count, so an inner loop starts afresh on every iteration of an outer one. Every
// iteration of the program's loops is the same (segments have no iteration variable), so no
// loop is unrolled.
type loopSubnet struct {
	name, group       string // "P0.loop#3"; with its source line, Transition.Loop
	gate, todo, count int
}

// newLoopNet adds the places of a loop's subnet. Its name is "P.loop#STEP", with the
// loop's source line if known ("P0.loop#3 (prog.yaml:12)": every replica of a process names
// the same program loop alike after its process, which groups them on a critical path).
func newLoopNet(n *Net, proc string, step, count int, source string) *loopSubnet {
	name, group := fmt.Sprintf("%s.loop#%d", proc, step), fmt.Sprintf("%s.loop#%d", proc, step)
	if source != "" {
		group += " (" + source + ")"
	}
	return &loopSubnet{
		name:  name,
		group: group,
		gate:  n.AddPlace(Place{Name: name + ".gate", Process: proc, Label: "loop gate"}),
		todo:  n.AddPlace(Place{Name: fmt.Sprintf("%s.todo (%d iterations)", name, count), Process: proc, Label: "loop iterations to do"}),
		count: n.AddPlace(Place{Name: name + ".count", Process: proc, Label: "loop counter"}),
	}
}

// sequencer threads a process's control flow through loop subnets while BuildWith walks
// its segments.
type sequencer struct {
	pend  []Arc       // input arcs the next transition made also takes (a loop's todo token)
	last  bool        // the segment being made is the last of the innermost loop's body
	loop  *loopSubnet // the innermost loop being walked (nil: the process's top level)
	group string      // the outermost loop's name (Transition.Loop), "" outside loops
}

// in is the input arcs of the next transition: its control place, the pending arcs, extra.
func (s *sequencer) in(ctl int, extra ...Arc) []Arc {
	a := append([]Arc{{ctl, 1}}, s.pend...)
	s.pend = nil
	return append(a, extra...)
}

// next is the control place a step leads to: a new place, or, for the last step of a loop
// body, the loop's gate with a token on its counter (tail: the extra output arcs).
func (s *sequencer) next(n *Net, name, proc string) (int, []Arc) {
	if s.last && s.loop != nil {
		s.last = false // a blocking send's wait is the step's last transition, not its send
		return s.loop.gate, []Arc{{s.loop.count, 1}}
	}
	return n.AddPlace(Place{Name: name, Process: proc}), nil
}

// enter starts walking loop l's body and returns the state to restore after it.
func (s *sequencer) enter(l *loopSubnet) sequencer {
	saved := *s
	s.pend = []Arc{{l.todo, 1}}
	s.loop, s.last = l, false
	if s.group == "" {
		s.group = l.group
	}
	return saved
}

// leave restores the state of the enclosing level.
func (s *sequencer) leave(saved sequencer) { *s = saved }
