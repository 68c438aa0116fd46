package tpn

import (
	"fmt"
	"math"
	"strings"
)

// BuildWith turns a program on a cluster into a timed Petri net (002 §3): each process a
// chain of control places; a compute segment a transition whose delay is
// work·ρ_ref/ρ_x·1/(1 − U_x), holding its workstation's CPU token while it runs; a send a
// zero-delay transition that passes control on and puts the messages into a transfer place,
// from which an infinite-server transfer transition (the network: t_s + n/B, or shared)
// moves them into the receiver's channel place; a receive a zero-delay transition needing
// the control token and Count messages. A loop is 002's counter-place subnet (loopnet.go). Each process's last control
// place is final.
//
// Before building, the net's size is estimated and refused beyond o's limits
// (fault.ErrTooLarge). Every delay is converted to ticks with a check: one beyond the
// representable horizon (MaxSeconds) is refused with the file and line of the segment
// (fault.ErrInput), as are all other problems (at most 20 listed).
func BuildWith(p *Program, c *Cluster, o BuildOptions) (*Net, error) {
	if _, err := CheckSize(p, o); err != nil {
		return nil, err
	}
	b := &builder{p: p, c: c, pf: fileName(p.File, "program"), cf: fileName(c.File, "cluster")}
	if len(c.Workstations) == 0 {
		return nil, asInput(at(b.cf, 0, "no workstations"))
	}
	if !b.checkWorkstations() {
		return nil, inputErrors(b.errs)
	}
	b.checkAllocation()
	b.checkMedia()
	if err := inputErrors(b.errs); err != nil {
		return nil, err
	}
	b.n = &Net{Name: p.Name, FinalSet: true, Media: b.media}
	b.addCPUs()
	b.channelModes()
	b.acks, b.chans = map[[2]string]int{}, map[[2]string]int{}
	b.xfer, b.chanTr = map[wireKey]int{}, map[wireKey]int{}
	b.seen = map[string]bool{}
	for _, pr := range p.Processes {
		b.process(pr)
	}
	if err := inputErrors(b.errs); err != nil {
		return nil, err
	}
	return b.n, b.n.Validate()
}

// builder is BuildWith's state: the inputs and their file names, the problems found so
// far, the checked cluster (workstations by name, the reference, each process's
// workstation, the network media), and the net being built with its CPU places and the
// places and transitions of each channel.
type builder struct {
	p      *Program
	c      *Cluster
	pf, cf string
	errs   []error
	ws     map[string]*Workstation
	ref    *Workstation
	procs  map[string]int
	alloc  map[string]*Workstation
	media  []Medium
	medium map[string]int
	n      *Net
	cpu    map[string]int // workstation → its CPU place
	cpuIdx map[string]int // workstation → Transition.CPU (1-based)
	modes  map[[2]string]chanMode
	acks   map[[2]string]int // blocking channel → acknowledgement place
	chans  map[[2]string]int // channel → its message place
	xfer   map[wireKey]int   // (from, to, medium) → transfer place
	chanTr map[wireKey]int   // (from, to, medium) → transfer transition
	noNet  bool              // the no-network problem was reported
	seen   map[string]bool   // an error inside an unrolled loop is reported once
}

// chanMode is a channel's mode, blocking if its sends are, and the line of its first send.
type chanMode struct {
	blocking bool
	line     int
}

// wireKey names a channel's transfer on one medium (0-based).
type wireKey struct {
	from, to string
	medium   int
}

// checkWorkstations checks power weights (0 < ρ ≤ 1) and finds the reference workstation
// (the one named, or the first of power 1); false when there is none.
func (b *builder) checkWorkstations() bool {
	c := b.c
	b.ws = map[string]*Workstation{}
	for i := range c.Workstations {
		w := &c.Workstations[i]
		if !(w.Power > 0 && w.Power <= 1) {
			b.errs = append(b.errs, at(b.cf, w.Line, "workstation %q: power weight %g (allowed: 0 < ρ ≤ 1, relative to the fastest)", w.Name, w.Power))
		}
		b.ws[w.Name] = w
		if (c.Reference == "" && b.ref == nil && w.Power == 1) || w.Name == c.Reference {
			b.ref = w
		}
	}
	if b.ref != nil {
		return true
	}
	if c.Reference != "" {
		b.errs = append(b.errs, at(b.cf, c.ReferenceLine, "reference workstation %q does not exist", c.Reference))
	} else {
		b.errs = append(b.errs, at(b.cf, 0, "no workstation has power 1 (the fastest); name the reference"))
	}
	return false
}

