package sim

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/qn"
)

// ProductFormNotes lists why the simulated network is not one the analytic solvers are
// exact for (BCMP product form), so that a user comparing the two knows which differences
// to expect: FCFS stations whose classes have different mean service times per visit,
// non-exponential service at an FCFS station, and fork/join nodes. Nil when the solution
// is exact in distribution for every mean the solvers report.
func (cfg Config) ProductFormNotes(m *qn.Model) []string {
	var notes []string
	for k, st := range m.Stations {
		if st.Kind != qn.Queue && st.Kind != qn.MultiServer {
			continue
		}
		if cfg.Discipline[st.Name] == PS {
			continue
		}
		lo, hi := math.Inf(1), 0.0
		for c := range m.Classes {
			d := m.Demand[c][k]
			if d == 0 {
				continue
			}
			v := 1.0
			if m.Visits != nil && m.Visits[c][k] > 0 {
				v = m.Visits[c][k]
			}
			lo, hi = math.Min(lo, d/v), math.Max(hi, d/v)
		}
		if hi > lo*(1+1e-9) {
			notes = append(notes, fmt.Sprintf("station %q is FCFS with class-dependent mean service times (%.3g … %.3g s): not product form, the analytic answer is approximate there (--discipline %s=ps makes it exact)", st.Name, lo, hi, st.Name))
		}
		if d, ok := cfg.Service[st.Name]; ok {
			if _, exp := d.(Exponential); !exp {
				notes = append(notes, fmt.Sprintf("station %q is FCFS with %v service: only exponential FCFS service is product form", st.Name, d))
			}
		}
	}
	for _, fj := range m.ForkJoins {
		notes = append(notes, fmt.Sprintf("fork/join %q: the analytic answer is the fork/join MVA approximation", fj.Name))
	}
	return notes
}
