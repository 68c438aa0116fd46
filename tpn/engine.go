package tpn

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/pq"
)

// Outcome says how a run ended.
type Outcome int

const (
	Completed Outcome = iota // the final marking was reached
	Deadlock                 // nothing in flight, nothing enabled, marking not final
	CutOff                   // a time or firing limit was hit
)

func (o Outcome) String() string { return [...]string{"completed", "deadlock", "cut off"}[o] }

// Options of a run.
type Options struct {
	AtomicFiring bool  // tokens stay in the input places until the firing ends (single-server only)
	MaxTime      int64 // ticks; 0: no limit
	// MaxFirings cuts the run off after this many firings have started (each a heap entry,
	// and a log entry with Record): 0 means DefaultMaxFirings, a negative value no limit.
	MaxFirings int64
	Record     bool // keep every firing (Gantt charts, critical path), at most MaxLog of them
	// MaxLog bounds the log of a Record run: beyond max(MaxLog, transitions) firings the log
	// is dropped (Result.LogDropped) and the run goes on with constant memory, so a cyclic
	// net cut off by MaxFirings does not hold a 32-byte entry per firing. A program net fires
	// each transition once and never reaches it. 0: DefaultMaxLog; negative: no limit.
	MaxLog int64
	// MaxInFlight bounds the firings in progress at once (each a 32-byte slot of the event
	// queue): beyond max(MaxInFlight, transitions) Run returns fault.ErrTooLarge naming the
	// memory estimate and the limit. 0: DefaultMaxInFlight; negative: no limit.
	MaxInFlight int64
	Trace       int // firings kept for deadlock reports (default 10)
	// Sample, if set, runs a program net with its background load sampled (sampled.go):
	// each CPU is a processor-sharing server whose background jobs arrive and leave during
	// the run, instead of every compute step taking its mean-expanded Delay.
	Sample *Sample
	// MaxEvents bounds a sampled run's CPU work, counted in events: each CPU event — a
	// background arrival or a scheduled departure (of a compute step or a background job),
	// the warm-up included — counts 1 + k/8 for the k jobs that CPU holds, since the event
	// scans them (sampled.go, jobsPerEvent). Beyond it Run returns fault.ErrTooLarge.
	// 0: no limit.
	MaxEvents int64
	// Cancel, if set, stops the run soon after it is closed: Run returns ErrCancelled.
	Cancel <-chan struct{}
}

// Memory bounds of a run (Options.MaxLog, Options.MaxInFlight): a log entry (Firing) and an
// event-queue slot (completion) take bytesPerSlot bytes each, so a run holds at most about
// 32 MiB of log and 32 MiB of queue by default (a program net: as many as its transitions),
// whatever MaxFirings allows.
const (
	DefaultMaxLog      = 1 << 20
	DefaultMaxInFlight = 1 << 20
	bytesPerSlot       = 32
)

// Firing is one firing of a transition.
type Firing struct {
	T          int   `json:"transition"`
	Start, End int64 `json:"-"`
	Cause      int   `json:"-"` // the firing whose end enabled this one (−1: initial marking)
}

// TransitionStats sums a transition's firings over a run in constant memory (whatever the
// log keeps): Gantt charts group a loop's iterations from them (Times).
type TransitionStats struct {
	Firings    int64 // completed firings
	Busy       int64 // ticks: Σ (end − start) over completed firings
	FirstStart int64 // ticks: the first firing's start (−1: never started)
	LastEnd    int64 // ticks: the last completed firing's end
}

// Result of a run.
type Result struct {
	Stats   []TransitionStats // per transition
	Outcome Outcome
	Time    int64 // ticks: when the final marking was reached, or the deadlock/cut-off time
	Firings int64
	Marking []int
	Log     []Firing // with Options.Record (nil if LogDropped)
	// LogDropped: the run fired more than Options.MaxLog times and its log was dropped to
	// bound memory; Log is nil, so Times and CriticalPath have nothing to report.
	LogDropped bool
	Last       []Firing // the last firings (Options.Trace)
	Deadlock   *DeadlockReport
	// OnNetwork: per process (Transition.Process), the ticks during which at least one of its
	// transfers was on the network — the union of its transfers' firings, at most the run's
	// time (Busy sums overlapping transfers). Nil with AtomicFiring (its firings start at
	// completion, out of time order).
	OnNetwork map[string]int64
}