// checkAllocation checks process names are unique and the allocation names processes and
// workstations of the cluster; a process not allocated runs on workstation i mod W.
func (b *builder) checkAllocation() {
	p, pf := b.p, b.pf
	b.procs = map[string]int{}
	for i, pr := range p.Processes {
		if _, dup := b.procs[pr.Name]; dup {
			b.errs = append(b.errs, at(pf, pr.Line, "process %q defined twice", pr.Name))
		}
		b.procs[pr.Name] = i
	}
	var allocNames []string
	for name := range p.Allocation {
		allocNames = append(allocNames, name)
	}
	sortStrings(allocNames)
	for _, name := range allocNames {
		if _, ok := b.procs[name]; !ok {
			b.errs = append(b.errs, at(pf, p.AllocationLines[name], "allocation: %q is not a process", name))
		}
	}
	b.alloc = map[string]*Workstation{}
	for i, pr := range p.Processes {
		name, ok := p.Allocation[pr.Name]
		if !ok {
			name = b.c.Workstations[i%len(b.c.Workstations)].Name
		}
		w, ok := b.ws[name]
		if !ok {
			b.errs = append(b.errs, at(pf, p.AllocationLines[pr.Name], "allocation: process %q on workstation %q, which the cluster %s does not have", pr.Name, name, b.cf))
			continue
		}
		if _, err := w.ExpansionFactor(); err != nil {
			b.errs = append(b.errs, at(b.cf, w.Line, "%v", err))
		}
		b.alloc[pr.Name] = w
	}
}

// checkMedia names the network media (network, network2, …; the single Network when no
// list is given) and checks each has a finite bandwidth > 0 and a startup in 0 … MaxSeconds.
func (b *builder) checkMedia() {
	c := b.c
	media := c.Networks
	if len(media) == 0 && (c.Network.Bandwidth != 0 || c.Network.Startup != 0) {
		media = []Medium{c.Network}
	}
	b.media = append([]Medium(nil), media...)
	b.medium = map[string]int{}
	for i := range b.media {
		m := &b.media[i]
		if m.Name == "" {
			m.Name = "network"
			if i > 0 {
				m.Name = fmt.Sprintf("network%d", i+1)
			}
		}
		if _, dup := b.medium[m.Name]; dup {
			b.errs = append(b.errs, at(b.cf, 0, "network %q defined twice", m.Name))
		}
		b.medium[m.Name] = i
		if !(m.Bandwidth > 0) || math.IsInf(m.Bandwidth, 0) || !(m.Startup >= 0) || m.Startup > MaxSeconds {
			b.errs = append(b.errs, at(b.cf, 0, "network %q: bandwidth %g B/s and startup %g s (allowed: a finite bandwidth > 0, a startup in 0 … %.4g s)", m.Name, m.Bandwidth, m.Startup, MaxSeconds))
		}
	}
}

// addCPUs gives each workstation's CPU a place with one token that a compute step takes and
// gives back: processes allocated to the same workstation take turns (one at a time, in
// priority/declaration order at equal instants) instead of each getting a whole CPU.
// Net.CPUs (1-based by Transition.CPU) carry each workstation's background streams for a
// sampled run.
func (b *builder) addCPUs() {
	b.cpu, b.cpuIdx = map[string]int{}, map[string]int{}
	for _, w := range b.c.Workstations {
		b.cpu[w.Name] = b.n.AddPlace(Place{Name: "cpu@" + w.Name, Initial: 1, Label: "cpu"})
		b.n.CPUs = append(b.n.CPUs, CPU{Name: w.Name, Background: append([]BgClass(nil), w.Background...)})
		b.cpuIdx[w.Name] = len(b.n.CPUs)
	}
}

