package tpn

import (
	"fmt"
	"github.com/clusterperf/clusterperf/workload"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/sim"
)

// Segment is one step of a process: compute, send, recv, or a loop with a known count.
type Segment struct {
	Compute float64 // seconds of dedicated CPU on the reference workstation
	Ops     float64 // or operations: Compute = Ops / Cluster.ReferenceRate
	Send    *Message
	Recv    *Message
	Loop    *Loop
	Line    int // line in the program file (0: not from a file)
}

// Message is a send to (or receive from) a peer.
type Message struct {
	Peer  string
	Bytes float64 // sends: message size
	Count int     // messages (default 1)
	// Blocking (sends): a synchronous send, 002's "blocking send, blocking receive"
	// paradigm: the sender goes on only when the receiver has received the messages (an
	// acknowledgement token per message, put by the receive). Default: non-blocking (the
	// sender goes on at once; 002's own assumption). All sends on one channel share a mode.
	Blocking bool
	Network  string // sends: the cluster network to use (default: the first)
}

// Loop repeats its body Count times (a counter-place subnet in the net, loopnet.go).
type Loop struct {
	Count int
	Body  []Segment
}

// Process is a sequence of segments.
type Process struct {
	Name     string
	Segments []Segment
	Line     int // line in the program file
}

// Program is a message-passing program and its allocation of processes to workstations.
type Program struct {
	Name            string
	Processes       []Process
	Allocation      map[string]string // process → workstation (default: round robin)
	AllocationLines map[string]int    // process → line of its allocation entry
	File            string            // the program file, named in errors ("program" if empty)
}

// BgClass is a background job stream on a workstation (002): arrivals per second and mean
// CPU demand in seconds (of that workstation's CPU). Arrivals and Demands are the
// distributions of the inter-arrival times and of the demands, with those means (nil:
// exponential, 002's eq. assumption); only a sampled run (RunSampled, Replicate) draws from
// them — the mean expansion factor 1/(1 − U) uses the means alone.
type BgClass struct {
	ArrivalRate, Demand float64
	Arrivals, Demands   sim.Dist
}

