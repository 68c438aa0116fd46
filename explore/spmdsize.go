package explore

import (
	"context"
	"fmt"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/speedupapp"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/spmd"
)

// recommend runs the speedup command's Run (speedupapp.Run) on the point's model over the
// search grid p ≤ p_max, d ≤ d_max, and sets the best configuration to its recommendation
// (sizing's default rule), with the command line that gives the same answer: the model file
// itself when no phase slider moved, else the file File writes. It returns the surface, the
// recommended point and whether there is one.
func (s *spmdModel) recommend(ctx context.Context, r *Result, v Values, m *spmd.Model, ps, ds []int) (*speedupapp.Result, spmd.Point, bool, error) {
	res, _, err := speedupapp.Run(ctx, speedupapp.Request{Model: m, P: ps, D: ds, Sizing: app.DefaultSizing()})
	if ctx.Err() != nil {
		return nil, spmd.Point{}, false, ctx.Err() // a partial surface is no answer here
	}
	if err != nil {
		return nil, spmd.Point{}, false, err
	}
	file := s.path
	for _, p := range s.Params() {
		if p.Group != "configuration" && p.Group != "sweep" && v[p.ID] != p.Value {
			_, file, _ = s.File(v)
		}
	}
	r.Command = []string{"speedup", file, "--p", fmt.Sprintf("1:%d", ps[len(ps)-1]), "--d", fmt.Sprintf("1:%d", ds[len(ds)-1])}
	if res.Sizing == nil {
		r.Best = "no recommended configuration"
		return res, spmd.Point{}, false, nil
	}
	c := res.Sizing.Recommended
	var best spmd.Point
	for _, pt := range res.Points {
		if pt.P == c.Config.P && pt.D == c.Config.D {
			best = pt
		}
	}
	r.Best = fmt.Sprintf("p = %d, d = %d: time %.4g s, speedup %.4g (%s rule over p ≤ %d, d ≤ %d, as the speedup command sizes: %s); least time p = %d, d = %d: %.4g s",
		c.Config.P, c.Config.D, c.Config.TimeS, c.Config.Speedup, res.Sizing.Rule, ps[len(ps)-1], ds[len(ds)-1], c.Reason, res.Best.P, res.Best.D, res.Best.Time)
	r.Values["best_p"], r.Values["best_d"], r.Values["best_time_s"] = float64(c.Config.P), float64(c.Config.D), c.Config.TimeS
	r.Tables = append(r.Tables, htmlreport.FromTables([]*report.Table{app.TradeOffTable(res.Sizing, "Sizing")})...)
	r.Notes = append(r.Notes, res.Sizing.Notes...)
	return res, best, true, nil
}
