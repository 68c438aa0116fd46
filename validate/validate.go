// Package validate lines analytic predictions up against simulation estimates or
// measurements: the comparison rows every command's validation output is made of. The
// relative error is always the signed fraction (model − observed) / observed (the project's
// output contract); percentages belong to human tables only.
package validate

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
)

// RelError is (model − observed) / observed: positive when the model over-predicts. NaN
// when observed is 0 (no relative error exists) or either value is not finite.
func RelError(model, observed float64) float64 {
	if observed == 0 || math.IsInf(model, 0) || math.IsInf(observed, 0) {
		return math.NaN()
	}
	return (model - observed) / observed
}

// Row compares one quantity: a simulation estimate (mean and 95 % half-width) and the
// analytic value, when there is one.
type Row struct {
	Quantity  string   `json:"quantity"`
	Unit      string   `json:"unit"` // "1/s", "s", "jobs" or "" (a utilization)
	Analytic  *float64 `json:"analytic,omitempty"`
	Simulated float64  `json:"simulated"`
	HalfWidth float64  `json:"half_width_95"`
	Inside    *bool    `json:"analytic_inside,omitempty"` // analytic within the 95 % interval
	RelError  *float64 `json:"rel_error,omitempty"`       // (analytic − simulated) / simulated
}

// Compare builds the row of quantity q: the estimate e against the analytic value a (NaN:
// no analytic value). The relative error is left out when it does not exist (e.Mean = 0).
func Compare(q, unit string, e sim.Estimate, a float64) Row {
	r := Row{Quantity: q, Unit: unit, Simulated: e.Mean, HalfWidth: e.Half}
	if math.IsNaN(a) {
		return r
	}
	an, in := a, e.Contains(a)
	r.Analytic, r.Inside = &an, &in
	if rel := RelError(a, e.Mean); !math.IsNaN(rel) {
		r.RelError = &rel
	}
	return r
}

// QN compares a queueing-network solution an (nil: none) with a simulation of the same
// model: per class X and R, per station U and Q (summed over classes; the half-widths add,
// which is conservative). Rows follow the model's order: classes, then stations.
func QN(m *qn.Model, an *qn.Result, res *sim.Result) []Row {
	nan := math.NaN()
	var rows []Row
	for c, cl := range m.Classes {
		x, r := nan, nan
		if an != nil {
			x, r = an.Throughput[c], an.ResponseTime[c]
		}
		rows = append(rows, Compare("X "+cl.Name, "1/s", res.Throughput[c], x), Compare("R "+cl.Name, "s", res.ResponseTime[c], r))
	}
	for k, st := range m.Stations {
		u, q := nan, nan
		if an != nil {
			u, q = an.StationUtilization(k), an.StationQueueLength(k)
		}
		qs := sim.Estimate{}
		for c := range m.Classes {
			qs.Mean += res.QueueLength[k][c].Mean
			qs.Half += res.QueueLength[k][c].Half
		}
		rows = append(rows, Compare("U "+st.Name, "", res.Utilization[k], u), Compare("Q "+st.Name, "jobs", qs, q))
	}
	return rows
}

// Simulation describes the simulation a validation ran.
type Simulation struct {
	Method       string  `json:"method"` // "replications", "batch means" or "direct SPMD simulation"
	Replications int     `json:"replications"`
	Events       int64   `json:"events,omitempty"`
	Seed         uint64  `json:"seed"`
	Precision    float64 `json:"achieved_precision,omitempty"` // largest relative half-width of X and R
}

// Report is a whole validation: which analytic method, how it was simulated, the rows,
// and notes on where the analytic answer is not exact or the simulation is doubtful.
type Report struct {
	AnalyticMethod string     `json:"analytic_method"`
	Simulation     Simulation `json:"simulation"`
	Rows           []Row      `json:"rows"`
	Notes          []string   `json:"notes"`
	// Partial is true when the simulation was interrupted (Ctrl-C): the rows are those of
	// what finished, and a note says how much that was.
	Partial bool `json:"partial,omitempty"`
}

// Outside counts the rows whose analytic value lies outside the simulation's interval.
func (r *Report) Outside() int {
	n := 0
	for _, row := range r.Rows {
		if row.Inside != nil && !*row.Inside {
			n++
		}
	}
	return n
}

// QNReport simulates nothing itself: it assembles the report of a simulation res of m
// against the solution an of the named solver (nil an: the solver failed, with anErr).
func QNReport(m *qn.Model, solver string, an *qn.Result, anErr error, res *sim.Result, seed uint64, notes []string) *Report {
	rep := &Report{AnalyticMethod: solver, Simulation: Simulation{Method: res.Method, Replications: res.Replications, Events: res.Events, Seed: seed, Precision: res.Precision},
		Rows: QN(m, an, res), Notes: append([]string{}, notes...)}
	if anErr != nil {
		rep.Notes = append(rep.Notes, "no analytic value: "+fault.Detail(anErr))
	}
	if res.Lag1Suspect() {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the batch throughputs have lag-1 autocorrelation %.2f (above 2/√%d): batches are probably too short, the intervals too narrow — raise --events or lower --batches", res.Lag1, res.Replications))
	}
	return rep
}

