package qn

// ClassView, StationView and View are the JSON form of a Result: snake_case keys with the
// unit in the key (_s seconds, _per_s jobs per second). report.QNTables renders a View for
// people; qn itself imports no rendering package.
type ClassView struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	Population   *int     `json:"population,omitempty"`
	ArrivalRate  *float64 `json:"arrival_rate_per_s,omitempty"`
	Throughput   float64  `json:"throughput_per_s"`
	ResponseTime float64  `json:"response_time_s"`
}

// StationClassView is one class's share of a station.
type StationClassView struct {
	Class         string   `json:"class"`
	Visits        *float64 `json:"visits,omitempty"` // per job (per cycle), when the model gives visits or routing
	Throughput    float64  `json:"throughput_per_s"`
	Utilization   float64  `json:"utilization"`
	QueueLength   float64  `json:"queue_length"`
	ResidenceTime float64  `json:"residence_time_s"`
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
	ResidenceTime float64            `json:"residence_time_s"`
	PerClass      []StationClassView `json:"per_class,omitempty"`
}

// View is the whole solution.
type View struct {
	Model              string        `json:"model,omitempty"`
	Solver             string        `json:"solver"`
	Converged          bool          `json:"converged"`
	Iterations         int           `json:"iterations"`
	Residual           float64       `json:"residual"`
	SystemThroughput   float64       `json:"system_throughput_per_s"`
	SystemResponseTime float64       `json:"system_response_time_s"`
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