// Workstation of a cluster.
type Workstation struct {
	Name       string
	Power      float64 // power weight ρ = t_fastest/t_x (fastest = 1)
	Background []BgClass
	Line       int // line in the cluster file
	// Classes: the background came from a job log split into classes (background_log).
	Classes *workload.Split
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
// background utilization U (002; exact for Poisson background arrivals — see docs/studies.md).
// U ≥ 1 is an error naming the workstation.
func (w Workstation) ExpansionFactor() (float64, error) {
	u := w.Utilization()
	if u >= 1 {
		return 0, fmt.Errorf("workstation %q: background utilization %.3g ≥ 1: the CPU is saturated and a task would never finish", w.Name, u)
	}
	return 1 / (1 - u), nil
}

// Cluster is the machines and the network.
type Cluster struct {
	Name          string
	Reference     string  // workstation compute work is measured on (default: the first with power 1)
	ReferenceRate float64 // operations per second of the reference workstation (for compute_ops)
	Workstations  []Workstation
	Network       Medium // Bandwidth 0: the cluster has no network (a program that sends is refused)
	// Networks, if given, replaces Network: several networks with their own startup and
	// bandwidth (002 §3: "multiple heterogeneous networks … different values of t_s and B");
	// a send names one (Message.Network), the first is the default.
	Networks      []Medium
	File          string // the cluster file, named in errors ("cluster" if empty)
	ReferenceLine int    // line of the reference field
}

// BuildOptions bound the net a program becomes and its run. Zero fields take the defaults.
type BuildOptions struct {
	// MaxTransitions: refuse (fault.ErrTooLarge) a program whose net would have more
	// transitions (default DefaultMaxTransitions; the CLI's --max-transitions).
	MaxTransitions int64
	// MaxFirings: refuse a program whose run would take more firings (steps plus messages;
	// default DefaultMaxFirings; the CLI's --max-firings).
	MaxFirings int64
}

// Default work budgets of Build. A transition of a program net costs about 300 bytes (its
// struct, name, arcs, its control place and the engine's per-transition state) and a
// recorded firing about 60 (log entry and heap slot; the log keeps at most DefaultMaxLog):
// the defaults keep a run under about 0.7 GB, and a run of DefaultMaxFirings takes a few
// seconds at the 4–6 M firings/s of BenchmarkRing64. (A loop's transitions fire once per
// iteration; Run bounds its log and event queue: Options.MaxLog, Options.MaxInFlight.)
const (
	DefaultMaxTransitions = 2_000_000
	DefaultMaxFirings     = 10_000_000
	bytesPerTransition    = 300
	bytesPerFiring        = 60
)

// Size is the estimated size of a program's net, computed from the program alone (loops
// multiplied out in float64, so no count can overflow).
type Size struct {
	Places      float64 `json:"places"`
	Transitions float64 `json:"transitions"`
	Firings     float64 `json:"firings"`  // steps plus messages
	Messages    float64 `json:"messages"` // transfers on the network
	Bytes       float64 `json:"memory_bytes"`
}

// Estimate is the size of the net Build would make for p: one transition and one control
// place per step of each process, a loop's counter-place subnet (enter and exit transitions,
// gate, todo and count places: its size does not depend on its count, loopnet.go), one
// transfer transition and two places per channel (bounded by the send and receive sites);
// one firing per executed step (loop bodies multiplied by their counts), per message and per
// loop entry and exit.
func Estimate(p *Program) Size {
	var z Size
	var walk func(segs []Segment, mult float64)
	walk = func(segs []Segment, mult float64) {
		for _, s := range segs {
			if s.Loop != nil {
				if s.Loop.Count == 0 || len(s.Loop.Body) == 0 {
					continue
				}
				z.Transitions += 2 // enter, exit
				z.Places += 4      // gate, todo, count, the place after the loop
				z.Firings += 2 * mult
				walk(s.Loop.Body, mult*float64(s.Loop.Count))
				continue
			}
			z.Transitions++
			z.Places++
			z.Firings += mult
			if s.Send != nil || s.Recv != nil {
				z.Transitions++ // a channel's transfer transition (at most one per site)
				z.Places += 2
			}
			if s.Send != nil {
				z.Messages += mult * float64(max(1, s.Send.Count))
				if s.Send.Blocking {
					z.Transitions++ // the wait for the acknowledgements
					z.Places++
					z.Firings += mult
				}
			}
		}
	}
	for _, pr := range p.Processes {
		z.Places++
		walk(pr.Segments, 1)
	}
	z.Firings += z.Messages
	z.Bytes = bytesPerTransition*z.Transitions + bytesPerFiring*min(z.Firings, DefaultMaxLog) // a recorded log keeps at most DefaultMaxLog firings
	return z
}

// CheckSize refuses (fault.ErrTooLarge) a program whose estimated net exceeds o's limits,
// naming the estimate and the limit.
func CheckSize(p *Program, o BuildOptions) (Size, error) {
	z := Estimate(p)
	mt, mf := o.MaxTransitions, o.MaxFirings
	if mt <= 0 {
		mt = DefaultMaxTransitions
	}
	if mf <= 0 {
		mf = DefaultMaxFirings
	}
	switch {
	case z.Transitions > float64(mt):
		return z, errTooLarge("%s: the program's net has about %.4g transitions (%.4g places, %.4g firings, about %s); the limit is %d transitions (BuildOptions.MaxTransitions, --max-transitions)",
			fileName(p.File, "program"), z.Transitions, z.Places, z.Firings, humanBytes(z.Bytes), mt)
	case z.Firings >= float64(mf): // a run is cut off when its firings reach the limit (Options.MaxFirings)
		return z, errTooLarge("%s: the program's run takes about %.4g firings (%.4g steps and %.4g messages); the limit is %d firings (BuildOptions.MaxFirings, --max-firings)",
			fileName(p.File, "program"), z.Firings, z.Firings-z.Messages, z.Messages, mf)
	}
	return z, nil
}

func fileName(f, def string) string {
	if f == "" {
		return def
	}
	return f
}

func humanBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.3g MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.3g KiB", b/(1<<10))
}

