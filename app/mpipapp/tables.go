package mpipapp

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/mpip/mpipplot"
	"github.com/clusterperf/clusterperf/report"
)

// NoteLines are the result's notes: its own, the program check's, the network's, each run's,
// the calibration's, the forecasts', the sizing's and the explanations' next steps.
func (r *Result) NoteLines() []string {
	out := slices.Clone(r.Notes)
	if r.Program != nil {
		out = append(out, r.Program.Notes...)
	}
	if r.Network != nil {
		out = append(out, r.Network.Notes...)
	}
	for _, run := range r.Runs {
		var notes []string
		if run.Summary != nil {
			notes = run.Summary.Notes
		}
		for _, n := range append(slices.Clone(notes), run.Notes...) {
			out = append(out, run.Label+": "+n)
		}
	}
	if c := r.Calibration; c != nil {
		out = append(out, c.Notes...)
	}
	ch := r.ForecastChoice
	for i, p := range r.Predictions {
		note := p.Note
		if ch != nil { // the answer says why there is no interval (ch.Runs < ch.RunsForInterval)
			note, _, _ = strings.Cut(note, "no interval: ")
			note = strings.TrimSuffix(note, "; ")
		}
		if note != "" {
			out = append(out, fmt.Sprintf("predicted P = %d: %s", p.P, note))
		}
		if m := p.Model; m != nil {
			direct := ""
			if i < len(r.WallTimeForecasts) {
				direct = fmt.Sprintf("; the forecasts table's wall_time_s %s s extrapolates the measured AT* directly (a third figure, the kind the backtest compares)", report.Num(r.WallTimeForecasts[i].Value))
			}
			out = append(out, fmt.Sprintf("predicted P = %d: across_p's row holds inputs extrapolated in P (Σ over ranks: app_time_s %s s, i.e. %s s per process) and at_model_s %s s, Elliott's (004) model solved with them%s",
				p.P, report.Num(p.Inputs.AppTime), report.Num(m.ExtrapolatedAppTimeS), report.Num(m.ModelAppTimeS), direct))
		}
	}
	if len(r.Forecasts)+len(r.Predictions) > 0 {
		out = append(out, "forecasts: model_method "+forecastMethods)
	}
	for _, f := range r.Forecasts {
		out = append(out, app.Prefixed(fmt.Sprintf("forecast P = %d", f.P), f.Notes)...)
		for _, n := range f.WallTime.Notes { // the table's spread: say when it has no width
			if strings.Contains(n, "zero width") {
				out = append(out, fmt.Sprintf("forecast P = %d: %s", f.P, n))
			}
		}
	}
	if ch != nil {
		out = append(out, fmt.Sprintf("forecast kinds: %s preferred: %s", ch.Used, ch.Reason))
		for _, n := range ch.Notes {
			if !strings.HasPrefix(n, "no prediction interval") || len(r.Chosen()) == 0 { // else the answer says it
				out = append(out, n)
			}
		}
	}
	if r.Sizing != nil {
		out = append(out, r.Sizing.Notes...)
	}
	return append(out, r.explanationSteps()...)
}

// explanationSteps are the next steps of the explanations, each once.
func (r *Result) explanationSteps() []string {
	var out []string
	for _, e := range r.Explanations {
		for _, s := range append(slices.Clone(e.Notes), e.NextSteps...) {
			if line := "next step: " + s; !slices.Contains(out, line) {
				out = append(out, line)
			}
		}
	}
	return out
}

