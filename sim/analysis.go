package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/clusterperf/clusterperf/fault"

	"github.com/clusterperf/clusterperf/internal/stats"
)

// Estimate is a mean over replications with its 95 % confidence half-width.
type Estimate struct {
	Mean float64 `json:"mean"`
	Half float64 `json:"half_width"`
}

// Contains reports whether v lies in the interval, widened by rounding (1e-12 relative):
// a utilisation of exactly 1 simulated as 1 ± 8e-17 counts as inside.
func (e Estimate) Contains(v float64) bool {
	return math.Abs(v-e.Mean) <= e.Half+1e-12*math.Max(math.Abs(v), math.Abs(e.Mean))
}

// RelHalf is the half-width relative to the mean.
func (e Estimate) RelHalf() float64 { return e.Half / math.Abs(e.Mean) }

// estimate is the mean of xs with its Student-t 95 % half-width (stats.MeanCI).
func estimate(xs []float64) Estimate {
	m, h := stats.MeanCI(xs)
	return Estimate{Mean: m, Half: h}
}

// Result summarises independent replications (or batches). Times in seconds, rates per
// second; every mean carries its 95 % Student-t half-width. A simulation estimate is never
// exact: Exact is false and Notes say how the run was analysed (warm-up, too short, where
// the analytic answer it is compared with is not exact).
type Result struct {
	Replications int          `json:"replications"`
	Events       int64        `json:"events"`                 // simulated events over all replications, warm-ups included
	EventsPerRep int64        `json:"events_per_replication"` // Config.Events (after defaults and extensions)
	Throughput   []Estimate   `json:"throughput_per_s"`
	ResponseTime []Estimate   `json:"response_time_s"`
	QueueLength  [][]Estimate `json:"queue_length"`       // [k][c], jobs at one copy
	Utilization  []Estimate   `json:"utilization"`        // [k], busy fraction of one copy (delay: busy servers)
	Precision    float64      `json:"achieved_precision"` // largest relative half-width of X and R
	// Method is "replications" or "batch means" (then Replications counts the batches and
	// Lag1 is the largest |lag-1 autocorrelation| of the classes' batch throughputs: batch
	// means assume it is 0; its estimate from B batches scatters by about 1/√B, so above
	// 2/√B the batches are probably too short and the intervals too narrow — see
	// Lag1Suspect).
	Method string `json:"method"`
	Exact  bool   `json:"exact"`
	// Partial is true when the run was cancelled (ReplicateContext) and the result holds
	// the replications (or, for batch means, the part of the run) finished by then; Notes
	// say how much.
	Partial bool    `json:"partial,omitempty"`
	Lag1    float64 `json:"lag1_autocorrelation,omitempty"`
	// WarmupEvents is the mean number of events discarded as warm-up per replication (MSER-5
	// unless Config.WarmupFrac); TooShort counts the replications whose transient MSER-5 put
	// beyond the first half of the run.
	WarmupEvents float64      `json:"warmup_events_mean"`
	TooShort     int          `json:"too_short_replications"`
	Notes        []string     `json:"notes"`
	Reps         []*RepResult `json:"-"`
}

// Options control the replication loop.
type Options struct {
	Seed      uint64
	Reps      int     // minimum replications (0: 10; at least 2)
	MaxReps   int     // cap when a precision is requested (0: max(200, Reps))
	Precision float64 // target relative half-width of every class's X and R (0: just Reps)
	Workers   int     // replications run at once (0: GOMAXPROCS); never changes the results
	// Progress, if set, is called with the events simulated so far and the events the run
	// is planned to take (all replications of the current round, or the one batch-means
	// run), at every chunk boundary (1/500 of a replication), from one goroutine at a time.
	Progress func(done, total int)
	// Batches > 0 selects the batch-means method instead: one run of Config.Events events
	// (warm-up included) cut after the warm-up into Batches batches, on one core. Not with
	// Precision.
	Batches int
	// MaxTotalEvents limits the events over all replications (0: DefaultMaxTotalEvents): a
	// larger run is refused with fault.ErrTooLarge, and a precision target stops there.
	MaxTotalEvents int64
}

