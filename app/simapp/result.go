package simapp

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/validate"
)

// Result is the simulate question's one result value: the model's name and the validation report
// (its fields at the top level of the JSON document).
type Result struct {
	report.Answered
	Model string `json:"model"`
	Kind  string `json:"kind"` // "qn" or "spmd"
	// Method is how the numbers were obtained: discrete-event simulation, and how its
	// intervals were formed (replications or batch means); the analytic answer it is compared
	// with names its own method in analytic_method.
	Method string `json:"method"`
	// Exact is false: a simulation is an estimate (its intervals are in the rows).
	Exact bool `json:"exact"`
	// Partial is true when the run was interrupted (Ctrl-C): the rows are those of the
	// replications finished by then (batch means: of the part of the run simulated), and a
	// note says how many; the command then exits 130.
	Partial bool `json:"partial,omitempty"`
	// Queueing networks: sim.Result's run length, warm-up and too-short count.
	EventsPerRep *int64   `json:"events_per_replication,omitempty"`
	WarmupEvents *float64 `json:"warmup_events_mean,omitempty"`
	TooShort     *int     `json:"too_short_replications,omitempty"`
	// PrecisionTarget is --precision, the relative 95 % half-width asked of every class's X
	// and R; PrecisionMet whether the simulation's achieved_precision (the largest such
	// half-width) is within it. Both absent without --precision.
	PrecisionTarget *float64 `json:"precision_target,omitempty"`
	PrecisionMet    *bool    `json:"precision_met,omitempty"`
	// ErrorEstimate is the contract's error estimate of an approximate result: for a
	// simulation, its largest relative 95 % half-width over the classes' X and R
	// (simulation.achieved_precision), absent when there is none (no finished replication).
	ErrorEstimate *ErrorEstimate `json:"error_estimate,omitempty"`
	*validate.Report
}

// ErrorEstimate states a simulation's statistical error (new-user review: simulate's
// JSON said exact false with no error_estimate).
type ErrorEstimate struct {
	RelHalfWidth95 float64 `json:"rel_half_width_95"`
	Against        string  `json:"against"`
}

// precisionText is the table's account of a --precision target: met or not, and what was
// achieved.
func (r *Result) precisionText() string {
	if r.PrecisionTarget == nil {
		return ""
	}
	verdict := "met"
	if !*r.PrecisionMet {
		verdict = "NOT met"
	}
	return fmt.Sprintf("; precision target %.3g %%: %s (achieved %.3g %%)", 100**r.PrecisionTarget, verdict, 100*r.Simulation.Precision)
}

// Tables is the validation table, titled with the run length per replication (as the
// warm-up note counts it) and in all.
func (r *Result) Tables() []*report.Table {
	t := app.ValidationTable(r.Report)
	if s := r.Simulation; r.EventsPerRep != nil {
		how := fmt.Sprintf("%d replications of %d events each, %d in all", s.Replications, *r.EventsPerRep, s.Events)
		if s.Method == "batch means" {
			how = fmt.Sprintf("batch means: one run of %d events cut into %d batches after its warm-up", *r.EventsPerRep, s.Replications)
		}
		how += r.precisionText()
		if r.Partial {
			how += "; PARTIAL: interrupted"
		}
		t.Title = fmt.Sprintf("Validation of %s by simulation (%s, seed %d):", r.AnalyticMethod, how, s.Seed)
	}
	return []*report.Table{t}
}
func (r *Result) NoteLines() []string { return r.Notes }

// Figure: the simulated utilizations (rows "U station") with the analytic ones beside.
func (r *Result) Figure() ([]report.Panel, error) {
	if r.Report == nil {
		return nil, nil
	}
	var names []string
	var u []float64
	for _, row := range r.Rows {
		if len(row.Quantity) > 2 && row.Quantity[:2] == "U " {
			names, u = append(names, row.Quantity[2:]), append(u, row.Simulated)
		}
	}
	if len(names) > 0 {
		p, err := report.Bars("Simulated utilization per station (dotted: saturation)", "utilization", names, u, nil, 1)
		return []report.Panel{p}, err
	}
	// no station rows (an SPMD program): each quantity's relative difference analytic −
	// simulated, those outside the simulation's 95 % interval highlighted
	var hl []int
	for _, row := range r.Rows {
		if row.RelError == nil {
			continue
		}
		if row.Inside != nil && !*row.Inside {
			hl = append(hl, len(names))
		}
		names, u = append(names, row.Quantity), append(u, 100*math.Abs(*row.RelError))
	}
	if len(names) == 0 {
		return nil, nil
	}
	p, err := report.Bars("|analytic − simulated| / simulated per quantity (outside the 95 % interval highlighted)", "%", names, u, hl, 0)
	return []report.Panel{p}, err
}