// SPMD simulates the SPMD program of m directly (sim.ReplicateSPMD, reps replications from
// seed) at each (p, d) and compares the simulated cycle time with the analytic model's:
// the evaluator's time divided by the phase's cycles (one cycle when the model gives none).
// m must have one phase.
func SPMD(m *spmd.Model, e *spmd.Evaluator, pds [][2]int, cfg sim.SPMDConfig, seed uint64, reps int) (*Report, error) {
	return SPMDContext(context.Background(), m, e, pds, cfg, seed, reps, nil)
}

// SPMDContext is SPMD stopping when ctx is cancelled, telling progress (nil: no one) the
// cycles simulated over all points and replications (done of total; calls are
// serialised). An interrupted run returns the report of what finished — the rows of the
// points done, and the row of the point under way over its finished replications when
// there are at least two — marked Partial with a note, and an error wrapping
// fault.ErrInterrupted; with no row at all, no report.
func SPMDContext(ctx context.Context, m *spmd.Model, e *spmd.Evaluator, pds [][2]int, cfg sim.SPMDConfig, seed uint64, reps int, progress func(done, total int)) (*Report, error) {
	if len(m.Phases) != 1 {
		return nil, fmt.Errorf("direct simulation takes a one-phase model (this one has %d)", len(m.Phases))
	}
	cycles := m.Phases[0].Cycles
	if cycles <= 0 {
		cycles = 1
	}
	if reps == 0 {
		reps = 10
	}
	rep := &Report{AnalyticMethod: "spmd " + m.Arch.String(), Simulation: Simulation{Method: "direct SPMD simulation", Replications: reps, Seed: seed}, Notes: []string{}}
	o := sim.SPMDOptions{Seed: seed, Reps: reps}
	if progress != nil {
		var done int64
		total := int64(len(pds)) * int64(reps) * cfg.CyclesPerReplication()
		o.Tick = func(c int64) { done += c; progress(int(done), int(total)) } // ReplicateSPMDContext serialises the calls
	}
	for i, pd := range pds {
		pt, err := e.Evaluate(pd[0], pd[1])
		if err != nil {
			return nil, err
		}
		res, err := sim.ReplicateSPMDContext(ctx, m, pd[0], pd[1], cfg, o)
		if errors.Is(err, fault.ErrInterrupted) {
			return partialSPMD(m, cfg, rep, res, pt.Time/cycles, pds, i, reps, err)
		}
		if err != nil {
			return nil, err
		}
		rep.Rows = append(rep.Rows, Compare(spmdQuantity(pd), "s", res.Estimate, pt.Time/cycles))
	}
	rep.Notes = append(rep.Notes, SPMDNotes(m, cfg, rep.Rows)...)
	return rep, nil
}

// spmdQuantity names the row of the cycle time at (p, d).
func spmdQuantity(pd [2]int) string { return fmt.Sprintf("cycle time p=%d d=%d", pd[0], pd[1]) }

// partialSPMD is SPMDContext's report when the simulation of point i of pds was interrupted
// (stop): res holds its finished replications (nil: fewer than two), analytic its analytic
// cycle time. Replications is then the smallest count behind a row.
func partialSPMD(m *spmd.Model, cfg sim.SPMDConfig, rep *Report, res *sim.SPMDResult, analytic float64, pds [][2]int, i, reps int, stop error) (*Report, error) {
	k := 0
	if res != nil {
		k = res.Replications
		rep.Rows = append(rep.Rows, Compare(spmdQuantity(pds[i]), "s", res.Estimate, analytic))
		rep.Simulation.Replications = k
	}
	if len(rep.Rows) == 0 {
		return nil, stop
	}
	rep.Partial = true
	rep.Notes = append(rep.Notes, SPMDNotes(m, cfg, rep.Rows)...)
	note := fmt.Sprintf("partial: interrupted at p=%d d=%d after %d of its %d replications planned", pds[i][0], pds[i][1], k, reps)
	if len(pds) > 1 {
		note += fmt.Sprintf(" (point %d of %d; the %d after it not simulated)", i+1, len(pds), len(pds)-i-1)
	}
	if k >= 2 {
		note += fmt.Sprintf("; its interval is that of the %d finished", k)
	}
	rep.Notes = append(rep.Notes, note)
	return rep, stop
}
