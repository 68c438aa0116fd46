package solveapp

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
)

// Tables: the "sweep" table (a row per swept value, with its method and estimated error)
// and the "sweep_bounds" table (a row per value and bound).
func (r *Sweep) Tables() []*report.Table {
	t := &report.Table{Name: "sweep", Title: fmt.Sprintf("Sweep of %s (solver %s; method %s; exact %v)", r.Parameter, r.Solver, r.Method, r.Exact), Header: []string{"value"}}
	for _, c := range r.Classes {
		t.Header = append(t.Header, "throughput_per_s_"+c, "response_time_s_"+c)
	}
	t.Header = append(t.Header, "method", "exact", "est_rel_error", "note")
	// value, bound and class identify a row: every column block repeats them
	bt := &report.Table{Name: "sweep_bounds", Title: "Bounds at each swept value", Header: append([]string{"value"}, app.BoundsHeader()...), Keys: 3}
	st := &report.Table{Name: "sweep_stations", Title: "Stations at each swept value (one copy, all classes)", Header: []string{"value", "station", "utilization", "queue_length"}, Keys: 2}
	for _, pt := range r.Points {
		for _, s := range pt.Stations {
			st.Add(pt.Value, s.Name, s.Utilization, s.QueueLength)
		}
		row := []any{pt.Value}
		for c := range r.Classes {
			if pt.Classes == nil {
				row = append(row, "", "")
				continue
			}
			row = append(row, pt.Classes[c].Throughput, pt.Classes[c].ResponseTime)
		}
		var method, exact, est any = "", "", ""
		if s := pt.Status; s != nil {
			method, exact = s.Method, fmt.Sprint(s.Exact)
			if s.ErrorEstimate != nil {
				est = report.Percent(s.ErrorEstimate.RelError)
			}
		}
		note := pt.Finding
		if pt.Status != nil && !pt.Status.Converged {
			note = "not converged"
		}
		if len(pt.Notes) > 0 {
			// the table lists the point's notes below it (NoteLines); the CSV cell has them
			text := strings.Join(pt.Notes, "; ")
			if r.text {
				text = "see notes"
			}
			note = strings.TrimPrefix(note+"; "+text, "; ")
		}
		t.Add(append(row, method, exact, est, note)...)
		for _, b := range pt.Bounds {
			bt.Add(append([]any{pt.Value}, app.BoundRow(b)...)...)
		}
	}
	if r.compact {
		t, bt = dropEmptyColumns(t), r.compactBounds(bt)
	}
	return []*report.Table{t, st, bt, r.measuredTable(), r.validationTable()}
}

// validationTable is the "validation" table: the columns of app.ValidationTable after
// the swept value, a row per quantity of every validated point.
func (r *Sweep) validationTable() *report.Table {
	t := &report.Table{Name: "validation", Title: "Validation of every solved point by simulation",
		Header: []string{"value", "quantity", "unit", "analytic", "simulated", "half_width_95", "inside", "rel_error"}}
	for i, v := range r.Validation {
		if i == 0 {
			t.Title = fmt.Sprintf("Validation of every solved point by simulation (%d replications, seed %d; each point's method and events in JSON \"validation\")", v.Simulation.Replications, v.Simulation.Seed)
		}
		for _, row := range v.Rows {
			var a, in, e any = "", "", ""
			if row.Analytic != nil {
				a, in = *row.Analytic, fmt.Sprint(*row.Inside)
			}
			if row.RelError != nil {
				e = report.Percent(*row.RelError)
			}
			t.Add(v.Value, row.Quantity, row.Unit, a, row.Simulated, row.HalfWidth, in, e)
		}
	}
	return t
}

// dropEmptyColumns is t without the columns that are empty in every row (text form: the
// table format only, so the full-precision CSV cells are not needed).
func dropEmptyColumns(t *report.Table) *report.Table {
	var keep []int
	for j := range t.Header {
		if j == 0 || slices.ContainsFunc(t.Rows, func(row []string) bool { return j < len(row) && row[j] != "" }) {
			keep = append(keep, j)
		}
	}
	if len(keep) == len(t.Header) {
		return t
	}
	out := &report.Table{Name: t.Name, Title: t.Title, Keys: t.Keys}
	for _, j := range keep {
		out.Header = append(out.Header, t.Header[j])
	}
	for _, row := range t.Rows {
		cells := make([]any, 0, len(keep))
		for _, j := range keep {
			cells = append(cells, row[j])
		}
		out.Add(cells...)
	}
	return out
}

// compactBounds is the bounds table's rows at the first and the last swept value (table
// format only), its title saying how many rows there are in all and how to see them.
func (r *Sweep) compactBounds(bt *report.Table) *report.Table {
	if len(r.Points) <= 2 || len(bt.Rows) == 0 {
		return bt
	}
	first, last := bt.Rows[0][0], bt.Rows[len(bt.Rows)-1][0]
	out := &report.Table{Name: bt.Name, Header: bt.Header, Keys: bt.Keys,
		Title: fmt.Sprintf("Bounds at the first and last swept value (%d rows at %d values in all: --all, --format json, or --format csv --csv-table sweep_bounds for every value)", len(bt.Rows), len(r.Points))}
	for _, row := range bt.Rows {
		if row[0] == first || row[0] == last {
			cells := make([]any, len(row))
			for i, c := range row {
				cells[i] = c
			}
			out.Add(cells...)
		}
	}
	return out
}

// measuredTable is the "measured" table: each measurement beside the model's value.
func (r *Sweep) measuredTable() *report.Table {
	t := &report.Table{Name: "measured", Keys: 2, Title: "Measured points against the model (rel_error = (model − measured)/measured)",
		Header: []string{"value", "class", "line", "measured_throughput_per_s", "model_throughput_per_s", "throughput_rel_error", "measured_response_time_s", "model_response_time_s", "response_time_rel_error"}}
	pct := func(p *float64) any {
		if p == nil {
			return report.Percent(math.NaN())
		}
		return report.Percent(*p)
	}
	for _, c := range r.Measured {
		t.Add(c.Value, c.Class, c.Line, app.OptNum(c.MeasuredThroughput), app.OptNum(c.ModelThroughput), pct(c.ThroughputRelError),
			app.OptNum(c.MeasuredResponseTime), app.OptNum(c.ModelResponseTime), pct(c.ResponseTimeRelError))
	}
	return t
}
