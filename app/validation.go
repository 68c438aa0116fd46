package app

import (
	"fmt"
	"github.com/clusterperf/clusterperf/report"

	"github.com/clusterperf/clusterperf/validate"
)

// ValidationTable renders a validation report as the "validation" table: the relative
// error as a percentage here, a signed fraction in CSV and JSON.
func ValidationTable(r *validate.Report) *report.Table {
	s := r.Simulation
	how := fmt.Sprintf("%d replications", s.Replications)
	if s.Method == "batch means" {
		how = fmt.Sprintf("batch means over %d batches", s.Replications)
	}
	if s.Events > 0 {
		how += fmt.Sprintf(", %d events", s.Events)
	}
	if r.Partial {
		how += "; PARTIAL: interrupted"
	}
	t := &report.Table{Name: "validation", Title: fmt.Sprintf("Validation of %s by simulation (%s, seed %d):", r.AnalyticMethod, how, s.Seed),
		Header: []string{"quantity", "unit", "analytic", "simulated", "half_width_95", "inside", "rel_error"}}
	for _, row := range r.Rows {
		var a, in, e any = "", "", ""
		if row.Analytic != nil {
			a, in = *row.Analytic, fmt.Sprint(*row.Inside)
		}
		if row.RelError != nil {
			e = report.Percent(*row.RelError)
		}
		t.Add(row.Quantity, row.Unit, a, row.Simulated, row.HalfWidth, in, e)
	}
	return t
}
