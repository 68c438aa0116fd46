package qn

import (
	"fmt"
	"strings"
)

// classDependentFCFS names the queueing stations (single-server, multi-server or
// load-dependent, not declared processor sharing) at which the classes that visit them have
// different mean service times per visit S_{c,k} = D_{c,k}/V_{c,k}. BCMP's product form (and
// so the exactness of MVA) needs, at a FCFS station, one exponential service time for every
// class; processor sharing (type ps) and delay stations take any. Without visit counts the
// service time per visit is unknown, and no station is named (unknown reports whether some
// station's demands differ by class, so that the caller can say so).
func classDependentFCFS(m *Model) (names []string, unknown []string) {
	for k, st := range m.Stations {
		if st.Kind == Delay || st.PS {
			continue
		}
		first, diff := -1.0, false
		for c := range m.Classes {
			d := m.Demand[c][k]
			if m.Visits != nil {
				if m.Visits[c][k] == 0 {
					continue
				}
				d /= m.Visits[c][k]
			} else if d == 0 {
				continue
			}
			switch {
			case first < 0:
				first = d
			case !closeRel(d, first):
				diff = true
			}
		}
		switch {
		case diff && m.Visits != nil:
			names = append(names, fmt.Sprintf("%q", st.Name))
		case diff:
			unknown = append(unknown, fmt.Sprintf("%q", st.Name))
		}
	}
	return names, unknown
}

// closeRel reports whether a and b agree to 1e-12 relative.
func closeRel(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-12*max(a, b)
}

// labelProductForm decides whether an exact solver's result is exact for m: not when a FCFS
// station's service times differ by class (classDependentFCFS; MVA then solves the same
// network with processor sharing, an approximation of the FCFS one, without an error
// estimate); the note says which stations and what to do. Demands that differ by class
// without visit counts leave the label and add a note on the condition.
func labelProductForm(m *Model, res *Result) {
	if !res.Exact {
		return
	}
	names, unknown := classDependentFCFS(m)
	if len(names) > 0 {
		res.Exact = false
		res.Notes = append(res.Notes, fmt.Sprintf("not product form (BCMP): the service times per visit at %s differ by class, which FCFS does not allow; %s is exact for processor sharing there (declare type ps) and only an approximation for FCFS, without an error estimate: check it against `simulate`", strings.Join(names, ", "), res.Method))
	}
	if len(unknown) > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("exact only if the service time per visit is the same for every class at %s, or the station is processor sharing (declare type ps): the demands differ by class and the model gives no visits to tell (BCMP product form)", strings.Join(unknown, ", ")))
	}
}

// NotProductForm names the FCFS stations of m at which the classes' service times per visit
// differ (quoted), so that MVA's answer is not exact for m (BCMP); empty when m is product
// form as far as its visits tell.
func NotProductForm(m *Model) []string {
	names, _ := classDependentFCFS(m)
	return names
}
