package tpn

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Segment is one step of a process: compute, send, recv, or a loop with a known count.
type Segment struct {
	Compute float64 // seconds of dedicated CPU on the reference workstation
	Ops     float64 // or operations: Compute = Ops / Cluster.ReferenceRate
	Send    *Message
	Recv    *Message
	Loop    *Loop
	Line    int
}

// Message is a send to (or receive from) a peer.
type Message struct {
	Peer  string
	Bytes float64 // sends: message size
	Count int     // messages (default 1)
}

// Loop repeats its body Count times (unrolled in the net).
type Loop struct {
	Count int
	Body  []Segment
}

// Process is a sequence of segments.
type Process struct {
	Name     string
	Segments []Segment
}

// Program is a message-passing program and its allocation of processes to workstations.
type Program struct {
	Name       string
	Processes  []Process
	Allocation map[string]string // process → workstation (default: round robin)
}

// BgClass is a background job stream on a workstation (002): arrivals per second and mean
// CPU demand in seconds.
type BgClass struct {
	ArrivalRate, Demand float64
}

// Workstation of a cluster.
type Workstation struct {
	Name       string
	Power      float64 // power weight ρ = t_fastest/t_x (fastest = 1)
	Background []BgClass
}

// Utilization U = Σ λ_i·D_i of the background load.
func (w Workstation) Utilization() float64 {
	u := 0.0
	for _, b := range w.Background {
		u += b.ArrivalRate * b.Demand
	}
	return u
}

// ExpansionFactor is 1/(1 − U), the slowdown of a task on a processor-sharing CPU carrying
// background utilisation U (002; exact for Poisson background arrivals — see docs/studies.md).
// U ≥ 1 is an error naming the workstation.
func (w Workstation) ExpansionFactor() (float64, error) {
	u := w.Utilization()
	if u >= 1 {
		return 0, fmt.Errorf("workstation %q: background utilisation %.3g ≥ 1: the CPU is saturated and a task would never finish", w.Name, u)
	}
	return 1 / (1 - u), nil
}

// Cluster is the machines and the network.
type Cluster struct {
	Name          string
	Reference     string  // workstation compute work is measured on (default: the first with power 1)
	ReferenceRate float64 // operations per second of the reference workstation (for compute_ops)
	Workstations  []Workstation
	Network       Medium
}

