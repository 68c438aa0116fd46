package tpn

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

// DefaultMaxSampleEvents bounds the estimated events (firings, background arrivals and
// departures) of all the replications of Replicate: 2–5 minutes at BenchmarkReplicate's
// 1.5–4 M estimated events/s (2 vCPUs shared with other jobs, load 22–25).
const DefaultMaxSampleEvents = 5e8

// RunEventsFactor: one replication may take this many times its estimated events (at least
// 1e5 estimated), and never more than the whole study's budget, before it is stopped as too
// large (a bursty background can make a run far longer than the deterministic one; none may
// run unbounded). Events are counted as the sampled engine charges them (sampled.go: 1 +
// jobs/8 per CPU event, so a burst's job scans count).
const RunEventsFactor = 100

// MaxReps is the largest number of replications Replicate runs.
const MaxReps = 1_000_000

// ReplicateOptions of Replicate.
type ReplicateOptions struct {
	Reps      int     // replications, 2 … MaxReps
	Seed      uint64  // replication i uses Sample{Seed, i}
	Workers   int     // goroutines (0: GOMAXPROCS); the result does not depend on it
	Run       Options // MaxTime, MaxFirings of each run (Sample, Cancel, Record are set here)
	MaxEvents float64 // the budget of estimated events in all (0: DefaultMaxSampleEvents)
	// Baseline is the deterministic run of the same net (Run's result), used to estimate the
	// work; nil: Replicate runs it.
	Baseline *Result
	// Progress, if set, is called with the replications finished so far (serialised).
	Progress func(done, total int)
}

// Replications summarises the makespans of a sampled study.
type Replications struct {
	Reps    int     `json:"replications"`      // asked for
	Done    int     `json:"replications_done"` // finished (fewer when interrupted)
	Partial bool    `json:"partial"`           // interrupted before every replication finished
	Seed    uint64  `json:"seed"`
	MeanS   float64 `json:"mean_s"`
	// HalfWidthS is the half-width of the two-sided 95 % Student-t interval of the mean.
	HalfWidthS float64   `json:"half_width_s"`
	StdDevS    float64   `json:"std_dev_s"` // of one run's makespan (run-to-run variability)
	MinS       float64   `json:"min_s"`
	MaxS       float64   `json:"max_s"`
	TimesS     []float64 `json:"-"` // per replication in index order; NaN where not finished
	// EventsEstimate is the estimated events of all replications (checked against the
	// budget before any run).
	EventsEstimate float64 `json:"events_estimate"`
}

// SampleEvents estimates the events of one sampled replication of n whose deterministic
// run base took base.Firings firings and base.Time: two heap events per firing, and per CPU
// an arrival and a departure per background job over the warm-up and twice the run's
// length (a margin for runs slower than the mean).
func SampleEvents(n *Net, base *Result) float64 {
	ev := 2 * float64(base.Firings)
	T := Seconds(base.Time)
	for _, c := range n.CPUs {
		lam := 0.0
		for _, b := range c.Background {
			if b.ArrivalRate > 0 && b.Demand > 0 {
				lam += b.ArrivalRate
			}
		}
		ev += 2 * lam * (Warmup(c) + 2*T)
	}
	return ev
}

// Replicate runs o.Reps sampled replications of a program net (Options.Sample; sampled.go)
// on o.Workers goroutines and summarises their makespans: the mean with its 95 % t interval,
// the standard deviation of one run, the range. The work is estimated first and refused
// (fault.ErrTooLarge) beyond o.MaxEvents. A replication that deadlocks or is cut off is the
// study's finding (its error, naming the replication). When ctx is cancelled, the
// replications in progress stop, and Replicate returns what had finished, marked Partial,
// with ctx's error.
func Replicate(ctx context.Context, n *Net, o ReplicateOptions) (*Replications, error) {
	if o.Reps < 2 || o.Reps > MaxReps {
		return nil, fmt.Errorf("%w: %d replications (allowed: 2 … %d; an interval needs two)", fault.ErrInput, o.Reps, MaxReps)
	}
	est, limit, err := replicationEvents(n, o)
	if err != nil {
		return nil, err
	}
	res := &Replications{Reps: o.Reps, Seed: o.Seed, EventsEstimate: est, TimesS: make([]float64, o.Reps)}
	errs := runReplications(ctx, n, o, res.TimesS, est/float64(o.Reps), limit)
	for i, err := range errs {
		if err != nil && !errors.Is(err, ErrCancelled) && !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("sampled replication %d (seed %d): %w", i, o.Seed, err)
		}
	}
	res.summarise()
	if res.Done < res.Reps {
		res.Partial = true
		err := ctx.Err()
		if err == nil {
			err = context.Canceled
		}
		if res.Done < 2 {
			return res, fmt.Errorf("%w: interrupted after %d of %d replications (an interval needs two)", err, res.Done, res.Reps)
		}
		return res, err
	}
	return res, nil
}

