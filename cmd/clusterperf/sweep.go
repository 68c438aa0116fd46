package main

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

func runSweep(m *qn.Model, o solveOptions, opt qn.AMVAOptions, stdout io.Writer) error {
	p, vals, err := qn.ParseSweep(o.sweep, m)
	if err != nil {
		return badInput(err)
	}
	pts, err := qn.Sweep(m, p, vals, o.solver, opt, progressFunc(o.progress, "sweep"))
	if err != nil {
		return libError(err)
	}
	out := newSweepResult(m, p, o.solver, pts)
	if out.solved == 0 {
		return finding(fault.ErrSaturated, fmt.Errorf("--sweep %s: no point of the sweep has a steady state (%s); nothing printed, no plot written", o.sweep, out.Points[0].Finding))
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot != "" {
		return sweepPlot(o.plot, out)
	}
	return nil
}

// sweepRes is the sweep's result with what the renderers need besides the JSON value.
type sweepRes struct {
	sweepResult
	solved int
}

func newSweepResult(m *qn.Model, p qn.SweepParam, solver string, pts []qn.SweepPoint) *sweepRes {
	out := &sweepRes{sweepResult: sweepResult{Parameter: p.Label, Solver: solver, Notes: []string{}}}
	for _, c := range m.Classes {
		out.Classes = append(out.Classes, c.Name)
	}
	unconverged := 0
	for _, pt := range pts {
		sp := sweepPoint{Value: pt.Value, Bounds: newSweepBounds(pt.Bounds)}
		var sat *qn.SaturationError
		switch {
		case errors.As(pt.Err, &sat):
			sp.Finding = sat.Error()
		case pt.Err != nil:
			sp.Finding = pt.Err.Error()
		case pt.Result != nil:
			r := pt.Result
			for c, name := range out.Classes {
				sp.Classes = append(sp.Classes, sweepClass{name, r.Throughput[c], r.ResponseTime[c]})
			}
			sp.Status = &sweepStatus{r.Solver, r.Status.Converged, r.Status.Iterations, r.Status.Residual}
			if r.Status.Converged {
				out.solved++
			} else {
				unconverged++
			}
		}
		out.Points = append(out.Points, sp)
	}
	if unconverged > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d points did not converge (status.converged false): their values are the last iterate", unconverged))
	}
	return out
}

func newSweepBounds(b *qn.Bounds) *sweepBounds {
	if b == nil {
		return nil
	}
	sb := &sweepBounds{XUpperABA: b.XUpperABA, RLowerABA: b.RLowerABA}
	if !math.IsNaN(b.XLowerBJB) {
		x0, x1, r0, r1 := b.XLowerBJB, b.XUpperBJB, b.RLowerBJB, b.RUpperBJB
		sb.XLowerBJB, sb.XUpperBJB, sb.RLowerBJB, sb.RUpperBJB = &x0, &x1, &r0, &r1
	}
	return sb
}

func (r *sweepRes) NoteLines() []string { return r.Notes }

// Tables: one "sweep" table, a row per swept value.
func (r *sweepRes) Tables() []*report.Table {
	t := &report.Table{Name: "sweep", Title: fmt.Sprintf("Sweep of %s (solver %s)", r.Parameter, r.Solver), Header: []string{"value"}}
	for _, c := range r.Classes {
		t.Header = append(t.Header, "throughput_per_s_"+c, "response_time_s_"+c)
	}
	bounds := len(r.Points) > 0 && r.Points[0].Bounds != nil
	if bounds {
		t.Header = append(t.Header, "throughput_upper_aba_per_s", "throughput_lower_bjb_per_s", "throughput_upper_bjb_per_s", "response_time_lower_aba_s", "response_time_lower_bjb_s", "response_time_upper_bjb_s")
	}
	t.Header = append(t.Header, "note")
	for _, pt := range r.Points {
		row := []any{pt.Value}
		for c := range r.Classes {
			if pt.Classes == nil {
				row = append(row, "", "")
				continue
			}
			row = append(row, pt.Classes[c].Throughput, pt.Classes[c].ResponseTime)
		}
		if bounds {
			b := pt.Bounds
			row = append(row, b.XUpperABA, optNum(b.XLowerBJB), optNum(b.XUpperBJB), b.RLowerABA, optNum(b.RLowerBJB), optNum(b.RUpperBJB))
		}
		note := pt.Finding
		if pt.Status != nil && !pt.Status.Converged {
			note = "not converged"
		}
		t.Add(append(row, note)...)
	}
	return []*report.Table{t}
}

func optNum(p *float64) any {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func sweepPlot(path string, r *sweepRes) error {
	xp := report.Panel{Title: "Throughput", XLabel: r.Parameter, YLabel: "jobs/s"}
	rp := report.Panel{Title: "Response time", XLabel: r.Parameter, YLabel: "s"}
	for c, name := range r.Classes {
		xs, rs := report.Series{Name: "X " + name}, report.Series{Name: "R " + name}
		for _, pt := range r.Points {
			if pt.Classes != nil {
				xs.X, xs.Y = append(xs.X, pt.Value), append(xs.Y, pt.Classes[c].Throughput)
				rs.X, rs.Y = append(rs.X, pt.Value), append(rs.Y, pt.Classes[c].ResponseTime)
			}
		}
		xp.Series, rp.Series = append(xp.Series, xs), append(rp.Series, rs)
	}
	if len(r.Points) > 0 && r.Points[0].Bounds != nil {
		xp.Series = append(xp.Series, boundSeries(r.Points, "ABA upper", func(b *sweepBounds) *float64 { return &b.XUpperABA })...)
		rp.Series = append(rp.Series, boundSeries(r.Points, "ABA lower", func(b *sweepBounds) *float64 { return &b.RLowerABA })...)
		xp.Series = append(xp.Series, boundSeries(r.Points, "BJB upper", func(b *sweepBounds) *float64 { return b.XUpperBJB })...)
		xp.Series = append(xp.Series, boundSeries(r.Points, "BJB lower", func(b *sweepBounds) *float64 { return b.XLowerBJB })...)
		rp.Series = append(rp.Series, boundSeries(r.Points, "BJB lower", func(b *sweepBounds) *float64 { return b.RLowerBJB })...)
		rp.Series = append(rp.Series, boundSeries(r.Points, "BJB upper", func(b *sweepBounds) *float64 { return b.RUpperBJB })...)
	}
	return report.SaveFigure(path, xp, rp)
}

// boundSeries is one dashed bound line (none when the bound does not apply).
func boundSeries(pts []sweepPoint, name string, get func(*sweepBounds) *float64) []report.Series {
	s := report.Series{Name: name, Dashed: true}
	for _, pt := range pts {
		if v := get(pt.Bounds); v != nil {
			s.X, s.Y = append(s.X, pt.Value), append(s.Y, *v)
		}
	}
	if len(s.X) == 0 {
		return nil
	}
	return []report.Series{s}
}
