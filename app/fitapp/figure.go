package fitapp

import (
	"path/filepath"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
)

// DataFigure is the figure of fit DATA.csv (fit --plot, the explorer's fit chart): time
// against p on log–log axes with the measured runs, the chosen model and its 95 % interval,
// the plausible models' spread and the backtest's held-out run (app.ScalingFigure).
func (r *ScalingResult) DataFigure() ([]report.Panel, error) {
	d := r.Data()
	return app.ScalingFigure(filepath.Base(d.Name), d.Points, r.Fit, r.Predictions, r.Sizing, r.Backtest)
}
