package fitapp

import (
	"path/filepath"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
)

// Figure is `fit DATA.csv --plot` (issue 29; what Extra-P shows first): time against p on
// log–log axes — every measured run (replicates visible as separate points), the chosen
// model over the measured range and on to the largest asked or sized p, its 95 % interval
// as a band (where the data give one), the spread of the plausible alternative models as a
// second band, and the backtest's held-out run (ring) beside what the model fitted without
// it predicted there (cross). The bands come from scaling.Result.Predict, the same call the
// table's predictions use (app.ScalingFigure, shared with history).
func (r *ScalingResult) Figure() ([]report.Panel, error) {
	d := r.Data()
	return app.ScalingFigure(filepath.Base(d.Name), d.Points, r.Fit, r.Predictions, r.Sizing, r.Backtest)
}