// netCover tracks, per process, the union of its transfers' firings (Result.OnNetwork).
type netCover struct {
	proc  []int32 // per transition: its process's index if a transfer, else −1
	names []string
	in    []int32 // transfers in progress
	since []int64 // when in last rose from 0
	cover []int64
}

func newNetCover(n *Net, atomic bool) *netCover {
	if atomic {
		return nil
	}
	c := &netCover{proc: make([]int32, len(n.Transitions))}
	idx := map[string]int32{}
	for ti, t := range n.Transitions {
		c.proc[ti] = -1
		if t.Kind != "transfer" {
			continue
		}
		i, ok := idx[t.Process]
		if !ok {
			i = int32(len(c.names))
			idx[t.Process] = i
			c.names = append(c.names, t.Process)
		}
		c.proc[ti] = i
	}
	c.in, c.since, c.cover = make([]int32, len(c.names)), make([]int64, len(c.names)), make([]int64, len(c.names))
	return c
}

// begin and end count transfer ti of a process on or off the network at time now (nil: not
// kept, atomic firing).
func (c *netCover) begin(ti int32, now int64) {
	if c == nil {
		return
	}
	if p := c.proc[ti]; p >= 0 {
		if c.in[p] == 0 {
			c.since[p] = now
		}
		c.in[p]++
	}
}

func (c *netCover) end(ti int32, now int64) {
	if c == nil {
		return
	}
	if p := c.proc[ti]; p >= 0 && c.in[p] > 0 {
		if c.in[p]--; c.in[p] == 0 {
			c.cover[p] += now - c.since[p]
		}
	}
}

func (c *netCover) result() map[string]int64 {
	if c == nil {
		return nil
	}
	m := make(map[string]int64, len(c.names))
	for i, n := range c.names {
		m[n] = c.cover[i]
	}
	return m
}

type completion struct {
	t     int64
	seq   uint64
	tr    int32
	id    int32 // firing index in the log (Record) or −1
	ver   uint32
	phase uint8 // fluid transfers: 0 startup done, 1 data done
}

// Before orders completions by time, then by the order they were scheduled.
func (c *completion) Before(o *completion) bool { return c.t < o.t || (c.t == o.t && c.seq < o.seq) }

// cheap stamps completions with a sequence number and keeps them in a pq.Heap.
type cheap struct {
	q   pq.Heap[completion, *completion]
	seq uint64
}

func (h *cheap) push(c completion) {
	h.seq++
	c.seq = h.seq
	h.q.Push(c)
}

func (h *cheap) pop() completion { return h.q.Pop() }

// engine holds the compiled net and run state.
type engine struct {
	n         *Net
	o         Options
	mark      []int
	inflight  []int
	consumers [][]int32 // place → transitions with an input arc from it (atomic firing's rivals)
	// watchers: place → transitions waiting for tokens there. A transition that is not
	// enabled watches one input place whose marking is below its arc weight (watch[t], of
	// weight watchW[t]); a token put there makes it a candidate again. So a firing visits the
	// transitions that were waiting on its output places, not every consumer of them: a
	// shared place (a workstation's CPU) with many consumers costs nothing per firing.
	watchers  [][]int32
	watch     []int32
	watchW    []int
	unmet     int // places whose marking is below their Final (the final marking is unmet == 0)
	stats     []TransitionStats
	net       *netCover // nil with AtomicFiring
	cand      []bool
	candList  []int32
	spare     []int32 // the other candidate buffer (swapped each round)
	lastAt    int     // next slot of the circular trace buffer
	h         cheap
	now       int64
	firings   int64
	log       []Firing
	last      []Firing
	lastCause []int // place → firing that last put a token there (critical path)
	ver       []uint32
	sched     []bool  // atomic mode: transition has a pending firing
	schedAt   []int64 // atomic mode: when it was scheduled
	// fluid media: active transfers with remaining bytes
	fluid    []fluidMedium
	err      error   // the first end time beyond MaxTicks (the run stops with it)
	onMedium []int   // transfers in progress per medium
	started  int64   // firings started
	limit    int64   // Options.MaxFirings (MaxInt64: none)
	rec      bool    // recording the log (Options.Record, until MaxLog firings)
	logCap   int     // firings the log may hold
	dropped  bool    // the log was dropped at logCap
	maxQ     int     // event-queue slots allowed (MaxInFlight)
	prio     []int   // transition priorities, compact for the candidate sort
	cpus     []psCPU // sampled runs: the processor-sharing CPUs (nil otherwise)
	busy     int64   // sampled runs: firings in progress
	events   int64   // sampled runs: CPU events so far, each charged 1 + jobs/jobsPerEvent
}

