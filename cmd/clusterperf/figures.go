package main

import (
	"math"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/report"
)

// fitDataFigure is `fit DATA.csv --plot` (issue 29; what Extra-P shows first): time against
// p on log–log axes — every measured run (replicates visible as separate points), the
// chosen model over the measured range and on to the largest asked or sized p, its 95 %
// interval as a band (where the data give one), the spread of the plausible alternative
// models as a second band, and the backtest's held-out run (ring) beside what the model
// fitted without it predicted there (cross). The bands come from scaling.Result.Predict,
// the same call the table's predictions use.
func fitDataFigure(r *fitapp.ScalingResult) ([]report.Panel, error) { return r.DataFigure() }

// fitDataPlot draws fitDataFigure to path (nothing when path is "").
func fitDataPlot(path string, r *fitapp.ScalingResult) error {
	if path == "" {
		return nil
	}
	panels, err := fitDataFigure(r)
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

// appFigurer is figurer for a result of an app package (Figure exported).
type appFigurer interface {
	Figure() ([]report.Panel, error)
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
