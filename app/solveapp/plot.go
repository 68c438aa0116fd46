package solveapp

import (
	"math"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/report"
)

func sweepPlot(path string, r *Sweep) error {
	return report.SaveFigure(path, r.Figure()...)
}

// Figure is the sweep's figure (solve --plot, merge --plot, the explorer's qn charts):
// throughput and response time of every class against the swept value, every bound
// (clipped at the frame) and the measured points, N* marked on a population sweep, the capacity (exact largest sustainable rate) on an
// arrival-rate sweep.
func (r *Sweep) Figure() []report.Panel {
	xp := report.Panel{Title: "Throughput", XLabel: r.Parameter, YLabel: "jobs/s"}
	rp := report.Panel{Title: "Response time", XLabel: r.Parameter, YLabel: "s"}
	for c, name := range r.Classes {
		// every series its own colour (issue 29: one blue for all read as one curve); a
		// class's measurements share its curve's colour (Group)
		xs, rs := report.Series{Name: "X " + name, Group: name}, report.Series{Name: "R " + name, Group: name}
		for _, pt := range r.Points {
			if pt.Classes != nil {
				xs.X, xs.Y = append(xs.X, pt.Value), append(xs.Y, pt.Classes[c].Throughput)
				rs.X, rs.Y = append(rs.X, pt.Value), append(rs.Y, pt.Classes[c].ResponseTime)
			}
		}
		xp.Series, rp.Series = append(xp.Series, xs), append(rp.Series, rs)
	}
	mx, mr := measuredSeries(r)
	xp.Series, rp.Series = append(xp.Series, mx...), append(rp.Series, mr...)
	bx, br := boundSeries(r)
	xp.Series, rp.Series = append(xp.Series, bx...), append(rp.Series, br...)
	if f, ok := r.Answer.Fact("saturation_population"); ok && f.Value != nil && r.Parameter == "population" {
		m := report.Mark{X: *f.Value, Label: "N* = " + report.Num(*f.Value)}
		xp.Marks, rp.Marks = []report.Mark{m}, []report.Mark{m}
	}
	if f, ok := r.Answer.Fact("max_arrival_rate_per_s"); ok && f.Value != nil && strings.HasPrefix(r.Parameter, "arrival_rate") {
		m := report.Mark{X: *f.Value, Label: "capacity = " + report.Num(*f.Value), Widen: true}
		xp.Marks, rp.Marks = append(xp.Marks, m), append(rp.Marks, m)
	}
	return []report.Panel{xp, rp}
}

// boundSeries are the bound lines: per bound name, class and side (lower, upper) one line
// for throughput and one for response time, each with its own colour and legend entry
// "<name> upper|lower bound[ (class)]" and one dash pattern per bound name; they do not
// stretch the y axis (Clip: an 18 s bound would squash a 0.1–4 s curve), so a bound
// beyond the frame is cut there and marked with a triangle; a bound without a finite value
// at a point is left out there.
func boundSeries(r *Sweep) (xs, rs []report.Series) {
	type key struct{ name, class string }
	var keys []key
	var kinds []string
	lines := map[key]*[4]report.Series{}
	for _, pt := range r.Points {
		for _, b := range pt.Bounds {
			k := key{b.Name, b.Class}
			l, ok := lines[k]
			if !ok {
				suffix := ""
				if len(r.Classes) > 1 {
					suffix = " (" + b.Class + ")"
				}
				if !slices.Contains(kinds, b.Name) {
					kinds = append(kinds, b.Name)
				}
				l = &[4]report.Series{}
				for i := range l {
					side := [4]string{"lower", "upper", "lower", "upper"}[i]
					l[i] = report.Series{Name: b.Name + " " + side + " bound" + suffix, Dash: slices.Index(kinds, b.Name) + 1, Clip: true}
				}
				lines[k], keys = l, append(keys, k)
			}
			vals := [4]*float64{&b.ThroughputLower, &b.ThroughputUpper, &b.ResponseTimeLower, b.ResponseTimeUpper}
			for i, v := range vals {
				if v != nil && !math.IsInf(*v, 0) && !math.IsNaN(*v) {
					l[i].X, l[i].Y = append(l[i].X, pt.Value), append(l[i].Y, *v)
				}
			}
		}
	}
	for _, k := range keys {
		for i, s := range lines[k] {
			if len(s.X) == 0 {
				continue
			}
			if i < 2 {
				xs = append(xs, s)
			} else {
				rs = append(rs, s)
			}
		}
	}
	return xs, rs
}

// measuredSeries are the measured points, one series per class and panel ("measured X c").
func measuredSeries(r *Sweep) (xs, rs []report.Series) {
	for _, name := range r.Classes {
		x := report.Series{Name: "measured X " + name, Points: true, Group: name}
		rt := report.Series{Name: "measured R " + name, Points: true, Group: name}
		for _, c := range r.Measured {
			if c.Class != name {
				continue
			}
			if c.MeasuredThroughput != nil {
				x.X, x.Y = append(x.X, c.Value), append(x.Y, *c.MeasuredThroughput)
			}
			if c.MeasuredResponseTime != nil {
				rt.X, rt.Y = append(rt.X, c.Value), append(rt.Y, *c.MeasuredResponseTime)
			}
		}
		if len(x.X) > 0 {
			xs = append(xs, x)
		}
		if len(rt.X) > 0 {
			rs = append(rs, rt)
		}
	}
	return xs, rs
}