// end returns the instant now + d for transition ti, checking that it stays within the
// representable horizon; otherwise it records an error naming the transition (and its
// source line) and returns MaxTicks.
func (e *engine) end(ti int32, d int64) int64 {
	if d >= 0 && d <= MaxTicks-e.now {
		return e.now + d
	}
	return e.beyond(ti, d)
}

// beyond records the error of an end instant past the horizon (kept out of end, which
// then inlines into the hot path).
func (e *engine) beyond(ti int32, d int64) int64 {
	if e.err == nil {
		e.err = fmt.Errorf("%w: %s would end at t = %.4g s + %.4g s, beyond the representable horizon %.4g s (2^62 ticks of 1 ns): a delay, a message size or a bandwidth is out of scale",
			fault.ErrInput, e.n.Transitions[ti].where(), Seconds(e.now), Seconds(d), MaxSeconds)
	}
	return MaxTicks
}

// atomicEnd is when an atomic firing of ti started now ends: its delay, or for a transfer on
// a dedicated medium t_s + n/B (Run refuses shared media with atomic firing).
func (e *engine) atomicEnd(ti int32) int64 {
	t := &e.n.Transitions[ti]
	if t.Medium > 0 {
		m := &e.n.Media[t.Medium-1]
		return e.endS(ti, m.Startup+t.Bytes/m.Bandwidth)
	}
	return e.end(ti, t.Delay)
}

// endS is end for a duration in seconds (transfers on media).
func (e *engine) endS(ti int32, s float64) int64 {
	if !(s >= 0) || s > MaxSeconds {
		if e.err == nil {
			e.err = fmt.Errorf("%w: %s: a transfer would take %.4g s, beyond the representable horizon %.4g s (2^62 ticks of 1 ns): message size or bandwidth out of scale",
				fault.ErrInput, e.n.Transitions[ti].where(), s, MaxSeconds)
		}
		return MaxTicks
	}
	return e.end(ti, int64(math.Round(s/Tick)))
}

// fluidMedium is a shared medium under FluidSharing: its transfers' data phases share the
// bandwidth B, each at B/k(t) bytes/s.
type fluidMedium = psQueue

// Run simulates the net from its initial marking.
func (n *Net) Run(o Options) (*Result, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	if o.Trace <= 0 {
		o.Trace = 10
	}
	if o.MaxFirings == 0 {
		o.MaxFirings = DefaultMaxFirings
	}
	e, err := newEngine(n, o)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	if res.Outcome, err = e.loop(); err != nil {
		return nil, err
	}
	e.last = e.traceInOrder()
	res.Time, res.Firings, res.Marking, res.Log, res.Last, res.LogDropped = e.now, e.firings, e.mark, e.log, e.last, e.dropped
	res.Stats = e.stats
	res.OnNetwork = e.net.result()
	if res.Outcome == Deadlock {
		res.Deadlock = e.deadlockReport()
	}
	return res, nil
}

