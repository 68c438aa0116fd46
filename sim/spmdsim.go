package sim

import (
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
	if err := m.CheckConfig(p, d); err != nil {
		return nil, err
	}
	if len(m.Phases) != 1 {
		return nil, fmt.Errorf("direct simulation takes one phase (the model has %d)", len(m.Phases))
	}
	ph := m.Phases[0]
	switch m.Arch {
	case spmd.OptimisticAIO, spmd.OptimisticSIO:
		return nil, fmt.Errorf("%v is a bound, not a program to simulate", m.Arch)
	}
	if cfg.CPU == nil {
		cfg.CPU = Exponential{}
	}
	if cfg.Comm == nil {
		cfg.Comm = Deterministic{}
	}
	if cfg.Net == nil {
		cfg.Net = Exponential{}
	}
	if cfg.IO == nil {
		cfg.IO = Exponential{}
	}
	switch {
	case cfg.Cycles < 0:
		return nil, fmt.Errorf("%w: SPMDConfig.Cycles (--cycles) = %d: want ≥ 1, or 0 for 2000", fault.ErrInput, cfg.Cycles)
	case cfg.MaxMemoryBytes < 0 || !(cfg.MaxSamples >= 0):
		return nil, fmt.Errorf("%w: SPMDConfig limits %d bytes, %v samples: want ≥ 0 (0: default)", fault.ErrInput, cfg.MaxMemoryBytes, cfg.MaxSamples)
	}
	if cfg.Cycles == 0 {
		cfg.Cycles = 2000
	}
	if cfg.MaxMemoryBytes == 0 {
		cfg.MaxMemoryBytes = DefaultMaxMemoryBytes
	}
	if cfg.MaxSamples == 0 {
		cfg.MaxSamples = DefaultMaxSamples
	}
	c := ph.C
	G := p / c
	if mem := 64*float64(G) + 32*float64(d) + 64<<10; mem > float64(cfg.MaxMemoryBytes) {
		return nil, fmt.Errorf("%w: simulating p = %d processors (%d groups) and d = %d disks needs about %s, above the limit of %s (raise SPMDConfig.MaxMemoryBytes, --max-memory)",
			fault.ErrTooLarge, p, G, d, byteSize(int64(math.Min(mem, math.MaxInt64/2))), byteSize(cfg.MaxMemoryBytes))
	}
	if work := 1.1 * float64(cfg.Cycles) * math.Max(1, ph.NIO) * float64(c); work > cfg.MaxSamples {
		return nil, fmt.Errorf("%w: %d cycles of %g bursts on groups of c = %d processors need about %.3g random draws, above the limit of %.3g (raise SPMDConfig.MaxSamples, or lower --cycles)",
			fault.ErrTooLarge, cfg.Cycles, ph.NIO, c, work, cfg.MaxSamples)
	}
	rng := rand.New(rand.NewPCG(seed, stream))
	cpuMean := ph.SPar/float64(p) + ph.SSer
	transfer := ph.G(p) * ph.SRCom
	commMean := ph.S0(p) + (1-ph.W)*transfer
	netMean := ph.W * transfer
	nio := int(math.Round(ph.NIO))
	sio := m.Arch == spmd.BusSIO || m.Arch == spmd.CluSIO
	var ioMean float64
	switch m.Arch {
	case spmd.BusAIO:
		ioMean = float64(c)*ph.S0IO + ph.SRIO/float64(d)/float64(G)
	case spmd.CluAIO:
		ioMean = float64(c)*ph.S0IO + ph.SRIO/float64(G)
	default:
		ioMean = ph.S0IO + ph.SRIO/float64(d)
	}
	const (
		cpuDone uint8 = iota
		commDone
		netDone
		ioDone
	)
	var h eventHeap
	burst := make([]int, G)
	cycleStart := make([]float64, G)
	netQ := []int32{}
	netBusy := false
	ioQ := make([][]int32, d) // AIO: per I/O server (BUS: one; CLU: one per cluster)
	ioBusy := make([]bool, d)
	atBarrier := 0
	now := 0.0
	warm := cfg.Cycles / 10
	cycles, sum := 0, 0.0
	var events int64
	groupCPU := func(g int) float64 { // the slowest of c processors
		mx := 0.0
		for i := 0; i < c; i++ {
			mx = math.Max(mx, cfg.CPU.Sample(rng, cpuMean))
		}
		return mx
	}
	startBurst := func(g int) {
		h.push(event{t: now + groupCPU(g), kind: cpuDone, job: int32(g)})
	}
	startNet := func(g int) {
		h.push(event{t: now + cfg.Net.Sample(rng, netMean), kind: netDone, job: int32(g)})
	}
	server := func(g int) int {
		if m.Arch == spmd.CluAIO {
			return g % d
		}
		return 0
	}
	startIO := func(g int) {
		h.push(event{t: now + cfg.IO.Sample(rng, ioMean), kind: ioDone, job: int32(g)})
	}
	bursts := make([]int, G) // bursts of the current cycle per group
	drawBursts := func() int {
		if !cfg.GeometricBursts || nio <= 1 {
			return nio
		}
		k := 1
		for rng.Float64() >= 1/float64(nio) {
			k++
		}
		return k
	}
	for g := range bursts {
		bursts[g] = drawBursts()
	}
	endCycle := func(g int) {
		if cycles >= warm {
			sum += now - cycleStart[g]
		}
		cycles++
		cycleStart[g] = now
		burst[g] = 0
		bursts[g] = drawBursts()
		startBurst(g)
	}
	for g := 0; g < G; g++ {
		startBurst(g)
	}
	target := cfg.Cycles + warm
	ticked := 0
	report := func() {
		if tick != nil {
			if c := min(cycles, target); c > ticked {
				tick(int64(c - ticked))
				ticked = c
			}
		}
	}
	for cycles < target && h.len() > 0 {
		e := h.pop()
		now = e.t
		events++
		if events%spmdCheckEvents == 0 {
			report()
			if ctx != nil && ctx.Err() != nil {
				return nil, fmt.Errorf("%w after %d of %d cycles: %w", fault.ErrInterrupted, min(cycles, target), target, ctx.Err())
			}
		}
		g := int(e.job)
		switch e.kind {
		case cpuDone:
			h.push(event{t: now + cfg.Comm.Sample(rng, commMean), kind: commDone, job: int32(g)})
		case commDone:
			if netMean <= 0 {
				h.push(event{t: now, kind: netDone, job: int32(g), st: -1})
			} else if netBusy {
				netQ = append(netQ, int32(g))
			} else {
				netBusy = true
				startNet(g)
			}
		case netDone:
			if e.st != -1 {
				if len(netQ) > 0 {
					ng := int(netQ[0])
					netQ = netQ[1:]
					startNet(ng)
				} else {
					netBusy = false
				}
			}
			burst[g]++
			if burst[g] < bursts[g] {
				startBurst(g)
				continue
			}
			if sio {
				atBarrier++
				if atBarrier == G { // all groups joined: one synchronous I/O burst
					h.push(event{t: now + cfg.IO.Sample(rng, ioMean), kind: ioDone, job: -1})
				}
				continue
			}
			sv := server(g)
			if ioBusy[sv] {
				ioQ[sv] = append(ioQ[sv], int32(g))
			} else {
				ioBusy[sv] = true
				startIO(g)
			}
		case ioDone:
			if sio {
				atBarrier = 0
				for gg := 0; gg < G; gg++ {
					endCycle(gg)
				}
				continue
			}
			sv := server(g)
			if len(ioQ[sv]) > 0 {
				ng := int(ioQ[sv][0])
				ioQ[sv] = ioQ[sv][1:]
				startIO(ng)
			} else {
				ioBusy[sv] = false
			}
			endCycle(g)
		}
	}
	report()
	n := cycles - warm
	if n <= 0 {
		return nil, fmt.Errorf("%w: no cycle completed after the warm-up (%d cycles in %d events)", fault.ErrNoSteadyState, cycles, events)
	}
	ct := sum / float64(n)
	if math.IsInf(ct, 0) || math.IsNaN(ct) {
		return nil, fmt.Errorf("%w: the cycle time left the float64 range (the phase's times are too large)", fault.ErrInput)
	}
	return &SPMDRep{CycleTime: ct, Events: events}, nil
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
