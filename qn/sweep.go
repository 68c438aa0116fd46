package qn

import (
	"context"
	"fmt"
	"github.com/clusterperf/clusterperf/fault"
)

// SweepParam names the model value a what-if sweep varies (as JMVA's what-if analysis).
type SweepParam struct {
	What    string // "population", "demand" or "arrival_rate"
	Class   int    // class index; -1: every class (demand only)
	Station int    // station index (demand only)
	Label   string // the text the user gave, e.g. "demand.cpu"
}

// MaxSweepPoints bounds the number of values of one sweep.
const MaxSweepPoints = 100000

// MaxSweepWork bounds the estimated work of a whole sweep, in population vectors × stations
// summed over its points (its time: bench/qn-timings.md).
const MaxSweepWork = 2e9

// Apply returns a copy of m with the swept value set to v.
func (p SweepParam) Apply(m *Model, v float64) *Model {
	c := m.Clone()
	switch p.What {
	case "population":
		c.Classes[p.Class].Population = int(v)
	case "arrival_rate":
		c.Classes[p.Class].ArrivalRate = v
	case "demand":
		for cl := range c.Classes {
			if p.Class < 0 || cl == p.Class {
				c.Demand[cl][p.Station] = v
			}
		}
	}
	return c
}

// SweepPoint is the solution at one swept value. Err is set (and Result nil) when the model
// has no solution there, e.g. a saturated open station.
type SweepPoint struct {
	Value  float64
	Result *Result
	Bounds *Bounds // single-class closed models only
	Err    error
}

// Sweep solves m at every value. Errors that are about the model as a whole (a bad solver
// name) are returned; a point without a steady state is recorded in its Err. ctx stops it
// between two points (and within a point, as it stops Solve): when ctx is cancelled it
// returns the points solved so far (in order, the first ones of values) with an error
// wrapping fault.ErrInterrupted and ctx's error.
func Sweep(ctx context.Context, m *Model, p SweepParam, values []float64, solver string, opt AMVAOptions, progress func(done, total int)) ([]SweepPoint, error) {
	// Each point is solved on its own, at a cost of about (population lattice) × stations:
	// estimate the whole sweep before starting (issue 12: population=1:100000 is 5e9
	// vectors, minutes of work) and refuse beyond MaxSweepWork.
	// (beyond MaxLattice auto approximates, at about a population's worth of work per point,
	// and an exact solver refuses the point itself with its own estimate).
	work := 0.0
	for _, v := range values {
		mm := p.Apply(m, v)
		cost := LatticeSize(mm)
		if cost > MaxLattice {
			cost = 1
			for _, c := range mm.Classes {
				cost += float64(c.Population)
			}
		}
		work += cost * float64(max(1, len(m.Stations)))
	}
	if work > MaxSweepWork {
		return nil, fmt.Errorf("%w: the sweep would visit about %.3g population vectors × stations over %d points (limit %.3g): sweep fewer or smaller values (FROM:TO:STEP)", fault.ErrTooLarge, work, len(values), float64(MaxSweepWork))
	}
	out := make([]SweepPoint, 0, len(values))
	for i, v := range values {
		if ctx.Err() != nil {
			return out, fmt.Errorf("%w after %d of %d sweep points: %w", fault.ErrInterrupted, i, len(values), ctx.Err())
		}
		mm := p.Apply(m, v)
		pt := SweepPoint{Value: v}
		r, err := Solve(ctx, mm, solver, opt)
		if err != nil && ctx.Err() != nil { // stopped within the point: the points before it
			return out, fmt.Errorf("%w after %d of %d sweep points: %w", fault.ErrInterrupted, i, len(values), ctx.Err())
		}
		if err != nil {
			if _, ok := err.(*SaturationError); !ok {
				return nil, fmt.Errorf("at %s = %.6g: %w", p.Label, v, err)
			}
			pt.Err = err
		}
		pt.Result = r
		if len(mm.Classes) == 1 && !mm.Classes[0].Open {
			if b, err := BoundsAt(mm, mm.Classes[0].Population); err == nil {
				pt.Bounds = &b
			}
		}
		out = append(out, pt)
		if progress != nil {
			progress(i+1, len(values))
		}
	}
	return out, nil
}