// newEngine sets up a run of n under o: the initial marking and the count of final places
// not yet met, every transition a candidate, the limits, and the CPUs of a sampled run.
// Atomic firing is refused (ErrInput) for multi-server transitions and shared media.
func newEngine(n *Net, o Options) (*engine, error) {
	e := &engine{n: n, o: o, mark: make([]int, len(n.Places)), inflight: make([]int, len(n.Transitions)),
		consumers: make([][]int32, len(n.Places)), cand: make([]bool, len(n.Transitions)), lastCause: make([]int, len(n.Places)),
		ver: make([]uint32, len(n.Transitions)), sched: make([]bool, len(n.Transitions)), schedAt: make([]int64, len(n.Transitions)), fluid: make([]fluidMedium, len(n.Media)), onMedium: make([]int, len(n.Media))}
	e.watchers, e.watch, e.watchW = make([][]int32, len(n.Places)), make([]int32, len(n.Transitions)), make([]int, len(n.Transitions))
	e.stats = make([]TransitionStats, len(n.Transitions))
	e.net = newNetCover(n, o.AtomicFiring)
	for i, p := range n.Places {
		e.mark[i] = p.Initial
		e.lastCause[i] = -1
		if n.FinalSet && p.Final > 0 && p.Initial < p.Final {
			e.unmet++
		}
	}
	for ti, t := range n.Transitions {
		if o.AtomicFiring {
			for _, a := range t.In {
				e.consumers[a.Place] = append(e.consumers[a.Place], int32(ti))
			}
		}
		e.watch[ti] = -1
		e.stats[ti].FirstStart = -1
		e.addCand(int32(ti))
		if o.AtomicFiring && t.Servers != 1 {
			return nil, fmt.Errorf("%w: %s: atomic firing is supported for single-server transitions only", fault.ErrInput, t.where())
		}
		if o.AtomicFiring && t.Medium > 0 && n.Media[t.Medium-1].Shared {
			return nil, fmt.Errorf("%w: %s: atomic firing is not supported with a shared medium (%q): a transfer's duration depends on the others in progress", fault.ErrInput, t.where(), n.Media[t.Medium-1].Name)
		}
	}
	e.prio = make([]int, len(n.Transitions))
	for i := range n.Transitions {
		e.prio[i] = n.Transitions[i].Priority
	}
	e.limit = o.MaxFirings
	if e.limit < 0 {
		e.limit = math.MaxInt64
	}
	e.rec = o.Record
	e.logCap = atLeastTransitions(o.MaxLog, DefaultMaxLog, len(n.Transitions))
	e.maxQ = atLeastTransitions(o.MaxInFlight, DefaultMaxInFlight, len(n.Transitions))
	if o.Sample != nil {
		if err := e.initCPUs(*o.Sample); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// loop runs the event loop: start what is enabled, then complete every firing that ends at
// the next instant, until the final marking is reached (Completed), nothing can happen
// (Deadlock; Completed when no final marking is declared) or a limit cuts the run off.
func (e *engine) loop() (Outcome, error) {
	n, o := e.n, e.o
	final := func() bool { return n.FinalSet && e.unmet == 0 }
	for {
		e.startPhase()
		if e.err != nil {
			return 0, e.err
		}
		if e.started >= e.limit && !final() {
			return CutOff, nil
		}
		if final() {
			return Completed, nil
		}
		if e.idle() {
			if !n.FinalSet {
				return Completed, nil // no final marking declared: the net ran dry
			}
			return Deadlock, nil
		}
		next := e.h.q.Top().t
		if o.MaxTime > 0 && next > o.MaxTime {
			e.now = o.MaxTime
			return CutOff, nil
		}
		e.now = next
		for e.h.q.Len() > 0 && e.h.q.Top().t == e.now {
			e.complete(e.h.pop())
		}
		if o.Cancel != nil && e.cancelled() {
			return 0, ErrCancelled
		}
		if o.MaxEvents > 0 && e.events > o.MaxEvents {
			return 0, e.errEvents()
		}
		if e.err != nil {
			return 0, e.err
		}
		if e.firings >= e.limit || e.started >= e.limit {
			return CutOff, nil
		}
	}
}

// traceInOrder is the last firings (Options.Trace) oldest first: the ring unrolled.
func (e *engine) traceInOrder() []Firing {
	if len(e.last) == e.o.Trace {
		return append(append([]Firing(nil), e.last[e.lastAt:]...), e.last[:e.lastAt]...)
	}
	return e.last
}

func (e *engine) addCand(t int32) {
	if !e.cand[t] {
		e.cand[t] = true
		e.candList = append(e.candList, t)
	}
}

func (e *engine) enabled(t *Transition) bool {
	for _, a := range t.In {
		if e.mark[a.Place] < a.Weight {
			return false
		}
	}
	return true
}

// startPhase starts every enabled firing, candidates in (priority, declaration) order.
func (e *engine) startPhase() {
	if len(e.candList) == 0 {
		return
	}
	list := e.candList
	e.candList = e.spare[:0]
	// insertion sort by (priority, declaration): candidate lists are short
	prio := e.prio
	for i := 1; i < len(list); i++ {
		for j := i; j > 0; j-- {
			a, b := list[j-1], list[j]
			pa, pb := prio[a], prio[b]
			if pa < pb || (pa == pb && a < b) {
				break
			}
			list[j-1], list[j] = b, a
		}
	}
	for _, ti := range list {
		e.cand[ti] = false
	}
	for _, ti := range list {
		t := &e.n.Transitions[ti]
		if e.o.AtomicFiring {
			if !e.sched[ti] {
				if e.enabled(t) {
					e.sched[ti] = true
					e.schedAt[ti] = e.now
					e.ver[ti]++
					e.h.push(completion{t: e.atomicEnd(ti), tr: ti, id: -1, ver: e.ver[ti]})
				} else {
					e.watchOn(ti, t)
				}
			}
			continue
		}
		for (t.Servers == InfiniteServers || e.inflight[ti] < t.Servers) && e.enabled(t) {
			if e.started >= e.limit {
				break // Run cuts off: an infinite server on a huge marking would fill memory
			}
			if e.h.q.Len() >= e.maxQ {
				e.crowded(ti)
				break // Run returns the error: the event queue would outgrow its bound
			}
			e.start(ti)
		}
		e.watchOn(ti, t) // not enabled (any more): wait for the tokens it misses
	}
	e.spare = list
}

// watchOn makes a transition that is not enabled wait on one input place whose marking is
// below its arc weight; an enabled one (held back by its servers: its own completion makes
// it a candidate again) or one already waiting is left alone.
func (e *engine) watchOn(ti int32, t *Transition) {
	if e.watch[ti] >= 0 {
		return
	}
	for _, a := range t.In {
		if e.mark[a.Place] < a.Weight {
			e.watch[ti], e.watchW[ti] = int32(a.Place), a.Weight
			e.watchers[a.Place] = append(e.watchers[a.Place], ti)
			return
		}
	}
}

// put adds w tokens to place p: the transitions waiting there for as many become candidates.
func (e *engine) put(p, w int) {
	before := e.mark[p]
	e.mark[p] += w
	if f := e.n.Places[p].Final; f > 0 && before < f && e.mark[p] >= f {
		e.unmet--
	}
	ws := e.watchers[p]
	if len(ws) == 0 {
		return
	}
	keep := ws[:0]
	for _, tj := range ws {
		if e.mark[p] >= e.watchW[tj] {
			e.watch[tj] = -1
			e.addCand(tj)
		} else {
			keep = append(keep, tj)
		}
	}
	e.watchers[p] = keep
}

// take removes w tokens from place p.
func (e *engine) take(p, w int) {
	before := e.mark[p]
	e.mark[p] -= w
	if f := e.n.Places[p].Final; f > 0 && before >= f && e.mark[p] < f {
		e.unmet++
	}
}

func (e *engine) cause(t *Transition) int {
	c := -1
	best := int64(-1)
	for _, a := range t.In {
		if lc := e.lastCause[a.Place]; lc >= 0 && e.rec && e.log[lc].End > best {
			best, c = e.log[lc].End, lc
		}
	}
	return c
}

func (e *engine) start(ti int32) {
	t := &e.n.Transitions[ti]
	id := int32(-1)
	if e.rec && e.keep() {
		e.log = append(e.log, Firing{T: int(ti), Start: e.now, End: -1, Cause: e.cause(t)})
		id = int32(len(e.log) - 1)
	}
	for _, a := range t.In {
		e.take(a.Place, a.Weight)
	}
	st := &e.stats[ti]
	if st.FirstStart < 0 {
		st.FirstStart = e.now
	}
	st.Busy -= e.now // + the end at completion: Σ (end − start) without storing starts
	e.net.begin(ti, e.now)
	e.started++
	e.inflight[ti]++
	e.busy++
	if t.CPU > 0 && e.cpus != nil {
		e.cpuJoin(ti, id)
		return
	}
	if t.Medium > 0 {
		e.onMedium[t.Medium-1]++
		e.startTransfer(ti, id)
		return
	}
	e.h.push(completion{t: e.end(ti, t.Delay), tr: ti, id: id})
}

func (e *engine) startTransfer(ti, id int32) {
	t := &e.n.Transitions[ti]
	m := &e.n.Media[t.Medium-1]
	switch {
	case !m.Shared:
		e.h.push(completion{t: e.endS(ti, m.Startup+t.Bytes/m.Bandwidth), tr: ti, id: id})
	case m.Policy == StaticAtStart:
		k := e.onMedium[t.Medium-1] // transfers in progress on the medium, this one included
		e.h.push(completion{t: e.endS(ti, m.Startup+t.Bytes*float64(k)/m.Bandwidth), tr: ti, id: id})
	default: // fluid: the startup first, then the bytes at B/k(t)
		e.h.push(completion{t: e.endS(ti, m.Startup), tr: ti, id: id, phase: 0, ver: ^uint32(0)})
	}
}

// fluidAdvance drains the active transfers of medium mi up to now.
func (e *engine) fluidAdvance(mi int) {
	e.fluid[mi].advance(e.now, e.n.Media[mi].Bandwidth)
}

// fluidSchedule schedules the next data completion of medium mi.
func (e *engine) fluidSchedule(mi int) {
	f := &e.fluid[mi]
	if bi, d, ok := f.reschedule(e.n.Media[mi].Bandwidth); ok {
		x := f.jobs[bi]
		e.h.push(completion{t: e.endS(x.tr, d), tr: x.tr, id: x.id, phase: 1, ver: f.ver})
	}
}

func (e *engine) complete(c completion) {
	if c.phase >= phaseCPU {
		var fg bool
		if c, fg = e.cpuEvent(c); !fg {
			return // a background arrival or departure, or a superseded schedule
		}
	}
	t := &e.n.Transitions[c.tr]
	if e.o.AtomicFiring && !e.atomicFire(&c, t) {
		return
	}
	if t.Medium > 0 && e.n.Media[t.Medium-1].Shared && e.n.Media[t.Medium-1].Policy == FluidSharing && !e.fluidEnd(c, t) {
		return
	}
	e.inflight[c.tr]--
	e.busy--
	if t.Medium > 0 && !e.o.AtomicFiring {
		e.onMedium[t.Medium-1]--
	}
	e.firings++
	st := &e.stats[c.tr]
	st.Firings++
	st.Busy, st.LastEnd = st.Busy+e.now, e.now // Busy: + the end (the start was subtracted)
	e.net.end(c.tr, e.now)
	fi := -1
	if e.rec && c.id >= 0 {
		e.log[c.id].End = e.now
		fi = int(c.id)
	}
	fr := Firing{T: int(c.tr), End: e.now, Cause: -1}
	if fi >= 0 {
		fr = e.log[fi]
	}
	if len(e.last) < e.o.Trace {
		e.last = append(e.last, fr)
	} else {
		e.last[e.lastAt] = fr
	}
	e.lastAt = (e.lastAt + 1) % e.o.Trace
	for _, a := range t.Out {
		if e.mark[a.Place] > math.MaxInt64-a.Weight {
			e.tooMany(t, a.Place)
			return
		}
		e.lastCause[a.Place] = fi
		e.put(a.Place, a.Weight)
	}
	e.addCand(c.tr)
}

// atomicFire is the start of an atomic firing at its scheduled end: it reports false when
// the schedule was superseded, or when the transition lost its tokens meanwhile (then it is
// a candidate again); otherwise it takes the input tokens now, unschedules the rivals that
// were scheduled on them, and logs the firing (c.id).
func (e *engine) atomicFire(c *completion, t *Transition) bool {
	if c.ver != e.ver[c.tr] {
		return false
	}
	e.sched[c.tr] = false
	if !e.enabled(t) { // lost its tokens meanwhile: try again later
		e.addCand(c.tr)
		return false
	}
	st := &e.stats[c.tr]
	if st.FirstStart < 0 {
		st.FirstStart = e.schedAt[c.tr]
	}
	st.Busy -= e.schedAt[c.tr]
	for _, a := range t.In {
		e.take(a.Place, a.Weight)
		for _, tj := range e.consumers[a.Place] {
			e.addCand(tj) // a rival may have been scheduled on these tokens
			if e.sched[tj] && tj != c.tr {
				e.sched[tj] = false
				e.ver[tj]++
			}
		}
	}
	if e.rec && e.keep() {
		e.log = append(e.log, Firing{T: int(c.tr), Start: e.schedAt[c.tr], End: e.now, Cause: e.cause(t)})
		c.id = int32(len(e.log) - 1)
	}
	e.inflight[c.tr]++
	return true
}

// fluidEnd handles an event of a transfer on a fluid-shared medium: the end of its startup
// joins the data phase (false: the transfer goes on); the end of its data phase leaves it
// (true: the firing completes); a superseded schedule is dropped (false).
func (e *engine) fluidEnd(c completion, t *Transition) bool {
	mi := t.Medium - 1
	f := &e.fluid[mi]
	if c.phase == 0 { // startup done: join the data phase
		e.fluidAdvance(mi)
		f.jobs = append(f.jobs, psJob{remain: t.Bytes, tr: c.tr, id: c.id})
		e.fluidSchedule(mi)
		return false
	}
	if c.ver != f.ver {
		return false // superseded by a later start or finish
	}
	e.fluidAdvance(mi)
	for i, x := range f.jobs {
		if x.tr == c.tr && x.id == c.id {
			f.jobs = append(f.jobs[:i], f.jobs[i+1:]...)
			break
		}
	}
	e.fluidSchedule(mi)
	return true
}

// keep says whether the log has room for one more firing; at logCap it drops the log (and
// stops recording): the ids of firings in progress then point nowhere, and are ignored.
func (e *engine) keep() bool {
	if len(e.log) < e.logCap {
		return true
	}
	e.rec, e.dropped, e.log = false, true, nil
	for i := range e.lastCause {
		e.lastCause[i] = -1
	}
	return false
}

// atLeastTransitions is a per-run bound: o (def if 0, none if negative), and never fewer
// than the net's transitions (a program net fires each once, all of them possibly at once).
func atLeastTransitions(o, def int64, transitions int) int {
	switch {
	case o < 0:
		return math.MaxInt
	case o == 0:
		o = def
	}
	return int(max(o, int64(transitions)))
}

// crowded records the error of a run whose firings in progress outgrow the event queue's
// bound (Options.MaxInFlight), naming the memory that would take.
func (e *engine) crowded(ti int32) {
	if e.err == nil {
		e.err = errTooLarge("%s: more than %d firings in progress at once at t = %.6g s would need more than %s of event queue (%d bytes a firing); the limit is %d firings in progress (Options.MaxInFlight, at least the net's transitions): a transition with very many servers, or an infinite-server one on a very large marking",
			e.n.Transitions[ti].where(), e.maxQ, Seconds(e.now), humanBytes(float64(e.maxQ)*bytesPerSlot), bytesPerSlot, e.maxQ)
	}
}

func (e *engine) tooMany(t *Transition, p int) {
	if e.err == nil {
		e.err = fmt.Errorf("%w: %s: place %q would hold more than 2^63 tokens", fault.ErrInput, t.where(), e.n.Places[p].Name)
	}
}

// DeadlockReport explains a deadlock. It is an error wrapping fault.ErrDeadlock (a model
// finding). Its lists are bounded: at most maxErrors blocked transitions and marked places,
// the rest counted in BlockedMore and MarkedMore.
type DeadlockReport struct {
	Time        int64     `json:"-"`
	TimeS       float64   `json:"time_s"`
	Blocked     []Blocked `json:"blocked"`
	BlockedMore int       `json:"blocked_more,omitempty"`
	Cycle       []string  `json:"cycle,omitempty"`  // processes in a wait-for cycle, if any
	Marked      []string  `json:"marked,omitempty"` // non-empty places
	MarkedMore  int       `json:"marked_more,omitempty"`
	Last        []string  `json:"last_firings,omitempty"` // the last firings
}

// Unwrap makes errors.Is(report, fault.ErrDeadlock) hold.
func (r *DeadlockReport) Unwrap() error { return fault.ErrDeadlock }

// Blocked is a transition with some of its input tokens missing.
type Blocked struct {
	Transition string    `json:"transition"`
	Process    string    `json:"process,omitempty"`
	Missing    []Missing `json:"missing"`
}

// Missing is one unmet input.
type Missing struct {
	Place     string   `json:"place"`
	Has       int      `json:"has"`
	Need      int      `json:"need"`
	Producers []string `json:"producers,omitempty"` // processes whose transitions put tokens there
}

// Err is nil for a completed run, the DeadlockReport (wrapping fault.ErrDeadlock) for a
// deadlock, and an error wrapping fault.ErrFinding for a run cut off by a limit before its
// final marking.
func (r *Result) Err() error {
	switch r.Outcome {
	case Deadlock:
		if r.Deadlock != nil {
			return r.Deadlock
		}
		return fmt.Errorf("%w at t = %.6g s", fault.ErrDeadlock, Seconds(r.Time))
	case CutOff:
		return fmt.Errorf("%w: run cut off by its time or firing limit at t = %.6g s after %d firings, before the final marking", fault.ErrFinding, Seconds(r.Time), r.Firings)
	}
	return nil
}

func (e *engine) deadlockReport() *DeadlockReport {
	n := e.n
	r := &DeadlockReport{Time: e.now, TimeS: Seconds(e.now)}
	producers := make([][]string, len(n.Places))
	for _, t := range n.Transitions {
		for _, a := range t.Out {
			producers[a.Place] = appendUnique(producers[a.Place], t.Process)
		}
	}
	waits := map[string][]string{}
	for _, t := range n.Transitions {
		some := false
		var miss []Missing
		for _, a := range t.In {
			if e.mark[a.Place] > 0 {
				some = true // tokens present (perhaps fewer than the weight)
			}
			if e.mark[a.Place] < a.Weight {
				miss = append(miss, Missing{Place: n.Places[a.Place].Name, Has: e.mark[a.Place], Need: a.Weight, Producers: producers[a.Place]})
			}
		}
		if some && len(miss) > 0 {
			if len(r.Blocked) < maxErrors {
				r.Blocked = append(r.Blocked, Blocked{Transition: t.Name, Process: t.Process, Missing: miss})
			} else {
				r.BlockedMore++
			}
			for _, m := range miss {
				for _, p := range m.Producers {
					if p != t.Process {
						waits[t.Process] = appendUnique(waits[t.Process], p)
					}
				}
			}
		}
	}
	r.Cycle = findCycle(waits)
	for i, p := range n.Places {
		if e.mark[i] > 0 {
			if len(r.Marked) < maxErrors {
				r.Marked = append(r.Marked, fmt.Sprintf("%s=%d", p.Name, e.mark[i]))
			} else {
				r.MarkedMore++
			}
		}
	}
	for _, f := range e.last {
		r.Last = append(r.Last, fmt.Sprintf("%s @%.6g", n.Transitions[f.T].Name, Seconds(f.End)))
	}
	return r
}

func appendUnique(s []string, v string) []string {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// processOf names a transition's process in a deadlock report ("" in a net without them).
func processOf(p string) string {
	if p == "" {
		return "no process"
	}
	return "process " + p
}

// producedBy says who can put tokens on a place: named processes, transitions outside any
// process, or nothing but the initial marking (a place no transition produces into).
func producedBy(procs []string) string {
	if len(procs) == 0 {
		return "no transition puts tokens there: only its initial marking did"
	}
	names := make([]string, len(procs))
	for i, p := range procs {
		names[i] = p
		if p == "" {
			names[i] = "a transition of no process"
		}
	}
	return "only " + strings.Join(names, ", ") + " put tokens there"
}

// findCycle returns one cycle of the wait-for graph (deterministic: sorted start points).
func findCycle(g map[string][]string) []string {
	var keys []string
	for k := range g {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	state := map[string]int{}
	var stack []string
	var found []string
	var dfs func(v string) bool
	dfs = func(v string) bool {
		state[v] = 1
		stack = append(stack, v)
		next := append([]string(nil), g[v]...)
		sort.Strings(next)
		for _, w := range next {
			if state[w] == 1 {
				for i, x := range stack {
					if x == w {
						found = append(append([]string(nil), stack[i:]...), w)
						return true
					}
				}
			}
			if state[w] == 0 && dfs(w) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		state[v] = 2
		return false
	}
	for _, k := range keys {
		if state[k] == 0 && dfs(k) {
			return found
		}
	}
	return nil
}

// Error formats the report.
func (r *DeadlockReport) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "DEADLOCK at t=%.6g s (final marking not reached)\n", Seconds(r.Time))
	if len(r.Blocked) > 0 {
		b.WriteString("  blocked transitions (some input tokens present, others missing):\n")
		for _, bl := range r.Blocked {
			for _, m := range bl.Missing {
				fmt.Fprintf(&b, "    %-24s needs %s >= %d, has %d (%s; %s)\n", bl.Transition, m.Place, m.Need, m.Has, processOf(bl.Process), producedBy(m.Producers))
			}
		}
		if r.BlockedMore > 0 {
			fmt.Fprintf(&b, "    … and %d more blocked transitions\n", r.BlockedMore)
		}
	}
	if len(r.Cycle) > 0 {
		fmt.Fprintf(&b, "  wait-for cycle: %s\n", strings.Join(r.Cycle, " -> "))
	} else {
		b.WriteString("  no wait-for cycle: the missing tokens will never be produced (more receives than sends?)\n")
	}
	if len(r.Marked) > 0 {
		more := ""
		if r.MarkedMore > 0 {
			more = fmt.Sprintf(" … and %d more", r.MarkedMore)
		}
		fmt.Fprintf(&b, "  non-empty places: %s%s\n", strings.Join(r.Marked, ", "), more)
	}
	if len(r.Last) > 0 {
		fmt.Fprintf(&b, "  last firings: %s\n", strings.Join(r.Last, ", "))
	}
	return b.String()
}
