package tpn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/sim"
)

// Sampled background load (002 §3, "modeling computation times", sampled instead of
// averaged). 002 replaces each workstation's background job stream by its mean effect, the
// expansion factor 1/(1 − U) of a processor-sharing CPU with background utilization
// U = Σ λ_i·D_i. A sampled run keeps the stream: each workstation's CPU is a
// processor-sharing server; background jobs of class i arrive with inter-arrival times drawn
// from BgClass.Arrivals (mean 1/λ_i) and bring CPU demands drawn from BgClass.Demands (mean
// D_i); while k jobs are on the CPU — background jobs and the compute step in progress —
// each receives 1/k of it. A compute step needing d seconds of the CPU alone (its Dedicated
// time) ends when it has received d. With exponential arrivals the mean time of one step is
// exactly d/(1 − U) whatever the demand distribution (M/G/1-PS, Kleinrock 1976), the
// expansion factor's value; what sampling adds is the run-to-run variability, and, for a
// program, the effect of that variability on its synchronisations (a receive waits for the
// slower of two random paths: E[max] ≥ max E).
//
// Each CPU's background is brought to its steady state before the program starts (t = 0):
// it runs alone from empty for WarmupRelaxations relaxation times D̄/(1 − √U)² (the M/M/1
// relaxation time, Morse 1955), at least 100 mean inter-arrival times. Every CPU has its own
// random stream, PCG(seed, rep·2^20 + cpu), so replication rep of a seed is the same run
// whatever the number of workers.

// Sample selects a sampled run: the seed and the replication (its random streams).
type Sample struct {
	Seed uint64
	Rep  uint64
}

// WarmupRelaxations is the length of the background's warm-up in relaxation times.
const WarmupRelaxations = 20

// ErrCancelled is returned by Run when Options.Cancel was closed during the run.
var ErrCancelled = errors.New("run cancelled")

// phases of completions beyond the fluid media's 0 and 1
const (
	phaseCPU     = 2 // a CPU's next departure (tr = CPU index, ver = its schedule version)
	phaseArrival = 3 // a background arrival (tr = CPU index, id = class)
)

// psCPU is one processor-sharing CPU of a sampled run (rate 1: remaining work in seconds).
type psCPU struct {
	psQueue
	due  int // index in jobs of the job the pending departure is for
	rng  *rand.Rand
	bg   []BgClass
	next int32 // background job numbers
	poll int   // CPU events since Options.Cancel was last polled
}

// jobsPerEvent: a CPU event scans the CPU's jobs twice (cpuAdvance, cpuSchedule); every
// jobsPerEvent jobs scanned count as one more event against Options.MaxEvents, so the cap
// bounds the run's work even when a burst piles thousands of jobs on one CPU (a burst of K
// jobs costs ≈ K²/(2·jobsPerEvent) events, so no CPU holds more than ≈ √(2·8·MaxEvents)
// jobs: 12 600 at 1e7).
const jobsPerEvent = 8

// cancelPoll: Options.Cancel is polled every cancelPoll CPU events (≈ 1 ms of events).
const cancelPoll = 1024

// charge counts one CPU event of p against the run's budget and reports whether the run
// must stop (Options.MaxEvents exceeded, or Options.Cancel closed): the engine's loop then
// returns the error. A stopping CPU schedules nothing more, so a burst of arrivals at one
// instant — which the engine's loop handles without looking at the clock — ends.
func (e *engine) charge(p *psCPU) bool {
	e.events += 1 + int64(len(p.jobs))/jobsPerEvent
	if e.err != nil {
		return true
	}
	if e.o.MaxEvents > 0 && e.events > e.o.MaxEvents {
		e.err = e.errEvents()
		return true
	}
	if p.poll++; p.poll >= cancelPoll {
		p.poll = 0
		if e.o.Cancel != nil && e.cancelled() {
			e.err = ErrCancelled
			return true
		}
	}
	return false
}

// errEvents is the fault.ErrTooLarge of a sampled run past Options.MaxEvents.
func (e *engine) errEvents() error {
	return errTooLarge("a sampled run took more than %d CPU events by t = %.4g s (Options.MaxEvents: each CPU event, a background arrival or a scheduled departure, counts 1 + k/%d for the k jobs the CPU holds): the background is far busier or burstier than the run's length suggested", e.o.MaxEvents, Seconds(e.now), jobsPerEvent)
}

func dist(d sim.Dist) sim.Dist {
	if d == nil {
		return sim.Exponential{}
	}
	return d
}

// MaxSampledSCV is the largest squared coefficient of variation of a background
// distribution (arrivals or demands) a sampled run accepts. The mean of n draws has the
// relative standard error √(SCV/n): beyond SCV 100 a run's few hundred background jobs
// cannot bring it within tens of percent, and with infinite variance (pareto:α with α ≤ 2)
// the sample mean is dominated by draws a study almost never sees — measured: demands
// pareto:1.0000001 gave 30 replications all equal to the no-background makespan 2.002 s,
// ± 1e-16 s, where the mean is 3.002 s. The mean expansion (--background mean) needs only
// the means and stays available for such loads.
const MaxSampledSCV = 100

