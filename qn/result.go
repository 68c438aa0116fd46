package qn

import (
	"fmt"
	"strings"
)

// Status tells whether an iterative solver converged. Exact solvers report Converged with
// the number of population steps as Iterations and a zero Residual.
type Status struct {
	Converged  bool    `json:"converged"`
	Iterations int     `json:"iterations"`
	Residual   float64 `json:"residual"` // largest relative change of a queue length at the last iteration
}

// ErrorEstimate is how far an approximate result is believed to be from the exact one.
// Relative errors are signed-free fractions (0.01 = 1 %) of class throughputs and response
// times, the largest over classes. Neither figure is a bound; both are measurements.
type ErrorEstimate struct {
	// RelError is the estimate quoted to users: the larger of Spread and MeasuredRelError.
	RelError float64 `json:"rel_error"`
	// Spread is the largest relative difference between this result and a second
	// approximation (SpreadMethod) of the same model.
	Spread       float64 `json:"spread_rel"`
	SpreadMethod string  `json:"spread_method"`
	// MeasuredRelError is the actual error of the same approximation against the exact
	// solution at MeasuredPopulation, the largest population (all classes scaled by one
	// factor) at which the exact solver fits its budget; nil when none is affordable.
	MeasuredRelError   *float64 `json:"measured_rel_error,omitempty"`
	MeasuredPopulation []int    `json:"measured_population,omitempty"`
}

// Result is the steady-state solution of a model. Per-station quantities refer to ONE copy
// of a station group; class response times add up every copy.
//
// Every result says how it was obtained: Method is the algorithm (e.g. "mva",
// "mva-load-dependent", "linearizer+marginal"), Exact whether the numbers are exact up to
// rounding; an approximation from Solve carries an ErrorEstimate, and Reason says why
// "auto" chose it. Notes are remarks a user should see (printed with the result).
type Result struct {
	Solver        string         `json:"solver"`
	Method        string         `json:"method"`
	Exact         bool           `json:"exact"`
	Reason        string         `json:"reason,omitempty"`
	ErrorEstimate *ErrorEstimate `json:"error_estimate,omitempty"`
	Notes         []string       `json:"notes,omitempty"`
	Status        Status         `json:"status"`

	Throughput   []float64 `json:"throughput_per_s"` // X_c, class c completions per second
	ResponseTime []float64 `json:"response_time_s"`  // R_c, seconds per job, think time excluded

	QueueLength [][]float64 `json:"queue_length"`     // Q[k][c], mean customers of class c at one copy of station k
	Residence   [][]float64 `json:"residence_time_s"` // R[k][c], residence time (seconds per job, all visits) at one copy
	Utilization [][]float64 `json:"utilization"`      // U[k][c]: per server busy fraction X_c·D/m (delay: X_c·D, mean busy servers)
}

// exactSolvers are the solver names whose results are exact.
var exactSolvers = map[string]bool{"mva": true, "open": true, "mixed": true, "comom": true}

func newResult(solver string, C, K int) *Result {
	r := &Result{Solver: solver, Method: solver, Exact: exactSolvers[solver], Throughput: make([]float64, C), ResponseTime: make([]float64, C)}
	r.QueueLength = matrix(K, C)
	r.Residence = matrix(K, C)
	r.Utilization = matrix(K, C)
	return r
}

func matrix(r, c int) [][]float64 {
	buf := make([]float64, r*c)
	m := make([][]float64, r)
	for i := range m {
		m[i] = buf[i*c : (i+1)*c : (i+1)*c]
	}
	return m
}

// SystemThroughput is Σ_c X_c.
func (r *Result) SystemThroughput() float64 {
	s := 0.0
	for _, x := range r.Throughput {
		s += x
	}
	return s
}

// SystemResponseTime is the throughput-weighted mean response time Σ X_c R_c / Σ X_c.
func (r *Result) SystemResponseTime() float64 {
	x, xr := 0.0, 0.0
	for c, xc := range r.Throughput {
		x += xc
		xr += xc * r.ResponseTime[c]
	}
	if x == 0 {
		return 0
	}
	return xr / x
}

// StationUtilization is the total utilisation of one copy of station k over all classes.
func (r *Result) StationUtilization(k int) float64 {
	s := 0.0
	for _, u := range r.Utilization[k] {
		s += u
	}
	return s
}

// StationQueueLength is the total queue length at one copy of station k.
func (r *Result) StationQueueLength(k int) float64 {
	s := 0.0
	for _, q := range r.QueueLength[k] {
		s += q
	}
	return s
}

// ZeroConvention is the package's rule for classes without jobs and unvisited stations,
// for help texts (see the package documentation).
const ZeroConvention = `A class with no jobs (closed population 0, or open arrival rate 0) has throughput,
queue length and utilization 0; its residence and response times are those ONE job of the
class would have if it arrived now (arrival theorem: e.g. D·(1 + Q) at a queue, D/(1 − U) at
an open M/M/1). A station a class never visits has residence time 0 for it; a delay
station's residence time is its demand.`

// Describe is a one-line account of how r was obtained, for a table header or stderr:
// the method, exact or approximate, the reason auto chose it, and an approximation's
// error estimate.
func (r *Result) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "method %s", r.Method)
	if r.Exact {
		b.WriteString(" (exact)")
	} else {
		b.WriteString(" (APPROXIMATE")
		if e := r.ErrorEstimate; e != nil {
			fmt.Fprintf(&b, "; estimated error %.2g %%", 100*e.RelError)
			var parts []string
			if e.SpreadMethod != "" {
				parts = append(parts, fmt.Sprintf("spread to %s %.2g %%", e.SpreadMethod, 100*e.Spread))
			}
			if e.MeasuredRelError != nil {
				parts = append(parts, fmt.Sprintf("measured %.2g %% at population %v", 100**e.MeasuredRelError, e.MeasuredPopulation))
			}
			if len(parts) > 0 {
				b.WriteString(": " + strings.Join(parts, ", "))
			}
		} else {
			b.WriteString("; no error estimate")
		}
		b.WriteString(")")
	}
	if r.Reason != "" {
		fmt.Fprintf(&b, "; %s", r.Reason)
	}
	return b.String()
}