// channelModes records each channel's mode: a channel is blocking if its sends are; mixing
// modes on one channel is refused.
func (b *builder) channelModes() {
	b.modes = map[[2]string]chanMode{}
	for _, pr := range b.p.Processes {
		b.scanModes(pr.Name, pr.Segments)
	}
}

func (b *builder) scanModes(proc string, segs []Segment) {
	for _, s := range segs {
		switch {
		case s.Loop != nil:
			b.scanModes(proc, s.Loop.Body)
		case s.Send != nil:
			k := [2]string{proc, s.Send.Peer}
			if m, ok := b.modes[k]; !ok {
				b.modes[k] = chanMode{s.Send.Blocking, s.Line}
			} else if m.blocking != s.Send.Blocking && len(b.errs) < maxErrors {
				b.errs = append(b.errs, at(b.pf, s.Line, "process %q: sends from %s to %s are both blocking and non-blocking (line %d); one mode per channel", proc, proc, s.Send.Peer, m.line))
			}
		}
	}
}

// src is a transition's source, file:line of the program (empty without a line).
func (b *builder) src(line int) string {
	if line <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", b.pf, line)
}

// report records err once (an error inside an unrolled loop would repeat).
func (b *builder) report(err error) {
	if !b.seen[err.Error()] {
		b.seen[err.Error()] = true
		b.errs = append(b.errs, err)
	}
}

// channel is the message place of the channel from → to, made on first use with, for a
// blocking channel, its acknowledgement place.
func (b *builder) channel(from, to string) int {
	k := [2]string{from, to}
	if ch, ok := b.chans[k]; ok {
		return ch
	}
	ch := b.n.AddPlace(Place{Name: fmt.Sprintf("msg %s->%s", from, to), Label: "channel"})
	b.chans[k] = ch
	if b.modes[k].blocking {
		b.acks[k] = b.n.AddPlace(Place{Name: fmt.Sprintf("ack %s->%s", from, to), Label: "acknowledgement", Process: to})
	}
	return ch
}

// wire is the transfer place and transition of a channel on medium mi (0-based), made on
// first use: an infinite-server transition from the in-flight place to the channel.
func (b *builder) wire(from, to string, mi, line int) wireKey {
	k := wireKey{from, to, mi}
	if _, ok := b.xfer[k]; ok {
		return k
	}
	ch := b.channel(from, to)
	name := fmt.Sprintf("%s->%s", from, to)
	if len(b.media) > 1 {
		name += " on " + b.media[mi].Name
	}
	xp := b.n.AddPlace(Place{Name: "wire " + name, Label: "in flight"})
	b.xfer[k] = xp
	b.chanTr[k] = b.n.AddTransition(Transition{Name: "transfer " + name, Servers: InfiniteServers, In: []Arc{{xp, 1}}, Out: []Arc{{ch, 1}}, Process: from, Kind: "transfer", Medium: mi + 1, Source: b.src(line)})
	return k
}

// procBuilder walks one process's segments: ctl is the current control place, step the
// number of control steps so far, seq the loop context (loopnet.go).
type procBuilder struct {
	*builder
	pr   Process
	w    *Workstation
	ef   float64 // the workstation's background expansion factor 1/(1 − U)
	ctl  int
	step int
	seq  sequencer
}

// process builds one process's chain of control places and marks its last one final.
func (b *builder) process(pr Process) {
	w := b.alloc[pr.Name]
	ef, _ := w.ExpansionFactor()
	pb := &procBuilder{builder: b, pr: pr, w: w, ef: ef}
	pb.ctl = b.n.AddPlace(Place{Name: pr.Name + ".0", Initial: 1, Process: pr.Name})
	pb.walk(pr.Segments)
	b.n.Places[pb.ctl].Final = 1
}

func (pb *procBuilder) walk(segs []Segment) {
	for i, s := range segs {
		pb.seq.last = i == len(segs)-1
		if len(pb.errs) > 10*maxErrors {
			return // enough to report; the rest would repeat in unrolled loops
		}
		if s.Loop != nil {
			pb.loop(s)
			continue
		}
		if (s.Send != nil || s.Recv != nil) && !pb.messageOK(s) {
			continue
		}
		pb.step++
		next, tail := pb.seq.next(pb.n, fmt.Sprintf("%s.%d", pb.pr.Name, pb.step), pb.pr.Name)
		switch {
		case s.Send != nil:
			pb.send(s, next, tail)
		case s.Recv != nil:
			pb.recv(s, next, tail)
		default:
			pb.compute(s, next, tail)
		}
		pb.ctl = next
	}
}

