package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/pq"
	"github.com/clusterperf/clusterperf/internal/stats"
	"github.com/clusterperf/clusterperf/qn"
)

// Discipline is how a single- or multi-server station serves.
type Discipline int

const (
	FCFS Discipline = iota // first come first served, Servers servers
	PS                     // processor sharing: n jobs share rate α(n) (1, or min(n, m), or load-dependent)
)

// Config chooses the distributions and disciplines of a simulated network. Nil maps mean
// exponential service, exponential (Poisson) arrivals and exponential think times, FCFS queues.
type Config struct {
	Service    map[string]Dist       // by station name
	Arrival    map[string]Dist       // by open class name
	Think      map[string]Dist       // by closed class name
	Discipline map[string]Discipline // by station name (queue and multi-server stations)
	// Events is the length of one replication in events, warm-up included (0: DefaultEvents
	// of the model, which grows with its population and stations). The warm-up is chosen
	// from the data by MSER-5 (see Run) unless WarmupFrac is set.
	Events int64
	// WarmupFrac, if in (0, 1), discards that fixed share of every replication instead of
	// the MSER-5 truncation (0: MSER-5).
	WarmupFrac float64
	// MaxEvents limits Events (default DefaultMaxEvents): a larger run is refused with
	// fault.ErrTooLarge before it starts.
	MaxEvents int64
	// MaxMemoryBytes limits the estimated memory of one replication (jobs, pending events,
	// stations, the warm-up record; default DefaultMaxMemoryBytes). Replicate also runs only
	// as many replications at once as fit in it.
	MaxMemoryBytes int64
	// Routing gives, per class name, the probability R[i][j] of going from node i to node j:
	// node 0 is the reference (a closed class's terminals, an open class's outside), nodes
	// 1…K the model's stations in order, nodes K+1… the fork/join nodes of ForkJoins. Every
	// row used must sum to 1. A class without a matrix here is routed by the model's Routing
	// (qn.Routing.NodeMatrix) if it has one, otherwise by its visit counts.
	Routing map[string][][]float64
	// ForkJoins are fork/join nodes: a job routed to one splits into one task per branch
	// station; it continues (by its routing row) when all of them have been served.
	ForkJoins []ForkJoin
	// Switch, if not nil, routes every class with class switching (a qn.ModelFile's Switch;
	// see FileConfig): a job finishing at station i as class c goes to station j as class d
	// with probability P[c][i][d][j]. Its classes' throughputs are the chain's cycle rate (the
	// visits of the chain's first class to its reference), as qn.ChainNetwork.Solve reports.
	Switch *qn.ClassSwitch
	// Capacity gives, by station name, the largest number of jobs a station holds (waiting,
	// in service and blocked; absent or 0: unlimited), with blocking after service (see
	// blockingSetup).
	Capacity map[string]int
}

// ForkJoin is a fork/join node over branch stations (by name).
type ForkJoin struct {
	Name     string
	Branches []string
}

// RepResult is one replication's measurements, in the order of the model's classes and
// stations.
type RepResult struct {
	Throughput   []float64   // per class, completed cycles (closed) or departures (open) per second
	ResponseTime []float64   // per class, seconds per cycle outside the think time
	QueueLength  [][]float64 // [k][c], time-average jobs at one copy of station k
	Utilization  []float64   // [k] busy servers / servers, time average (one copy)
	Events       int64
	Time         float64 // measured (post-warm-up) simulated time, seconds
	// WarmupEvents and WarmupTime are the discarded initial part (MSER-5 or WarmupFrac).
	WarmupEvents int64
	WarmupTime   float64
	// TooShort: MSER-5 put the end of the initial transient beyond the first half of the run
	// (White's acceptance rule), so the run was too short to leave it and the estimates are
	// probably biased.
	TooShort bool
}

type station struct {
	kind      qn.Kind
	disc      Discipline
	servers   int
	rates     []float64 // PS rate multipliers α(n) (load-dependent), nil: min(n, servers)
	copies    int
	dist      Dist
	svc       []float64 // mean service time per visit, per class
	n         int       // jobs present (all copies pooled: copies are load-balanced at random, see below)
	busy      int
	queue     []int32 // FCFS waiting jobs (ring)
	qhead     int
	qlen      int
	nc        []int // jobs per class
	last      float64
	area      []float64 // ∫ n_c dt
	busyArea  float64
	ver       uint32
	psV       float64                    // PS virtual time (service attained per job)
	psHeap    pq.Heap[psEntry, *psEntry] // PS jobs by finishing virtual time
	psLastT   float64
	psPending bool
	// blocking after service (Config.Capacity): the served job waiting for room at blockedOn,
	// and the stations blocked on this one in the order they were blocked
	blocked    bool
	blockedJob int32
	blockedOn  int32
	waiters    []int32
}

type psEntry struct {
	v   float64
	job int32
}

type job struct {
	class   int32
	start   float64 // cycle start
	parent  int32   // fork/join task: its parent job; −1 for jobs
	pending int32   // fork/join parent: tasks not yet served
	fork    int32   // fork/join parent: the node it waits at
}

