package sim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/spmd"
)

// SPMDConfig chooses the distributions of a directly simulated SPMD program.
type SPMDConfig struct {
	CPU    Dist // CPU burst of one processor (mean S_par/p + S_ser); default exponential
	Comm   Dist // communication delay (startup + uncontended transfer); default deterministic
	Net    Dist // service at the contended network queue (w·g(p)·SR_COM); default exponential
	IO     Dist // I/O service; default exponential
	Cycles int  // cycles per replication after warm-up (default 2000)
	// GeometricBursts draws the number of computation bursts per I/O burst from a geometric
	// distribution with mean n_IO, as the models assume (an I/O burst follows a computation
	// burst with probability p_IO = 1/n_IO, 000 §3.4); default: exactly n_IO, as programs do.
	GeometricBursts bool
	// MaxMemoryBytes limits the estimated memory of one replication (per group of processors
	// its state and one pending event, per I/O server its queue; default
	// DefaultMaxMemoryBytes), MaxSamples the random draws of one replication (about
	// 1.1·Cycles·n_IO·c CPU bursts; default DefaultMaxSamples). Larger runs are refused with
	// fault.ErrTooLarge before anything is allocated.
	MaxMemoryBytes int64
	MaxSamples     float64
}

// DefaultMaxSamples is SPMDConfig.MaxSamples when unset: 10⁹ draws (minutes of one core).
const DefaultMaxSamples = 1e9

// SPMDRep is one replication: the mean cycle time.
type SPMDRep struct {
	CycleTime float64
	Events    int64
}

// SimulateSPMD simulates one phase of an SPMD program directly — not its queueing
// approximation: p/c groups of c processors; in each of the n_IO computation bursts of a
// cycle every processor of a group computes (its own CPU burst), the group waits for its
// slowest member (synchronisation), then communicates (a delay, then the network as an FCFS
// queue shared by all groups); then the I/O burst: with SIO every group waits at a barrier for
// all the others and the I/O takes S0_IO + SR_IO/d for all; with BUS-AIO each group queues at
// one FCFS I/O server for c·S0_IO + (SR_IO/d)/(p/c); with CLU-AIO at its cluster's disk for
// c·S0_IO + SR_IO/(p/c). The optimistic architectures are not simulated (they are bounds).
// Returns the mean cycle time (per group, averaged), comparable with one cycle of
// spmd's T(p, d).
func SimulateSPMD(m *spmd.Model, p, d int, cfg SPMDConfig, seed, stream uint64) (*SPMDRep, error) {
	return simulateSPMD(nil, m, p, d, cfg, seed, stream, nil)
}

// spmdCheckEvents is how often (in events) a replication reports its cycles and looks
// for a cancelled context.
const spmdCheckEvents = 4096

// CyclesPerReplication is the number of cycles one replication of cfg simulates, warm-up
// included: Cycles (0: 2000) plus a tenth of them (the warm-up). It is the unit of
// SPMDOptions.Tick: a replication ticks exactly this many in all.
func (cfg SPMDConfig) CyclesPerReplication() int64 {
	c := cfg.Cycles
	if c == 0 {
		c = 2000
	}
	return int64(c + c/10)
}

// simulateSPMD is SimulateSPMD stopping when ctx (nil: never) is cancelled — then the
// error wraps fault.ErrInterrupted — and telling tick (nil: no one) the cycles simulated
// since its last call, every spmdCheckEvents events and at the end.
func simulateSPMD(ctx context.Context, m *spmd.Model, p, d int, cfg SPMDConfig, seed, stream uint64, tick func(cycles int64)) (*SPMDRep, error) {
	cfg, err := checkSPMD(m, p, d, cfg)
	if err != nil {
		return nil, err
	}
	r := newSPMDRun(m, p, d, cfg, rand.New(rand.NewPCG(seed, stream)))
	for g := 0; g < r.G; g++ {
		r.startBurst(g)
	}
	target := cfg.Cycles + r.warm
	ticked := 0
	report := func() {
		if tick != nil {
			if c := min(r.cycles, target); c > ticked {
				tick(int64(c - ticked))
				ticked = c
			}
		}
	}
	for r.cycles < target && r.h.len() > 0 {
		e := r.h.pop()
		r.now = e.t
		r.events++
		if r.events%spmdCheckEvents == 0 {
			report()
			if ctx != nil && ctx.Err() != nil {
				return nil, fmt.Errorf("%w after %d of %d cycles: %w", fault.ErrInterrupted, min(r.cycles, target), target, ctx.Err())
			}
		}
		r.handle(e)
	}
	report()
	n := r.cycles - r.warm
	if n <= 0 {
		return nil, fmt.Errorf("%w: no cycle completed after the warm-up (%d cycles in %d events)", fault.ErrNoSteadyState, r.cycles, r.events)
	}
	ct := r.sum / float64(n)
	if math.IsInf(ct, 0) || math.IsNaN(ct) {
		return nil, fmt.Errorf("%w: the cycle time left the float64 range (the phase's times are too large)", fault.ErrInput)
	}
	return &SPMDRep{CycleTime: ct, Events: r.events}, nil
}