func (o *Options) validate() error {
	switch {
	case o.Reps < 0 || o.Reps == 1:
		return fmt.Errorf("%w: --reps %d: want ≥ 2 (an interval needs two replications), or 0 for 10", fault.ErrInput, o.Reps)
	case o.MaxReps < 0:
		return fmt.Errorf("%w: replication limit %d: want ≥ 0", fault.ErrInput, o.MaxReps)
	case !(o.Precision >= 0) || math.IsInf(o.Precision, 0):
		return fmt.Errorf("%w: --precision %v: want a finite relative half-width > 0, or 0 for none", fault.ErrInput, o.Precision)
	case o.Workers < 0:
		return fmt.Errorf("%w: workers %d: want ≥ 0", fault.ErrInput, o.Workers)
	case o.Batches < 0 || o.Batches == 1:
		return fmt.Errorf("%w: --batches %d: batch means need at least 2 batches (0: replications)", fault.ErrInput, o.Batches)
	case o.Batches > 0 && o.Precision > 0:
		return fmt.Errorf("%w: batch means run a fixed length: give batches or a precision, not both", fault.ErrInput)
	case o.MaxTotalEvents < 0:
		return fmt.Errorf("%w: --max-events (events over all replications) %d: want ≥ 0", fault.ErrInput, o.MaxTotalEvents)
	}
	if o.Reps == 0 {
		o.Reps = 10
	}
	if o.MaxReps == 0 {
		o.MaxReps = max(200, o.Reps)
	}
	if o.MaxReps < o.Reps {
		return fmt.Errorf("%w: the replication limit %d is below --reps %d", fault.ErrInput, o.MaxReps, o.Reps)
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MaxTotalEvents == 0 {
		o.MaxTotalEvents = DefaultMaxTotalEvents
	}
	return nil
}

// Replicate runs independent replications (stream i of the seed for replication i) on
// Options.Workers cores until Reps are done and, if Precision is set, every class's
// throughput and response time has a 95 % half-width within Precision of its mean (or
// MaxReps). The replication count depends only on the seed and the data (see RoundSize).
//
// Run length: when more than half of the replications were too short to leave their
// initial transient (RepResult.TooShort), the result says so in Notes; under a precision
// target the replications are instead rerun twice as long (as far as Config.MaxEvents and
// MaxTotalEvents allow), and refused with fault.ErrNoSteadyState if still too short.
// Saturated open networks are refused up front (fault.ErrSaturated).
func (s *Simulator) Replicate(o Options) (*Result, error) {
	return s.ReplicateContext(context.Background(), o)
}

// ReplicateContext is Replicate stopped by ctx: when ctx is cancelled the replications
// running are abandoned and the result of the ones finished (at least two) is returned,
// marked Partial with a note, together with an error wrapping fault.ErrInterrupted (and
// ctx's error). Batch means analyse the part of their one run simulated by then (at least
// minPartialChunks chunks) as a shorter run. With too little finished, the result is nil.
func (s *Simulator) ReplicateContext(ctx context.Context, o Options) (*Result, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	if err := s.checkSaturation(); err != nil {
		return nil, err
	}
	if o.Batches > 0 {
		return s.batchMeans(ctx, o)
	}
	for {
		res, err := s.replicate(ctx, o)
		if err != nil || res.TooShort*2 <= res.Replications {
			return res, err
		}
		if o.Precision <= 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("run too short: in %d of %d replications the initial transient (MSER-5) did not end in the first half of the %d events — the estimates are probably biased; raise --events or set --precision, which lengthens the run", res.TooShort, res.Replications, s.cfg.Events))
			return res, nil
		}
		longer := *s
		longer.cfg.Events = 2 * s.cfg.Events
		if longer.cfg.Events > s.cfg.MaxEvents || longer.cfg.Events*int64(o.Reps) > o.MaxTotalEvents {
			return nil, fmt.Errorf("%w: in %d of %d replications of %d events the initial transient (MSER-5) did not end in the first half of the run, and a run twice as long exceeds the event limits (--max-events: %d per replication, %d over all replications)",
				fault.ErrNoSteadyState, res.TooShort, res.Replications, s.cfg.Events, s.cfg.MaxEvents, o.MaxTotalEvents)
		}
		s = &longer
	}
}

