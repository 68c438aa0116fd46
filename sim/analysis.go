package sim

import (
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

// Contains reports whether v lies in the interval.
func (e Estimate) Contains(v float64) bool { return math.Abs(v-e.Mean) <= e.Half }

// RelHalf is the half-width relative to the mean.
func (e Estimate) RelHalf() float64 { return e.Half / math.Abs(e.Mean) }

// estimate is the mean of xs with its Student-t 95 % half-width (stats.MeanCI).
func estimate(xs []float64) Estimate {
	m, h := stats.MeanCI(xs)
	return Estimate{Mean: m, Half: h}
}

// Result summarises independent replications.
type Result struct {
	Replications int          `json:"replications"`
	Events       int64        `json:"events"`
	Throughput   []Estimate   `json:"throughput"`
	ResponseTime []Estimate   `json:"response_time"`
	QueueLength  [][]Estimate `json:"queue_length"` // [k][c]
	Utilization  []Estimate   `json:"utilization"`
	Precision    float64      `json:"achieved_precision"` // largest relative half-width of X and R
	// Method is "replications" or "batch means" (then Replications counts the batches and
	// Lag1 is the largest |lag-1 autocorrelation| of the classes' batch throughputs: batch
	// means assume it is 0; its estimate from B batches scatters by about 1/√B, so above
	// 2/√B the batches are probably too short and the intervals too narrow — see
	// Lag1Suspect).
	Method string       `json:"method"`
	Lag1   float64      `json:"lag1_autocorrelation,omitempty"`
	Reps   []*RepResult `json:"-"`
}

// Options control the replication loop.
type Options struct {
	Seed      uint64
	Reps      int     // minimum replications (default 10)
	MaxReps   int     // cap when a precision is requested (default 200)
	Precision float64 // target relative half-width of every class's X and R (0: just Reps)
	Workers   int     // parallel replications (default GOMAXPROCS)
	Progress  func(done, total int)
	// Batches > 0 selects the batch-means method instead: one run of Config.Events measured
	// events (after the warm-up) cut into Batches batches, on one core. Not with Precision.
	Batches int
}

// Replicate runs independent replications (stream i of the seed for replication i) on all
// cores, in batches, until Reps are done and, if Precision is set, every class's throughput
// and response time has a 95 % half-width within Precision of its mean (or MaxReps).
func (s *Simulator) Replicate(o Options) (*Result, error) {
	if o.Batches > 0 {
		if o.Precision > 0 {
			return nil, fmt.Errorf("batch means run a fixed length: give batches or a precision, not both")
		}
		if o.Batches < 2 {
			return nil, fmt.Errorf("batch means need at least 2 batches (got %d)", o.Batches)
		}
		bs, err := s.RunBatches(o.Seed, 0, o.Batches)
		if err != nil {
			return nil, err
		}
		res := summarise(bs)
		res.Method = "batch means"
		for c := range bs[0].Throughput {
			xs := make([]float64, len(bs))
			for i, b := range bs {
				xs[i] = b.Throughput[c]
			}
			res.Lag1 = math.Max(res.Lag1, math.Abs(lag1(xs)))
		}
		if o.Progress != nil {
			o.Progress(1, 1)
		}
		return res, nil
	}
	if o.Reps < 2 {
		o.Reps = 10
	}
	if o.MaxReps < o.Reps {
		o.MaxReps = max(200, o.Reps)
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	var reps []*RepResult
	target := o.Reps
	for {
		round := make([]*RepResult, target-len(reps))
		errs := make([]error, len(round))
		var mu sync.Mutex
		done := len(reps)
		first := len(reps)
		parallelForN(o.Workers, len(round), func(i int) {
			round[i], errs[i] = s.Run(o.Seed, uint64(first+i))
			if o.Progress != nil {
				mu.Lock()
				done++
				o.Progress(done, target)
				mu.Unlock()
			}
		})
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
		reps = append(reps, round...)
		res := summarise(reps)
		res.Method = "replications"
		if o.Precision <= 0 || res.Precision <= o.Precision || len(reps) >= o.MaxReps {
			if o.Precision > 0 && res.Precision > o.Precision {
				return res, fmt.Errorf("%w: precision %.3g not reached after %d replications (achieved %.3g)", fault.ErrNotConverged, o.Precision, len(reps), res.Precision)
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
		target = min(o.MaxReps, need)
	}
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
	res := &Result{Replications: len(reps), Reps: reps}
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