// Tables: "across_p" (default; 004's spreadsheet; "profiles" without a network), "views" (observed against model per
// run), "trends", "profiles", "calibration", "forecasts", "forecast_kinds", "backtest",
// "explanations", "analysis", "trade_off".
func (r *Result) Tables() []*report.Table {
	t := acrossP(r.Runs, r.Predictions)
	t.Name, t.Title = "across_p", "Across P (Elliott's (004) spreadsheet): app_time_s, mpi_time_s, mpi_wait_s are Σ over the P ranks; at_* per process (measured AT* = App_Time/P, modelled AT = R·M/P)"
	tr := &report.Table{Name: "trends", Title: "Inputs extrapolated to each predicted P by package scaling (selected model; 95 % interval where scaling gives one)",
		Header: []string{"p", "input", "unit", "value", "interval95_low", "interval95_high", "model", "formula", "runs"}}
	for _, pr := range r.Predictions {
		for _, x := range pr.Quantities.List() {
			tr.Add(pr.P, x.Quantity, x.Unit, x.Value, app.OptNum(x.Interval95Low), app.OptNum(x.Interval95High), x.Model, x.Formula, x.Runs)
		}
	}
	out := []*report.Table{t, r.viewsTable(), tr, r.profilesTable(), r.calibrationTable(), r.forecastTable(), r.forecastKindsTable(), r.backtestTable(), r.explanationTable(), r.analysisTable()}
	if len(t.Rows) == 0 { // profiles only (no network): the profiles are the default table
		out[0], out[3] = out[3], out[0]
	}
	// The table format shows the answer's evidence: the spreadsheet across P (or the
	// profiles), the calibration, the forecasts, the explanations and the sizing; the
	// supporting tables (views: across_p's rel_errors by row; trends; profiles beside a
	// model: the answer names the limiting part; forecast kinds and backtest: the answer
	// names the route and its error; the appendix B analysis views) on request.
	for _, x := range out[1:] {
		switch x.Name {
		case "views", "trends", "profiles", "forecast_kinds", "backtest", "analysis":
			x.Detail = true
		}
	}
	if r.Sizing != nil {
		out = append(out, app.TradeOffTable(r.Sizing, "Sizing on measured and predicted wall times"))
	} else {
		out = append(out, &report.Table{Name: "trade_off", Title: "Sizing (with --predict)", Header: []string{"p"}})
	}
	return out
}

func (r *Result) viewsTable() *report.Table {
	v := &report.Table{Name: "views", Title: "Observed against Elliott's (004) model", Header: []string{"label", "p", "network", "view", "observed", "model", "rel_error"}}
	for _, run := range r.Runs {
		for _, m := range []struct {
			net string
			res *mpip.Result
		}{{"given", run.Model}, {"calibrated", run.Calibrated}} {
			if m.res == nil {
				continue
			}
			for _, x := range []struct {
				name string
				v    mpip.View
			}{{"app (wall) time AT, s", m.res.AppTime}, {"MPI time MT, s", m.res.MPITime}, {"MPI wait time WT, s", m.res.WaitTime}, {"throughput X, msg/s", mpip.View(m.res.Throughput)}} {
				v.Add(run.Label, run.P, m.net, x.name, x.v.Observed, x.v.Model, relCell(x.v))
			}
		}
	}
	return v
}

// analysisTable: Elliott's (004) appendix B "Analysis Views" of every run.
func (r *Result) analysisTable() *report.Table {
	t := &report.Table{Name: "analysis", Title: "Analysis views (Elliott's (004) appendix B): measured times aggregate and divided by P, M, P·M",
		Header: []string{"label", "p", "view", "divided_by", "app_time_s", "mpi_time_s", "non_mpi_time_s", "mpi_wait_s", "mpi_active_s"}}
	for _, run := range r.Runs {
		for _, v := range run.Analysis {
			t.Add(run.Label, run.P, v.View, v.Divisor, v.AppTime, v.MPITime, v.NonMPITime, v.MPIWait, v.MPIActive)
		}
	}
	return t
}

func (r *Result) profilesTable() *report.Table {
	t := &report.Table{Name: "profiles", Title: "Profiles (no network needed)", Header: []string{"file", "executable", "ranks", "mean_app_time_s", "mpi_share", "wait_share_of_mpi", "collective_share_of_mpi",
		"messages", "mean_size_bytes", "size_spread_decades", "mpi_imbalance", "compute_imbalance", "top_operations"}}
	for _, run := range r.Runs {
		p := run.Profile
		if p == nil {
			continue
		}
		var top []string
		for _, op := range p.Top {
			top = append(top, fmt.Sprintf("%s %.0f%%", op.Operation, 100*op.ShareOfMPI))
		}
		var mi, ci any = "", ""
		if p.Imbalance.Available {
			mi, ci = report.Magnitude(p.Imbalance.MPIImbalance), report.Magnitude(p.Imbalance.ComputeImbalance)
		}
		t.Add(filepath.Base(p.File), p.Executable, p.Ranks, p.MeanAppTimeS, report.Magnitude(p.MPIShare), report.Magnitude(p.WaitShareOfMPI), report.Magnitude(p.CollectiveShareOfMPI),
			p.Messages, p.MeanSizeBytes, p.SizeSpreadDecades, mi, ci, strings.Join(top, ", "))
	}
	return t
}

