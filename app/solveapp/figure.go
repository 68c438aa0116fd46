package solveapp

import (
	"math"

	"github.com/clusterperf/clusterperf/report"
)

// Figure is the one model's picture for the --report page: each station's utilization per
// server, the bottleneck (highest among the queueing stations, within 1e-9 relative)
// highlighted, a dotted line at 1 (saturation). No stations: no figure.
func (r *Solution) Figure() ([]report.Panel, error) {
	var names []string
	var u []float64
	var hl []int
	umax := -1.0
	for _, st := range r.Stations {
		if st.Type != "delay" && st.Utilization > umax {
			umax = st.Utilization
		}
	}
	for i, st := range r.Stations {
		names, u = append(names, st.Name), append(u, st.Utilization)
		if st.Type != "delay" && st.Utilization >= umax-1e-9*math.Abs(umax) {
			hl = append(hl, i)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	p, err := report.Bars("Utilization per server (bottleneck highlighted; dotted: saturation)", "utilization", names, u, hl, 1)
	return []report.Panel{p}, err
}
