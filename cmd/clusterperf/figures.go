package main

import (
	"math"
	"path/filepath"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
)

// fitDataFigure is `fit DATA.csv --plot` (issue 29; what Extra-P shows first): time against
// p on log–log axes — every measured run (replicates visible as separate points), the
// chosen model over the measured range and on to the largest asked or sized p, its 95 %
// interval as a band (where the data give one), the spread of the plausible alternative
// models as a second band, and the backtest's held-out run (ring) beside what the model
// fitted without it predicted there (cross). The bands come from scaling.Result.Predict,
// the same call the table's predictions use.
func fitDataFigure(d *scaling.Data, fr *scaling.Result, r *extrapolateResult) ([]report.Panel, error) {
	return scalingFigure(filepath.Base(d.Name), d.Points, fr, r.Predictions, r.Sizing, r.Backtest)
}

// fitDataPlot draws fitDataFigure to path (nothing when path is "").
func fitDataPlot(path string, d *scaling.Data, fr *scaling.Result, r *extrapolateResult) error {
	if path == "" {
		return nil
	}
	panels, err := fitDataFigure(d, fr, r)
	if err != nil {
		return err
	}
	return report.SaveFigure(path, panels...)
}

// scalingFigure is app.ScalingFigure (fit DATA.csv's drawing, shared with history).
var scalingFigure = app.ScalingFigure

// figurer is a result with a figure for the --report page when the command drew no plot
// (solve without --sweep, simulate, queue, pmva: commands without --plot), so every page
// shows a picture of its answer.
type figurer interface {
	figure() ([]report.Panel, error)
}

// figure: each station's utilization per server, the bottleneck (highest among the
// queueing stations) highlighted, a dotted line at 1 (saturation).
func (r *solveResult) figure() ([]report.Panel, error) {
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

// figure: the simulated utilizations (rows "U station") with the analytic ones beside.
func (r *simulateResult) figure() ([]report.Panel, error) {
	if r.Report == nil {
		return nil, nil
	}
	var names []string
	var u []float64
	for _, row := range r.Rows {
		if len(row.Quantity) > 2 && row.Quantity[:2] == "U " {
			names, u = append(names, row.Quantity[2:]), append(u, row.Simulated)
		}
	}
	if len(names) > 0 {
		p, err := report.Bars("Simulated utilization per station (dotted: saturation)", "utilization", names, u, nil, 1)
		return []report.Panel{p}, err
	}
	// no station rows (an SPMD program): each quantity's relative difference analytic −
	// simulated, those outside the simulation's 95 % interval highlighted
	var hl []int
	for _, row := range r.Rows {
		if row.RelError == nil {
			continue
		}
		if row.Inside != nil && !*row.Inside {
			hl = append(hl, len(names))
		}
		names, u = append(names, row.Quantity), append(u, 100*math.Abs(*row.RelError))
	}
	if len(names) == 0 {
		return nil, nil
	}
	p, err := report.Bars("|analytic − simulated| / simulated per quantity (outside the 95 % interval highlighted)", "%", names, u, hl, 0)
	return []report.Panel{p}, err
}

// figure: the mean response time split into service and waiting.
func (r *queueResult) figure() ([]report.Panel, error) {
	p, err := report.Bars(r.Model+": mean response time = service + waiting", "s", []string{"service", "waiting", "response"},
		[]float64{r.ResponseTime - r.WaitingTime, r.WaitingTime, r.ResponseTime}, []int{1}, 0)
	return []report.Panel{p}, err
}

// figure: the predicted time and speedup against the number of workers.
func (r *pmvaResult) figure() ([]report.Panel, error) {
	t := report.Series{Name: "predicted time"}
	s := report.Series{Name: "speedup (eq. 6.8)"}
	ideal := report.Series{Name: "ideal speedup p", Dashed: true}
	for _, pt := range r.Results {
		x := float64(pt.P)
		t.X, t.Y = append(t.X, x), append(t.Y, pt.Time)
		s.X, s.Y = append(s.X, x), append(s.Y, pt.Speedup)
		ideal.X, ideal.Y = append(ideal.X, x), append(ideal.Y, x)
	}
	if len(t.X) == 0 {
		return nil, nil
	}
	logx := len(t.X) > 1 && t.X[len(t.X)-1]/t.X[0] > 16
	return []report.Panel{
		{Title: "Predicted time against workers", XLabel: "workers p", YLabel: "s", LogX: logx, Series: []report.Series{t}},
		{Title: "Speedup against workers", XLabel: "workers p", YLabel: "speedup", LogX: logx, Series: []report.Series{s, ideal}},
	}, nil
}
