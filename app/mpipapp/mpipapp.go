// Package mpipapp answers "what do these mpiP profiles say, and how many processes should the
// program use?": Elliott's (004) queueing model of each run (mpip.Solve), validated against
// the measurement, with --calibrate the network fitted to the runs, with targets the
// forecasts, the leave-one-out backtest and the sizing under the rules and refusals of
// package sizing (no size from runs of different programs or arguments: weak scaling), and
// the explanations of views the model misses. The mpip command renders the Result; the
// explorer evaluates the same Run at its sliders' values, so both give one answer.
package mpipapp

import (
	"context"
	"path/filepath"
	"slices"
	"sort"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// Collected is one CSV file of Elliott's (004) collected values, read by mpip.ReadInputs.
type Collected struct {
	File string
	Rows []mpip.Inputs
}

// Request is everything one run of the mpip question needs: the parsed inputs and the options.
type Request struct {
	Reports   []*mpip.Report // mpiP reports (mpip.Parse)
	Collected []Collected    // CSV files of collected values, each row solved with its own BW and Lat
	// Network of the reports' models (ConstNetwork, TableNetwork, BenchmarkNetwork); nil: none.
	Network     *Network
	AllowMixed  bool     // accept reports of different programs (noted; no sizing)
	WaitOps     []string // MPI operations counted as wait time; nil: mpip.DefaultWaitOps
	Collectives bool     // count collective sends as messages
	Calibrate   bool     // fit the network to the runs' wall times
	Predict     []int    // P to forecast and size (empty: no forecasts, no sizing)
	// ExplainThreshold: explain every view whose |rel_error| exceeds it (0: never).
	ExplainThreshold float64
	Samples          int    // Monte Carlo samples of the prediction intervals (≥ 1)
	Seed             uint64 // seed of the prediction intervals
	// Sizing are the sizing rule's options; T1 is set by Run (the measured or forecast P = 1).
	Sizing sizing.Options
}

// MeasuredRun is one mpiP run: a report's summary and profile, or a CSV row; its model with the given
// network and, with Calibrate, with the calibrated one.
type MeasuredRun struct {
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
	class    string // CSV rows: the label (004's class), or the file when rows carry none
}

// Result is the mpip question's one result value.
type Result struct {
	report.Answered // the answer block (package answer; set when rendered)
	// Method, Exact, ErrorEstimate: the output contract's labels (mpip.Steps.Method).
	Method        string              `json:"method"`
	Exact         bool                `json:"exact"`
	ErrorEstimate *mpip.ErrorEstimate `json:"error_estimate,omitempty"`
	WaitOps       []string            `json:"wait_ops"`
	Program       *mpip.ProgramCheck  `json:"program,omitempty"`
	Network       *Network            `json:"network,omitempty"`
	Runs          []*MeasuredRun      `json:"runs"`
	Calibration   *mpip.Calibration   `json:"calibration,omitempty"`
	Predictions   []mpip.Prediction   `json:"predictions,omitempty"`
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
	// NoSizing is why the runs were not sized although targets were given (weak scaling,
	// mixed programs); empty otherwise. It is also the first words of a note.
	NoSizing string `json:"-"`
}

// Run builds the models of the request's runs, calibrates, forecasts, backtests, sizes and
// explains as the request asks. Errors carry their fault class (package app).
func Run(ctx context.Context, q Request) (*Result, error) {
	r := &Result{Notes: []string{}}
	if err := r.load(q); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := r.solve(q); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil { // the explorer's request gone or over its budget
		return nil, err
	}
	if len(q.Predict) > 0 {
		if err := r.predict(q); err != nil {
			return nil, err
		}
	}
	r.explain(q)
	r.label()
	return r, nil
}

// load takes every CSV row and report once, checks that the reports come from one program and
// that WaitOps names operations they have, and summarises them.
func (r *Result) load(q Request) error {
	if len(q.Reports) == 0 && len(q.Collected) == 0 {
		return app.Inputf("mpip: give mpiP reports or a CSV of collected values (see clusterperf help mpip)")
	}
	r.WaitOps = mpip.DefaultWaitOps()
	if q.WaitOps != nil {
		r.WaitOps = q.WaitOps
	}
	for _, c := range q.Collected {
		for _, in := range c.Rows {
			r.Runs = append(r.Runs, &MeasuredRun{Label: in.Label, P: in.P, inputs: in, class: class(c.File, in)})
		}
	}
	return r.summarize(q)
}

func (r *Result) summarize(q Request) error {
	if len(q.Reports) == 0 {
		return nil
	}
	pc, err := mpip.CheckSameProgram(q.Reports, q.AllowMixed)
	if err != nil {
		return app.Input(err)
	}
	r.Program = &pc
	opts := mpip.Options{IncludeCollectives: q.Collectives, WaitOps: q.WaitOps}
	if q.WaitOps != nil {
		if err := mpip.CheckWaitOps(q.Reports, opts.WaitOps); err != nil {
			return app.Input(err)
		}
	}
	for _, rep := range q.Reports {
		s, err := rep.Summarize(opts)
		if err != nil {
			return app.Input(err)
		}
		prof := mpip.Profile(rep, s, 5)
		// tables name a profile by its file's base name (the path is in the profile's file)
		in := mpip.ProfileInputs(s)
		in.Label = filepath.Base(s.File)
		run := &MeasuredRun{Label: in.Label, P: s.P, Summary: &s, Profile: &prof, inputs: in}
		for _, sk := range rep.Skipped {
			run.Notes = append(run.Notes, "skipped non-standard block at "+sk)
		}
		r.Runs = append(r.Runs, run)
	}
	return nil
}

// solve solves each run with the network (reports) or its own BW and Lat (CSV rows), and
// with Calibrate with the network fitted to the runs.
func (r *Result) solve(q Request) error {
	sort.SliceStable(r.Runs, func(i, j int) bool { return r.Runs[i].P < r.Runs[j].P })
	net := q.Network
	r.Network = net
	var err error
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
			return app.Lib(err)
		}
	}
	if net == nil && !q.Calibrate && r.hasReports() {
		r.Notes = append(r.Notes, "no network given (--latency/--bandwidth, --network, --osu/--imb) and no --calibrate: the profiles of the reports, without a model")
	}
	if !q.Calibrate {
		return nil
	}
	if r.Calibration, err = mpip.Calibrate(r.inputs(), r.calibrateOptions()); err != nil {
		return app.Lib(err)
	}
	for _, run := range r.Runs {
		if run.P > 1 {
			if run.Calibrated, err = r.Calibration.Solve(run.inputs); err != nil {
				return app.Lib(err)
			}
		}
	}
	return nil
}

// Class is the run's class: the program of a report, the label (004's class) of a CSV row.
func (m *MeasuredRun) Class() string {
	if m.Profile != nil {
		return m.Profile.Executable
	}
	return m.class
}

func (r *Result) hasReports() bool {
	return slices.ContainsFunc(r.Runs, func(x *MeasuredRun) bool { return x.Summary != nil })
}

func (r *Result) inputs() []mpip.Inputs {
	var ins []mpip.Inputs
	for _, run := range r.Runs {
		ins = append(ins, run.inputs)
	}
	return ins
}

// calibrateOptions fixes the bandwidth when a benchmark measured it.
func (r *Result) calibrateOptions() mpip.CalibrateOptions {
	if r.Network != nil && r.Network.BandwidthBytesPerS != nil && r.Network.Source != "latency/bandwidth" {
		return mpip.CalibrateOptions{BandwidthBytesPerS: *r.Network.BandwidthBytesPerS}
	}
	return mpip.CalibrateOptions{}
}
