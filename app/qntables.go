package app

import (
	"fmt"
	"github.com/clusterperf/clusterperf/report"

	"github.com/clusterperf/clusterperf/qn"
)

// QNTables renders a queueing-network solution for people: a "classes" table and a
// "stations" table (one copy of each station; per-class rows under multi-class models).
func QNTables(v qn.View) []*report.Table {
	run := fmt.Sprintf("converged %v, %d iterations", v.Converged, v.Iterations)
	if v.Exact { // a direct method: its count is of recursion steps (population vectors, jobs, states), not iterations
		run = fmt.Sprintf("direct, %d step%s", v.Iterations, map[bool]string{true: "", false: "s"}[v.Iterations == 1])
	}
	ct := &report.Table{Name: "classes", Title: fmt.Sprintf("Classes (solver %s, %s; %s)", v.Solver, v.Describe(), run),
		Header: []string{"class", "type", "population", "arrival_rate_per_s", "throughput_per_s", "response_time_s"}}
	for _, c := range v.Classes {
		var n, l any = "", ""
		if c.Population != nil {
			n = *c.Population
		}
		if c.ArrivalRate != nil {
			l = *c.ArrivalRate
		}
		ct.Add(c.Name, c.Type, n, l, c.Throughput, c.ResponseTime)
	}
	st := &report.Table{Name: "stations", Title: "Stations (per copy)" + visitsTitle(v) + infeasibleTitle(v) + delayTitle(v),
		Header: []string{"station", "type", "count", "class", "visits", "throughput_per_s", "utilization", "queue_length", "residence_time_s"}}
	for _, s := range v.Stations {
		x := s.Throughput
		if len(s.PerClass) > 0 {
			st.Add(s.Name, s.Type, s.Count, "all", "", "", utilizationCell(s), s.QueueLength, s.ResidenceTime)
		} else {
			st.Add(s.Name, s.Type, s.Count, "all", visitsCell(s.Visits), x, utilizationCell(s), s.QueueLength, s.ResidenceTime)
		}
		for _, pc := range s.PerClass {
			st.Add(s.Name, s.Type, s.Count, pc.Class, visitsCell(pc.Visits), pc.Throughput, pc.Utilization, pc.QueueLength, pc.ResidenceTime)
		}
	}
	return []*report.Table{ct, st}
}

// infeasibleMark follows a station's utilization in the text table when the approximation
// gave U > 1 at a queueing station (qn.StationView.UtilizationInfeasible; review: the flag was
// in the JSON only). The value is the approximation's, not clamped.
const infeasibleMark = "!infeasible"

// utilizationCell is a station's total utilization, flagged when infeasible.
func utilizationCell(s qn.StationView) any {
	if s.UtilizationInfeasible {
		return report.Flagged{Value: s.Utilization, Mark: infeasibleMark}
	}
	return s.Utilization
}

// delayTitle says in the stations title what utilization means at a delay station, when the
// model has one: U = X·D there is the mean number of jobs at the station (busy servers of an
// infinite-server station), not a fraction of 1 (review P3: "utilization 24.077" unexplained).
func delayTitle(v qn.View) string {
	for _, s := range v.Stations {
		if s.Type == qn.Delay.String() {
			return "; utilization at a delay station is its mean number of jobs (busy servers), not a fraction"
		}
	}
	return ""
}

// infeasibleTitle explains the mark in the stations title, when a station has it.
func infeasibleTitle(v qn.View) string {
	for _, s := range v.Stations {
		if s.UtilizationInfeasible {
			return "; " + infeasibleMark + ": the approximation gave utilization > 1, impossible for the real network (its throughputs are too high)"
		}
	}
	return ""
}

// visitsNotGiven marks a visits cell of a model that gives demands (D = V·S) instead of
// visits and service times: the visit count is unknown, not blank or 1 (review P3: the column
// was blank with no word why). Empty in CSV; the JSON leaves visits out.
const visitsNotGiven = report.TextOnly("—")

// visitsCell is the visits cell of a station or station/class row.
func visitsCell(p *float64) any {
	if p == nil {
		return visitsNotGiven
	}
	return *p
}

// visitsTitle says in the stations title what "—" in the visits column means, when a row has it.
func visitsTitle(v qn.View) string {
	for _, s := range v.Stations {
		missing := len(s.PerClass) == 0 && s.Visits == nil
		for _, pc := range s.PerClass {
			missing = missing || pc.Visits == nil
		}
		if missing {
			return "; visits —: the model gives demands, not visits, so throughput counts one pass per job"
		}
	}
	return ""
}

// optCell is the number behind p, or an empty cell.
func optCell(p *float64) any {
	if p == nil {
		return ""
	}
	return *p
}