// Build is BuildWith with the default work budgets.
func Build(p *Program, c *Cluster) (*Net, error) { return BuildWith(p, c, BuildOptions{}) }

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
	pf, cf := fileName(p.File, "program"), fileName(c.File, "cluster")
	var errs []error
	if len(c.Workstations) == 0 {
		return nil, asInput(at(cf, 0, "no workstations"))
	}
	ws := map[string]*Workstation{}
	var ref *Workstation
	for i := range c.Workstations {
		w := &c.Workstations[i]
		if !(w.Power > 0 && w.Power <= 1) {
			errs = append(errs, at(cf, w.Line, "workstation %q: power weight %g (allowed: 0 < ρ ≤ 1, relative to the fastest)", w.Name, w.Power))
		}
		ws[w.Name] = w
		if (c.Reference == "" && ref == nil && w.Power == 1) || w.Name == c.Reference {
			ref = w
		}
	}
	if ref == nil {
		if c.Reference != "" {
			errs = append(errs, at(cf, c.ReferenceLine, "reference workstation %q does not exist", c.Reference))
		} else {
			errs = append(errs, at(cf, 0, "no workstation has power 1 (the fastest); name the reference"))
		}
		return nil, inputErrors(errs)
	}
	procs := map[string]int{}
	for i, pr := range p.Processes {
		if _, dup := procs[pr.Name]; dup {
			errs = append(errs, at(pf, pr.Line, "process %q defined twice", pr.Name))
		}
		procs[pr.Name] = i
	}
	var allocNames []string
	for name := range p.Allocation {
		allocNames = append(allocNames, name)
	}
	sortStrings(allocNames)
	for _, name := range allocNames {
		if _, ok := procs[name]; !ok {
			errs = append(errs, at(pf, p.AllocationLines[name], "allocation: %q is not a process", name))
		}
	}
	alloc := map[string]*Workstation{}
	for i, pr := range p.Processes {
		name, ok := p.Allocation[pr.Name]
		if !ok {
			name = c.Workstations[i%len(c.Workstations)].Name
		}
		w, ok := ws[name]
		if !ok {
			errs = append(errs, at(pf, p.AllocationLines[pr.Name], "allocation: process %q on workstation %q, which the cluster %s does not have", pr.Name, name, cf))
			continue
		}
		if _, err := w.ExpansionFactor(); err != nil {
			errs = append(errs, at(cf, w.Line, "%v", err))
		}
		alloc[pr.Name] = w
	}
	media := c.Networks
	if len(media) == 0 && (c.Network.Bandwidth != 0 || c.Network.Startup != 0) {
		media = []Medium{c.Network}
	}
	media = append([]Medium(nil), media...)
	mediumIdx := map[string]int{}
	for i := range media {
		m := &media[i]
		if m.Name == "" {
			m.Name = "network"
			if i > 0 {
				m.Name = fmt.Sprintf("network%d", i+1)
			}
		}
		if _, dup := mediumIdx[m.Name]; dup {
			errs = append(errs, at(cf, 0, "network %q defined twice", m.Name))
		}
		mediumIdx[m.Name] = i
		if !(m.Bandwidth > 0) || math.IsInf(m.Bandwidth, 0) || !(m.Startup >= 0) || m.Startup > MaxSeconds {
			errs = append(errs, at(cf, 0, "network %q: bandwidth %g B/s and startup %g s (allowed: a finite bandwidth > 0, a startup in 0 … %.4g s)", m.Name, m.Bandwidth, m.Startup, MaxSeconds))
		}
	}
	hasNet := len(media) > 0
	if err := inputErrors(errs); err != nil {
		return nil, err
	}
	n := &Net{Name: p.Name, FinalSet: true, Media: media}
	// Each workstation's CPU is a place with one token that a compute step takes and gives
	// back: processes allocated to the same workstation take turns (one at a time, in
	// priority/declaration order at equal instants) instead of each getting a whole CPU.
	// Net.CPUs (1-based by Transition.CPU) carry each workstation's background streams for
	// a sampled run.
	cpu := map[string]int{}
	cpuIdx := map[string]int{}
	for _, w := range c.Workstations {
		cpu[w.Name] = n.AddPlace(Place{Name: "cpu@" + w.Name, Initial: 1, Label: "cpu"})
		n.CPUs = append(n.CPUs, CPU{Name: w.Name, Background: append([]BgClass(nil), w.Background...)})
		cpuIdx[w.Name] = len(n.CPUs)
	}
	// a channel is blocking if its sends are; mixing modes on one channel is refused
	type mode struct {
		blocking bool
		line     int
	}
	modes := map[[2]string]mode{}
	for _, pr := range p.Processes {
		var scan func(segs []Segment)
		scan = func(segs []Segment) {
			for _, s := range segs {
				switch {
				case s.Loop != nil:
					scan(s.Loop.Body)
				case s.Send != nil:
					k := [2]string{pr.Name, s.Send.Peer}
					if m, ok := modes[k]; !ok {
						modes[k] = mode{s.Send.Blocking, s.Line}
					} else if m.blocking != s.Send.Blocking && len(errs) < maxErrors {
						errs = append(errs, at(pf, s.Line, "process %q: sends from %s to %s are both blocking and non-blocking (line %d); one mode per channel", pr.Name, pr.Name, s.Send.Peer, m.line))
					}
				}
			}
		}
		scan(pr.Segments)
	}
	acks := map[[2]string]int{} // blocking channel → acknowledgement place
	type wkey struct {
		from, to string
		medium   int
	}
	xfer := map[wkey]int{} // (from, to, medium) → transfer place
	chans := map[[2]string]int{}
	chanTr := map[wkey]int{} // (from, to, medium) → transfer transition
	src := func(line int) string {
		if line <= 0 {
			return ""
		}
		return fmt.Sprintf("%s:%d", pf, line)
	}
	channel := func(from, to string, line int) int {
		k := [2]string{from, to}
		if ch, ok := chans[k]; ok {
			return ch
		}
		ch := n.AddPlace(Place{Name: fmt.Sprintf("msg %s->%s", from, to), Label: "channel"})
		chans[k] = ch
		if modes[k].blocking {
			acks[k] = n.AddPlace(Place{Name: fmt.Sprintf("ack %s->%s", from, to), Label: "acknowledgement", Process: to})
		}
		return ch
	}
	// wire is the transfer place and transition of a channel on medium mi (0-based)
	wire := func(from, to string, mi, line int) wkey {
		k := wkey{from, to, mi}
		if _, ok := xfer[k]; ok {
			return k
		}
		ch := channel(from, to, line)
		name := fmt.Sprintf("%s->%s", from, to)
		if len(media) > 1 {
			name += " on " + media[mi].Name
		}
		xp := n.AddPlace(Place{Name: "wire " + name, Label: "in flight"})
		xfer[k] = xp
		chanTr[k] = n.AddTransition(Transition{Name: "transfer " + name, Servers: InfiniteServers, In: []Arc{{xp, 1}}, Out: []Arc{{ch, 1}}, Process: from, Kind: "transfer", Medium: mi + 1, Source: src(line)})
		return k
	}
	noNet := false
	seen := map[string]bool{} // an error inside an unrolled loop is reported once
	report := func(err error) {
		if !seen[err.Error()] {
			seen[err.Error()] = true
			errs = append(errs, err)
		}
	}
	for _, pr := range p.Processes {
		w := alloc[pr.Name]
		ef, _ := w.ExpansionFactor()
		ctl := n.AddPlace(Place{Name: pr.Name + ".0", Initial: 1, Process: pr.Name})
		step := 0
		var seq sequencer
		var walk func(segs []Segment)
		// loop makes 002's counter-place subnet of a loop (see loopSubnet), walking its body once.
		loop := func(s Segment) {
			if s.Loop.Count == 0 || len(s.Loop.Body) == 0 {
				return
			}
			step++
			ln := newLoopNet(n, pr.Name, step, s.Loop.Count, src(s.Line))
			in := seq.in(ctl)
			saved := seq.enter(ln)
			n.AddTransition(Transition{Name: ln.name + ".enter", In: in, Out: []Arc{{ln.gate, 1}, {ln.todo, s.Loop.Count}}, Process: pr.Name, Kind: "loop", Source: src(s.Line), Loop: seq.group})
			ctl = ln.gate
			walk(s.Loop.Body)
			group := seq.group
			seq.leave(saved)
			step++
			next, tail := seq.next(n, fmt.Sprintf("%s.%d", pr.Name, step), pr.Name)
			n.AddTransition(Transition{Name: ln.name + ".exit", In: seq.in(ln.gate, Arc{ln.count, s.Loop.Count}), Out: append([]Arc{{next, 1}}, tail...), Process: pr.Name, Kind: "loop", Source: src(s.Line), Loop: group})
			ctl = next
		}
		walk = func(segs []Segment) {
			for i, s := range segs {
				seq.last = i == len(segs)-1
				if len(errs) > 10*maxErrors {
					return // enough to report; the rest would repeat in unrolled loops
				}
				switch {
				case s.Loop != nil:
					loop(s)
					continue
				case s.Send != nil, s.Recv != nil:
					peer, verb := "", ""
					if s.Send != nil {
						peer, verb = s.Send.Peer, "send to"
					} else {
						peer, verb = s.Recv.Peer, "receive from"
					}
					if _, ok := procs[peer]; !ok {
						report(at(pf, s.Line, "process %q: %s %q, which is not a process", pr.Name, verb, peer))
						continue
					}
					if !hasNet {
						if !noNet {
							report(at(pf, s.Line, "process %q sends or receives messages, but the cluster %s has no network (give network: {startup, bandwidth})", pr.Name, cf))
						}
						noNet = true
						continue
					}
				}
				step++
				next, tail := seq.next(n, fmt.Sprintf("%s.%d", pr.Name, step), pr.Name)
				switch {
				case s.Send != nil:
					mi := 0
					if s.Send.Network != "" {
						var ok bool
						if mi, ok = mediumIdx[s.Send.Network]; !ok {
							names := make([]string, len(media))
							for i, m := range media {
								names[i] = m.Name
							}
							report(at(pf, s.Line, "process %q: network %q is not one of the cluster's (%s)", pr.Name, s.Send.Network, strings.Join(names, ", ")))
							mi = 0
						}
					}
					wk := wire(pr.Name, s.Send.Peer, mi, s.Line)
					k := [2]string{pr.Name, s.Send.Peer}
					cnt := max(1, s.Send.Count)
					if s.Send.Blocking { // send, then wait for the receiver's acknowledgements
						sent := n.AddPlace(Place{Name: fmt.Sprintf("%s.%d.sent", pr.Name, step), Process: pr.Name})
						n.AddTransition(Transition{Name: fmt.Sprintf("%s.send#%d->%s", pr.Name, step, s.Send.Peer), In: seq.in(ctl), Out: []Arc{{sent, 1}, {xfer[wk], cnt}}, Process: pr.Name, Kind: "send", Source: src(s.Line), Loop: seq.group})
						n.AddTransition(Transition{Name: fmt.Sprintf("%s.wait#%d->%s", pr.Name, step, s.Send.Peer), In: []Arc{{sent, 1}, {acks[k], cnt}}, Out: append([]Arc{{next, 1}}, tail...), Process: pr.Name, Kind: "wait", Source: src(s.Line), Loop: seq.group})
					} else {
						n.AddTransition(Transition{Name: fmt.Sprintf("%s.send#%d->%s", pr.Name, step, s.Send.Peer), In: seq.in(ctl), Out: append([]Arc{{next, 1}, {xfer[wk], cnt}}, tail...), Process: pr.Name, Kind: "send", Source: src(s.Line), Loop: seq.group})
					}
					// one transfer transition per channel: messages on a channel must share a size
					tr := &n.Transitions[chanTr[wk]]
					if tr.Bytes != 0 && tr.Bytes != s.Send.Bytes {
						report(at(pf, s.Line, "process %q: messages from %s to %s have different sizes (%g and %g bytes); one size per channel", pr.Name, pr.Name, s.Send.Peer, tr.Bytes, s.Send.Bytes))
					}
					tr.Bytes = s.Send.Bytes
					m := media[mi]
					if _, err := Ticks(m.Startup + s.Send.Bytes/m.Bandwidth); err != nil {
						report(at(pf, s.Line, "process %q: a message of %g bytes at %g B/s takes %.4g s, beyond the representable horizon %.4g s (2^62 ticks of 1 ns)", pr.Name, s.Send.Bytes, m.Bandwidth, m.Startup+s.Send.Bytes/m.Bandwidth, MaxSeconds))
					}
				case s.Recv != nil:
					ch := channel(s.Recv.Peer, pr.Name, s.Line)
					out := append([]Arc{{next, 1}}, tail...)
					if a, ok := acks[[2]string{s.Recv.Peer, pr.Name}]; ok {
						out = append(out, Arc{a, max(1, s.Recv.Count)})
					}
					n.AddTransition(Transition{Name: fmt.Sprintf("%s.recv#%d<-%s", pr.Name, step, s.Recv.Peer), In: append(seq.in(ctl), Arc{ch, max(1, s.Recv.Count)}), Out: out, Process: pr.Name, Kind: "recv", Source: src(s.Line), Loop: seq.group})
				default:
					work := s.Compute
					if s.Ops > 0 {
						if !(c.ReferenceRate > 0) {
							report(at(pf, s.Line, "process %q: compute_ops needs the cluster's reference_rate (operations per second)", pr.Name))
							work = 0 // reported once above; no second message about an infinite time
						} else {
							work = s.Ops / c.ReferenceRate
						}
					}
					dedicated := work * ref.Power / w.Power
					d := dedicated * ef
					ticks, err := Ticks(d)
					if err != nil {
						report(at(pf, s.Line, "process %q: %g s of reference work on workstation %q (power %g, background expansion %.4g) takes %.4g s, beyond the representable horizon %.4g s (2^62 ticks of 1 ns)", pr.Name, work, w.Name, w.Power, ef, d, MaxSeconds))
					}
					cp := cpu[w.Name]
					n.AddTransition(Transition{Name: fmt.Sprintf("%s.compute#%d", pr.Name, step), Delay: ticks, In: append(seq.in(ctl), Arc{cp, 1}), Out: append([]Arc{{next, 1}, {cp, 1}}, tail...), Process: pr.Name, Kind: "compute", Work: work, CPU: cpuIdx[w.Name], Dedicated: dedicated, Source: src(s.Line), Loop: seq.group})
				}
				ctl = next
			}
		}
		walk(pr.Segments)
		n.Places[ctl].Final = 1
	}
	if err := inputErrors(errs); err != nil {
		return nil, err
	}
	return n, n.Validate()
}