// batchMeans is the batch-means method of Replicate.
func (s *Simulator) batchMeans(ctx context.Context, o Options) (*Result, error) {
	if s.cfg.Events > o.MaxTotalEvents {
		return nil, fmt.Errorf("%w: %d events exceed the limit of %d events over all replications (--max-events)", fault.ErrTooLarge, s.cfg.Events, o.MaxTotalEvents)
	}
	if o.Batches < 1 || int64(chunksFor(o.Batches)) > s.cfg.Events {
		return nil, fmt.Errorf("%w: batches %d: need 1 … %d (a tenth of the events)", fault.ErrInput, o.Batches, s.cfg.Events/10)
	}
	h := &hooks{ctx: ctx, partial: true}
	if o.Progress != nil {
		var done int64
		h.tick = func(ev int64) { done += ev; o.Progress(int(done), int(s.cfg.Events)) }
	}
	bs, err := s.run(o.Seed, 0, o.Batches, h)
	if err != nil {
		return nil, err
	}
	res := summarise(bs)
	res.Method = "batch means"
	res.Events, res.EventsPerRep = s.cfg.Events, s.cfg.Events
	var ran int64
	for _, b := range bs {
		ran += b.Events
	}
	if ran < s.cfg.Events {
		res.Events, res.EventsPerRep, res.Partial = ran, ran, true
	}
	res.WarmupEvents = float64(bs[0].WarmupEvents)
	res.TooShort = 0
	for c := range bs[0].Throughput {
		xs := make([]float64, len(bs))
		for i, b := range bs {
			xs[i] = b.Throughput[c]
		}
		res.Lag1 = math.Max(res.Lag1, math.Abs(lag1(xs)))
	}
	res.Notes = s.notes(res)
	if bs[0].TooShort {
		res.TooShort = 1
		res.Notes = append(res.Notes, fmt.Sprintf("run too short: the initial transient (MSER-5) did not end in the first half of the %d events — the estimates are probably biased; raise --events", s.cfg.Events))
	}
	if res.Lag1Suspect() {
		res.Notes = append(res.Notes, fmt.Sprintf("the batch throughputs have lag-1 autocorrelation %.2f (above 2/√%d): batches are probably too short, the intervals too narrow — raise the events or lower the batches", res.Lag1, res.Replications))
	}
	if o.Progress != nil {
		o.Progress(1, 1)
	}
	if res.Partial {
		res.Notes = append(res.Notes, fmt.Sprintf("partial: interrupted after %d of the %d events; the batches cut the part simulated by then (warm-up chosen again from it)", ran, s.cfg.Events))
		return res, fmt.Errorf("%w after %d of %d events of batch means: %w", fault.ErrInterrupted, ran, s.cfg.Events, ctx.Err())
	}
	return res, nil
}