// Build turns a program on a cluster into a timed Petri net (002 §3): each process a chain
// of control places; a compute segment a transition whose delay is
// work·ρ_ref/ρ_x·1/(1 − U_x), holding its workstation's CPU token while it runs; a send a zero-delay transition that passes control on and puts
// the messages into a transfer place, from which an infinite-server transfer transition
// (the network: t_s + n/B, or shared) moves them into the receiver's channel place; a receive
// a zero-delay transition needing the control token and Count messages. Loops are unrolled.
// Each process's last control place is final.
func Build(p *Program, c *Cluster) (*Net, error) {
	ws := map[string]*Workstation{}
	var ref *Workstation
	for i := range c.Workstations {
		w := &c.Workstations[i]
		ws[w.Name] = w
		if (c.Reference == "" && ref == nil && w.Power == 1) || w.Name == c.Reference {
			ref = w
		}
	}
	if ref == nil {
		if c.Reference != "" {
			return nil, fmt.Errorf("cluster: reference workstation %q does not exist", c.Reference)
		}
		return nil, errors.New("cluster: no workstation has power 1 (the fastest); name the reference")
	}
	procs := map[string]int{}
	for i, pr := range p.Processes {
		if _, dup := procs[pr.Name]; dup {
			return nil, fmt.Errorf("process %q defined twice", pr.Name)
		}
		procs[pr.Name] = i
	}
	alloc := map[string]*Workstation{}
	for i, pr := range p.Processes {
		name, ok := p.Allocation[pr.Name]
		if !ok {
			name = c.Workstations[i%len(c.Workstations)].Name
		}
		w, ok := ws[name]
		if !ok {
			return nil, fmt.Errorf("allocation: process %q on workstation %q, which the cluster does not have", pr.Name, name)
		}
		if _, err := w.ExpansionFactor(); err != nil {
			return nil, err
		}
		alloc[pr.Name] = w
	}
	n := &Net{Name: p.Name, FinalSet: true, Media: []Medium{c.Network}}
	// Each workstation's CPU is a place with one token that a compute step takes and gives
	// back: processes allocated to the same workstation take turns (one at a time, in
	// priority/declaration order at equal instants) instead of each getting a whole CPU.
	cpu := map[string]int{}
	for _, w := range c.Workstations {
		cpu[w.Name] = n.AddPlace(Place{Name: "cpu@" + w.Name, Initial: 1, Label: "cpu"})
	}
	xfer := map[[2]string]int{} // (from, to) → transfer place
	chans := map[[2]string]int{}
	chanTr := map[[2]string]int{} // (from, to) → transfer transition
	channel := func(from, to string) int {
		k := [2]string{from, to}
		if ch, ok := chans[k]; ok {
			return ch
		}
		ch := n.AddPlace(Place{Name: fmt.Sprintf("msg %s->%s", from, to), Label: "channel"})
		xp := n.AddPlace(Place{Name: fmt.Sprintf("wire %s->%s", from, to), Label: "in flight"})
		chans[k], xfer[k] = ch, xp
		chanTr[k] = n.AddTransition(Transition{Name: fmt.Sprintf("transfer %s->%s", from, to), Servers: Inf, In: []Arc{{xp, 1}}, Out: []Arc{{ch, 1}}, Process: from, Kind: "transfer", Medium: 1})
		return ch
	}
	var errs []error
	for _, pr := range p.Processes {
		w := alloc[pr.Name]
		ef, _ := w.ExpansionFactor()
		ctl := n.AddPlace(Place{Name: pr.Name + ".0", Initial: 1, Process: pr.Name})
		step := 0
		var walk func(segs []Segment)
		walk = func(segs []Segment) {
			for _, s := range segs {
				switch {
				case s.Loop != nil:
					for it := 0; it < s.Loop.Count; it++ {
						walk(s.Loop.Body)
					}
					continue
				case s.Send != nil:
					if _, ok := procs[s.Send.Peer]; !ok {
						errs = append(errs, fmt.Errorf("process %q, line %d: send to %q, which is not a process", pr.Name, s.Line, s.Send.Peer))
						continue
					}
				case s.Recv != nil:
					if _, ok := procs[s.Recv.Peer]; !ok {
						errs = append(errs, fmt.Errorf("process %q, line %d: receive from %q, which is not a process", pr.Name, s.Line, s.Recv.Peer))
						continue
					}
				}
				step++
				next := n.AddPlace(Place{Name: fmt.Sprintf("%s.%d", pr.Name, step), Process: pr.Name})
				switch {
				case s.Send != nil:
					channel(pr.Name, s.Send.Peer)
					k := [2]string{pr.Name, s.Send.Peer}
					cnt := max(1, s.Send.Count)
					n.AddTransition(Transition{Name: fmt.Sprintf("%s.send#%d->%s", pr.Name, step, s.Send.Peer), In: []Arc{{ctl, 1}}, Out: []Arc{{next, 1}, {xfer[k], cnt}}, Process: pr.Name, Kind: "send"})
					// one transfer transition per channel: messages on a channel must share a size
					tr := &n.Transitions[chanTr[k]]
					if tr.Bytes != 0 && tr.Bytes != s.Send.Bytes {
						errs = append(errs, fmt.Errorf("process %q, line %d: messages from %s to %s have different sizes (%g and %g bytes); one size per channel", pr.Name, s.Line, pr.Name, s.Send.Peer, tr.Bytes, s.Send.Bytes))
					}
					tr.Bytes = s.Send.Bytes
				case s.Recv != nil:
					ch := channel(s.Recv.Peer, pr.Name)
					n.AddTransition(Transition{Name: fmt.Sprintf("%s.recv#%d<-%s", pr.Name, step, s.Recv.Peer), In: []Arc{{ctl, 1}, {ch, max(1, s.Recv.Count)}}, Out: []Arc{{next, 1}}, Process: pr.Name, Kind: "recv"})
				default:
					work := s.Compute
					if s.Ops > 0 {
						if !(c.ReferenceRate > 0) {
							errs = append(errs, fmt.Errorf("process %q, line %d: compute_ops needs the cluster's reference_rate (operations per second)", pr.Name, s.Line))
						}
						work = s.Ops / c.ReferenceRate
					}
					d := work * ref.Power / w.Power * ef
					cp := cpu[w.Name]
					n.AddTransition(Transition{Name: fmt.Sprintf("%s.compute#%d", pr.Name, step), Delay: ToTicks(d), In: []Arc{{ctl, 1}, {cp, 1}}, Out: []Arc{{next, 1}, {cp, 1}}, Process: pr.Name, Kind: "compute", Work: work})
				}
				ctl = next
			}
		}
		walk(pr.Segments)
		n.Places[ctl].Final = 1
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return n, n.Validate()
}

// expand substitutes {i}, {next}, {prev}, {last} in a replicated process's text.
func expand(s string, i, count int) string {
	r := strings.NewReplacer("{i}", strconv.Itoa(i), "{next}", strconv.Itoa((i+1)%count), "{prev}", strconv.Itoa((i-1+count)%count), "{last}", strconv.Itoa(count-1))
	return r.Replace(s)
}

// CountMessages checks, per channel, that the messages sent equal those received, and
// returns the problems (a static pre-check: a gather that waits for more messages than
// are sent deadlocks).
func CountMessages(p *Program) []string {
	sent, recv := map[[2]string]int{}, map[[2]string]int{}
	var walk func(name string, segs []Segment, mult int)
	walk = func(name string, segs []Segment, mult int) {
		for _, s := range segs {
			switch {
			case s.Loop != nil:
				walk(name, s.Loop.Body, mult*s.Loop.Count)
			case s.Send != nil:
				sent[[2]string{name, s.Send.Peer}] += mult * max(1, s.Send.Count)
			case s.Recv != nil:
				recv[[2]string{s.Recv.Peer, name}] += mult * max(1, s.Recv.Count)
			}
		}
	}
	for _, pr := range p.Processes {
		walk(pr.Name, pr.Segments, 1)
	}
	var out []string
	keys := map[[2]string]bool{}
	for k := range sent {
		keys[k] = true
	}
	for k := range recv {
		keys[k] = true
	}
	for k := range keys {
		if sent[k] != recv[k] {
			out = append(out, fmt.Sprintf("%s sends %d message(s) to %s, which receives %d", k[0], sent[k], k[1], recv[k]))
		}
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