// Simulator runs replications of one model.
type Simulator struct {
	m       *qn.Model
	cfg     Config
	cum     [][]float64 // per class cumulative routing over stations
	vtot    []float64
	svc     [][]float64 // [c][k] mean service per visit
	closedN int
	routing [][][]float64 // per class: nil (visits) or the node matrix
	cumRout [][][]float64 // cumulative rows
	forks   [][]int       // per fork node: branch model stations
	// scale is the time unit of the simulation clock (seconds): the largest mean time of
	// the model, so that the clock runs in [0, Events·O(1)] whatever the model's units
	// (demands of 1e308 s or 1e-300 s). Every simulated time is in units of scale.
	scale    float64
	think    []float64 // per class, mean think time / scale
	interarr []float64 // per class, mean inter-arrival time / scale (0: no arrivals)
	memBytes int64     // estimated memory of one replication
	// little: response times are estimated by Little's law, R = N̄/X (jobs at the stations
	// over completions), which the initial condition biases only by O(1/run length); the
	// direct mean of completed cycles is biased low until every job has started a cycle
	// after time 0 (completions early in a run are short cycles). Not with fork/join nodes,
	// whose tasks are counted at the stations instead of their jobs.
	little bool
	// class switching (Config.Switch): cumulative next-(class, station) distributions per
	// class and station, each class's chain's first class, its jobs' start station
	swCum   [][][]float64
	swFirst []int
	swStart []int
	// finite capacities (Config.Capacity): per model station, 0 unlimited
	capacity []int
	blocking bool
}