func (r *Result) calibrationTable() *report.Table {
	t := &report.Table{Name: "calibration", Title: "Calibration (--calibrate)", Header: []string{"label", "p", "mean_size_bytes", "implied_switch_delay_s", "observed_app_time_s", "model_app_time_s", "low_s", "high_s", "rel_error"}}
	c := r.Calibration
	if c == nil {
		return t
	}
	bw := "absorbed in the latency (not identifiable)"
	if c.BandwidthBytesPerS != nil {
		bw = report.Num(*c.BandwidthBytesPerS) + " bytes/s"
		if !c.BandwidthFitted {
			bw += " (given)"
		}
	}
	t.Title = fmt.Sprintf("Network calibrated to the wall times — kind %s (an explanation of these runs, not a prediction): latency %s s [%s … %s], interval_kind %s, bandwidth %s",
		c.Kind, report.Num(c.LatencyS), report.Num(c.LatencyLowS), report.Num(c.LatencyHighS), c.IntervalKind, bw)
	for _, x := range c.Runs {
		t.Add(x.Label, x.P, x.MeanSizeBytes, x.ImpliedSwitchDelayS, x.ObservedAppTimeS, x.ModelAppTimeS, x.ModelAppTimeLowS, x.ModelAppTimeHighS, report.Percent(x.RelError))
	}
	return t
}

// The forecasts table's model_method: how model_app_time_s was obtained. The wall time
// (wall_time_s) is the same direct AT* extrapolation whichever route the model takes.
const (
	MethodExtrapolated = "004_extrapolated_inputs" // M, L, D_k, D_{P+1} extrapolated in P, calibrated D_0, exact MVA at P
	MethodPowerLaws    = "004_power_laws"          // the profile's power laws in P with the given --latency/--bandwidth
	forecastMethods    = MethodExtrapolated + ": M, L, D_k, D_{P+1} extrapolated in P with the calibrated network; " + MethodPowerLaws + ": the profile's power laws in P with the network given by --latency/--bandwidth"
)

func (r *Result) forecastTable() *report.Table {
	t := &report.Table{Name: "forecasts", Title: "Forecasts per process: wall_time_s extrapolates the measured AT* in P (kind wall_time); model_app_time_s is 004's model (model_method: see the notes); spreads are ranges of plausible models, not confidence intervals",
		Header: []string{"p", "model_method", "wall_time_s", "wall_spread_low_s", "wall_spread_high_s", "model_app_time_s", "model_spread_low_s", "model_spread_high_s", "used_for_sizing", "interval"}}
	used, interval := "", ""
	if ch := r.ForecastChoice; ch != nil {
		used = ch.Used
		if ch.NoSizing != "" {
			used = "none (no sizing)"
		}
		interval = fmt.Sprintf("none: needs runs at ≥ %d different P (have %d)", ch.RunsForInterval, ch.Runs)
	}
	for _, f := range r.Forecasts {
		t.Add(f.P, MethodExtrapolated, f.WallTime.Value, f.WallTime.SpreadLow, f.WallTime.SpreadHigh, f.ModelAppTimeS, f.ModelAppTimeLowS, f.ModelAppTimeHighS, used, interval)
	}
	for i, p := range r.Predictions {
		if i >= len(r.WallTimeForecasts) || p.Result == nil {
			continue
		}
		w := r.WallTimeForecasts[i]
		lo, hi, iv := any(p.ATLow), any(p.ATHigh), "95 % Monte Carlo over the power laws' prediction intervals"
		if !p.Interval {
			lo, hi, iv = "", "", interval
		}
		t.Add(p.P, MethodPowerLaws, w.Value, w.SpreadLow, w.SpreadHigh, p.Result.AppTime.Model, lo, hi, used, iv)
	}
	return t
}