// expand substitutes {i}, {next}, {prev}, {last} in a replicated process's text.
func expand(s string, i, count int) string {
	if !strings.Contains(s, "{") {
		return s
	}
	for _, r := range [...]struct{ k, v string }{{"{i}", strconv.Itoa(i)}, {"{next}", strconv.Itoa((i + 1) % count)}, {"{prev}", strconv.Itoa((i - 1 + count) % count)}, {"{last}", strconv.Itoa(count - 1)}} {
		s = strings.ReplaceAll(s, r.k, r.v)
	}
	return s
}

// CountMessages checks, per channel, that the messages sent equal those received, and
// returns the problems (a static pre-check: a gather that waits for more messages than
// are sent deadlocks).
func CountMessages(p *Program) []string {
	// counts in float64: exact below 2^53, and no loop nest can overflow them
	sent, recv := map[[2]string]float64{}, map[[2]string]float64{}
	var walk func(name string, segs []Segment, mult float64)
	walk = func(name string, segs []Segment, mult float64) {
		for _, s := range segs {
			switch {
			case s.Loop != nil:
				walk(name, s.Loop.Body, mult*float64(s.Loop.Count))
			case s.Send != nil:
				sent[[2]string{name, s.Send.Peer}] += mult * float64(max(1, s.Send.Count))
			case s.Recv != nil:
				recv[[2]string{s.Recv.Peer, name}] += mult * float64(max(1, s.Recv.Count))
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
			out = append(out, fmt.Sprintf("%s sends %.0f message(s) to %s, which receives %.0f", k[0], sent[k], k[1], recv[k]))
		}
	}
	sortStrings(out)
	if len(out) > maxErrors {
		out = append(out[:maxErrors], fmt.Sprintf("… and %d more channels whose counts differ", len(out)-maxErrors))
	}
	return out
}

func sortStrings(s []string) { sort.Strings(s) }
