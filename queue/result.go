package queue

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// MaxStates bounds m (the Erlang recursions) and K (the finite queues' state space): the work
// is linear in both. Larger inputs are refused with fault.ErrTooLarge.
const MaxStates = 10_000_000

// MaxPercentileStates bounds the capacity K for which response-time percentiles of finite
// queues are computed: each percentile evaluates a mixture of K incomplete-gamma terms about
// 60 times (bisection to 1e-13), some 0.3 s at K = 10⁴ on one core. Beyond it the percentiles
// are left out and a note says so.
const MaxPercentileStates = 10_000

// Result is the steady state of one queueing station. Per-server utilization is the
// fraction of time one server is busy; BusyServers = X/μ is the mean number of busy servers.
type Result struct {
	Model  string `json:"model"`  // Kendall notation, e.g. "M/M/2/10"
	Method string `json:"method"` // the formula used
	Exact  bool   `json:"exact"`  // false only for the heterogeneous-server approximation

	ArrivalRate float64 `json:"arrival_rate_per_s"` // λ
	ServiceRate float64 `json:"service_rate_per_s"` // μ of one server (heterogeneous: mean of μ_i)
	ServiceSCV  float64 `json:"service_scv"`        // squared coefficient of variation of the service time
	Servers     int     `json:"servers"`            // m; 0 for infinitely many
	Capacity    int     `json:"capacity_jobs,omitempty"`

	OfferedLoad  float64      `json:"offered_load_erlangs"` // a = λ/μ
	Utilization  float64      `json:"utilization"`          // per server, X/(m·μ); 0 for M/M/∞
	BusyServers  float64      `json:"busy_servers"`         // X/μ
	Throughput   float64      `json:"throughput_per_s"`     // X
	Jobs         float64      `json:"jobs_in_system"`       // Q, waiting and in service
	JobsWaiting  float64      `json:"jobs_waiting"`         // Q − X/μ
	ResponseTime float64      `json:"response_time_s"`      // R = Q/X
	WaitingTime  float64      `json:"waiting_time_s"`       // R − 1/μ
	PEmpty       float64      `json:"p_empty"`              // probability of no job in the station
	PWait        *float64     `json:"p_wait,omitempty"`     // probability an accepted arrival waits (M/M/m: Erlang C)
	PBlock       *float64     `json:"p_block,omitempty"`    // probability an arrival is refused (finite K; Erlang B)
	Percentiles  []Percentile `json:"response_time_percentiles,omitempty"`
	Notes        []string     `json:"notes"` // never nil from Solve: [] when there is nothing to say
}

// Percentile is the p-quantile of the response time of an accepted job: P(R ≤ T) = p.
type Percentile struct {
	P            float64 `json:"p"`
	ResponseTime float64 `json:"response_time_s"`
}

func ptr(v float64) *float64 { return &v }

func badf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", fault.ErrInput, fmt.Sprintf(format, args...))
}

func checkRates(lambda, mu float64) error {
	if !(lambda >= 0) || math.IsInf(lambda, 0) {
		return badf("arrival rate λ = %v: must be finite and ≥ 0 (jobs/s)", lambda)
	}
	if !(mu > 0) || math.IsInf(mu, 0) {
		return badf("service rate μ = %v: must be finite and > 0 (jobs/s)", mu)
	}
	return nil
}

func checkServers(m int) error {
	if m < 1 {
		return badf("servers m = %d: must be a whole number ≥ 1", m)
	}
	if m > MaxStates {
		return fmt.Errorf("%w: servers m = %d exceeds the limit %d (the work is linear in m)", fault.ErrTooLarge, m, MaxStates)
	}
	return nil
}

func saturated(model string, lambda, capacity float64) error {
	return fmt.Errorf("%w: %s: arrival rate %.6g ≥ service capacity %.6g jobs/s: the queue grows without bound", fault.ErrSaturated, model, lambda, capacity)
}

// finish fills the derived fields common to every model and checks that every number is
// finite: a non-finite result is a bug, reported rather than printed.
func (r *Result) finish() error {
	for _, v := range []float64{r.OfferedLoad, r.Utilization, r.BusyServers, r.Throughput, r.Jobs, r.JobsWaiting, r.ResponseTime, r.WaitingTime, r.PEmpty} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("queue: %s: non-finite result (λ = %v, μ = %v); please report this input", r.Model, r.ArrivalRate, r.ServiceRate)
		}
	}
	return nil
}
