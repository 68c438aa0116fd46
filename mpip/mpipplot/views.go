package mpipplot

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/clusterperf/clusterperf/report"
)

// viewNames are 004's four validation views (appendix B "Validation View").
var viewNames = [4]string{"app (wall) time AT", "MPI time MT", "MPI wait time WT", "throughput X"}

// ViewErrors lists, per validation view, the relative errors (model − observed)/observed in
// percent by P of a class's runs (the calibrated model where there is one); a view whose
// observed value is 0 (004 prints #DIV/0!, e.g. WT at P = 1) has no point there.
func ViewErrors(runs []Run) [4][]Mark {
	var out [4][]Mark
	for _, r := range runs {
		m := r.Model
		if r.Calibrated != nil {
			m = r.Calibrated
		}
		if m == nil {
			continue
		}
		for k, v := range []float64{m.AppTime.Rel(), m.MPITime.Rel(), m.WaitTime.Rel(), m.Throughput.Rel()} {
			if !math.IsNaN(v) {
				out[k] = append(out[k], Mark{viewNames[k], float64(r.P), 100 * v})
			}
		}
	}
	return out
}

// viewPlot: the four views' errors by P, a zero line, and ±10 % and ±30 % (004's "scientific
// tolerance" and the "usual 30 % error performance" of QN models, §VII).
func viewPlot(runs []Run, class string) (*plot.Plot, error) {
	errs := ViewErrors(runs)
	if len(errs[0]) == 0 {
		return nil, nil
	}
	pl := plot.New()
	pl.Title.Text = "Validation views: model against measurement, relative error by P"
	if class != "" {
		pl.Title.Text += " (" + class + ")"
	}
	pl.X.Label.Text, pl.Y.Label.Text = "P (processes)", "(model − observed)/observed, %"
	pl.X.Scale = plot.LogScale{}
	var ps []int
	lo, hi := -35.0, 35.0
	for k, ms := range errs {
		if len(ms) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(xys(ms))
		if err != nil {
			return nil, err
		}
		l.Color, l.Width, s.Color, s.Radius = report.Color(k), vg.Points(1.5), report.Color(k), vg.Points(2.5)
		pl.Add(l, s)
		pl.Legend.Add(viewNames[k], l, s)
		for _, m := range ms {
			lo, hi = math.Min(lo, m.Y), math.Max(hi, m.Y)
		}
	}
	for _, m := range errs[0] {
		ps = append(ps, int(m.X))
	}
	x0, x1 := minMax(markXs(errs[0]))
	x0, x1 = x0/1.4, x1*1.4
	for _, b := range []float64{-30, -10, 10, 30} {
		l, _ := plotter.NewLine(plotter.XYs{{X: x0, Y: b}, {X: x1, Y: b}})
		l.Color, l.Width, l.Dashes = report.Color(6), vg.Points(0.5), []vg.Length{vg.Points(2), vg.Points(2)}
		pl.Add(l)
		if b == 10 {
			pl.Legend.Add("±10 %, ±30 % (Elliott (004) §VII)", l)
		}
	}
	zero, _ := plotter.NewLine(plotter.XYs{{X: x0, Y: 0}, {X: x1, Y: 0}})
	zero.Color, zero.Width = report.Color(6), vg.Points(0.8)
	pl.Add(zero)
	pl.X.Min, pl.X.Max = x0, x1
	pad := 0.06 * (hi - lo)
	pl.Y.Min, pl.Y.Max = lo-pad, hi+pad
	pl.X.Tick.Marker = valueTicks(ps)
	pl.Add(plotter.NewGrid())
	return pl, nil
}
