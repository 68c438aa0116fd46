package main

import (
	"path/filepath"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/app/solveapp"
	"github.com/clusterperf/clusterperf/report"
)

// fitDataFigure is `fit DATA.csv --plot` (issue 29; what Extra-P shows first): time against
// p on log–log axes — every measured run (replicates visible as separate points), the
// chosen model over the measured range and on to the largest asked or sized p, its 95 %
// interval as a band (where the data give one), the spread of the plausible alternative
// models as a second band, and the backtest's held-out run (ring) beside what the model
// fitted without it predicted there (cross). The bands come from scaling.Result.Predict,
// the same call the table's predictions use.
func fitDataFigure(r *fitapp.ScalingResult) ([]report.Panel, error) {
	d := r.Data()
	return scalingFigure(filepath.Base(d.Name), d.Points, r.Fit, r.Predictions, r.Sizing, r.Backtest)
}

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

// figure is the one model's figure (solveapp.Solution.Figure).
func (r *solveResult) figure() ([]report.Panel, error) { return (*solveapp.Solution)(r).Figure() }
