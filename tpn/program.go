package tpn

import (
	"fmt"
	"github.com/clusterperf/clusterperf/workload"
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
