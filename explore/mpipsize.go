package explore

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/mpipapp"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
)

// request is the mpip command's request at the point v (mpipapp.Request) and its command
// line: the reports with the point's network as --latency and --bandwidth, or the CSV of
// collected values (with the network's factors ≠ 1, the file File writes); with a
// prediction, --predict over the by-P charts' P values (grid), so the recommended P is the
// command's sizing of the same measured and predicted times. Intervals are not needed for
// the sizing: one Monte Carlo sample (the command's default is more; the sizing is the same).
func (m *mpipModel) request(v Values, cur int) (mpipapp.Request, []string) {
	q := mpipapp.Request{Samples: 1, Seed: 1, Sizing: app.DefaultSizing()}
	args := []string{"mpip"}
	runs, _ := m.network(v)
	if m.perRun {
		q.Collected = []mpipapp.Collected{{File: m.csvFile, Rows: runs}}
		file := m.csvFile
		if v["latency"] != 1 || v["bandwidth"] != 1 {
			_, file, _ = m.File(v)
		}
		args = append(args, file)
	} else {
		f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		q.Reports = m.reps
		q.Network = mpipapp.ConstNetwork("latency/bandwidth", v["latency"], v["bandwidth"])
		args = append(append(args, m.paths...), "--latency", f(v["latency"]), "--bandwidth", f(v["bandwidth"]))
	}
	if m.predict && len(mpipapp.Classes(q.Collected)) <= 1 {
		q.Predict = m.grid(max(int(v["p_max"]), 4), cur)
		ps := make([]string, len(q.Predict))
		for i, p := range q.Predict {
			ps[i] = strconv.Itoa(p)
		}
		args = append(args, "--predict", strings.Join(ps, ","))
	}
	return q, args
}

// recommend sets the best configuration of the point from the mpip command's own Run
// (mpipapp.Run: the sizing rule over the measured and predicted wall times, and its refusals:
// no size from runs of different arguments, i.e. weak scaling, or of different programs;
// none without a prediction, which the command makes only with --predict). It returns the
// recommended P, or 0 when there is none.
func (m *mpipModel) recommend(ctx context.Context, r *Result, v Values, cur mpipPoint) (int, error) {
	q, args := m.request(v, cur.P)
	res, err := mpipapp.Run(ctx, q)
	if err != nil {
		return 0, err
	}
	r.Command = args
	commandAnswer(r, res, cur)
	switch {
	case res.Sizing != nil:
		c := res.Sizing.Recommended.Config
		r.Best = fmt.Sprintf("P = %d: %.4g s (%s rule over the measured runs and the predictions at P ≤ %d, as the mpip command sizes: %s); at P = %d: %.4g s",
			c.P, c.TimeS, res.Sizing.Rule, q.Predict[len(q.Predict)-1], res.Sizing.Recommended.Reason, cur.P, cur.Res.AppTime.Model)
		r.Values["best_p"], r.Values["best_wall_time_s"] = float64(c.P), c.TimeS
		r.Tables = append(r.Tables, htmlreport.FromTables([]*report.Table{app.TradeOffTable(res.Sizing, "Sizing on measured and predicted wall times")})...)
		r.Notes = append(r.Notes, res.Sizing.Notes...)
		return c.P, nil
	case res.NoSizing != "":
		r.Best = "no recommended P: " + res.NoSizing
		r.Warnings = append(r.Warnings, "no sizing: "+res.NoSizing)
	case len(mpipapp.Classes(q.Collected)) > 1:
		cl := mpipapp.Classes(q.Collected)
		r.Best = fmt.Sprintf("no recommended P: the collected values hold %d classes (%s); the mpip command forecasts and sizes one class's rows per call", len(cl), strings.Join(cl, ", "))
	default:
		r.Best = fmt.Sprintf("no recommended P: the mpip command sizes with --predict, which needs runs at three or more different P > 1 (these runs have %d)", mpipapp.DistinctP(m.runs))
	}
	return 0, nil
}

// commandAnswer makes the point say the mpip command's answer from the same Run (newuser7
// P1-1): its summary as the first note, its limiting factor (answer fact "limiting", from the
// measured runs: MPI share and largest operation, waits included) as the bottleneck, and at
// an unmeasured P its wall time: the forecast of the kind the command chose
// (mpipapp.Result.Chosen, the number its answer states). The 004 model's value and largest
// component stay beside it (model_wall_time_s, a note): the 004 model does not see waits.
func commandAnswer(r *Result, res *mpipapp.Result, cur mpipPoint) {
	res.SetAnswer()
	a := res.TheAnswer()
	r.Notes = append([]string{"the mpip command's answer: " + a.Summary}, r.Notes...)
	if lim, ok := a.Fact("limiting"); ok && lim.Text != "" {
		r.Notes = append(r.Notes, "the 004 model's largest component: "+r.Bottleneck+"; the 004 model counts wait operations (Iprobe, Wait, …) as MPI time like any other, so it cannot say the ranks wait")
		r.Bottleneck = lim.Text + " (the mpip command's limiting factor, from the measured runs)"
	}
	if cur.Measured {
		return
	}
	for _, c := range res.Chosen() {
		if c.P != cur.P {
			continue
		}
		model := r.Values["wall_time_s"]
		r.Values["model_wall_time_s"] = model
		r.Values["wall_time_s"] = c.TimeS
		if c.Kind != mpip.KindWallTime {
			return // the 004 route: the point's own solve, its interval from more samples
		}
		r.Values["model_wall_time_low_s"], r.Values["model_wall_time_high_s"] = r.Values["wall_time_low_s"], r.Values["wall_time_high_s"]
		r.Values["wall_time_low_s"], r.Values["wall_time_high_s"] = c.LowS, c.HighS
		r.Method = "the mpip command's forecast: the measured wall time per process extrapolated directly in P (mpipapp.Run, forecast kind wall_time, chosen on the leave-one-out backtest); the charts show the 004 queueing model with extrapolated inputs (mpip.Predict)"
		r.Exact = false
		r.Notes = append(r.Notes, fmt.Sprintf("at P = %d the 004 model with extrapolated inputs gives %.4g s (model_wall_time_s) against the command's %.4g s (%s %.4g … %.4g s); the command forecasts by wall_time because it erred less on the backtest", cur.P, model, c.TimeS, c.Interval, c.LowS, c.HighS))
		if ch := res.ForecastChoice; ch != nil {
			for _, k := range ch.Kinds {
				if k.Kind == c.Kind && k.BacktestMaxAbsRelError != nil {
					r.ErrorEstimate = map[string]any{"rel_error": *k.BacktestMaxAbsRelError, "backtest_rel_errors": k.BacktestRelErrors,
						"against": fmt.Sprintf("the measured runs: largest |rel_error| of the direct wall-time extrapolation over the leave-one-out backtest (%d splits), as the mpip command computes it; %s %.4g … %.4g s, not an interval", ch.Splits, c.Interval, c.LowS, c.HighS)}
				}
			}
		}
		return
	}
}