// checkSPMD refuses what direct simulation cannot take (several phases, a bound, bad
// limits) and a run above its memory or random-draw budget, and fills cfg's defaults.
func checkSPMD(m *spmd.Model, p, d int, cfg SPMDConfig) (SPMDConfig, error) {
	if err := m.CheckConfig(p, d); err != nil {
		return cfg, err
	}
	if len(m.Phases) != 1 {
		return cfg, fmt.Errorf("direct simulation takes one phase (the model has %d)", len(m.Phases))
	}
	ph := m.Phases[0]
	switch m.Arch {
	case spmd.OptimisticAIO, spmd.OptimisticSIO:
		return cfg, fmt.Errorf("%v is a bound, not a program to simulate", m.Arch)
	}
	cfg.CPU, cfg.Comm = cmp.Or[Dist](cfg.CPU, Exponential{}), cmp.Or[Dist](cfg.Comm, Deterministic{})
	cfg.Net, cfg.IO = cmp.Or[Dist](cfg.Net, Exponential{}), cmp.Or[Dist](cfg.IO, Exponential{})
	switch {
	case cfg.Cycles < 0:
		return cfg, fmt.Errorf("%w: --cycles %d: want ≥ 1, or 0 for 2000", fault.ErrInput, cfg.Cycles)
	case cfg.MaxMemoryBytes < 0 || !(cfg.MaxSamples >= 0):
		return cfg, fmt.Errorf("%w: simulation limits %d bytes (--max-memory), %v random draws: want ≥ 0 (0: default)", fault.ErrInput, cfg.MaxMemoryBytes, cfg.MaxSamples)
	}
	cfg.Cycles = cmp.Or(cfg.Cycles, 2000)
	cfg.MaxMemoryBytes = cmp.Or(cfg.MaxMemoryBytes, DefaultMaxMemoryBytes)
	cfg.MaxSamples = cmp.Or(cfg.MaxSamples, DefaultMaxSamples)
	c := ph.C
	G := p / c
	if mem := 64*float64(G) + 32*float64(d) + 64<<10; mem > float64(cfg.MaxMemoryBytes) {
		return cfg, fmt.Errorf("%w: simulating p = %d processors (%d groups) and d = %d disks needs about %s, above the limit of %s (raise --max-memory)",
			fault.ErrTooLarge, p, G, d, byteSize(int64(math.Min(mem, math.MaxInt64/2))), byteSize(cfg.MaxMemoryBytes))
	}
	if work := 1.1 * float64(cfg.Cycles) * math.Max(1, ph.NIO) * float64(c); work > cfg.MaxSamples {
		return cfg, fmt.Errorf("%w: %d cycles of %g bursts on groups of c = %d processors need about %.3g random draws, above the limit of %.3g (lower --cycles)",
			fault.ErrTooLarge, cfg.Cycles, ph.NIO, c, work, cfg.MaxSamples)
	}
	return cfg, nil
}

// The events of the SPMD simulation: a group's CPU burst, its communication start-up,
// its transfer on the network, its I/O burst done.
const (
	cpuDone uint8 = iota
	commDone
	netDone
	ioDone
)

// spmdRun is the state of one replication: G groups of c processors cycling through
// CPU bursts (the slowest of c), communication, the shared network and I/O (one
// synchronous burst of all groups for SIO; per-server FCFS queues for AIO).
type spmdRun struct {
	m                                  *spmd.Model
	cfg                                SPMDConfig
	rng                                *rand.Rand
	c, G, d, nio                       int
	sio                                bool
	cpuMean, commMean, netMean, ioMean float64
	h                                  eventHeap
	burst, bursts                      []int // bursts done and to do in the current cycle, per group
	cycleStart                         []float64
	netQ                               []int32
	netBusy                            bool
	ioQ                                [][]int32 // AIO: per I/O server (BUS: one; CLU: one per cluster)
	ioBusy                             []bool
	atBarrier                          int
	now                                float64
	warm, cycles                       int
	sum                                float64
	events                             int64
}

