package explore

import (
	"context"
	"fmt"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/pipelineapp"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// recommend runs the pipeline command's Run (pipelineapp.Run) on the point's model over
// p = 1 … pmax and sets the best configuration to its recommendation (sizing's default rule),
// with the command line that gives the same answer: the model file itself when no slider of
// the model moved, else the file File writes.
func (pm *pipelineModel) recommend(ctx context.Context, r *Result, v Values, m *pipeline.Model, pmax int) (*sizing.Advice, error) {
	ps := make([]int, pmax)
	for i := range ps {
		ps[i] = i + 1
	}
	res, err := pipelineapp.Run(ctx, pipelineapp.Request{Model: m, P: ps, Sizing: app.DefaultSizing()})
	if err != nil {
		return nil, err
	}
	file := pm.path
	for _, p := range pm.Params() {
		if p.Group != "configuration" && p.Group != "sweep" && v[p.ID] != p.Value {
			_, file, _ = pm.File(v)
		}
	}
	r.Command = []string{"pipeline", file, "--p", fmt.Sprintf("1:%d", pmax)}
	a := res.Sizing
	c := a.Recommended
	r.Best = fmt.Sprintf("p = %d: %.4g s (%s rule over p ≤ %d, as the pipeline command sizes: %s)", c.Config.P, c.Config.TimeS, a.Rule, pmax, c.Reason)
	r.Values["best_p"], r.Values["best_time_s"] = float64(c.Config.P), c.Config.TimeS
	r.Tables = append(r.Tables, htmlreport.FromTables([]*report.Table{app.TradeOffTable(a, "Trade-off around the recommendation")})...)
	r.Notes = append(r.Notes, a.Notes...)
	return a, nil
}
