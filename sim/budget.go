package sim

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// Limits and defaults of a simulation's length and memory.
const (
	// DefaultMaxEvents is Config.MaxEvents when unset: 10⁹ events per replication (a few
	// minutes of one core).
	DefaultMaxEvents int64 = 1_000_000_000
	// DefaultMaxMemoryBytes is Config.MaxMemoryBytes when unset: 1 GiB per replication.
	DefaultMaxMemoryBytes int64 = 1 << 30
	// DefaultMaxTotalEvents is Options.MaxTotalEvents when unset: 4·10⁹ events over all
	// replications.
	DefaultMaxTotalEvents int64 = 4_000_000_000
	// MinEvents is the shortest default run, and CyclesPerJob the number of mean cycles
	// every closed job goes through in a default run (DefaultEvents).
	MinEvents    int64 = 200_000
	CyclesPerJob       = 10
	// DefaultEventsCap caps DefaultEvents; beyond it the run reports itself too short
	// rather than taking hours.
	DefaultEventsCap int64 = 20_000_000
)

// DefaultEvents is the default length of a replication in events: every closed job should
// go through about CyclesPerJob cycles, and a cycle of class c costs V_c + 1 events (V_c
// visits to stations, counting every copy of a group, plus the think time), so
//
//	events = max(MinEvents, CyclesPerJob · Σ_c N_c·(V_c + 1)),  at most DefaultEventsCap.
//
// The initial transient of a closed network lasts a few cycle times (every job must have
// started a cycle after time 0 for the measured cycle times not to be censored), which is
// what makes 10 % of 200 000 events too short for 256 jobs visiting 258 stations (issue 12).
// Open classes add nothing: their transient is found by MSER-5 and reported if too long.
func DefaultEvents(m *qn.Model) int64 {
	work := 0.0
	for c, cl := range m.Classes {
		if cl.Open || c >= len(m.Demand) {
			continue
		}
		v := 0.0
		for k, st := range m.Stations {
			if k >= len(m.Demand[c]) {
				break
			}
			switch {
			case m.Visits != nil && c < len(m.Visits) && k < len(m.Visits[c]):
				v += m.Visits[c][k] * float64(st.Copies())
			case m.Demand[c][k] > 0:
				v += float64(st.Copies())
			}
		}
		work += float64(cl.Population) * (v + 1)
	}
	ev := CyclesPerJob * work
	if !(ev < float64(DefaultEventsCap)) { // also NaN
		return DefaultEventsCap
	}
	return max(MinEvents, int64(ev))
}

// validate refuses options out of range (fault.ErrInput) and fills the defaults.
func (c *Config) validate() error {
	switch {
	case c.Events < 0:
		return fmt.Errorf("%w: --events %d: want ≥ 1, or 0 for the default", fault.ErrInput, c.Events)
	case !(c.WarmupFrac >= 0 && c.WarmupFrac < 1):
		return fmt.Errorf("%w: warm-up fraction %v: want a fraction in [0, 1) (0: MSER-5)", fault.ErrInput, c.WarmupFrac)
	case c.MaxEvents < 0:
		return fmt.Errorf("%w: --max-events %d: want ≥ 1, or 0 for the default %d", fault.ErrInput, c.MaxEvents, DefaultMaxEvents)
	case c.MaxMemoryBytes < 0:
		return fmt.Errorf("%w: --max-memory %d bytes: want ≥ 1, or 0 for the default %d", fault.ErrInput, c.MaxMemoryBytes, DefaultMaxMemoryBytes)
	}
	if c.Events > 0 && c.Events < 500 {
		return fmt.Errorf("%w: --events %d: a replication needs at least 500 events (the warm-up rule looks at 500 chunks)", fault.ErrInput, c.Events)
	}
	if c.MaxEvents == 0 {
		c.MaxEvents = DefaultMaxEvents
	}
	if c.MaxMemoryBytes == 0 {
		c.MaxMemoryBytes = DefaultMaxMemoryBytes
	}
	return nil
}

