package main

import (
	"bytes"
	"fmt"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

type mpipOptions struct {
	latency, bandwidth string
	network            string
	osu                []string
	imb                string
	piecewise          bool
	inputs             string
	allowMixed         bool
	waitOps            string
	collectives        bool
	calibrate          bool
	predict            string
	explain            float64
	samples            int
	seed               uint64
	sizing             sizingFlags
	out                outOptions
	plot               string
}

func newMpipCmd(stdout, stderr io.Writer) *cobra.Command {
	var o mpipOptions
	cmd := &cobra.Command{
		Use:   "mpip REPORT.mpiP|VALUES.csv...",
		Short: "Queueing models from mpiP profiles, validated against the measurement (Elliott (004)), calibrated, backtested and explained",
		Long:  mpipLong,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMpip(o, args, stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.latency, "latency", "", "network latency, e.g. 5us")
	f.StringVar(&o.bandwidth, "bandwidth", "", "network bandwidth, e.g. 200MB/s")
	f.StringVar(&o.network, "network", "", "CSV table of latency and bandwidth by p or by message size")
	f.StringArrayVar(&o.osu, "osu", nil, "OSU micro-benchmark output (osu_latency, osu_bw, osu_bibw); repeat for latency + bandwidth")
	f.StringVar(&o.imb, "imb", "", "Intel MPI Benchmarks PingPong output")
	f.BoolVar(&o.piecewise, "piecewise", false, "fit --osu/--imb times in two message-size ranges (eager/rendezvous), break chosen from the data")
	f.StringVar(&o.inputs, "inputs", "", "CSV of Elliott's (004) collected values (label,P,App_Time,MPI_Time,MPI_Wait,M,L,BW,Lat), one run per row")
	f.BoolVar(&o.allowMixed, "allow-mixed", false, "accept reports of different programs (noted in the output)")
	f.StringVar(&o.waitOps, "wait-ops", "", "comma-separated MPI operations counted as wait time")
	f.BoolVar(&o.collectives, "collectives", false, "count collective sends as messages too")
	f.BoolVar(&o.calibrate, "calibrate", false, "fit the network (latency, and bandwidth when the sizes allow) to the runs' wall times and solve each run with it")
	f.StringVar(&o.predict, "predict", "", "P to predict ("+rangeSyntax+"; with --calibrate: 2+ runs; else 3+); with 3+ runs also the backtest")
	f.Float64Var(&o.explain, "explain-threshold", mpip.DefaultExplainThreshold, "explain every view whose |rel_error| exceeds this fraction (0: never)")
	f.IntVar(&o.samples, "samples", 2000, "Monte Carlo samples for prediction intervals")
	f.Uint64Var(&o.seed, "seed", 1, "random seed of the prediction intervals")
	o.sizing.register(cmd)
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write measured vs modelled wall time and components to FILE.svg|png")
	return cmd
}

var mpipLong = `Read mpiP text reports (3.x, verbose or concise, single-collector or collective) and build
the queueing model of Elliott (004) for each: N = P messages, a switch delay D0 = L/BW + Lat, P identical
CPU queues with D_k = (MPI_Time − MPI_Wait)/(P·M), a computation delay (App_Time − MPI_Time)/M.
Prints the extracted figures, the model's inputs and outputs, Elliott's (004) validation views
(application time, MPI time, MPI wait time, throughput: observed, modelled, rel_error) and the
component breakdown. Reports given together must come from one program (same executable in
"@ Command"); --allow-mixed compares different programs anyway, with a note.

Input: mpiP reports, or Elliott's (004) collected values as CSV (files ending .csv, or --inputs FILE;
columns label,P,App_Time,MPI_Time,MPI_Wait,M,L,BW,Lat, units as Elliott's (004) or with suffixes): each
row is solved with its own BW and Lat.

Network (for reports): --latency and --bandwidth (5us, 1.2ms; 200MB/s, 10Gb/s); --network F.csv
(columns p or size, latency, bandwidth, interpolated linearly as Elliott (004) does); --osu FILE
(repeatable: osu_latency for the latency, osu_bw for the bandwidth) or --imb FILE (PingPong),
fitted as t(n) = t_s + n/B (--piecewise: two size ranges); or --calibrate, which fits the
network to the runs' observed wall times (kind "calibration": an explanation of these runs,
with interval_kind saying whether its interval is a Student-t 95 % interval, a range of the
runs, or none). Without any network, the profile of each report is printed instead (shares of
MPI, wait and collective time, message sizes, imbalance, top operations).

--predict P,...: with --calibrate, the calibrated forecast (wall time extrapolated directly and
through Elliott's (004) model, each with the spread of its plausible scaling models); otherwise the
power-law prediction with a Monte Carlo interval when five or more runs allow one (else
none, and a note). With three or more runs at different P the backtest predicts each measured
P from the others (rel_error). --predict also sizes the run: the measured and predicted wall
times under --rule (balanced, fastest, knee, efficiency, cheapest, core-hours), with
--efficiency, --knee-gain, --within; Recommended and the trade-off table.

Views whose |rel_error| exceeds --explain-threshold (default 0.15) are explained: which of
Elliott's (004) assumptions the profile contradicts (imbalance, polling, collectives, message sizes,
compute scaling) and what to do next.

MPI wait time is the time in --wait-ops (default: ` + strings.Join(mpip.DefaultWaitOps(), ",") + `);
polling (Test*, Iprobe) counts because it can dominate. Messages M are point-to-point sends
(` + strings.Join(mpip.P2PSendOps(), ",") + `); --collectives adds collective sends.
CSV tables (--csv-table): across_p (default), views, trends, profiles, calibration, forecasts,
forecast_kinds (each forecast kind's backtest error and the one used for sizing, with why),
backtest, explanations, trade_off, analysis (Elliott's (004) appendix B analysis views: aggregate,
per CPU, per sent message and per CPU per sent message).`

func (o mpipOptions) check() ([]int, error) {
	var c flagCheck
	o.out.check(&c)
	o.sizing.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.atLeast("samples", int64(o.samples), 1)
	if o.samples > 10_000_000 {
		c.add("--samples %d: at most 10000000", o.samples)
	}
	c.nonNegative("explain-threshold", o.explain, "never explain")
	sources := 0
	for _, on := range []bool{o.latency != "" || o.bandwidth != "", o.network != "", len(o.osu) > 0 || o.imb != ""} {
		if on {
			sources++
		}
	}
	switch {
	case sources > 1:
		c.add("give one network: --latency/--bandwidth, --network, or --osu/--imb")
	case (o.latency == "") != (o.bandwidth == ""):
		c.add("--latency and --bandwidth go together (e.g. --latency 5us --bandwidth 200MB/s)")
	}
	if o.piecewise && len(o.osu) == 0 && o.imb == "" {
		c.add("--piecewise fits --osu/--imb benchmark outputs: give one")
	}
	var targets []int
	if o.predict != "" {
		targets = rangeFlag(&c, "predict", o.predict, ranges.Limits{Min: 1, Max: 1 << 20, MaxCount: maxPredictions})
	}
	return targets, c.err()
}

// mpipRun is one run: a report's summary and profile, or a CSV row; its model with the given
// network and, with --calibrate, with the calibrated one.
type mpipRun struct {
	Label      string               `json:"label"`
	P          int                  `json:"p"`
	Summary    *mpip.Summary        `json:"summary,omitempty"` // nil for a CSV row
	Profile    *mpip.ProfileSummary `json:"profile,omitempty"` // nil for a CSV row
	Model      *mpip.Result         `json:"model,omitempty"`   // nil without a network
	Calibrated *mpip.Result         `json:"calibrated_model,omitempty"`
	// Analysis: 004's analysis views of the measured times (aggregate, per CPU, per message,
	// per CPU per message); no network needed.
	Analysis []mpip.AnalysisView `json:"analysis_views"`
	Notes    []string            `json:"notes,omitempty"`
	inputs   mpip.Inputs
	rep      *mpip.Report
	class    string // CSV rows: the label (004's class), or the file when rows carry none
}

// mpipResult is mpip's one result value.
type mpipResult struct {
	report.Answered
	// Method, Exact, ErrorEstimate: the output contract's labels (mpip.Steps.Method).
	Method        string              `json:"method"`
	Exact         bool                `json:"exact"`
	ErrorEstimate *mpip.ErrorEstimate `json:"error_estimate,omitempty"`
	WaitOps       []string            `json:"wait_ops"`
	Program       *mpip.ProgramCheck  `json:"program,omitempty"`
	Network       *mpipNetwork        `json:"network,omitempty"`
	Runs          []*mpipRun          `json:"runs"`
	Calibration   *mpip.Calibration   `json:"calibration,omitempty"`
	Predictions   []mpip.Prediction   `json:"predictions,omitempty"`
	Trends        []mpip.Trend        `json:"trends,omitempty"`
	Forecasts     []*mpip.Forecast    `json:"forecasts,omitempty"`
	// WallTimeForecasts: the measured wall time extrapolated directly to each --predict P
	// (without --calibrate; with it, each forecast's wall_time holds it).
	WallTimeForecasts []mpip.Extrapolation `json:"wall_time_forecasts_s,omitempty"` // value, spreads in s
	Backtest          *mpip.Backtest       `json:"backtest,omitempty"`
	// ForecastChoice: which forecast sizes the run at an unmeasured P, why, and every
	// forecast kind's backtest error.
	ForecastChoice *mpip.ForecastChoice `json:"forecast_choice,omitempty"`
	Sizing         *sizing.Advice       `json:"sizing,omitempty"`
	Explanations   []mpip.Explanation   `json:"explanations,omitempty"`
	Notes          []string             `json:"notes"`
}

func runMpip(o mpipOptions, files []string, stdout io.Writer) error {
	targets, err := o.check()
	if err != nil {
		return err
	}
	out := &mpipResult{Notes: []string{}}
	if err := out.load(o, files); err != nil {
		return err
	}
	if err := out.solve(o); err != nil {
		return err
	}
	if len(targets) > 0 {
		if err := out.predict(o, targets); err != nil {
			return err
		}
	}
	out.explain(o)
	out.label()
	var panels []report.Panel
	if o.plot = o.out.plotFile(o.plot); o.plot != "" {
		if panels, err = out.plotPanels(); err != nil {
			return err
		}
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot != "" {
		return report.SaveFigure(o.plot, panels...)
	}
	return nil
}

// load reads every report and CSV of collected values once, checks that the reports come from
// one program and that --wait-ops names operations they have, and summarises them.
func (r *mpipResult) load(o mpipOptions, files []string) error {
	if o.inputs != "" {
		files = append(slices.Clone(files), o.inputs)
	}
	if len(files) == 0 {
		return badInputf("mpip: give mpiP reports or a CSV of collected values (see clusterperf help mpip)")
	}
	opts := mpip.Options{IncludeCollectives: o.collectives}
	if o.waitOps != "" {
		opts.WaitOps = strings.Split(o.waitOps, ",")
	}
	r.WaitOps = mpip.DefaultWaitOps()
	if opts.WaitOps != nil {
		r.WaitOps = opts.WaitOps
	}
	var reps []*mpip.Report
	for _, path := range files {
		b, err := readInput(path)
		if err != nil {
			return err
		}
		if strings.EqualFold(filepath.Ext(path), ".csv") {
			ins, err := mpip.ReadInputs(path, bytes.NewReader(b))
			if err != nil {
				return badInput(err)
			}
			for _, in := range ins {
				class := in.Label
				if strings.HasPrefix(class, path+":") { // no label: ReadInputs names the row file:line
					class = path
				}
				r.Runs = append(r.Runs, &mpipRun{Label: in.Label, P: in.P, inputs: in, class: class})
			}
			continue
		}
		rep, err := mpip.Parse(path, bytes.NewReader(b))
		if err != nil {
			return badInput(err)
		}
		reps = append(reps, rep)
	}
	return r.summarize(o, reps, opts)
}

func (r *mpipResult) summarize(o mpipOptions, reps []*mpip.Report, opts mpip.Options) error {
	if len(reps) == 0 {
		return nil
	}
	pc, err := mpip.CheckSameProgram(reps, o.allowMixed)
	if err != nil {
		return badInput(err)
	}
	r.Program = &pc
	if o.waitOps != "" {
		if err := mpip.CheckWaitOps(reps, opts.WaitOps); err != nil {
			return badInput(err)
		}
	}
	for _, rep := range reps {
		s, err := rep.Summarize(opts)
		if err != nil {
			return badInput(err)
		}
		prof := mpip.Profile(rep, s, 5)
		// tables name a profile by its file's base name (the path is in the profile's file)
		in := mpip.ProfileInputs(s)
		in.Label = filepath.Base(s.File)
		run := &mpipRun{Label: in.Label, P: s.P, Summary: &s, Profile: &prof, inputs: in, rep: rep}
		for _, sk := range rep.Skipped {
			run.Notes = append(run.Notes, "skipped non-standard block at "+sk)
		}
		r.Runs = append(r.Runs, run)
	}
	return nil
}

// solve solves each run with the network (reports) or its own BW and Lat (CSV rows), and
// with --calibrate with the network fitted to the runs.
func (r *mpipResult) solve(o mpipOptions) error {
	sort.SliceStable(r.Runs, func(i, j int) bool { return r.Runs[i].P < r.Runs[j].P })
	net, err := o.net()
	if err != nil {
		return err
	}
	r.Network = net
	for _, run := range r.Runs {
		run.Analysis = run.inputs.AnalysisViews()
		if run.Summary != nil {
			if net == nil {
				continue
			}
			lat, bw, note := net.net.At(run.P, run.Summary.AvgSize)
			run.inputs = mpip.InputsFrom(*run.Summary, lat, bw)
			run.inputs.Label = run.Label            // the file's base name
			if note != "" && net.Piecewise == nil { // piecewise: the end rows are the two ranges
				run.Notes = append(run.Notes, note)
			}
		}
		if run.Model, err = mpip.Solve(run.inputs); err != nil {
			return libError(err)
		}
	}
	if net == nil && !o.calibrate && r.hasReports() {
		r.Notes = append(r.Notes, "no network given (--latency/--bandwidth, --network, --osu/--imb) and no --calibrate: the profiles of the reports, without a model")
	}
	if !o.calibrate {
		return nil
	}
	if r.Calibration, err = mpip.Calibrate(r.inputs(), r.calibrateOptions()); err != nil {
		return libError(err)
	}
	for _, run := range r.Runs {
		if run.P > 1 {
			if run.Calibrated, err = r.Calibration.Solve(run.inputs); err != nil {
				return libError(err)
			}
		}
	}
	return nil
}

func (r *mpipResult) hasReports() bool {
	return slices.ContainsFunc(r.Runs, func(x *mpipRun) bool { return x.Summary != nil })
}

func (r *mpipResult) inputs() []mpip.Inputs {
	var ins []mpip.Inputs
	for _, run := range r.Runs {
		ins = append(ins, run.inputs)
	}
	return ins
}

// calibrateOptions fixes the bandwidth when a benchmark measured it.
func (r *mpipResult) calibrateOptions() mpip.CalibrateOptions {
	if r.Network != nil && r.Network.BandwidthBytesPerS != nil && r.Network.Source != "latency/bandwidth" {
		return mpip.CalibrateOptions{BandwidthBytesPerS: *r.Network.BandwidthBytesPerS}
	}
	return mpip.CalibrateOptions{}
}

// predict: --calibrate's forecasts or the power-law prediction, the backtest with three or
// more runs, and the sizing of measured and predicted wall times.
func (r *mpipResult) predict(o mpipOptions, targets []int) error {
	ins := r.inputs()
	if cl := r.csvClasses(); len(cl) > 1 {
		return badInputf("--predict forecasts one application: the collected values hold %d classes (%s); give one class's rows per call (--calibrate alone may fit one network to all of them)", len(cl), strings.Join(cl, ", "))
	}
	var err error
	switch {
	case r.Calibration != nil:
		for _, p := range targets {
			f, err := r.Calibration.Forecast(ins, p)
			if err != nil {
				return libError(err)
			}
			r.Forecasts = append(r.Forecasts, f)
		}
	case r.Network == nil && r.hasReports():
		return badInputf("--predict needs a model: a network (--latency/--bandwidth, --network, --osu/--imb) or --calibrate")
	default:
		if r.Predictions, r.Trends, err = mpip.Predict(ins, r.predictNet(), targets, o.samples, o.seed); err != nil {
			return libError(err)
		}
		for _, p := range targets {
			e, err := mpip.WallForecast(ins, p)
			if err != nil {
				return libError(err)
			}
			r.WallTimeForecasts = append(r.WallTimeForecasts, e)
		}
	}
	if distinctP(ins) >= 3 {
		if r.Backtest, err = mpip.BacktestRuns(ins, r.calibrateOptions()); err != nil {
			return libError(err)
		}
	} else {
		r.Notes = append(r.Notes, "no backtest: it needs runs at three or more different P > 1")
	}
	ch := mpip.ChooseForecast(r.Backtest, distinctP(ins))
	r.ForecastChoice = &ch
	return r.size(o)
}

// csvClasses lists the distinct labels of the CSV rows (004's classes, e.g. CG A, CG B).
func (r *mpipResult) csvClasses() []string {
	var out []string
	for _, run := range r.Runs {
		if run.Summary == nil && !slices.Contains(out, run.class) {
			out = append(out, run.class)
		}
	}
	return out
}

// predictNet is the network of the power-law prediction: the given one, or (CSV rows) the
// last run's BW and Lat.
func (r *mpipResult) predictNet() mpip.Network {
	if r.Network != nil {
		return r.Network.net
	}
	last := r.Runs[len(r.Runs)-1].inputs
	r.Notes = append(r.Notes, fmt.Sprintf("predictions use the largest run's network (latency %s s, bandwidth %s bytes/s)", report.Num(last.Lat), report.Num(last.BW)))
	return mpip.ConstNetwork(last.Lat, last.BW)
}

func distinctP(ins []mpip.Inputs) int {
	seen := map[int]bool{}
	for _, in := range ins {
		if in.P > 1 {
			seen[in.P] = true
		}
	}
	return len(seen)
}

// size applies the sizing rule to the measured wall times AT* = App_Time/P and the
// predicted ones (the 004 model's AT at each target not measured).
func (r *mpipResult) size(o mpipOptions) error {
	why := ""
	switch {
	case r.Program != nil && r.Program.Mixed:
		why = "the runs are of different programs (--allow-mixed); their times are not one program's scaling, and the forecasts across them are comparisons, not predictions"
	case r.Program != nil && r.Program.ArgumentsDiffer:
		why = "the runs have different arguments (see the note above), so their times are probably not one problem's (weak scaling, e.g. a process grid that grows with P); the sizing rules compare times of one problem size (strong scaling). Size with runs of one input, or read the scaling of the time per unit of work yourself"
	}
	if why != "" {
		r.Notes = append(r.Notes, "no sizing: "+why)
		if r.ForecastChoice != nil {
			r.ForecastChoice.NotSized(why)
		}
		return nil
	}
	at := map[int]float64{}
	var t1 *sizing.Reference
	for _, run := range r.Runs {
		if _, ok := at[run.P]; !ok {
			at[run.P] = run.inputs.AppTime / float64(run.P)
			if run.P == 1 {
				t1 = sizing.MeasuredT1(at[1], "the measured run at P = 1 (App_Time)")
			}
		}
	}
	for p, t := range r.forecastTimes() {
		if _, ok := at[p]; !ok {
			at[p] = t
			if p == 1 {
				t1 = sizing.ModelT1(t, "the forecast at P = 1 (--predict)")
			}
		}
	}
	if ch := r.ForecastChoice; ch != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("sizing: at an unmeasured P the %s forecast is used: %s", ch.Used, ch.Reason))
	}
	var pts []sizing.Point
	for p, t := range at {
		pts = append(pts, sizing.Point{P: p, TimeS: t})
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].P < pts[j].P })
	var err error
	r.Sizing, err = sizing.Advise(pts, o.sizing.options(t1))
	return classify(err)
}