// loop makes 002's counter-place subnet of a loop (see loopSubnet), walking its body once.
func (pb *procBuilder) loop(s Segment) {
	if s.Loop.Count == 0 || len(s.Loop.Body) == 0 {
		return
	}
	name, seq := pb.pr.Name, &pb.seq
	pb.step++
	ln := newLoopNet(pb.n, name, pb.step, s.Loop.Count, pb.src(s.Line))
	in := seq.in(pb.ctl)
	saved := seq.enter(ln)
	pb.n.AddTransition(Transition{Name: ln.name + ".enter", In: in, Out: []Arc{{ln.gate, 1}, {ln.todo, s.Loop.Count}}, Process: name, Kind: "loop", Source: pb.src(s.Line), Loop: seq.group})
	pb.ctl = ln.gate
	pb.walk(s.Loop.Body)
	group := seq.group
	seq.leave(saved)
	pb.step++
	next, tail := seq.next(pb.n, fmt.Sprintf("%s.%d", name, pb.step), name)
	pb.n.AddTransition(Transition{Name: ln.name + ".exit", In: seq.in(ln.gate, Arc{ln.count, s.Loop.Count}), Out: append([]Arc{{next, 1}}, tail...), Process: name, Kind: "loop", Source: pb.src(s.Line), Loop: group})
	pb.ctl = next
}

// messageOK reports whether a send or receive can be built: its peer is a process and the
// cluster has a network (the missing network reported once).
func (pb *procBuilder) messageOK(s Segment) bool {
	peer, verb := "", ""
	if s.Send != nil {
		peer, verb = s.Send.Peer, "send to"
	} else {
		peer, verb = s.Recv.Peer, "receive from"
	}
	if _, ok := pb.procs[peer]; !ok {
		pb.report(at(pb.pf, s.Line, "process %q: %s %q, which is not a process", pb.pr.Name, verb, peer))
		return false
	}
	if len(pb.media) == 0 {
		if !pb.noNet {
			pb.report(at(pb.pf, s.Line, "process %q sends or receives messages, but the cluster %s has no network (give network: {startup, bandwidth})", pb.pr.Name, pb.cf))
		}
		pb.noNet = true
		return false
	}
	return true
}

// send builds a send: a blocking one puts Count messages in flight and waits for the
// receiver's Count acknowledgements; a non-blocking one passes control on at once. The
// channel's transfer transition carries the message size (one size per channel), and
// t_s + n/B must be representable in ticks.
func (pb *procBuilder) send(s Segment, next int, tail []Arc) {
	name, seq, n, peer := pb.pr.Name, &pb.seq, pb.n, s.Send.Peer
	mi := 0
	if s.Send.Network != "" {
		var ok bool
		if mi, ok = pb.medium[s.Send.Network]; !ok {
			names := make([]string, len(pb.media))
			for i, m := range pb.media {
				names[i] = m.Name
			}
			pb.report(at(pb.pf, s.Line, "process %q: network %q is not one of the cluster's (%s)", name, s.Send.Network, strings.Join(names, ", ")))
			mi = 0
		}
	}
	wk := pb.wire(name, peer, mi, s.Line)
	cnt := max(1, s.Send.Count)
	if s.Send.Blocking { // send, then wait for the receiver's acknowledgements
		sent := n.AddPlace(Place{Name: fmt.Sprintf("%s.%d.sent", name, pb.step), Process: name})
		n.AddTransition(Transition{Name: fmt.Sprintf("%s.send#%d->%s", name, pb.step, peer), In: seq.in(pb.ctl), Out: []Arc{{sent, 1}, {pb.xfer[wk], cnt}}, Process: name, Kind: "send", Source: pb.src(s.Line), Loop: seq.group})
		n.AddTransition(Transition{Name: fmt.Sprintf("%s.wait#%d->%s", name, pb.step, peer), In: []Arc{{sent, 1}, {pb.acks[[2]string{name, peer}], cnt}}, Out: append([]Arc{{next, 1}}, tail...), Process: name, Kind: "wait", Source: pb.src(s.Line), Loop: seq.group})
	} else {
		n.AddTransition(Transition{Name: fmt.Sprintf("%s.send#%d->%s", name, pb.step, peer), In: seq.in(pb.ctl), Out: append([]Arc{{next, 1}, {pb.xfer[wk], cnt}}, tail...), Process: name, Kind: "send", Source: pb.src(s.Line), Loop: seq.group})
	}
	// one transfer transition per channel: messages on a channel must share a size
	tr := &n.Transitions[pb.chanTr[wk]]
	if tr.Bytes != 0 && tr.Bytes != s.Send.Bytes {
		pb.report(at(pb.pf, s.Line, "process %q: messages from %s to %s have different sizes (%g and %g bytes); one size per channel", name, name, peer, tr.Bytes, s.Send.Bytes))
	}
	tr.Bytes = s.Send.Bytes
	m := pb.media[mi]
	if _, err := Ticks(m.Startup + s.Send.Bytes/m.Bandwidth); err != nil {
		pb.report(at(pb.pf, s.Line, "process %q: a message of %g bytes at %g B/s takes %.4g s, beyond the representable horizon %.4g s (2^62 ticks of 1 ns)", name, s.Send.Bytes, m.Bandwidth, m.Startup+s.Send.Bytes/m.Bandwidth, MaxSeconds))
	}
}

