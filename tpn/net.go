package tpn

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// Tick is the unit of time: 1 ns. Delays are rounded to whole ticks.
const Tick = 1e-9

// MaxTicks is the representable horizon of a run: 2^62 ticks ≈ 4.61e9 s (146 years). Every
// delay and every instant stays at or below it, so the sum of an instant and a delay never
// overflows int64; a delay or an end time beyond it is refused (fault.ErrInput), never wrapped.
const MaxTicks int64 = 1 << 62

// MaxSeconds is MaxTicks in seconds (≈ 4.61e9 s).
const MaxSeconds = float64(MaxTicks) * Tick

// Ticks converts a duration in seconds to whole ticks (rounded to the nearest 1 ns), refusing
// (fault.ErrInput) what is not a finite number in [0, MaxSeconds]. Durations below 0.5 ns
// round to 0: the documented resolution of the clock.
func Ticks(s float64) (int64, error) {
	if !(s >= 0) || s > MaxSeconds { // NaN fails s >= 0
		return 0, fmt.Errorf("%w: duration %g s outside the representable range 0 … %.4g s (2^62 ticks of 1 ns)", fault.ErrInput, s, MaxSeconds)
	}
	return int64(math.Round(s / Tick)), nil
}

// toTicks converts seconds to ticks (rounded), saturating: NaN and negative durations give 0,
// durations beyond MaxSeconds give MaxTicks. Only for durations drawn from a checked
// distribution (sampled.go), whose rare far tail the horizon check after it handles; a
// duration from a file or a caller goes through Ticks, which refuses.
func toTicks(s float64) int64 {
	switch {
	case !(s > 0):
		return 0
	case s >= MaxSeconds:
		return MaxTicks
	}
	return int64(math.Round(s / Tick))
}

// Seconds converts ticks to seconds.
func Seconds(t int64) float64 { return float64(t) * Tick }

// InfiniteServers is the Transition.Servers value of an infinite-server transition (every
// enabling fires at once, as a delay station; pnml's "infinite" server semantics).
const InfiniteServers = -1

// Place of a net.
type Place struct {
	Name    string
	Initial int
	Final   int // tokens required in the final marking (with Net.FinalSet)
	Process string
	Label   string
}

// Arc connects a place and a transition with a weight ≥ 1.
type Arc struct {
	Place  int
	Weight int
}

// Transition of a net. Delay is in ticks; a Medium ≥ 0 makes it a transfer of Bytes on that
// medium (its delay then comes from the medium).
type Transition struct {
	Name     string
	Delay    int64
	Servers  int // 1 (default if 0), k, or InfiniteServers
	Priority int // lower fires first among same-instant candidates
	In, Out  []Arc
	Process  string
	Kind     string  // "compute", "send", "recv", "transfer", … (for reports)
	Medium   int     // 0: none; i ≥ 1: a transfer on Net.Media[i−1] (its delay comes from the medium)
	Bytes    float64 // transfer size
	Work     float64 // compute: seconds of dedicated CPU on the reference machine (reports)
	// CPU ≥ 1: a compute step on Net.CPUs[CPU−1], needing Dedicated seconds of that CPU
	// alone. A deterministic run uses Delay (Dedicated·1/(1 − U), 002's mean expansion); a
	// sampled run (Options.Sample) shares the CPU with sampled background jobs instead.
	CPU       int
	Dedicated float64
	Source    string // where it comes from ("prog.yaml:12"), named in run-time errors
	// Loop names the outermost program loop the transition belongs to ("P0.loop#2"; "" if
	// none): Gantt charts and the critical path group its iterations (loopnet.go).
	Loop string
}

// where names a transition in an error: its source location if known, then its name.
func (t *Transition) where() string {
	if t.Source != "" {
		return fmt.Sprintf("%s: transition %q", t.Source, t.Name)
	}
	return fmt.Sprintf("transition %q", t.Name)
}

// Medium is a network shared by transfers (002 §3, eq. for shared media).
type Medium struct {
	Name      string
	Startup   float64 // seconds
	Bandwidth float64 // bytes/s
	Shared    bool    // false: dedicated links, every transfer gets the full bandwidth
	Policy    SharePolicy
	// Uncertainty: Startup and Bandwidth are sample means of benchmark runs (nil: constants);
	// NetworkBounds turns it into an interval of the makespan.
	Uncertainty *NetUncertainty
}

// SharePolicy says how a shared medium divides its bandwidth.
type SharePolicy int