// label sets the result's method, exact and error_estimate from what was computed.
func (r *mpipResult) label() {
	st := mpip.Steps{Calibrated: r.Calibration != nil, Predictions: len(r.Predictions) > 0, Forecasts: len(r.Forecasts) > 0, Choice: r.ForecastChoice}
	for _, run := range r.Runs {
		st.Model = st.Model || run.Model != nil
	}
	r.Method, r.Exact, r.ErrorEstimate = st.Method(r.Calibration)
}

// forecastTimes: the wall time at each --predict P by the chosen forecast kind.
func (r *mpipResult) forecastTimes() map[int]float64 {
	out := map[int]float64{}
	wall := r.ForecastChoice == nil || r.ForecastChoice.Used == mpip.KindWallTime
	for _, f := range r.Forecasts {
		out[f.P] = f.ModelAppTimeS
		if wall {
			out[f.P] = f.WallTime.Value
		}
	}
	for i, p := range r.Predictions {
		if p.Result != nil {
			out[p.P] = p.Result.AppTime.Model
		}
		if wall && i < len(r.WallTimeForecasts) {
			out[p.P] = r.WallTimeForecasts[i].Value
		}
	}
	return out
}

// explain: mpip.Explain on the views (calibrated ones with --calibrate) beyond the threshold.
func (r *mpipResult) explain(o mpipOptions) {
	if o.explain == 0 {
		return
	}
	var runs []mpip.ExplainRun
	for _, run := range r.Runs {
		res := run.Model
		if run.Calibrated != nil {
			res = run.Calibrated
		}
		if res != nil {
			runs = append(runs, mpip.ExplainRun{Result: res, Profile: run.Profile})
		}
	}
	if len(runs) > 0 {
		measured := r.Network != nil && r.Network.Source == "benchmark"
		r.Explanations = mpip.Explain(runs, mpip.ExplainOptions{Threshold: o.explain, Calibrated: r.Calibration != nil, Measured: measured})
	}
}