// New prepares a simulator. Groups of identical stations (Count > 1) are simulated as one
// station per copy with jobs sent to a copy at random (equal probability): the product-form
// solution of identical copies with equal visit shares.
//
// Errors: an invalid model or configuration wraps fault.ErrInput; a run beyond the budgets
// (Config.MaxEvents, Config.MaxMemoryBytes) wraps fault.ErrTooLarge.
func New(m *qn.Model, cfg Config) (*Simulator, error) {
	s, err := newSimulator(m, cfg)
	if err != nil && !errors.Is(err, fault.ErrInput) {
		err = fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	return s, err
}

func newSimulator(m *qn.Model, cfg Config) (*Simulator, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := &Simulator{m: m, cfg: cfg}
	for c := range m.Classes {
		if err := s.addClass(c); err != nil {
			return nil, err
		}
	}
	fjs, err := forkJoinList(m, cfg)
	if err != nil {
		return nil, err
	}
	byName := map[string]int{}
	for k, st := range m.Stations {
		byName[st.Name] = k
	}
	for _, fj := range fjs {
		var br []int
		for _, b := range fj.Branches {
			k, ok := byName[b]
			if !ok {
				return nil, fmt.Errorf("fork/join %q: no station named %q", fj.Name, b)
			}
			br = append(br, k)
		}
		if len(br) == 0 {
			return nil, fmt.Errorf("fork/join %q has no branches", fj.Name)
		}
		s.forks = append(s.forks, br)
	}
	if err := s.addRouting(len(fjs)); err != nil {
		return nil, err
	}
	if cfg.Switch != nil {
		if err := s.switchRouting(); err != nil {
			return nil, err
		}
	}
	for _, c := range cfg.Capacity {
		s.blocking = s.blocking || c != 0
	}
	if s.blocking {
		if err := s.blockingSetup(); err != nil {
			return nil, err
		}
	}
	if err := s.setScale(); err != nil {
		return nil, err
	}
	s.little = len(s.forks) == 0
	if s.cfg.Events == 0 {
		s.cfg.Events = min(DefaultEvents(m), s.cfg.MaxEvents)
	}
	if s.cfg.Events > s.cfg.MaxEvents {
		return nil, fmt.Errorf("%w: %d events per replication exceed the limit of %d (raise --max-events)", fault.ErrTooLarge, s.cfg.Events, s.cfg.MaxEvents)
	}
	s.memBytes = s.memoryEstimate()
	if s.memBytes > s.cfg.MaxMemoryBytes {
		return nil, fmt.Errorf("%w: one replication needs about %s (%d jobs, %d simulated stations), above the limit of %s (raise --max-memory)",
			fault.ErrTooLarge, byteSize(s.memBytes), s.closedN, s.simStations(), byteSize(s.cfg.MaxMemoryBytes))
	}
	return s, nil // load-dependent stations are simulated as PS with total rate α(n)
}

// addClass sets class c's service time per visit S_k = D_k/V_k, its visits per cycle
// V_k·copies_k (V = 1 where there is demand and the model gives no visits; rescaled to one
// visit per cycle when there are fewer, demands unchanged) and their cumulative shares for
// choosing a station, and adds a closed class's population to closedN.
func (s *Simulator) addClass(c int) error {
	m := s.m
	K := len(m.Stations)
	visits := make([]float64, K)
	svc := make([]float64, K)
	tot := 0.0
	for k := 0; k < K; k++ {
		d := m.Demand[c][k]
		v := 0.0
		if m.Visits != nil {
			v = m.Visits[c][k]
		} else if d > 0 {
			v = 1
		}
		if d > 0 && v == 0 {
			return fmt.Errorf("class %q, station %q: demand without visits", m.Classes[c].Name, m.Stations[k].Name)
		}
		if v > 0 {
			svc[k] = d / v
		}
		visits[k] = v * float64(m.Stations[k].Copies())
		tot += visits[k]
	}
	if tot > 0 && tot < 1 { // fewer than one visit per cycle: rescale (demands unchanged)
		for k := range visits {
			svc[k] *= visits[k] / tot
			visits[k] /= tot
		}
		tot = 1
	}
	cum := make([]float64, K)
	acc := 0.0
	for k := range visits {
		acc += visits[k]
		if tot > 0 {
			cum[k] = acc / tot
		}
	}
	s.cum = append(s.cum, cum)
	s.vtot = append(s.vtot, tot)
	s.svc = append(s.svc, svc)
	if !m.Classes[c].Open {
		s.closedN += m.Classes[c].Population
	}
	return nil
}

// forkJoinList is the fork/join nodes to simulate: the model file's (by station name) or
// cfg's; both is refused.
func forkJoinList(m *qn.Model, cfg Config) ([]ForkJoin, error) {
	if len(m.ForkJoins) == 0 {
		return cfg.ForkJoins, nil
	}
	if len(cfg.ForkJoins) > 0 {
		return nil, errors.New("fork/join nodes given twice: by the model (fork_joins:) and by the simulation's own fork/join list")
	}
	var fjs []ForkJoin
	for _, fj := range m.ForkJoins {
		var br []string
		for _, k := range fj.Branches {
			br = append(br, m.Stations[k].Name)
		}
		fjs = append(fjs, ForkJoin{Name: fj.Name, Branches: br})
	}
	return fjs, nil
}

// addRouting takes each class's routing over the nodes (reference, stations, fjs fork/join
// nodes), from the model file or cfg.Routing (which wins), with its cumulative rows; with
// routing and no visits given, a class's demand is its service time per visit.
func (s *Simulator) addRouting(fjs int) error {
	m := s.m
	C, K := len(m.Classes), len(m.Stations)
	nodes := 1 + K + fjs
	s.routing = make([][][]float64, C)
	s.cumRout = make([][][]float64, C)
	routes := map[string][][]float64{}
	for c, r := range m.Routing { // routing read from the model file
		if r != nil {
			routes[m.Classes[c].Name] = r.NodeMatrix(m.Classes[c].Open)
		}
	}
	for name, R := range s.cfg.Routing {
		routes[name] = R
	}
	for name, R := range routes {
		c := -1
		for i, cl := range m.Classes {
			if cl.Name == name {
				c = i
			}
		}
		if c < 0 {
			return fmt.Errorf("routing: no class named %q", name)
		}
		if len(R) != nodes {
			return fmt.Errorf("routing of class %q: %d rows, want %d (reference, %d stations, %d fork/join nodes)", name, len(R), nodes, K, fjs)
		}
		cum, err := cumulativeRouting(name, R)
		if err != nil {
			return err
		}
		s.routing[c], s.cumRout[c] = R, cum
		// service time per visit: the demand is not used; a station's mean service is D/V with
		// V the class's visits, so require the model to give visits × service times
		for k := 0; k < K; k++ {
			if m.Visits == nil && m.Demand[c][k] > 0 {
				// with no visits given, the demand is the service time per visit
				s.svc[c][k] = m.Demand[c][k]
			}
		}
	}
	return nil
}

// cumulativeRouting checks a class's square routing matrix R (rows of probabilities that
// sum to 1 or are empty; row 0, from the reference, not empty) and returns its cumulative
// rows.
func cumulativeRouting(name string, R [][]float64) ([][]float64, error) {
	nodes := len(R)
	cum := make([][]float64, nodes)
	for i, row := range R {
		if len(row) != nodes {
			return nil, fmt.Errorf("routing of class %q, row %d: %d entries, want %d", name, i, len(row), nodes)
		}
		sum := 0.0
		cum[i] = make([]float64, nodes)
		for j, v := range row {
			if !(v >= 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("routing of class %q: R[%d][%d] = %v must be a probability", name, i, j, v)
			}
			sum += v
			cum[i][j] = sum
		}
		if sum != 0 && math.Abs(sum-1) > 1e-9 {
			return nil, fmt.Errorf("routing of class %q: row %d sums to %v, not 1", name, i, sum)
		}
	}
	if cum[0][nodes-1] == 0 {
		return nil, fmt.Errorf("routing of class %q: row 0 (from the reference) is empty", name)
	}
	return cum, nil
}

type run struct {
	s      *Simulator
	rng    *rand.Rand
	now    float64
	h      eventHeap
	st     []station
	jobs   []job
	free   []int32   // free job slots (fork/join tasks, departed open jobs)
	done   []float64 // completions per class since the start
	rsum   []float64 // their cycle times
	events int64
	// snaps[i] holds the cumulative accumulators at the end of chunk i (snaps[0]: the
	// start), in the layout of snapWidth; snapEvents the events by then.
	snaps      [][]float64
	snapBuf    []float64 // backing store of snaps (one allocation)
	snapEvents []int64
}

// Run simulates one replication with the given seed pair: Config.Events events, of which
// the initial transient is discarded (MSER-5, see runBatches).
func (s *Simulator) Run(seed, stream uint64) (*RepResult, error) {
	out, err := s.run(seed, stream, 1, nil)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// runBatches simulates one run of Config.Events events and cuts its part after the warm-up
// into the given number of equal batches, one RepResult each: the raw material of the
// batch-means method. Each batch's Events counts the events since the previous batch (the
// first includes the warm-up).
//
// The warm-up: the run is recorded in chunks (chunksFor(batches) of them, equal in events);
// MSER-5 (stats.MSERBatches on batch means of five chunks) is applied to two series per
// class — its mean cycle time and its time-average number of jobs at the stations — and the
// largest truncation is discarded. If MSER-5 puts a truncation beyond the first half of the
// run, TooShort is set; an open class whose population grew over the run (last quarter
// against second quarter, by more than 10 % and three standard errors) is a finding:
// fault.ErrNoSteadyState. A class with no completion after the warm-up is one too.
func (s *Simulator) runBatches(seed, stream uint64, batches int) ([]*RepResult, error) {
	if batches < 1 || int64(chunksFor(batches)) > s.cfg.Events {
		return nil, fmt.Errorf("%w: batches %d: need 1 … %d (a tenth of the events)", fault.ErrInput, batches, s.cfg.Events/10)
	}
	return s.run(seed, stream, batches, nil)
}

// hooks are the progress and cancellation of a run (nil: none): at every chunk boundary
// tick gets the events simulated since the previous call, and a cancelled ctx stops the
// run. partial lets a cancelled run analyse the chunks it finished (batch means, which
// have one run only) instead of returning the context's error.
type hooks struct {
	ctx     context.Context
	tick    func(events int64)
	partial bool
}

// stopped reports whether the run should stop at this chunk boundary, after reporting the
// events since the last boundary.
func (h *hooks) stopped(events int64, last *int64) bool {
	if h == nil {
		return false
	}
	if h.tick != nil {
		h.tick(events - *last)
		*last = events
	}
	return h.ctx != nil && h.ctx.Err() != nil
}

// minPartialChunks is the least number of chunks a cancelled batch-means run analyses: ten
// MSER-5 batches, so the warm-up can still be chosen from the data.
const minPartialChunks = 10 * stats.MSERBatch

// chunksFor is the number of chunks a run is recorded in: 500 (100 MSER-5 batches), or 10
// per batch for more than 50 batches.
func chunksFor(batches int) int {
	if batches <= 50 {
		return 500
	}
	return 10 * batches
}

// snap layout: time, done[C], rsum[C], inNet[C] (∫ class-c jobs at stations dt), q[K·C]
// (∫ jobs at one copy of k), u[K] (∫ busy fraction of one copy of k).
func (s *Simulator) snapWidth() int {
	C, K := len(s.m.Classes), len(s.m.Stations)
	return 1 + 3*C + K*C + K
}

// run simulates one replication (seed, stream) split into batches: set-up, the event loop,
// then warm-up truncation (MSER-5) and the measures of the batches.
func (s *Simulator) run(seed, stream uint64, batches int, h *hooks) ([]*RepResult, error) {
	if err := s.checkSaturation(); err != nil {
		return nil, err
	}
	C := len(s.m.Classes)
	r := &run{s: s, rng: rand.New(rand.NewPCG(seed, stream)), done: make([]float64, C), rsum: make([]float64, C)}
	idx, first := r.addStations()
	if err := r.start(first); err != nil {
		return nil, err
	}
	chunks := chunksFor(batches)
	total := s.cfg.Events
	r.snaps = make([][]float64, 0, chunks+1)
	r.snapBuf = make([]float64, 0, (chunks+1)*s.snapWidth())
	r.snapEvents = make([]int64, 0, chunks+1)
	r.snapshot(idx)
	interrupted, err := r.simulate(first, idx, chunks, h)
	if err != nil {
		return nil, err
	}
	if interrupted {
		// keep whole MSER-5 batches of chunks; a batch-means run analyses them as a shorter run
		done := (len(r.snaps) - 1) / stats.MSERBatch * stats.MSERBatch
		if !h.partial || done < minPartialChunks || done < 2*batches {
			return nil, fmt.Errorf("%w: replication %d stopped after %d of %d events: %w", fault.ErrInterrupted, stream, r.events, total, h.ctx.Err())
		}
		chunks = done
		r.snaps, r.snapEvents = r.snaps[:done+1], r.snapEvents[:done+1]
		r.events = r.snapEvents[done]
	}
	if len(r.snaps) < chunks+1 {
		return nil, fmt.Errorf("%w: the simulation ran out of events after %d (no jobs, or zero arrival rates)", fault.ErrInput, r.events)
	}
	if r.now == 0 {
		return nil, fmt.Errorf("%w: no simulated time passed in %d events (every service and think time is 0)", fault.ErrInput, r.events)
	}
	rec := &record{snaps: r.snaps, events: r.snapEvents, total: r.events, chunks: chunks}
	if s.cfg.WarmupFrac == 0 {
		rec.zs = s.series(rec)
	}
	d, tooShort, err := s.truncate(rec)
	if err != nil {
		return nil, err
	}
	out, err := s.measure(rec, d, tooShort, batches)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// addStations makes one simulated station per copy of each model station (its service
// distribution, servers, discipline; load-dependent stations as PS with total rate α(n))
// and returns each simulated station's (model station, copy) and each model station's
// first simulated station.
func (r *run) addStations() (idx [][2]int, first []int) {
	s, m := r.s, r.s.m
	C := len(m.Classes)
	for k, st := range m.Stations {
		for cp := 0; cp < st.Copies(); cp++ {
			d := s.cfg.Service[st.Name]
			if d == nil {
				d = Exponential{}
			}
			servers := 1
			if st.Kind == qn.MultiServer {
				servers = max(1, st.Servers)
			}
			ss := station{kind: st.Kind, servers: servers, copies: st.Copies(), dist: d, nc: make([]int, C), area: make([]float64, C)}
			ss.svc = make([]float64, C)
			for c := 0; c < C; c++ {
				ss.svc[c] = s.svc[c][k]
			}
			ss.disc = s.cfg.Discipline[st.Name]
			if st.Kind == qn.LoadDependent {
				ss.disc, ss.rates = PS, st.Rates
			}
			r.st = append(r.st, ss)
			idx = append(idx, [2]int{k, cp})
		}
	}
	first = make([]int, len(m.Stations))
	for i := len(idx) - 1; i >= 0; i-- {
		first[idx[i][0]] = i
	}
	return idx, first
}

// start schedules the first events: closed jobs start thinking, open classes get their
// first arrival (with finite capacities, blockingPlace places the jobs instead).
func (r *run) start(first []int) error {
	s := r.s
	if s.blocking {
		return r.blockingPlace(first)
	}
	for c, cl := range s.m.Classes {
		if cl.Open {
			if s.interarr[c] > 0 {
				r.h.push(event{t: r.sample(s.cfg.Arrival[cl.Name], s.interarr[c]), kind: evArrive, job: int32(c)})
			}
			continue
		}
		for i := 0; i < cl.Population; i++ {
			r.jobs = append(r.jobs, job{class: int32(c), parent: -1})
			r.h.push(event{t: r.sample(s.cfg.Think[cl.Name], s.think[c]), kind: evThink, job: int32(len(r.jobs) - 1)})
		}
	}
	return nil
}

// simulate is the event loop: it processes up to Config.Events events, snapshotting the
// accumulators at the end of each of chunks chunks and looking at the hooks there; it
// reports whether the hooks stopped it.
func (r *run) simulate(first []int, idx [][2]int, chunks int, h *hooks) (interrupted bool, err error) {
	s, m := r.s, r.s.m
	total := s.cfg.Events
	cut := total / int64(chunks)
	var ticked int64
	for r.events < total && r.h.len() > 0 {
		e := r.h.pop()
		if e.kind == evDone && r.st[e.st].disc == PS && e.ver != r.st[e.st].ver {
			continue // a PS completion superseded by a later arrival or departure
		}
		r.now = e.t
		r.events++
		switch e.kind {
		case evThink:
			r.enterNetwork(int(e.job), first, idx)
		case evArrive:
			c := int(e.job)
			cl := m.Classes[c]
			r.enterNetwork(r.newJob(int32(c), -1), first, idx)
			r.h.push(event{t: r.now + r.sample(s.cfg.Arrival[cl.Name], s.interarr[c]), kind: evArrive, job: int32(c)})
		case evDone:
			if s.blocking {
				if err := r.blockingDepart(int(e.st), int(e.job), first, idx); err != nil {
					return false, err
				}
				break
			}
			r.depart(int(e.st), int(e.job), first, idx)
		}
		if r.events == cut {
			if math.IsInf(r.now, 0) || math.IsNaN(r.now) {
				return false, fmt.Errorf("%w: the simulation clock left the float64 range after %d events (a service or think time drawn beyond 1.8e308 units of %.3g s)", fault.ErrNoSteadyState, r.events, s.scale)
			}
			r.snapshot(idx)
			cut = total * int64(len(r.snaps)) / int64(chunks)
			if h.stopped(r.events, &ticked) {
				return true, nil
			}
		}
	}
	return false, nil
}

// record is what a replication keeps for its output analysis: the cumulative accumulators
// at the chunk boundaries and the MSER-5 input series.
type record struct {
	snaps  [][]float64
	events []int64
	total  int64
	chunks int
	zs     [][]float64 // MSER series (batch means of five chunks), nil where undefined
	opens  []int       // indices into zs of the open classes' population series
	openC  []int       // their classes
}

// measure turns the record after d chunks of warm-up into batches results (see runBatches).
func (s *Simulator) measure(rec *record, d int, tooShort bool, batches int) ([]*RepResult, error) {
	m := s.m
	chunks := rec.chunks
	// the measured part [d, chunks] in batches of w chunks, the first ones dropped to make w whole
	w := (chunks - d) / batches
	start := chunks - w*batches
	if w < 1 {
		return nil, fmt.Errorf("%w: %d batches need more than %d chunks after a warm-up of %d", fault.ErrInput, batches, chunks-d, d)
	}
	for c, cl := range m.Classes {
		if rec.snaps[chunks][1+c] == rec.snaps[start][1+c] {
			return nil, fmt.Errorf("%w: no job of class %q completed in %d events after the warm-up (%.3g s of simulated time): the run cannot estimate its throughput — its times are too long for the run (raise --events)",
				fault.ErrNoSteadyState, cl.Name, rec.total-rec.events[start], (rec.snaps[chunks][0]-rec.snaps[start][0])*s.scale)
		}
	}
	out := make([]*RepResult, batches)
	for j := range out {
		a, b := start+j*w, start+(j+1)*w
		res, err := s.result(rec, a, b)
		if err != nil {
			return nil, err
		}
		res.WarmupEvents, res.WarmupTime, res.TooShort = rec.events[start], rec.snaps[start][0]*s.scale, tooShort
		if batches > 1 && j > 0 {
			res.Events = rec.events[b] - rec.events[a]
		} else {
			res.Events = rec.events[b]
		}
		out[j] = res
	}
	if batches == 1 {
		out[0].Events = rec.total
	}
	return out, nil
}

// snapshot appends the cumulative accumulators (brought up to now).
func (r *run) snapshot(idx [][2]int) {
	s := r.s
	C, K := len(s.m.Classes), len(s.m.Stations)
	w := s.snapWidth()
	r.snapBuf = r.snapBuf[:len(r.snapBuf)+w]
	row := r.snapBuf[len(r.snapBuf)-w:]
	row[0] = r.now
	copy(row[1:], r.done)
	copy(row[1+C:], r.rsum)
	inNet, q, u := row[1+2*C:1+3*C], row[1+3*C:1+3*C+K*C], row[1+3*C+K*C:]
	for i := range r.st {
		st := &r.st[i]
		r.account(st)
		k := idx[i][0]
		cp := float64(st.copies)
		for c, a := range st.area {
			inNet[c] += a
			q[k*C+c] += a / cp
		}
		if st.kind == qn.Delay {
			u[k] += st.busyArea / cp // mean busy servers, as qn reports for delay
		} else {
			u[k] += st.busyArea / float64(st.servers) / cp
		}
	}
	r.snaps = append(r.snaps, row)
	r.snapEvents = append(r.snapEvents, r.events)
}

// series are the MSER-5 inputs of a record, one batch mean per five chunks: per class its
// throughput, its time-average number of jobs at each station it visits and at all of them,
// and (when response times are measured directly) the mean cycle time of its completions.
func (s *Simulator) series(rec *record) [][]float64 {
	C, K := len(s.m.Classes), len(s.m.Stations)
	nb := rec.chunks / stats.MSERBatch
	var zs [][]float64
	// A batch can be undefined: no simulated time in it (closed jobs all start at t = 0, so
	// with no think time the first thousands of events take no time) or no completion for a
	// cycle time. It takes the value of the batch before it (the first defined one for a
	// leading run), so it neither hides nor fakes a trend. No defined batch: no series.
	add := func(f func(a, b []float64) float64) []float64 {
		z := make([]float64, nb)
		first := -1
		for j := range z {
			z[j] = f(rec.snaps[j*stats.MSERBatch], rec.snaps[(j+1)*stats.MSERBatch])
			switch {
			case !math.IsNaN(z[j]) && !math.IsInf(z[j], 0):
				if first < 0 {
					first = j
				}
			case j > 0 && first >= 0:
				z[j] = z[j-1]
			}
		}
		if first < 0 {
			z = nil
		}
		for j := 0; j < first; j++ {
			z[j] = z[first]
		}
		zs = append(zs, z)
		return z
	}
	for c := 0; c < C; c++ {
		if !s.little {
			add(func(a, b []float64) float64 { return (b[1+C+c] - a[1+C+c]) / (b[1+c] - a[1+c]) })
		}
		add(func(a, b []float64) float64 { return (b[1+c] - a[1+c]) / (b[0] - a[0]) })
		for k := 0; k < K; k++ {
			if s.m.Demand[c][k] == 0 && s.routing[c] == nil {
				continue
			}
			col := 1 + 3*C + k*C + c
			add(func(a, b []float64) float64 { return (b[col] - a[col]) / (b[0] - a[0]) })
		}
		add(func(a, b []float64) float64 { return (b[1+2*C+c] - a[1+2*C+c]) / (b[0] - a[0]) })
		if s.m.Classes[c].Open {
			rec.opens = append(rec.opens, len(zs)-1)
			rec.openC = append(rec.openC, c)
		}
	}
	return zs
}

// truncate returns the chunks to discard: WarmupFrac's share, or the largest MSER-5
// truncation over the record's series, with tooShort when one lies beyond the first half;
// an open class whose population grew over the run is fault.ErrNoSteadyState.
func (s *Simulator) truncate(rec *record) (d int, tooShort bool, err error) {
	if f := s.cfg.WarmupFrac; f > 0 {
		return int(math.Round(f * float64(rec.chunks))), false, nil
	}
	dBatches, tooShort := mserMax(rec.zs)
	for i, zi := range rec.opens {
		z := rec.zs[zi]
		if dj, _ := stats.MSERBatches(z); z != nil && dj > len(z)/2 {
			if lo, hi, grew := growth(z); grew {
				return 0, true, fmt.Errorf("%w: the number of jobs of open class %q grew from %.4g to %.4g over the run (second against last quarter): no steady state — a saturated station, or a transient longer than %d events (raise --events)",
					fault.ErrNoSteadyState, s.m.Classes[rec.openC[i]].Name, lo, hi, s.cfg.Events)
			}
		}
	}
	return dBatches * stats.MSERBatch, tooShort, nil
}

// mserMax is the largest MSER-5 truncation (in batches) over the defined series, and whether
// any lies beyond the first half.
func mserMax(zs [][]float64) (d int, tooShort bool) {
	for _, z := range zs {
		if z == nil {
			continue
		}
		dj, ok := stats.MSERBatches(z)
		d = max(d, dj)
		tooShort = tooShort || !ok
	}
	return d, tooShort
}

// growth compares the mean of the last quarter of z with that of the second quarter: grown
// when the difference exceeds 10 % and three standard errors (from the spread inside each
// quarter).
func growth(z []float64) (lo, hi float64, grew bool) {
	n := len(z)
	q := n / 4
	if q < 2 {
		return 0, 0, false
	}
	m1, h1 := stats.MeanCI(z[q : 2*q])
	m2, h2 := stats.MeanCI(z[n-q:])
	t := stats.TQuantile(0.975, q-1)
	se := math.Hypot(h1/t, h2/t)
	return m1, m2, m2-m1 > 0.1*math.Abs(m1) && m2-m1 > 3*se
}

func (r *run) sample(d Dist, mean float64) float64 {
	if mean <= 0 {
		return 0
	}
	if d == nil {
		return mean * r.rng.ExpFloat64()
	}
	return d.Sample(r.rng, mean)
}

// next picks the node a job of class c goes to from node `from` (0 = the reference): with a
// routing matrix, by its row; otherwise by visit counts — any station w.p. 1 − 1/V_tot after
// a station, back to the reference otherwise; from the reference always a station.
func (r *run) next(c, from int) int {
	s := r.s
	if cum := s.cumRout[c]; cum != nil {
		return pickCum(cum[from], r.rng.Float64())
	}
	if s.vtot[c] == 0 {
		return 0
	}
	if from != 0 && r.rng.Float64()*s.vtot[c] < 1 {
		return 0
	}
	u := r.rng.Float64()
	cum := s.cum[c]
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cum[mid] >= u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo + 1
}

// pickCum draws an index i with probability (cum[i] − cum[i−1]) / cum[last] from the
// cumulative weights cum, given u uniform on [0, 1): the first i with cum[i] > u·cum[last]
// (binary search, O(log len)).
func pickCum(cum []float64, u float64) int {
	u *= cum[len(cum)-1]
	lo, hi := 0, len(cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cum[mid] > u {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// dispatch sends job j to node n.
func (r *run) dispatch(j, n int, first []int) {
	K := len(r.s.m.Stations)
	switch {
	case n == 0:
		r.finishCycle(j)
	case n <= K:
		k := n - 1
		st := first[k]
		if cp := r.s.m.Stations[k].Copies(); cp > 1 {
			st += r.rng.IntN(cp)
		}
		r.arrive(st, j)
	default:
		f := n - K - 1
		br := r.s.forks[f]
		r.jobs[j].pending = int32(len(br))
		r.jobs[j].fork = int32(n)
		for _, k := range br {
			t := r.newJob(r.jobs[j].class, int32(j))
			st := first[k]
			if cp := r.s.m.Stations[k].Copies(); cp > 1 {
				st += r.rng.IntN(cp)
			}
			r.arrive(st, t)
		}
	}
}

func (r *run) newJob(c, parent int32) int {
	if n := len(r.free); n > 0 {
		j := int(r.free[n-1])
		r.free = r.free[:n-1]
		r.jobs[j] = job{class: c, parent: parent}
		return j
	}
	r.jobs = append(r.jobs, job{class: c, parent: parent})
	return len(r.jobs) - 1
}

func (r *run) enterNetwork(j int, first []int, idx [][2]int) {
	if r.s.swCum != nil {
		r.switchEnter(j, first)
		return
	}
	c := int(r.jobs[j].class)
	r.jobs[j].start = r.now
	n := r.next(c, 0)
	if n == 0 {
		r.finishCycle(j)
		return
	}
	r.dispatch(j, n, first)
}

func (r *run) finishCycle(j int) {
	c := int(r.jobs[j].class)
	r.done[c]++
	r.rsum[c] += r.now - r.jobs[j].start
	cl := r.s.m.Classes[c]
	if !cl.Open {
		r.h.push(event{t: r.now + r.sample(r.s.cfg.Think[cl.Name], r.s.think[c]), kind: evThink, job: int32(j)})
	}
	if cl.Open {
		r.free = append(r.free, int32(j)) // the job leaves; its slot is reused
	}
}

func (r *run) account(st *station) {
	dt := r.now - st.last
	if dt > 0 {
		for c, n := range st.nc {
			st.area[c] += float64(n) * dt
		}
		busy := st.busy
		if st.blocked {
			busy-- // a blocked server holds its job but serves no one
		}
		st.busyArea += float64(busy) * dt
	}
	st.last = r.now
}

func (r *run) arrive(si, j int) {
	st := &r.st[si]
	r.account(st)
	c := int(r.jobs[j].class)
	st.n++
	st.nc[c]++
	svc := st.dist.Sample(r.rng, st.svc[c])
	switch {
	case st.kind == qn.Delay:
		st.busy++
		r.h.push(event{t: r.now + svc, kind: evDone, st: int32(si), job: int32(j)})
	case st.disc == PS:
		r.psAdvance(st)
		st.psHeap.Push(psEntry{v: st.psV + svc, job: int32(j)})
		st.busy = min(st.n, st.servers)
		r.psSchedule(si)
	default: // FCFS with m servers
		if st.busy < st.servers {
			st.busy++
			r.h.push(event{t: r.now + svc, kind: evDone, st: int32(si), job: int32(j)})
		} else {
			r.enqueue(st, int32(j))
		}
	}
}

func (r *run) depart(si, j int, first []int, idx [][2]int) {
	st := &r.st[si]
	r.account(st)
	c := int(r.jobs[j].class)
	st.n--
	st.nc[c]--
	switch {
	case st.kind == qn.Delay:
		st.busy--
	case st.disc == PS:
		r.psAdvance(st)
		st.psHeap.Pop()
		st.busy = min(st.n, st.servers)
		r.psSchedule(si)
	default:
		r.serveNext(si)
	}
	if p := r.jobs[j].parent; p >= 0 { // a fork/join task: report to the parent, vanish
		r.free = append(r.free, int32(j))
		r.jobs[p].pending--
		if r.jobs[p].pending == 0 {
			r.dispatch(int(p), r.next(c, int(r.jobs[p].fork)), first)
		}
		return
	}
	if r.s.swCum != nil {
		r.switchRoute(j, c, idx[si][0], first)
		return
	}
	r.dispatch(j, r.next(c, idx[si][0]+1), first)
}

// psRate is the service rate each of n PS jobs receives: α(n)/n.
func (st *station) psRate() float64 {
	if st.n == 0 {
		return 0
	}
	if st.rates != nil {
		a := st.rates[len(st.rates)-1]
		if st.n <= len(st.rates) {
			a = st.rates[st.n-1]
		}
		return a / float64(st.n)
	}
	return math.Min(1, float64(st.servers)/float64(st.n))
}

// psAdvance brings the station's virtual time (service attained by every job) to now, at
// the rate that held since the last change (n has not changed yet).
func (r *run) psAdvance(st *station) {
	st.psV += (r.now - st.psLastT) * st.psRateBefore()
	st.psLastT = r.now
}

// psRateBefore is the per-job rate before the current change: psAdvance is called after n
// was updated, so undo that update's effect by looking at the heap size.
func (st *station) psRateBefore() float64 {
	n := st.psHeap.Len()
	if n == 0 {
		return 0
	}
	if st.rates != nil {
		a := st.rates[len(st.rates)-1]
		if n <= len(st.rates) {
			a = st.rates[n-1]
		}
		return a / float64(n)
	}
	return math.Min(1, float64(st.servers)/float64(n))
}

func (r *run) psSchedule(si int) {
	st := &r.st[si]
	st.ver++
	if st.psHeap.Len() == 0 {
		return
	}
	top := *st.psHeap.Top()
	rate := st.psRate()
	r.h.push(event{t: r.now + math.Max(top.v-st.psV, 0)/rate, kind: evDone, st: int32(si), job: top.job, ver: st.ver})
}

// Before orders PS jobs by the virtual time at which they finish.
func (e *psEntry) Before(o *psEntry) bool { return e.v < o.v }

func (r *run) enqueue(st *station, j int32) {
	if st.qlen == len(st.queue) {
		nq := make([]int32, max(8, 2*len(st.queue)))
		for i := 0; i < st.qlen; i++ {
			nq[i] = st.queue[(st.qhead+i)%len(st.queue)]
		}
		st.queue, st.qhead = nq, 0
	}
	st.queue[(st.qhead+st.qlen)%len(st.queue)] = j
	st.qlen++
}

// serveNext frees a server of FCFS station si: the next waiting job, if any, starts its
// service (a sample of its class's service time) on it.
func (r *run) serveNext(si int) {
	st := &r.st[si]
	if st.qlen > 0 {
		nj := r.dequeue(st)
		nc := int(r.jobs[nj].class)
		r.h.push(event{t: r.now + st.dist.Sample(r.rng, st.svc[nc]), kind: evDone, st: int32(si), job: nj})
	} else {
		st.busy--
	}
}

func (r *run) dequeue(st *station) int32 {
	j := st.queue[st.qhead]
	st.qhead = (st.qhead + 1) % len(st.queue)
	st.qlen--
	return j
}

// result turns the accumulators between snapshots a and b into a RepResult, in seconds
// (the clock's unit times scale). A value beyond float64 in seconds is an input error.
func (s *Simulator) result(rec *record, a, b int) (*RepResult, error) {
	m := s.m
	C, K := len(m.Classes), len(m.Stations)
	x, y := rec.snaps[a], rec.snaps[b]
	T := y[0] - x[0]
	res := &RepResult{Throughput: make([]float64, C), ResponseTime: make([]float64, C), Utilization: make([]float64, K), Time: T * s.scale}
	res.QueueLength = make([][]float64, K)
	for c := 0; c < C; c++ {
		n := y[1+c] - x[1+c]
		res.Throughput[c] = n / T / s.scale
		res.ResponseTime[c] = math.NaN()
		switch {
		case n > 0 && s.little: // Little: R = N̄/X = ∫ jobs at the stations dt / completions
			res.ResponseTime[c] = (y[1+2*C+c] - x[1+2*C+c]) / n * s.scale
		case n > 0:
			res.ResponseTime[c] = (y[1+C+c] - x[1+C+c]) / n * s.scale
		}
		if math.IsInf(res.Throughput[c], 0) || math.IsInf(res.ResponseTime[c], 0) {
			return nil, fmt.Errorf("%w: class %q: throughput %.3g/(%.3g s) or response time %.3g × %.3g s is beyond the float64 range; express the model's times in another unit", fault.ErrInput, m.Classes[c].Name, n/T, s.scale, (y[1+2*C+c]-x[1+2*C+c])/math.Max(n, 1), s.scale)
		}
	}
	q, u := 1+3*C, 1+3*C+K*C
	for k := 0; k < K; k++ {
		res.QueueLength[k] = make([]float64, C)
		for c := 0; c < C; c++ {
			res.QueueLength[k][c] = (y[q+k*C+c] - x[q+k*C+c]) / T
		}
		res.Utilization[k] = (y[u+k] - x[u+k]) / T
	}
	return res, nil
}
