package qn

import (
	"fmt"

	"github.com/clusterperf/clusterperf/report"
)

// ClassView, StationView and View are the JSON form of a Result (snake_case keys, seconds
// and jobs per second).
type ClassView struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	Population   *int     `json:"population,omitempty"`
	ArrivalRate  *float64 `json:"arrival_rate,omitempty"`
	Throughput   float64  `json:"throughput"`
	ResponseTime float64  `json:"response_time"`
}

// StationClassView is one class's share of a station.
type StationClassView struct {
	Class         string   `json:"class"`
	Visits        *float64 `json:"visits,omitempty"` // per job (per cycle), when the model gives visits or routing
	Throughput    float64  `json:"throughput"`
	Utilization   float64  `json:"utilization"`
	QueueLength   float64  `json:"queue_length"`
	ResidenceTime float64  `json:"residence_time"`
}

// StationView gives one copy of a station: totals over classes, and per class when there is
// more than one. Residence time is the throughput-weighted mean over classes.
type StationView struct {
	Name          string             `json:"name"`
	Type          string             `json:"type"`
	Count         int                `json:"count"`
	Visits        *float64           `json:"visits,omitempty"` // single-class models with visits or routing
	Utilization   float64            `json:"utilization"`
	QueueLength   float64            `json:"queue_length"`
	ResidenceTime float64            `json:"residence_time"`
	PerClass      []StationClassView `json:"per_class,omitempty"`
}

// View is the whole solution.
type View struct {
	Model              string        `json:"model,omitempty"`
	Solver             string        `json:"solver"`
	Converged          bool          `json:"converged"`
	Iterations         int           `json:"iterations"`
	Residual           float64       `json:"residual"`
	SystemThroughput   float64       `json:"system_throughput"`
	SystemResponseTime float64       `json:"system_response_time"`
	Classes            []ClassView   `json:"classes"`
	Stations           []StationView `json:"stations"`
}

// NewView builds the JSON/table view of r for model m.
func NewView(name string, m *Model, r *Result) View {
	v := View{Model: name, Solver: r.Solver, Converged: r.Status.Converged, Iterations: r.Status.Iterations,
		Residual: r.Status.Residual, SystemThroughput: r.SystemThroughput(), SystemResponseTime: r.SystemResponseTime()}
	for c, cl := range m.Classes {
		cv := ClassView{Name: cl.Name, Type: "closed", Throughput: r.Throughput[c], ResponseTime: r.ResponseTime[c]}
		if cl.Open {
			cv.Type = "open"
			a := cl.ArrivalRate
			cv.ArrivalRate = &a
		} else {
			p := cl.Population
			cv.Population = &p
		}
		v.Classes = append(v.Classes, cv)
	}
	for k, s := range m.Stations {
		sv := StationView{Name: s.Name, Type: s.Kind.String(), Count: s.Copies(),
			Utilization: r.StationUtilization(k), QueueLength: r.StationQueueLength(k)}
		xr, x := 0.0, 0.0
		for c := range m.Classes {
			xr += r.Throughput[c] * r.Residence[k][c]
			x += r.Throughput[c]
		}
		if x > 0 {
			sv.ResidenceTime = xr / x
		}
		if m.Visits != nil && len(m.Classes) == 1 {
			v := m.Visits[0][k]
			sv.Visits = &v
		}
		if len(m.Classes) > 1 {
			for c, cl := range m.Classes {
				vis := 1.0
				var vp *float64
				if m.Visits != nil {
					vis = m.Visits[c][k]
					vp = &m.Visits[c][k]
				}
				sv.PerClass = append(sv.PerClass, StationClassView{Class: cl.Name, Visits: vp, Throughput: r.Throughput[c] * vis,
					Utilization: r.Utilization[k][c], QueueLength: r.QueueLength[k][c], ResidenceTime: r.Residence[k][c]})
			}
		}
		v.Stations = append(v.Stations, sv)
	}
	return v
}

// Tables renders the view as two tables: classes and stations.
func (v View) Tables() []*report.Table {
	ct := &report.Table{Title: fmt.Sprintf("Classes (solver %s, converged %v, %d iterations)", v.Solver, v.Converged, v.Iterations),
		Header: []string{"class", "type", "N or λ", "throughput", "response time"}}
	for _, c := range v.Classes {
		nl := ""
		if c.Population != nil {
			nl = fmt.Sprint(*c.Population)
		} else if c.ArrivalRate != nil {
			nl = report.Num(*c.ArrivalRate)
		}
		ct.Add(c.Name, c.Type, nl, c.Throughput, c.ResponseTime)
	}
	visits := false // a visits column when the model gave visit counts or routing
	for _, s := range v.Stations {
		visits = visits || s.Visits != nil || (len(s.PerClass) > 0 && s.PerClass[0].Visits != nil)
	}
	header := []string{"station", "type", "count", "class", "utilization", "queue length", "residence time"}
	if visits {
		header = append(header[:4:4], append([]string{"visits"}, header[4:]...)...)
	}
	st := &report.Table{Title: "Stations (per copy)", Header: header}
	row := func(vis *float64, cells ...any) {
		if visits {
			var vc any = ""
			if vis != nil {
				vc = *vis
			}
			cells = append(cells[:4:4], append([]any{vc}, cells[4:]...)...)
		}
		st.Add(cells...)
	}
	for _, s := range v.Stations {
		row(s.Visits, s.Name, s.Type, s.Count, "all", s.Utilization, s.QueueLength, s.ResidenceTime)
		for _, pc := range s.PerClass {
			row(pc.Visits, "", "", "", pc.Class, pc.Utilization, pc.QueueLength, pc.ResidenceTime)
		}
	}
	return []*report.Table{ct, st}
}
