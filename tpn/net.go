package tpn

import (
	"errors"
	"fmt"
	"math"
)

// Tick is the unit of time: 1 ns. Delays are rounded to whole ticks.
const Tick = 1e-9

// ToTicks converts seconds to ticks (rounded).
func ToTicks(s float64) int64 { return int64(math.Round(s / Tick)) }

// Seconds converts ticks to seconds.
func Seconds(t int64) float64 { return float64(t) * Tick }

// Inf is the server count of an infinite-server transition.
const Inf = -1

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
	Servers  int // 1 (default if 0), k, or Inf
	Priority int // lower fires first among same-instant candidates
	In, Out  []Arc
	Process  string
	Kind     string  // "compute", "send", "recv", "transfer", … (for reports)
	Medium   int     // 0: none; i ≥ 1: a transfer on Net.Media[i−1] (its delay comes from the medium)
	Bytes    float64 // transfer size
	Work     float64 // compute: seconds of dedicated CPU on the reference machine (reports)
}

// Medium is a network shared by transfers (002 §3, eq. for shared media).
type Medium struct {
	Name      string
	Startup   float64 // seconds
	Bandwidth float64 // bytes/s
	Shared    bool    // false: dedicated links, every transfer gets the full bandwidth
	Policy    SharePolicy
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
	FinalSet    bool // Places' Final fields define the final marking
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

// Validate reports structural problems: bad arc places or weights, negative delays or
// markings, servers < 1 other than Inf, unknown media.
func (n *Net) Validate() error {
	var errs []error
	for i, p := range n.Places {
		if p.Initial < 0 || p.Final < 0 {
			errs = append(errs, fmt.Errorf("place %q (#%d): markings must be ≥ 0", p.Name, i))
		}
	}
	for _, t := range n.Transitions {
		if t.Delay < 0 {
			errs = append(errs, fmt.Errorf("transition %q: delay %v < 0", t.Name, Seconds(t.Delay)))
		}
		if t.Servers < 1 && t.Servers != Inf {
			errs = append(errs, fmt.Errorf("transition %q: servers %d (allowed: ≥ 1, or infinite)", t.Name, t.Servers))
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
		if t.Medium < 0 || t.Medium > len(n.Media) {
			errs = append(errs, fmt.Errorf("transition %q: medium #%d does not exist", t.Name, t.Medium))
		}
	}
	for _, m := range n.Media {
		if !(m.Bandwidth > 0) || m.Startup < 0 {
			errs = append(errs, fmt.Errorf("medium %q: bandwidth must be > 0 and startup ≥ 0", m.Name))
		}
	}
	return errors.Join(errs...)
}