// setScale chooses the clock's unit (the largest mean time of the model) and expresses the
// mean service, think and inter-arrival times in it. The simulation is equivariant under a
// change of time unit (every distribution here is a mean times a unit-free shape), so
// throughputs are divided and times multiplied by scale afterwards: a model in units of
// 1e308 s or 1e-300 s simulates as well as one in seconds.
func (s *Simulator) setScale() error {
	m := s.m
	C := len(m.Classes)
	scale := 0.0
	check := func(what string, v float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%w: %s = %v: want a finite time ≥ 0", fault.ErrInput, what, v)
		}
		scale = math.Max(scale, v)
		return nil
	}
	for c, cl := range m.Classes {
		for k, v := range s.svc[c] {
			if err := check(fmt.Sprintf("class %q, station %q: service time per visit", cl.Name, m.Stations[k].Name), v); err != nil {
				return err
			}
		}
		if err := check(fmt.Sprintf("class %q: think time", cl.Name), cl.ThinkTime); err != nil {
			return err
		}
		if cl.Open {
			if lam := cl.ArrivalRate; !(lam >= 0) || math.IsInf(lam, 0) {
				return fmt.Errorf("%w: class %q: arrival rate %v: want a finite rate ≥ 0", fault.ErrInput, cl.Name, lam)
			}
		}
	}
	for _, cl := range m.Classes {
		if cl.Open && cl.ArrivalRate > 0 {
			if ia := 1 / cl.ArrivalRate; !math.IsInf(ia, 0) {
				scale = math.Max(scale, ia)
			}
		}
	}
	if scale == 0 {
		scale = 1
	}
	s.scale = scale
	s.think = make([]float64, C)
	s.interarr = make([]float64, C)
	for c, cl := range m.Classes {
		for k := range s.svc[c] {
			s.svc[c][k] /= scale
		}
		s.think[c] = cl.ThinkTime / scale
		if cl.Open && cl.ArrivalRate > 0 {
			ia := 1 / (cl.ArrivalRate * scale)
			if math.IsInf(ia, 0) {
				return fmt.Errorf("%w: class %q: arrival rate %v /s is too small against the model's times (up to %v s) to simulate", fault.ErrInput, cl.Name, cl.ArrivalRate, scale)
			}
			s.interarr[c] = ia
		}
	}
	return nil
}

// simStations is the number of simulated stations (every copy of a group).
func (s *Simulator) simStations() int64 {
	n := int64(0)
	for _, st := range s.m.Stations {
		n += int64(st.Copies())
	}
	return n
}

// memoryEstimate is the memory of one replication in bytes: per closed job its record and
// one pending event; per simulated station its record and per-class counters; the chunk
// record of the warm-up rule; a slack of 64 KiB.
func (s *Simulator) memoryEstimate() int64 {
	C := int64(len(s.m.Classes))
	jobs := float64(s.closedN) * float64(unsafe.Sizeof(job{})+unsafe.Sizeof(event{})+8)
	st := float64(s.simStations()) * float64(int64(unsafe.Sizeof(station{}))+C*16+64)
	snaps := float64(chunksFor(1)+1) * float64(s.snapWidth()*8+40)
	est := jobs + st + snaps + 64<<10
	if est > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(est)
}

// checkSaturation refuses an open network that has no steady state by the analytic
// condition: at every station the open classes' offered load per server,
// U_k = Σ_{c open} λ_c·D_{c,k} / capacity (1 for a queue, m servers, the largest α(n) of a
// load-dependent station; a delay never saturates), must stay below 1 (BGdMT §6.2).
// Stations loaded by closed classes as well are only slower, not less stable, for the open
// ones. A simulation of a saturated network shows a growing transient, never a steady state.
func (s *Simulator) checkSaturation() error {
	m := s.m
	for k, st := range m.Stations {
		if st.Kind == qn.Delay {
			continue
		}
		u := 0.0
		for c, cl := range m.Classes {
			if cl.Open {
				u += cl.ArrivalRate * m.Demand[c][k]
			}
		}
		capacity := 1.0
		switch st.Kind {
		case qn.MultiServer:
			capacity = float64(max(1, st.Servers))
		case qn.LoadDependent:
			capacity = 0
			for _, a := range st.Rates {
				capacity = math.Max(capacity, a)
			}
		}
		if u/capacity >= 1 {
			return fmt.Errorf("%w: station %q: the open classes' utilization λ·D = %.4g per server ≥ 1: the queue grows without bound, there is no steady state to simulate", fault.ErrSaturated, st.Name, u/capacity)
		}
	}
	return nil
}

// byteSize formats a byte count (KiB, MiB, GiB).
func byteSize(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.3g GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.3g MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.3g KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d B", b)
}