// forecastKindsTable: each forecast kind's backtest error and which one sizes the run.
func (r *Result) forecastKindsTable() *report.Table {
	t := &report.Table{Name: "forecast_kinds", Title: "Forecast kinds: backtest error on these runs and the one used for sizing",
		Header: []string{"kind", "forecast", "backtest_rel_errors", "backtest_max_abs_rel_error", "observed_in_spread", "used_for_sizing", "description"}, Left: true}
	ch := r.ForecastChoice
	if ch == nil {
		return t
	}
	if ch.NoSizing != "" {
		t.Title += fmt.Sprintf(" — none used: no sizing (see the notes); the preferred kind is %s (why: see the notes)", ch.Used)
	} else {
		t.Title += fmt.Sprintf(" — used: %s (why: see the notes)", ch.Used)
	}
	for _, k := range ch.Kinds {
		var maxAbs, in any = report.TextOnly("no backtest"), ""
		if k.BacktestMaxAbsRelError != nil {
			maxAbs = report.Percent(*k.BacktestMaxAbsRelError)
		}
		if k.BacktestInSpread != nil {
			in = fmt.Sprintf("%d of %d", *k.BacktestInSpread, ch.Splits)
		}
		t.Add(k.Kind, k.Forecast, report.List{Values: k.BacktestRelErrors, Percent: true}, maxAbs, in, k.UsedForSizing, k.Description)
	}
	return t
}

func (r *Result) backtestTable() *report.Table {
	t := &report.Table{Name: "backtest", Title: "Backtest: each measured P predicted from the others", Header: []string{"held_out_p", "from_p", "observed_app_time_s",
		"calibrated_rel_error", "forecast_wall_rel_error", "forecast_model_rel_error", "in_wall_spread", "in_model_spread"}}
	bt := r.Backtest
	if bt == nil {
		return t
	}
	t.Title += fmt.Sprintf(" (largest |rel_error| of the calibrated model %.1f %%)", 100*bt.MaxAbsRelError)
	for _, s := range bt.Splits {
		t.Add(s.HeldOutP, joinInts(s.FromP), s.ObservedAppTimeS, report.Percent(s.Calibrated.RelError), report.Percent(s.WallTimeRelError), report.Percent(s.ModelRelError),
			s.ObservedInWallTimeSpread, s.ObservedInModelSpread)
	}
	return t
}

// joinInts writes v space-separated: [16 32] → "16 32".
func joinInts(v []int) string { return strings.Trim(fmt.Sprint(v), "[]") }

// explanationTable: one row per finding (an assumption and its evidence) with the runs it
// concerns; the views each run misses are listed once, in the title (they are across_p's
// rel_error columns): a finding about the series (compute scaling) is one row, not one per run.
func (r *Result) explanationTable() *report.Table {
	t := &report.Table{Name: "explanations", Title: "Why the model misses (views beyond --explain-threshold)", Header: []string{"assumption", "p", "evidence"}, Left: true, Keys: 2}
	type key struct{ ass, evid string }
	var order []key
	ps := map[key][]string{}
	var missed []string
	for _, e := range r.Explanations {
		at := r.runName(e.Label, e.P)
		v := fmt.Sprintf("P = %s: %s %s", at, e.View, report.Percent(e.RelError))
		if !slices.Contains(missed, v) {
			missed = append(missed, v)
		}
		fs := e.Findings
		if len(fs) == 0 {
			fs = []mpip.Finding{{Evidence: "the profile contradicts none of the checked assumptions"}}
		}
		for _, f := range fs {
			k := key{f.Assumption, f.Evidence}
			if _, ok := ps[k]; !ok {
				order = append(order, k)
			}
			if !slices.Contains(ps[k], at) {
				ps[k] = append(ps[k], at)
			}
		}
	}
	if len(missed) > 0 {
		t.Title += ": " + joinViews(missed)
	}
	first := map[string]int{} // the assumptions in the order they first appear, their rows together
	for i, k := range order {
		if _, ok := first[k.ass]; !ok {
			first[k.ass] = i
		}
	}
	slices.SortStableFunc(order, func(a, b key) int { return first[a.ass] - first[b.ass] })
	for _, k := range order {
		t.Add(k.ass, strings.Join(ps[k], ", "), k.evid)
	}
	return t
}

