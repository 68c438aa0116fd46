package qn

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// Bound is one named bound on one class's throughput and response time. Response times
// include the time at delay centres and exclude think time, as Result.ResponseTime does.
type Bound struct {
	Name              string   `json:"name"`   // "asymptotic", "balanced job", "proportional", "geometric"
	Method            string   `json:"method"` // the formula and its source
	Class             string   `json:"class"`
	ThroughputLower   float64  `json:"throughput_lower_per_s"`
	ThroughputUpper   float64  `json:"throughput_upper_per_s"`
	ResponseTimeLower float64  `json:"response_time_lower_s"`
	ResponseTimeUpper *float64 `json:"response_time_upper_s,omitempty"` // nil: no finite bound (open asymptotic)
}

// BoundSet is every bound that applies to a model, and why the others do not.
type BoundSet struct {
	Bounds []Bound  `json:"bounds"`
	Notes  []string `json:"notes,omitempty"`
}

// Bound names.
const (
	BoundAsymptotic   = "asymptotic"
	BoundBalancedJob  = "balanced job"
	BoundProportional = "proportional"
	BoundGeometric    = "geometric"
)

// AllBounds returns every bound that applies to m:
//
//   - closed networks, any number of classes: asymptotic bounds (ClosedABA) and balanced job
//     bounds (ClosedBJB; QSP's single-class form for one class);
//   - closed single-class networks of single-server queues and delay centres: also Hsieh and
//     Lam's proportional bounds (ProportionalBounds) and Casale, Muntz and Serazzi's geometric
//     bounds (GeometricBounds);
//   - open networks: OpenABA and OpenBJB.
//
// A bound that does not apply (load-dependent or multi-server stations, mixed networks, an
// empty class) is left out and BoundSet.Notes says why. A saturated open network is an
// error wrapping fault.ErrSaturated. This is what `clusterperf solve` shows beside the exact
// answer and what `--sweep` draws, each labelled with Bound.Name.
func AllBounds(m *Model) (*BoundSet, error) {
	if err := m.solvable(); err != nil {
		return nil, fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	open, closed := 0, 0
	for _, c := range m.Classes {
		if c.Open {
			open++
		} else {
			closed++
		}
	}
	// Bounds, like MVA, are equivariant under scaling every time by s (X → X/s, R → s·R):
	// compute them near 1 (a power of two, exact) so that squares of demands (proportional
	// bounds) cannot overflow at demand 1e300, then scale back; a bound the float64 range
	// cannot hold is left out with a note instead of printed as Inf (issue 12).
	if e := timeScale(m); e != 0 {
		ms := m.Clone()
		ms.scaleTimes(-e)
		set, err := AllBounds(ms)
		if err != nil {
			return nil, err
		}
		return set.scaleTimes(e), nil
	}
	set := &BoundSet{}
	var err error
	switch {
	case open > 0 && closed > 0:
		set.Notes = append(set.Notes, "bounds are for open or closed networks; this mixed network has none")
		return set, nil
	case open > 0:
		err = set.add(m, OpenABA, OpenBJB)
	default:
		err = set.add(m, ClosedABA, ClosedBJB, ProportionalBounds, GeometricBounds)
	}
	if err != nil {
		return nil, err
	}
	return set, nil
}

// add appends every bound fs give for m; a bound that does not apply becomes a note.
func (set *BoundSet) add(m *Model, fs ...func(*Model) ([]Bound, error)) error {
	for _, f := range fs {
		b, err := f(m)
		if err != nil {
			if isNotApplicable(err) {
				set.Notes = append(set.Notes, err.Error())
				continue
			}
			return err
		}
		set.Bounds = append(set.Bounds, b...)
	}
	return nil
}

// errNotApplicable marks a bound that does not apply to a model (not an input error).
type errNotApplicable struct{ msg string }

func (e errNotApplicable) Error() string { return e.msg }

func notApplicable(format string, args ...any) error {
	return errNotApplicable{fmt.Sprintf(format, args...)}
}

func isNotApplicable(err error) bool {
	_, ok := err.(errNotApplicable)
	return ok
}

// classDemands are one class's demands split by station kind (all copies counted).
type classDemands struct {
	queue, delay float64 // total demand at queueing stations and at delay centres
	maxPerServer float64 // max over queueing stations of D/m (D/α_max for load-dependent)
	maxSingle    float64 // max over single-server queues of D
	minSingle    float64 // min over single-server queues of D (+Inf if none)
	singleOnly   bool    // every queueing station is a single-server queue
	loadDep      bool    // some station is load-dependent
	nQueues      float64 // number of queueing stations (copies counted)
}

func demandsOf(m *Model, c int) classDemands {
	d := classDemands{minSingle: math.Inf(1), singleOnly: true}
	for k, s := range m.Stations {
		dk := m.Demand[c][k]
		cnt := float64(s.Copies())
		switch {
		case s.Kind == Delay:
			d.delay += cnt * dk
			continue
		case s.Kind == LoadDependent:
			d.loadDep = true
			d.singleOnly = false
			amax := 0.0
			for _, a := range s.Rates {
				amax = math.Max(amax, a)
			}
			d.maxPerServer = math.Max(d.maxPerServer, dk/amax)
		case s.Kind == MultiServer && s.Servers > 1:
			d.singleOnly = false
			d.maxPerServer = math.Max(d.maxPerServer, dk/float64(s.Servers))
		default:
			d.maxPerServer = math.Max(d.maxPerServer, dk)
			d.maxSingle = math.Max(d.maxSingle, dk)
			d.minSingle = math.Min(d.minSingle, dk)
		}
		d.queue += cnt * dk
		d.nQueues += cnt
	}
	return d
}

// closedBound builds a Bound from response-time bounds [rl, ru] of a class with population
// n and think time z, capping the throughput at the bottleneck 1/dmax: X = n/(R + z).
func closedBound(name, method string, cl Class, rl, ru, dmax float64) Bound {
	n, z := float64(cl.Population), cl.ThinkTime
	xu := n / (rl + z)
	if dmax > 0 {
		xu = math.Min(xu, 1/dmax)
	}
	xl := n / (ru + z)
	rlo := math.Max(rl, n/xu-z)
	return Bound{Name: name, Method: method, Class: cl.Name, ThroughputLower: xl, ThroughputUpper: xu,
		ResponseTimeLower: rlo, ResponseTimeUpper: &ru}
}

func closedOnly(m *Model, what string) error {
	for _, c := range m.Classes {
		if c.Open {
			return notApplicable("%s bounds: class %q is open (these bounds are for closed networks)", what, c.Name)
		}
	}
	return nil
}

// scaleTimes converts the bounds of a model whose times were divided by 2^e back to the
// model's unit, leaving out (with a note) any bound the float64 range cannot hold.
func (set *BoundSet) scaleTimes(e int) *BoundSet {
	out := &BoundSet{Notes: set.Notes}
	finite := func(v float64) bool { return !math.IsInf(v, 0) && !math.IsNaN(v) }
	for _, b := range set.Bounds {
		b.ThroughputLower = math.Ldexp(b.ThroughputLower, -e)
		b.ThroughputUpper = math.Ldexp(b.ThroughputUpper, -e)
		b.ResponseTimeLower = math.Ldexp(b.ResponseTimeLower, e)
		ok := finite(b.ThroughputLower) && finite(b.ThroughputUpper) && finite(b.ResponseTimeLower)
		if b.ResponseTimeUpper != nil {
			ru := math.Ldexp(*b.ResponseTimeUpper, e)
			b.ResponseTimeUpper = &ru
			ok = ok && finite(ru)
		}
		if !ok {
			out.Notes = append(out.Notes, fmt.Sprintf("%s bound of class %q: a value is outside the float64 range in this time unit; left out", b.Name, b.Class))
			continue
		}
		out.Bounds = append(out.Bounds, b)
	}
	return out
}