// checkBackground refuses background classes a sampled run cannot draw from.
func checkBackground(c CPU) error {
	u := 0.0
	for i, b := range c.Background {
		if !(b.ArrivalRate >= 0) || !(b.Demand >= 0) || math.IsInf(b.ArrivalRate, 0) || math.IsInf(b.Demand, 0) {
			return fmt.Errorf("%w: CPU %q: background class %d: arrival rate %g /s and demand %g s (allowed: finite numbers ≥ 0)", fault.ErrInput, c.Name, i+1, b.ArrivalRate, b.Demand)
		}
		for _, d := range []struct {
			what string
			d    sim.Dist
		}{{"arrivals", b.Arrivals}, {"demands", b.Demands}} {
			if scv := dist(d.d).SCV(); !(scv <= MaxSampledSCV) {
				has := fmt.Sprintf("SCV %g", scv)
				if math.IsInf(scv, 1) {
					has = "infinite variance"
				}
				return fmt.Errorf("%w: CPU %q: background class %d: %s %s has %s; a sampled run needs SCV ≤ %d (beyond it the sample mean does not converge within a run and the interval would mislead: pareto needs α ≥ 2.005); use --background mean, which needs only the means", fault.ErrInput, c.Name, i+1, d.what, dist(d.d), has, MaxSampledSCV)
			}
		}
		u += b.ArrivalRate * b.Demand
	}
	if !(u < 1) {
		return fmt.Errorf("%w: CPU %q: background utilization %.4g ≥ 1 saturates it", fault.ErrInput, c.Name, u)
	}
	return nil
}

// Warmup is the warm-up length (seconds) of a CPU's background: WarmupRelaxations times
// D̄/(1 − √U)², at least 100 mean inter-arrival times; 0 without background.
func Warmup(c CPU) float64 {
	lam, u := 0.0, 0.0
	for _, b := range c.Background {
		if b.ArrivalRate > 0 && b.Demand > 0 {
			lam += b.ArrivalRate
			u += b.ArrivalRate * b.Demand
		}
	}
	if lam == 0 {
		return 0
	}
	dbar := u / lam
	r := 1 - math.Sqrt(u)
	return math.Max(WarmupRelaxations*dbar/(r*r), 100/lam)
}

// initCPUs prepares the CPUs of a sampled run: each background brought to steady state, its
// next arrivals and first departure scheduled.
func (e *engine) initCPUs(s Sample) error {
	if e.o.AtomicFiring {
		return fmt.Errorf("%w: a sampled run does not support atomic firing", fault.ErrInput)
	}
	if len(e.n.CPUs) == 0 {
		return fmt.Errorf("%w: a sampled run needs a program net (its workstations' CPUs and background load); this net has none", fault.ErrInput)
	}
	if len(e.n.CPUs) >= 1<<20 {
		return fmt.Errorf("%w: %d CPUs (a sampled run allows fewer than 2^20)", fault.ErrInput, len(e.n.CPUs))
	}
	e.cpus = make([]psCPU, len(e.n.CPUs))
	for ci, c := range e.n.CPUs {
		if err := checkBackground(c); err != nil {
			return err
		}
		p := &e.cpus[ci]
		p.rng = rand.New(rand.NewPCG(s.Seed, s.Rep<<20+uint64(ci)))
		for _, b := range c.Background {
			if b.ArrivalRate > 0 && b.Demand > 0 {
				p.bg = append(p.bg, b)
			}
		}
		if len(p.bg) == 0 {
			continue
		}
		next, ev := p.warm(Warmup(c), e.o.MaxEvents, e.o.Cancel)
		e.events += ev
		if e.o.Cancel != nil && e.cancelled() {
			return ErrCancelled
		}
		if e.o.MaxEvents > 0 && e.events > e.o.MaxEvents {
			return errTooLarge("CPU %q: the background's warm-up took more than %d CPU events (Options.MaxEvents: each arrival and departure counts 1 + k/%d for the k jobs on the CPU)", c.Name, e.o.MaxEvents, jobsPerEvent)
		}
		for k, t := range next {
			e.h.push(completion{t: toTicks(t), tr: int32(ci), id: int32(k), phase: phaseArrival})
		}
		e.cpuSchedule(ci)
	}
	return nil
}

