package pipelineapp

import (
	"strings"

	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
)

// Figure is the pipeline's --plot: the predicted time against p (of the fitted model when
// constants were fitted), one line per bottleneck regime so the regions show (each
// starting where the previous one ended), the sizes whose data overflow node memory as
// points, and the measured runs as points.
func (r *Result) Figure() ([]report.Panel, error) {
	p := report.Panel{Title: "Predicted run time by cluster size", XLabel: "cluster size p", YLabel: "time (s)"}
	p.Series = regimes(r.points)
	var mem report.Series
	mem.Name, mem.Points = "memory exceeded (paging)", true
	for _, pt := range r.points {
		if pt.MemoryExceeded {
			mem.X = append(mem.X, float64(pt.P))
			mem.Y = append(mem.Y, pt.Time)
		}
	}
	if len(mem.X) > 0 {
		p.Series = append(p.Series, mem)
	}
	if len(r.meas) > 0 {
		s := report.Series{Name: "measured", Points: true}
		for _, mt := range r.meas {
			s.X = append(s.X, float64(mt.P))
			s.Y = append(s.Y, mt.Time)
		}
		p.Series = append(p.Series, s)
	}
	return []report.Panel{p}, nil
}

// regimes are the points' times as one line per bottleneck regime (the stages' bottlenecks
// joined), in the order the regimes first appear.
func regimes(pts []pipeline.Point) []report.Series {
	var order []string
	seg := map[string]*report.Series{}
	for _, pt := range pts {
		var parts []string
		for _, st := range pt.Stages {
			parts = append(parts, st.Stage+": "+st.Bottleneck)
		}
		key := strings.Join(parts, ", ")
		s, ok := seg[key]
		if !ok {
			s = &report.Series{Name: key}
			if n := len(order); n > 0 { // start where the previous regime ended
				prev := seg[order[n-1]]
				s.X = append(s.X, prev.X[len(prev.X)-1])
				s.Y = append(s.Y, prev.Y[len(prev.Y)-1])
			}
			seg[key] = s
			order = append(order, key)
		}
		s.X = append(s.X, float64(pt.P))
		s.Y = append(s.Y, pt.Time)
	}
	out := make([]report.Series, len(order))
	for i, k := range order {
		out[i] = *seg[k]
	}
	return out
}