// recv builds a receive: it needs the control token and Count messages, and gives Count
// acknowledgements back on a blocking channel.
func (pb *procBuilder) recv(s Segment, next int, tail []Arc) {
	name, peer := pb.pr.Name, s.Recv.Peer
	ch := pb.channel(peer, name)
	out := append([]Arc{{next, 1}}, tail...)
	if a, ok := pb.acks[[2]string{peer, name}]; ok {
		out = append(out, Arc{a, max(1, s.Recv.Count)})
	}
	pb.n.AddTransition(Transition{Name: fmt.Sprintf("%s.recv#%d<-%s", name, pb.step, peer), In: append(pb.seq.in(pb.ctl), Arc{ch, max(1, s.Recv.Count)}), Out: out, Process: name, Kind: "recv", Source: pb.src(s.Line), Loop: pb.seq.group})
}

// compute builds a compute step holding the workstation's CPU token: reference work W (or
// ops / reference_rate) takes W·ρ_ref/ρ_x dedicated and W·ρ_ref/ρ_x·1/(1 − U_x) with
// background load (002 §3), which must be representable in ticks.
func (pb *procBuilder) compute(s Segment, next int, tail []Arc) {
	name, w := pb.pr.Name, pb.w
	work := s.Compute
	if s.Ops > 0 {
		if !(pb.c.ReferenceRate > 0) {
			pb.report(at(pb.pf, s.Line, "process %q: compute_ops needs the cluster's reference_rate (operations per second)", name))
			work = 0 // reported once above; no second message about an infinite time
		} else {
			work = s.Ops / pb.c.ReferenceRate
		}
	}
	dedicated := work * pb.ref.Power / w.Power
	d := dedicated * pb.ef
	ticks, err := Ticks(d)
	if err != nil {
		pb.report(at(pb.pf, s.Line, "process %q: %g s of reference work on workstation %q (power %g, background expansion %.4g) takes %.4g s, beyond the representable horizon %.4g s (2^62 ticks of 1 ns)", name, work, w.Name, w.Power, pb.ef, d, MaxSeconds))
	}
	cp := pb.cpu[w.Name]
	pb.n.AddTransition(Transition{Name: fmt.Sprintf("%s.compute#%d", name, pb.step), Delay: ticks, In: append(pb.seq.in(pb.ctl), Arc{cp, 1}), Out: append([]Arc{{next, 1}, {cp, 1}}, tail...), Process: name, Kind: "compute", Work: work, CPU: pb.cpuIdx[w.Name], Dedicated: dedicated, Source: pb.src(s.Line), Loop: pb.seq.group})
}