// notes are the notes every result carries: how the warm-up was chosen, and where an
// analytic answer for this configuration is not exact (ProductFormNotes).
func (s *Simulator) notes(res *Result) []string {
	var n []string
	if s.cfg.WarmupFrac > 0 {
		n = append(n, fmt.Sprintf("warm-up: a fixed %.3g of each replication discarded (a fixed warm-up fraction, not MSER-5)", s.cfg.WarmupFrac))
	} else {
		if res.Method == "batch means" {
			n = append(n, fmt.Sprintf("warm-up: chosen from the data by MSER-5 (White 1997), %.3g %% of the run's %d events", 100*res.WarmupEvents/float64(res.EventsPerRep), res.EventsPerRep))
		} else {
			n = append(n, fmt.Sprintf("warm-up: chosen from the data by MSER-5 (White 1997), %.3g %% of the %d events per replication on average", 100*res.WarmupEvents/float64(s.cfg.Events), s.cfg.Events))
		}
	}
	if def := DefaultEvents(s.m); s.cfg.Events < def {
		n = append(n, fmt.Sprintf("run shorter than this model's default length: %d events per replication, where %d give every job about %d cycles (the default length) — the initial transient may not be over even where MSER-5 does not see it; drop --events for the default", s.cfg.Events, def, CyclesPerJob))
	}
	if s.scale != 1 {
		n = append(n, fmt.Sprintf("simulated in units of %.4g s (the model's largest mean time) and converted back", s.scale))
	}
	return append(n, s.cfg.ProductFormNotes(s.m)...)
}

// replicate is one attempt of Replicate at the simulator's run length.
func (s *Simulator) replicate(ctx context.Context, o Options) (*Result, error) {
	if tot := float64(s.cfg.Events) * float64(o.Reps); tot > float64(o.MaxTotalEvents) {
		return nil, fmt.Errorf("%w: %d replications of %d events (%.3g events) exceed the limit of %d events over all replications (--max-events)", fault.ErrTooLarge, o.Reps, s.cfg.Events, tot, o.MaxTotalEvents)
	}
	o.MaxReps = int(min(int64(o.MaxReps), o.MaxTotalEvents/s.cfg.Events))
	// as many replications at once as fit in the memory limit (results do not depend on it)
	o.Workers = int(max(1, min(int64(o.Workers), s.cfg.MaxMemoryBytes/max(1, s.memBytes))))
	var reps []*RepResult
	target := o.Reps
	var mu sync.Mutex
	var events int64 // simulated so far, over all replications
	h := &hooks{ctx: ctx}
	if o.Progress != nil {
		h.tick = func(ev int64) {
			mu.Lock()
			events += ev
			o.Progress(int(events), int(int64(target)*s.cfg.Events))
			mu.Unlock()
		}
	}
	for {
		round := make([]*RepResult, target-len(reps))
		errs := make([]error, len(round))
		started := make([]bool, len(round))
		first := len(reps)
		parallelForN(o.Workers, len(round), func(i int) {
			if ctx.Err() != nil {
				errs[i] = fmt.Errorf("%w: %w", fault.ErrInterrupted, ctx.Err())
				return
			}
			started[i] = true
			out, err := s.run(o.Seed, uint64(first+i), 1, h)
			if err == nil {
				round[i] = out[0]
			}
			errs[i] = err
		})
		if ctx.Err() != nil {
			return s.interrupted(ctx, reps, round, errs, started, target)
		}
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		reps = append(reps, round...)
		res := s.summariseReps(reps)
		if o.Precision > 0 && res.TooShort*2 > res.Replications {
			return res, nil // too short: Replicate lengthens the run or refuses
		}
		if o.Precision <= 0 || res.Precision <= o.Precision || len(reps) >= o.MaxReps {
			if o.Precision > 0 && res.Precision > o.Precision {
				return res, fmt.Errorf("%w: precision %.3g not reached after %d replications (achieved %.3g; limits: %d replications, %d events over all replications, --max-events)", fault.ErrNotConverged, o.Precision, len(reps), res.Precision, o.MaxReps, o.MaxTotalEvents)
			}
			return res, nil
		}
		// The next round: the replications the data ask for (the half-width shrinks as 1/√n),
		// rounded up to whole rounds of RoundSize. It depends on the seed and the data of the
		// complete rounds only — never on the number of workers or on timing — so the same
		// seed gives the same replications on any machine.
		need := int(math.Ceil(float64(len(reps)) * math.Pow(res.Precision/o.Precision, 2) * 1.1))
		need = max(need, len(reps)+RoundSize)
		need = (need + RoundSize - 1) / RoundSize * RoundSize
		mu.Lock()
		target = min(o.MaxReps, need)
		mu.Unlock()
	}
}

