package qn

// ClassView, StationView and View are the JSON form of a Result: snake_case keys with the
// unit in the key (_s seconds, _per_s jobs per second). app.QNTables renders a View for
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
// more than one. Residence time is the mean time a job that passes through the station
// spends there (all its visits), over the classes that visit it (V_{c,k} > 0, see visitsAt),
// weighted by class throughput:
//
//	R_k = Σ_{c: V_ck>0} X_c·R_{k,c} / Σ_{c: V_ck>0} X_c = Q_k / Σ_{c: V_ck>0} X_c
//
// (Little's law with the rate of the jobs that pass through k; classes that skip the
// station neither add time nor dilute the mean — review finding: the old mean over every
// class's throughput halved it when half the traffic skipped the station). Octave's
// queueing package gives only the per-class R_{k,c} (qnclosedmultimva, qnopenmulti: time
// per job over all visits); this is their per-job aggregate, not a per-visit response time
// Q_k / Σ_c X_c·V_{c,k}. (We found no documented JMT formula for its all-classes column.)
// At a station no job passes through (Σ X_c = 0, e.g. an idle M/M/1 with arrival rate 0)
// it is the plain mean of R_{k,c} over the visiting classes, so it follows ZeroConvention:
// what one arriving job would see (D/(1 − U) = D at an idle M/M/1, the same as its class's
// response time), never a 0 beside a class response time that is not.
type StationView struct {
	Name   string   `json:"name"`
	Type   string   `json:"type"`
	Count  int      `json:"count"`
	Visits *float64 `json:"visits,omitempty"` // single-class models with visits or routing
	// Throughput is the station's throughput Σ_c X_c·V_{c,k} (jobs per second through one
	// copy's share of the traffic, visitsAt: V = 1 per job where a class has demand and no
	// visit count is given, 0 where it has no demand — review: a station no class visits
	// showed the system throughput in the single-class table).
	Throughput  float64 `json:"throughput_per_s"`
	Utilization float64 `json:"utilization"`
	// UtilizationInfeasible flags an approximate utilisation per server above 1 at a
	// queueing station: impossible for the real network, so the approximation broke the
	// bound U ≤ 1 there (the value is the approximation's, not clamped; the result's error
	// estimate is raised to at least (U − 1)/U and a note says so).
	UtilizationInfeasible bool               `json:"utilization_infeasible,omitempty"`
	QueueLength           float64            `json:"queue_length"`
	ResidenceTime         float64            `json:"residence_time_s"`
	PerClass              []StationClassView `json:"per_class,omitempty"`
}

// View is the whole solution. Method, Exact, Reason and ErrorEstimate are the Result's
// labels (how the numbers were obtained; an approximation's estimated error).
type View struct {
	Model              string         `json:"model,omitempty"`
	Solver             string         `json:"solver"`
	Method             string         `json:"method"`
	Exact              bool           `json:"exact"`
	Reason             string         `json:"reason,omitempty"`
	ErrorEstimate      *ErrorEstimate `json:"error_estimate,omitempty"`
	Converged          bool           `json:"converged"`
	Iterations         int            `json:"iterations"`
	Residual           float64        `json:"residual"`
	SystemThroughput   float64        `json:"system_throughput_per_s"`
	SystemResponseTime float64        `json:"system_response_time_s"`
	Classes            []ClassView    `json:"classes"`
	Stations           []StationView  `json:"stations"`
}

// NewView builds the JSON/table view of r for model m.
func NewView(name string, m *Model, r *Result) View {
	v := View{Model: name, Solver: r.Solver, Method: r.Method, Exact: r.Exact, Reason: r.Reason, ErrorEstimate: r.ErrorEstimate, Converged: r.Status.Converged, Iterations: r.Status.Iterations,
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
		sv.ResidenceTime = stationResidence(m, r, k)
		for c := range m.Classes {
			sv.Throughput += r.Throughput[c] * visitsAt(m, c, k)
		}
		sv.UtilizationInfeasible = !r.Exact && s.Kind != Delay && sv.Utilization > 1+1e-12
		if m.Visits != nil && len(m.Classes) == 1 {
			v := m.Visits[0][k]
			sv.Visits = &v
		}
		if len(m.Classes) > 1 {
			for c, cl := range m.Classes {
				var vp *float64
				if m.Visits != nil {
					vp = &m.Visits[c][k]
				}
				sv.PerClass = append(sv.PerClass, StationClassView{Class: cl.Name, Visits: vp, Throughput: r.Throughput[c] * visitsAt(m, c, k),
					Utilization: r.Utilization[k][c], QueueLength: r.QueueLength[k][c], ResidenceTime: r.Residence[k][c]})
			}
		}
		v.Stations = append(v.Stations, sv)
	}
	return v
}

// visitsAt is V_{c,k}, class c's visits to station k per job: the model's visit count when it
// has one, else 1 where the class has demand there and 0 where it has none (a class with
// demand 0 never passes through the station, so its throughput there, X_c·V_{c,k}, is 0 —
// hostile review: an unvisited station showed the class's system throughput).
func visitsAt(m *Model, c, k int) float64 {
	if m.Visits != nil {
		return m.Visits[c][k]
	}
	if m.Demand[c][k] > 0 {
		return 1
	}
	return 0
}

// stationResidence is StationView.ResidenceTime of station k: throughput-weighted over the
// classes that visit it, or, when no job passes through, the plain mean over those classes.
func stationResidence(m *Model, r *Result, k int) float64 {
	xr, x, sum, n := 0.0, 0.0, 0.0, 0
	for c := range m.Classes {
		if visitsAt(m, c, k) <= 0 {
			continue
		}
		xr += r.Throughput[c] * r.Residence[k][c]
		x += r.Throughput[c]
		sum += r.Residence[k][c]
		n++
	}
	switch {
	case x > 0:
		return xr / x
	case n > 0:
		return sum / float64(n)
	}
	return 0
}

// Describe is Result.Describe of the labels the view carries (method, exact, reason,
// error estimate), for a table title.
func (v View) Describe() string {
	r := Result{Method: v.Method, Exact: v.Exact, Reason: v.Reason, ErrorEstimate: v.ErrorEstimate}
	return r.Describe()
}