// newSPMDRun sets up a replication of m's one phase at (p, d) under cfg (checkSPMD's),
// drawing from rng; the first bursts per group are drawn here, in group order.
func newSPMDRun(m *spmd.Model, p, d int, cfg SPMDConfig, rng *rand.Rand) *spmdRun {
	ph := m.Phases[0]
	r := &spmdRun{m: m, cfg: cfg, rng: rng, c: ph.C, G: p / ph.C, d: d, nio: int(math.Round(ph.NIO)),
		sio: m.Arch == spmd.BusSIO || m.Arch == spmd.CluSIO, warm: cfg.Cycles / 10}
	r.cpuMean = ph.SPar/float64(p) + ph.SSer
	transfer := ph.G(p) * ph.SRCom
	r.commMean = ph.S0(p) + (1-ph.W)*transfer
	r.netMean = ph.W * transfer
	switch m.Arch {
	case spmd.BusAIO:
		r.ioMean = float64(r.c)*ph.S0IO + ph.SRIO/float64(d)/float64(r.G)
	case spmd.CluAIO:
		r.ioMean = float64(r.c)*ph.S0IO + ph.SRIO/float64(r.G)
	default:
		r.ioMean = ph.S0IO + ph.SRIO/float64(d)
	}
	r.burst, r.cycleStart, r.netQ = make([]int, r.G), make([]float64, r.G), []int32{}
	r.ioQ, r.ioBusy = make([][]int32, d), make([]bool, d)
	r.bursts = make([]int, r.G)
	for g := range r.bursts {
		r.bursts[g] = r.drawBursts()
	}
	return r
}

// groupCPU is a group's CPU burst: the slowest of its c processors.
func (r *spmdRun) groupCPU() float64 {
	mx := 0.0
	for i := 0; i < r.c; i++ {
		mx = math.Max(mx, r.cfg.CPU.Sample(r.rng, r.cpuMean))
	}
	return mx
}

func (r *spmdRun) startBurst(g int) {
	r.h.push(event{t: r.now + r.groupCPU(), kind: cpuDone, job: int32(g)})
}

func (r *spmdRun) startNet(g int) {
	r.h.push(event{t: r.now + r.cfg.Net.Sample(r.rng, r.netMean), kind: netDone, job: int32(g)})
}

func (r *spmdRun) startIO(g int) {
	r.h.push(event{t: r.now + r.cfg.IO.Sample(r.rng, r.ioMean), kind: ioDone, job: int32(g)})
}

// server is group g's I/O server (CLU-AIO: one per cluster, g mod d; BUS-AIO: one).
func (r *spmdRun) server(g int) int {
	if r.m.Arch == spmd.CluAIO {
		return g % r.d
	}
	return 0
}

// drawBursts is the number of computation bursts of a cycle: bursts_per_io, or geometric
// with that mean (000 §3.4) when cfg asks.
func (r *spmdRun) drawBursts() int {
	if !r.cfg.GeometricBursts || r.nio <= 1 {
		return r.nio
	}
	k := 1
	for r.rng.Float64() >= 1/float64(r.nio) {
		k++
	}
	return k
}

// endCycle ends group g's cycle (counted after the warm-up) and starts its next.
func (r *spmdRun) endCycle(g int) {
	if r.cycles >= r.warm {
		r.sum += r.now - r.cycleStart[g]
	}
	r.cycles++
	r.cycleStart[g] = r.now
	r.burst[g] = 0
	r.bursts[g] = r.drawBursts()
	r.startBurst(g)
}

// handle processes one event at r.now.
func (r *spmdRun) handle(e event) {
	g := int(e.job)
	switch e.kind {
	case cpuDone:
		r.h.push(event{t: r.now + r.cfg.Comm.Sample(r.rng, r.commMean), kind: commDone, job: int32(g)})
	case commDone:
		switch {
		case r.netMean <= 0:
			r.h.push(event{t: r.now, kind: netDone, job: int32(g), st: -1})
		case r.netBusy:
			r.netQ = append(r.netQ, int32(g))
		default:
			r.netBusy = true
			r.startNet(g)
		}
	case netDone:
		r.netDone(e, g)
	case ioDone:
		if r.sio {
			r.atBarrier = 0
			for gg := 0; gg < r.G; gg++ {
				r.endCycle(gg)
			}
			return
		}
		sv := r.server(g)
		if len(r.ioQ[sv]) > 0 {
			ng := int(r.ioQ[sv][0])
			r.ioQ[sv] = r.ioQ[sv][1:]
			r.startIO(ng)
		} else {
			r.ioBusy[sv] = false
		}
		r.endCycle(g)
	}
}