// warm runs the background alone from empty for w seconds, then shifts time so the program
// starts at 0; it returns each class's next arrival instant (seconds from 0) and the events
// it took, counted as charge counts them (it stops early, the count past limit, when
// limit > 0 is exceeded, or when cancel is closed).
func (p *psCPU) warm(w float64, limit int64, cancel <-chan struct{}) ([]float64, int64) {
	events := int64(0)
	next := make([]float64, len(p.bg))
	for k, b := range p.bg {
		next[k] = dist(b.Arrivals).Sample(p.rng, 1/b.ArrivalRate)
	}
	now := 0.0
	for {
		ka := 0
		for k := range next {
			if next[k] < next[ka] {
				ka = k
			}
		}
		n := float64(len(p.jobs))
		tDep, jd := math.Inf(1), -1
		for j, x := range p.jobs {
			if t := now + x.remain*n; t < tDep {
				tDep, jd = t, j
			}
		}
		t := math.Min(math.Min(next[ka], tDep), w)
		if n > 0 {
			served := (t - now) / n
			for j := range p.jobs {
				p.jobs[j].remain -= served
			}
		}
		now = t
		events += 1 + int64(len(p.jobs))/jobsPerEvent
		stop := limit > 0 && events > limit
		if p.poll++; p.poll >= cancelPoll && cancel != nil {
			p.poll = 0
			select {
			case <-cancel:
				stop = true
			default:
			}
		}
		switch {
		case t == w || stop:
			for k := range next {
				next[k] -= w
			}
			return next, events
		case jd >= 0 && tDep <= next[ka]:
			p.jobs[jd] = p.jobs[len(p.jobs)-1]
			p.jobs = p.jobs[:len(p.jobs)-1]
		default:
			p.arrive(ka)
			next[ka] = now + dist(p.bg[ka].Arrivals).Sample(p.rng, 1/p.bg[ka].ArrivalRate)
		}
	}
}

// arrive adds a background job of class k with a sampled demand.
func (p *psCPU) arrive(k int) {
	p.next++
	p.jobs = append(p.jobs, psJob{remain: dist(p.bg[k].Demands).Sample(p.rng, p.bg[k].Demand), tr: -1, id: p.next})
}

// cpuAdvance gives CPU ci's jobs their share of the CPU since it was last brought up to date.
func (e *engine) cpuAdvance(ci int) {
	e.cpus[ci].advance(e.now, 1)
}

// cpuSchedule schedules CPU ci's next departure (the job with the least remaining work, in
// remain·k seconds), superseding the previous schedule.
func (e *engine) cpuSchedule(ci int) {
	p := &e.cpus[ci]
	best, d, ok := p.reschedule(1)
	if !ok {
		return
	}
	p.due = best
	if !(d <= MaxSeconds) {
		d = MaxSeconds
	}
	t := MaxTicks
	if dt := toTicks(d); dt <= MaxTicks-e.now {
		t = e.now + dt
	}
	e.h.push(completion{t: t, tr: int32(ci), phase: phaseCPU, ver: p.ver})
}

// cpuJoin starts compute firing id of transition ti on its CPU.
func (e *engine) cpuJoin(ti, id int32) {
	t := &e.n.Transitions[ti]
	ci := t.CPU - 1
	e.cpuAdvance(ci)
	p := &e.cpus[ci]
	p.jobs = append(p.jobs, psJob{remain: t.Dedicated, tr: ti, id: id})
	e.cpuSchedule(ci)
}

// cpuEvent handles a CPU event: a background arrival, or a departure. It returns the
// completion of the foreground firing that departed, and true, or false if no foreground
// firing ended.
func (e *engine) cpuEvent(c completion) (completion, bool) {
	ci := int(c.tr)
	p := &e.cpus[ci]
	if e.charge(p) {
		return c, false // the run stops: nothing more is scheduled
	}
	if c.phase == phaseArrival {
		e.cpuAdvance(ci)
		p.arrive(int(c.id))
		b := p.bg[c.id]
		gap := toTicks(dist(b.Arrivals).Sample(p.rng, 1/b.ArrivalRate))
		at := MaxTicks
		if gap <= MaxTicks-e.now {
			at = e.now + gap
		}
		e.h.push(completion{t: at, tr: c.tr, id: c.id, phase: phaseArrival})
		e.cpuSchedule(ci)
		return c, false
	}
	if c.ver != p.ver {
		return c, false // superseded by a later arrival or start
	}
	e.cpuAdvance(ci)
	x := p.jobs[p.due]
	p.jobs[p.due] = p.jobs[len(p.jobs)-1]
	p.jobs = p.jobs[:len(p.jobs)-1]
	e.cpuSchedule(ci)
	if x.tr < 0 {
		return c, false
	}
	return completion{t: e.now, tr: x.tr, id: x.id}, true
}

// idle: nothing in progress that could change the marking (a sampled run's heap always
// holds background events).
func (e *engine) idle() bool {
	if e.cpus != nil {
		return e.busy == 0
	}
	return e.h.q.Len() == 0
}

// cancelled polls Options.Cancel.
func (e *engine) cancelled() bool {
	select {
	case <-e.o.Cancel:
		return true
	default:
		return false
	}
}