// runName names a run in the explanations: its P ("16"), or "16 (label)" when another run
// has the same P (CSV rows of several classes).
func (r *Result) runName(label string, p int) string {
	n := 0
	for _, run := range r.Runs {
		if run.P == p {
			n++
		}
	}
	if n > 1 {
		return fmt.Sprintf("%d (%s)", p, label)
	}
	return fmt.Sprint(p)
}

// joinViews lists views ("P = 64: app_time -47.2%") naming each run once:
// "P = 64: app_time -47.2%, mpi_time -48.9%; P = 128: …".
func joinViews(vs []string) string {
	var b strings.Builder
	last := ""
	for _, v := range vs {
		p, rest, _ := strings.Cut(v, ": ")
		switch {
		case p == last:
			b.WriteString(", " + rest)
		case last != "":
			b.WriteString("; " + v)
		default:
			b.WriteString(v)
		}
		last = p
	}
	return b.String()
}

// relCell is a view's rel_error cell: "-" in text tables and empty in CSV when it is
// undefined (observed 0: 004's #DIV/0!), so the CSV column stays numeric.
func relCell(v mpip.View) any {
	if v.RelError == nil {
		return report.TextOnly("-")
	}
	return report.Percent(*v.RelError)
}

func acrossP(runs []*MeasuredRun, preds []mpip.Prediction) *report.Table {
	t := &report.Table{Header: []string{"p", "label", "app_time_s", "mpi_time_s", "mpi_wait_s", "messages", "mean_size_bytes", "d0_s", "dk_s", "compute_delay_s",
		"r_s", "x_per_s", "at_observed_s", "at_model_s", "at_rel_error", "mt_rel_error", "wt_rel_error", "x_rel_error", "at_low_s", "at_high_s"}}
	for _, r := range runs {
		m := r.Model
		if m == nil {
			continue
		}
		t.Add(r.P, r.Label, m.Inputs.AppTime, m.Inputs.MPITime, m.Inputs.MPIWait, m.Inputs.M, m.Inputs.L, m.Demands.D0, m.Demands.Dk, m.Demands.Compute,
			m.R, m.X, m.AppTime.Observed, m.AppTime.Model, relCell(m.AppTime), relCell(m.MPITime), relCell(m.WaitTime), relCell(mpip.View(m.Throughput)), "", "")
	}
	for _, p := range preds {
		m := p.Result
		var lo, hi any = report.TextOnly("none"), report.TextOnly("none")
		if p.Interval {
			lo, hi = p.ATLow, p.ATHigh
		}
		t.Add(p.P, "(extrapolated inputs)", m.Inputs.AppTime, m.Inputs.MPITime, "", m.Inputs.M, m.Inputs.L, m.Demands.D0, m.Demands.Dk, m.Demands.Compute,
			m.R, m.X, "", m.AppTime.Model, "", "", "", "", lo, hi)
	}
	return t
}

// PlotPanels draws the wall-time and component figures of each class (package mpipplot); what
// the wall-time panel clipped is added to the notes, so call it before rendering the result.
func (r *Result) PlotPanels() ([]report.Panel, error) {
	panels, notes, err := mpipplot.Panels(r.PlotInput())
	if err != nil {
		return nil, err
	}
	r.Notes = append(r.Notes, app.Prefixed("plot", notes)...)
	return panels, nil
}

// PlotInput is what the figures show: the runs, the predictions and forecasts, and ringed,
// the forecast the answer states (Chosen).
func (r *Result) PlotInput() mpipplot.Input {
	in := mpipplot.Input{Predictions: r.Predictions, Forecasts: r.Forecasts}
	for _, c := range r.Chosen() {
		in.Answer = append(in.Answer, mpipplot.Mark{X: float64(c.P), Y: c.TimeS})
	}
	for _, run := range r.Runs {
		in.Runs = append(in.Runs, mpipplot.Run{Class: run.Class(), P: run.P, Inputs: run.inputs, Model: run.Model, Calibrated: run.Calibrated})
	}
	return in
}