// replicationEvents checks the background streams, runs the deterministic baseline when
// o gives none, and estimates the events of all replications (Reps × SampleEvents),
// refused (ErrTooLarge) beyond o.MaxEvents (0: DefaultMaxSampleEvents), which it returns.
func replicationEvents(n *Net, o ReplicateOptions) (est, limit float64, err error) {
	for _, c := range n.CPUs {
		if err := checkBackground(c); err != nil {
			return 0, 0, err
		}
	}
	base := o.Baseline
	if base == nil {
		r, err := n.Run(Options{MaxTime: o.Run.MaxTime, MaxFirings: o.Run.MaxFirings})
		if err != nil {
			return 0, 0, err
		}
		if err := r.Err(); err != nil {
			return 0, 0, err
		}
		base = r
	}
	limit = o.MaxEvents
	if limit <= 0 {
		limit = DefaultMaxSampleEvents
	}
	est = float64(o.Reps) * SampleEvents(n, base)
	if est > limit {
		return 0, 0, errTooLarge("%d sampled replications take about %.4g events (%.4g each: firings, background arrivals and departures over the warm-up and the run); the limit is %.4g (fewer replications, or less background traffic)", o.Reps, est, est/float64(o.Reps), limit)
	}
	return est, limit, nil
}

// runReplications runs replication i (seeded by o.Seed and i) into times[i] on o.Workers
// goroutines (0: GOMAXPROCS), calling o.Progress after each; once ctx is done the
// replications not started get NaN and ctx's error. It returns each replication's error.
func runReplications(ctx context.Context, n *Net, o ReplicateOptions, times []float64, perRep, limit float64) []error {
	errs := make([]error, o.Reps)
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	done := 0
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, o.Reps); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				times[i], errs[i] = replicateOne(ctx, n, o, i, perRep, limit)
				if errs[i] == nil {
					mu.Lock()
					done++
					if o.Progress != nil {
						o.Progress(done, o.Reps)
					}
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for i := 0; i < o.Reps; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			for j := i; j < o.Reps; j++ {
				times[j], errs[j] = math.NaN(), ctx.Err()
			}
			break feed
		}
	}
	close(next)
	wg.Wait()
	return errs
}

// replicateOne runs replication i, its events capped at RunEventsFactor·perRep (at least
// 1e5 per replication) and at limit; a cancelled run gives NaN and ErrCancelled.
func replicateOne(ctx context.Context, n *Net, o ReplicateOptions, i int, perRep, limit float64) (float64, error) {
	if ctx.Err() != nil {
		return math.NaN(), ctx.Err()
	}
	ro := o.Run
	ro.Record, ro.Sample, ro.Cancel = false, &Sample{Seed: o.Seed, Rep: uint64(i)}, ctx.Done()
	if ro.MaxEvents == 0 {
		ro.MaxEvents = int64(min(RunEventsFactor*max(perRep, 1e5), limit, 1e15))
	}
	r, err := n.Run(ro)
	if err != nil {
		return math.NaN(), err
	}
	if err := r.Err(); err != nil {
		return math.NaN(), err
	}
	return Seconds(r.Time), nil
}

// summarise computes the statistics of the finished replications, in index order.
func (r *Replications) summarise() {
	var xs []float64
	for _, t := range r.TimesS {
		if !math.IsNaN(t) {
			xs = append(xs, t)
		}
	}
	r.Done = len(xs)
	if len(xs) == 0 {
		return
	}
	r.MeanS, r.HalfWidthS = stats.MeanCI(xs)
	if len(xs) < 2 {
		r.HalfWidthS = 0 // no interval: Partial says so; the JSON stays finite
	}
	r.MinS, r.MaxS = xs[0], xs[0]
	v := 0.0
	for _, x := range xs {
		r.MinS, r.MaxS = math.Min(r.MinS, x), math.Max(r.MaxS, x)
		v += (x - r.MeanS) * (x - r.MeanS)
	}
	if len(xs) > 1 {
		r.StdDevS = math.Sqrt(v / float64(len(xs)-1))
	}
}
