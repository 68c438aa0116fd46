package validate

import (
	"errors"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/sim"
)

// Checks of validation and saturation records read back from a file (shard merge, hostile
// review: they were decoded strictly but not range-checked). Each error names the field
// (rows[i].half_width_95 …) and what is allowed; the caller adds the file and wraps it as
// input (fault.ErrInput, exit 2).

// utilTol is the rounding allowed above a utilization of 1.
const utilTol = 1e-9

// CheckQN checks r as QNReport builds it for model m: the simulation's counts are
// non-negative (replications ≥ 1), there is one row per quantity in QN's order (X and R per
// class, U and Q per station) with QN's units, every number is finite and ≥ 0 (a queueing
// station's simulated utilization at most 1 per server; an approximate analytic one may
// exceed it, qn.StationView.UtilizationInfeasible), and the derived fields agree with the numbers
// they derive from: analytic_inside is |analytic − simulated| ≤ half_width_95 (sim.Estimate.
// Contains), rel_error is RelError(analytic, simulated), each present exactly when QN would
// write it.
func (r *Report) CheckQN(m *qn.Model) error {
	s := r.Simulation
	var errs []error
	if s.Replications < 1 {
		errs = append(errs, fmt.Errorf("simulation.replications = %d; want ≥ 1", s.Replications))
	}
	if s.Events < 0 {
		errs = append(errs, fmt.Errorf("simulation.events = %d; want ≥ 0", s.Events))
	}
	if err := nonNeg("simulation.achieved_precision", s.Precision); err != nil {
		errs = append(errs, err)
	}
	want := 2*len(m.Classes) + 2*len(m.Stations)
	if len(r.Rows) != want {
		return errors.Join(append(errs, fmt.Errorf("rows has %d entries; want %d (X and R per class, U and Q per station)", len(r.Rows), want))...)
	}
	i := 0
	expect := func(q, unit string, maxU float64) {
		errs = append(errs, checkRow(i, r.Rows[i], q, unit, maxU))
		i++
	}
	for _, c := range m.Classes {
		expect("X "+c.Name, "1/s", math.Inf(1))
		expect("R "+c.Name, "s", math.Inf(1))
	}
	for _, st := range m.Stations {
		maxU := math.Inf(1)
		if st.Kind == qn.Queue || st.Kind == qn.MultiServer {
			maxU = 1 + utilTol
		}
		expect("U "+st.Name, "", maxU)
		expect("Q "+st.Name, "jobs", math.Inf(1))
	}
	return errors.Join(errs...)
}

// checkRow checks row i: its quantity and unit, its numbers in [0, max], its derived fields.
func checkRow(i int, row Row, q, unit string, max float64) error {
	at := fmt.Sprintf("rows[%d]", i)
	if row.Quantity != q || row.Unit != unit {
		return fmt.Errorf("%s is %q (unit %q); want %q (unit %q)", at, row.Quantity, row.Unit, q, unit)
	}
	if err := errors.Join(inRange(at+".simulated", row.Simulated, max), nonNeg(at+".half_width_95", row.HalfWidth)); err != nil {
		return err
	}
	if row.Analytic == nil {
		if row.Inside != nil || row.RelError != nil {
			return fmt.Errorf("%s has analytic_inside or rel_error but no analytic value", at)
		}
		return nil
	}
	a := *row.Analytic
	if err := nonNeg(at+".analytic", a); err != nil { // an approximation may exceed U = 1 (flagged elsewhere)
		return err
	}
	in := sim.Estimate{Mean: row.Simulated, Half: row.HalfWidth}.Contains(a)
	if row.Inside == nil || *row.Inside != in {
		return fmt.Errorf("%s.analytic_inside = %s; the row's numbers give %v (|analytic − simulated| ≤ half_width_95)", at, boolText(row.Inside), in)
	}
	rel := RelError(a, row.Simulated)
	switch {
	case math.IsNaN(rel) && row.RelError != nil:
		return fmt.Errorf("%s.rel_error is present; the simulated value is 0, so no relative error exists", at)
	case !math.IsNaN(rel) && (row.RelError == nil || !(math.Abs(*row.RelError-rel) <= 1e-12*math.Max(1, math.Abs(rel)))):
		return fmt.Errorf("%s.rel_error = %s; the row's numbers give (analytic − simulated)/simulated = %g", at, numText(row.RelError), rel)
	}
	return nil
}

// CheckSaturation checks a saturation record of model m: it names one of m's stations, and
// its utilization per server is at least 1 (what saturated means) and finite.
func CheckSaturation(e *qn.SaturationError, m *qn.Model) error {
	found := false
	for _, st := range m.Stations {
		found = found || st.Name == e.Station
	}
	if !found {
		return fmt.Errorf("saturation.Station = %q; want a station of the model", e.Station)
	}
	if math.IsNaN(e.Utilization) || math.IsInf(e.Utilization, 0) || e.Utilization < 1 {
		return fmt.Errorf("saturation.Utilization = %g; want a finite utilization ≥ 1 (a saturated station)", e.Utilization)
	}
	return nil
}

func nonNeg(name string, v float64) error { return inRange(name, v, math.Inf(1)) }

// inRange reports v outside [0, max] or not finite.
func inRange(name string, v, max float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > max {
		if math.IsInf(max, 1) {
			return fmt.Errorf("%s = %g; want a finite value ≥ 0", name, v)
		}
		return fmt.Errorf("%s = %g; want a utilization in [0, 1] (busy fraction per server)", name, v)
	}
	return nil
}

func boolText(b *bool) string {
	if b == nil {
		return "absent"
	}
	return fmt.Sprint(*b)
}

func numText(p *float64) string {
	if p == nil {
		return "absent"
	}
	return fmt.Sprint(*p)
}