// summariseReps is the Result of finished replications: estimates, run length, warm-up and
// the too-short count, with the notes every result carries.
func (s *Simulator) summariseReps(reps []*RepResult) *Result {
	res := summarise(reps)
	res.Method = "replications"
	res.EventsPerRep = s.cfg.Events
	for _, r := range reps {
		res.WarmupEvents += float64(r.WarmupEvents) / float64(len(reps))
		if r.TooShort {
			res.TooShort++
		}
	}
	res.Notes = s.notes(res)
	return res
}

// interrupted is the result of a cancelled replicate: the replications of earlier rounds
// and those of this round that finished (kept in replication order), marked Partial, with
// an error wrapping fault.ErrInterrupted. A replication that failed for another reason
// (saturation, no steady state) is still that error. Fewer than two: no result.
func (s *Simulator) interrupted(ctx context.Context, reps, round []*RepResult, errs []error, started []bool, target int) (*Result, error) {
	lost := 0
	for i, err := range errs {
		switch {
		case err == nil && round[i] != nil:
			reps = append(reps, round[i])
		case errors.Is(err, fault.ErrInterrupted):
			if started[i] {
				lost++
			}
		default:
			return nil, err
		}
	}
	stop := fmt.Errorf("%w after %d of %d replications: %w", fault.ErrInterrupted, len(reps), target, ctx.Err())
	if len(reps) < 2 {
		return nil, fmt.Errorf("%w (an interval needs two finished replications)", stop)
	}
	res := s.summariseReps(reps)
	res.Partial = true
	res.Notes = append(res.Notes, fmt.Sprintf("partial: interrupted after %d of the %d replications planned; the intervals are those of the %d finished (%d stopped while running)", len(reps), target, len(reps), lost))
	return res, stop
}

// RoundSize is the granularity of the replication count under a precision target: after
// the first Reps replications, more are added in multiples of RoundSize.
const RoundSize = 8

// Lag1Suspect reports whether batch means show a lag-1 autocorrelation above 2/√batches
// (the batches are then probably too short for independent-batch intervals).
func (r *Result) Lag1Suspect() bool {
	return r.Method == "batch means" && r.Lag1 > 2/math.Sqrt(float64(r.Replications))
}

// lag1 is the lag-1 autocorrelation of a series (stats.Lag1).
func lag1(xs []float64) float64 { return stats.Lag1(xs) }

func summarise(reps []*RepResult) *Result {
	r0 := reps[0]
	C, K := len(r0.Throughput), len(r0.Utilization)
	res := &Result{Replications: len(reps), Reps: reps, Notes: []string{}}
	col := func(f func(*RepResult) float64) Estimate {
		xs := make([]float64, 0, len(reps))
		for _, r := range reps {
			if v := f(r); !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			return Estimate{Mean: math.NaN(), Half: math.NaN()}
		}
		return estimate(xs)
	}
	for _, r := range reps {
		res.Events += r.Events
	}
	for c := 0; c < C; c++ {
		res.Throughput = append(res.Throughput, col(func(r *RepResult) float64 { return r.Throughput[c] }))
		res.ResponseTime = append(res.ResponseTime, col(func(r *RepResult) float64 { return r.ResponseTime[c] }))
		for _, e := range []Estimate{res.Throughput[c], res.ResponseTime[c]} {
			if e.Mean != 0 && !math.IsNaN(e.Mean) {
				res.Precision = math.Max(res.Precision, e.RelHalf())
			}
		}
	}
	res.QueueLength = make([][]Estimate, K)
	for k := 0; k < K; k++ {
		res.Utilization = append(res.Utilization, col(func(r *RepResult) float64 { return r.Utilization[k] }))
		for c := 0; c < C; c++ {
			res.QueueLength[k] = append(res.QueueLength[k], col(func(r *RepResult) float64 { return r.QueueLength[k][c] }))
		}
	}
	return res
}