// netDone frees the network (e.st == -1: no network phase) and starts group g's next
// burst, or its I/O when the cycle's bursts are done (SIO: waits at the barrier).
func (r *spmdRun) netDone(e event, g int) {
	if e.st != -1 {
		if len(r.netQ) > 0 {
			ng := int(r.netQ[0])
			r.netQ = r.netQ[1:]
			r.startNet(ng)
		} else {
			r.netBusy = false
		}
	}
	r.burst[g]++
	if r.burst[g] < r.bursts[g] {
		r.startBurst(g)
		return
	}
	if r.sio {
		r.atBarrier++
		if r.atBarrier == r.G { // all groups joined: one synchronous I/O burst
			r.h.push(event{t: r.now + r.cfg.IO.Sample(r.rng, r.ioMean), kind: ioDone, job: -1})
		}
		return
	}
	sv := r.server(g)
	if r.ioBusy[sv] {
		r.ioQ[sv] = append(r.ioQ[sv], int32(g))
	} else {
		r.ioBusy[sv] = true
		r.startIO(g)
	}
}

// ReplicateSPMD runs reps replications (stream i for replication i) and returns the mean
// cycle time with its 95 % interval.
func ReplicateSPMD(m *spmd.Model, p, d int, cfg SPMDConfig, seed uint64, reps int) (Estimate, error) {
	r, err := ReplicateSPMDContext(context.Background(), m, p, d, cfg, SPMDOptions{Seed: seed, Reps: reps})
	if err != nil {
		return Estimate{}, err
	}
	return r.Estimate, nil
}

// SPMDOptions are the replication options of ReplicateSPMDContext.
type SPMDOptions struct {
	Seed uint64
	Reps int // replications, ≥ 2 (0: 10); replication i uses stream i of Seed
	// Workers is the number of replications run at once (0: GOMAXPROCS); the result does
	// not depend on it.
	Workers int
	// Tick, when set, is told the cycles simulated since its last call (every few thousand
	// events of each replication; SPMDConfig.CyclesPerReplication in all per replication),
	// from the goroutines running replications at once: it must be safe for concurrent use.
	Tick func(cycles int64)
}

// SPMDResult is the outcome of ReplicateSPMDContext: the mean cycle time with its 95 %
// interval over the replications finished, their number, and their cycle times in
// replication order.
type SPMDResult struct {
	Estimate
	Replications int
	CycleTimes   []float64
	// Partial is true when the context was cancelled: the estimate is over the
	// Replications finished by then (at least two), fewer than asked for.
	Partial bool
}

// ReplicateSPMDContext is ReplicateSPMD stopping when ctx is cancelled. An interrupted run
// returns the replications finished by then (in replication order: with one worker,
// exactly the first k), Partial, with an error wrapping fault.ErrInterrupted and ctx's
// error; with fewer than two finished (no interval) it returns no result and that error.
func ReplicateSPMDContext(ctx context.Context, m *spmd.Model, p, d int, cfg SPMDConfig, o SPMDOptions) (*SPMDResult, error) {
	reps := o.Reps
	if reps == 0 {
		reps = 10
	}
	if reps < 2 {
		return nil, fmt.Errorf("%w: %d replications: want ≥ 2 (an interval needs two), or 0 for 10", fault.ErrInput, reps)
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var tick func(int64)
	if o.Tick != nil {
		var mu sync.Mutex
		tick = func(c int64) { mu.Lock(); o.Tick(c); mu.Unlock() }
	}
	xs := make([]float64, reps)
	done := make([]bool, reps)
	errs := make([]error, reps)
	parallelForN(workers, reps, func(i int) {
		if ctx.Err() != nil {
			return
		}
		r, err := simulateSPMD(ctx, m, p, d, cfg, o.Seed, uint64(i), tick)
		if err != nil {
			errs[i] = err
			return
		}
		xs[i], done[i] = r.CycleTime, true
	})
	for _, err := range errs {
		if err != nil && !errors.Is(err, fault.ErrInterrupted) {
			return nil, err
		}
	}
	var fin []float64
	for i, ok := range done {
		if ok {
			fin = append(fin, xs[i])
		}
	}
	if len(fin) == reps {
		return &SPMDResult{Estimate: estimate(fin), Replications: reps, CycleTimes: fin}, nil
	}
	stop := fmt.Errorf("%w after %d of %d replications: %w", fault.ErrInterrupted, len(fin), reps, ctx.Err())
	if len(fin) < 2 {
		return nil, fmt.Errorf("%w (an interval needs two finished replications)", stop)
	}
	return &SPMDResult{Estimate: estimate(fin), Replications: len(fin), CycleTimes: fin, Partial: true}, stop
}