const (
	StaticAtStart SharePolicy = iota // k counted when a transfer starts; its duration is then fixed
	FluidSharing                     // bandwidth re-shared at every start and finish
)

// Net is a timed place/transition net.
type Net struct {
	ID          string // PNML net id (informational)
	Name        string
	Places      []Place
	Transitions []Transition
	Media       []Medium
	CPUs        []CPU // workstations' processors (program nets; for sampled background load)
	FinalSet    bool  // Places' Final fields define the final marking
}

// CPU is a workstation's processor in a program net: a processor-sharing server shared by
// the compute steps allocated to it (Transition.CPU) and, in a sampled run, by the
// workstation's background job streams (002 §3's contention model, sampled instead of
// averaged).
type CPU struct {
	Name       string
	Background []BgClass
}

// AddPlace appends a place and returns its index.
func (n *Net) AddPlace(p Place) int { n.Places = append(n.Places, p); return len(n.Places) - 1 }

// AddTransition appends a transition and returns its index.
func (n *Net) AddTransition(t Transition) int {
	if t.Servers == 0 {
		t.Servers = 1
	}
	n.Transitions = append(n.Transitions, t)
	return len(n.Transitions) - 1
}

// Validate reports structural problems: bad arc places or weights, delays outside
// [0, MaxTicks], negative markings, servers < 1 other than InfiniteServers, an
// infinite-server transition without input places (unbounded concurrency), unknown media, media whose
// startup or bandwidth is not finite. The errors wrap fault.ErrInput; at most maxErrors are
// listed.
func (n *Net) Validate() error {
	var errs []error
	for i, p := range n.Places {
		if p.Initial < 0 || p.Final < 0 {
			errs = append(errs, fmt.Errorf("place %q (#%d): markings must be ≥ 0", p.Name, i))
		}
	}
	for _, t := range n.Transitions {
		if t.Delay < 0 || t.Delay > MaxTicks {
			errs = append(errs, fmt.Errorf("%s: delay %d ticks outside 0 … 2^62", t.where(), t.Delay))
		}
		if math.IsNaN(t.Bytes) || math.IsInf(t.Bytes, 0) || t.Bytes < 0 {
			errs = append(errs, fmt.Errorf("%s: message size %g bytes (allowed: a finite number ≥ 0)", t.where(), t.Bytes))
		}
		if t.Servers < 1 && t.Servers != InfiniteServers {
			errs = append(errs, fmt.Errorf("transition %q: servers %d (allowed: ≥ 1, or infinite)", t.Name, t.Servers))
		}
		if t.Servers == InfiniteServers && len(t.In) == 0 {
			errs = append(errs, fmt.Errorf("%s: infinite servers and no input place: it is enabled infinitely often at every instant, so infinitely many firings would start at once (petri-notes §3.3: every enabling runs in parallel); give it a finite number of servers or an input place", t.where()))
		}
		for _, arcs := range [2][]Arc{t.In, t.Out} {
			for _, a := range arcs {
				if a.Place < 0 || a.Place >= len(n.Places) {
					errs = append(errs, fmt.Errorf("transition %q: arc to place #%d, which does not exist", t.Name, a.Place))
				} else if a.Weight < 1 {
					errs = append(errs, fmt.Errorf("transition %q: arc weight %d with place %q must be ≥ 1", t.Name, a.Weight, n.Places[a.Place].Name))
				}
			}
		}
		if t.CPU < 0 || t.CPU > len(n.CPUs) {
			errs = append(errs, fmt.Errorf("%s: CPU #%d does not exist", t.where(), t.CPU))
		}
		if !(t.Dedicated >= 0) || t.Dedicated > MaxSeconds {
			errs = append(errs, fmt.Errorf("%s: dedicated CPU time %g s (allowed: 0 … %.4g s)", t.where(), t.Dedicated, MaxSeconds))
		}
		if t.Medium < 0 || t.Medium > len(n.Media) {
			errs = append(errs, fmt.Errorf("transition %q: medium #%d does not exist", t.Name, t.Medium))
		}
	}
	for _, m := range n.Media {
		if !(m.Bandwidth > 0) || math.IsInf(m.Bandwidth, 0) || !(m.Startup >= 0) || m.Startup > MaxSeconds {
			errs = append(errs, fmt.Errorf("medium %q: bandwidth %g B/s and startup %g s (allowed: a finite bandwidth > 0, a startup in 0 … %.4g s)", m.Name, m.Bandwidth, m.Startup, MaxSeconds))
		}
	}
	return inputErrors(errs)
}
