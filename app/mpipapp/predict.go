package mpipapp

import (
	"fmt"
	"github.com/clusterperf/clusterperf/answer"
	"slices"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// predict: Calibrate's forecasts or the prediction through package scaling with the network, the backtest with three or
// more runs, and the sizing of measured and predicted wall times.
func (r *Result) predict(q Request) error {
	ins := r.inputs()
	if cl := r.csvClasses(); len(cl) > 1 {
		return app.Inputf("--predict forecasts one application: the collected values hold %d classes (%s); give one class's rows per call (--calibrate alone may fit one network to all of them)", len(cl), strings.Join(cl, ", "))
	}
	var err error
	switch {
	case r.Calibration != nil:
		for _, p := range q.Predict {
			f, err := r.Calibration.Forecast(ins, p)
			if err != nil {
				return app.Lib(err)
			}
			r.Forecasts = append(r.Forecasts, f)
		}
	case r.Network == nil && r.hasReports():
		return app.Inputf("--predict needs a model: a network (--latency/--bandwidth, --network, --osu/--imb) or --calibrate")
	default:
		if r.Predictions, err = mpip.Predict(ins, r.predictNet(), q.Predict, q.Samples, q.Seed); err != nil {
			return app.Lib(err)
		}
		for _, p := range q.Predict {
			e, err := mpip.WallForecast(ins, p)
			if err != nil {
				return app.Lib(err)
			}
			r.WallTimeForecasts = append(r.WallTimeForecasts, e)
		}
	}
	if DistinctP(ins) >= 3 {
		if r.Backtest, err = mpip.BacktestRuns(ins, r.calibrateOptions()); err != nil {
			return app.Lib(err)
		}
	} else {
		r.Notes = append(r.Notes, "no backtest: it needs runs at three or more different P > 1")
	}
	ch := mpip.ChooseForecast(r.Backtest, DistinctP(ins))
	r.ForecastChoice = &ch
	return r.size(q)
}

// csvClasses lists the distinct classes of the CSV rows (Classes).
func (r *Result) csvClasses() []string {
	var out []string
	for _, run := range r.Runs {
		if run.Summary == nil && !slices.Contains(out, run.class) {
			out = append(out, run.class)
		}
	}
	return out
}

// Classes lists the distinct classes of collected values (004's classes, e.g. CG A, CG B:
// a row's label, or its file when rows carry none). Forecasts and sizing take one class.
func Classes(cs []Collected) []string {
	var out []string
	for _, c := range cs {
		for _, in := range c.Rows {
			if cl := class(c.File, in); !slices.Contains(out, cl) {
				out = append(out, cl)
			}
		}
	}
	return out
}

// class is the class of a row of collected values read from file.
func class(file string, in mpip.Inputs) string {
	if strings.HasPrefix(in.Label, file+":") { // no label: ReadInputs names the row file:line
		return file
	}
	return in.Label
}

// predictNet is the network of the power-law prediction: the given one, or (CSV rows) the
// last run's BW and Lat.
func (r *Result) predictNet() mpip.Network {
	if r.Network != nil {
		return r.Network.net
	}
	last := r.Runs[len(r.Runs)-1].inputs
	r.Notes = append(r.Notes, fmt.Sprintf("predictions use the largest run's network (latency %s s, bandwidth %s bytes/s)", report.Num(last.Lat), report.Num(last.BW)))
	return mpip.ConstNetwork(last.Lat, last.BW)
}

// DistinctP is the number of different P > 1 among the runs.
func DistinctP(ins []mpip.Inputs) int {
	seen := map[int]bool{}
	for _, in := range ins {
		if in.P > 1 {
			seen[in.P] = true
		}
	}
	return len(seen)
}

// Refusal is why runs must not be sized (sizing.Advise compares times of one problem size),
// or "" when they may: reports of different programs (AllowMixed), or of one program with
// different arguments (weak scaling, e.g. a process grid that grows with P).
func Refusal(pc *mpip.ProgramCheck) string {
	switch {
	case pc != nil && pc.Mixed:
		return "the runs are of different programs (--allow-mixed); their times are not one program's scaling, and the forecasts across them are comparisons, not predictions"
	case pc != nil && pc.ArgumentsDiffer:
		return "the runs have different arguments (see the notes), so their times are probably not one problem's (weak scaling, e.g. a process grid that grows with P); the sizing rules compare times of one problem size (strong scaling). Size with runs of one input, or read the scaling of the time per unit of work yourself"
	}
	return ""
}

// size applies the sizing rule to the measured wall times AT* = App_Time/P and the
// predicted ones (the 004 model's AT at each target not measured).
func (r *Result) size(q Request) error {
	if why := Refusal(r.Program); why != "" {
		r.NoSizing = why
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
	opts := q.Sizing
	opts.T1 = t1
	var err error
	r.Sizing, err = sizing.Advise(pts, opts)
	return app.Classify(err)
}

// label sets the result's method, exact and error_estimate from what was computed.
func (r *Result) label() {
	st := mpip.Steps{Calibrated: r.Calibration != nil, Predictions: len(r.Predictions) > 0, Forecasts: len(r.Forecasts) > 0, Choice: r.ForecastChoice}
	for _, run := range r.Runs {
		st.Model = st.Model || run.Model != nil
	}
	r.Method, r.Exact, r.ErrorEstimate = st.Method(r.Calibration)
}

// forecastTimes: the wall time at each --predict P by the chosen forecast kind.
func (r *Result) forecastTimes() map[int]float64 {
	out := map[int]float64{}
	for _, c := range r.Chosen() {
		out[c.P] = c.TimeS
	}
	return out
}

// ChosenForecast is the forecast at one --predict P by the kind mpip.ChooseForecast chose:
// the one number the answer states, the sizing uses and the plot rings.
type ChosenForecast struct {
	P     int
	TimeS float64 // wall time per process, s
	// LowS, HighS: the range (Interval says what it is; LowS = HighS: none).
	LowS, HighS float64
	Interval    string // "95 % interval" (Monte Carlo, ≥ 5 runs) or "plausible models' range"
	Kind        string // mpip.KindWallTime or mpip.KindModel004
}

// Chosen lists the forecast at each --predict P by the chosen kind (ForecastChoice.Used;
// the wall-time extrapolation when there is no choice): with --calibrate the 004 model with
// extrapolated inputs or the direct extrapolation, each with its plausible models' spread;
// without, the power-law model (its 95 % Monte Carlo interval when ≥ 5 runs allow one) or
// the direct extrapolation.
func (r *Result) Chosen() []ChosenForecast {
	model := r.ForecastChoice != nil && r.ForecastChoice.Used == mpip.KindModel004
	var out []ChosenForecast
	for _, f := range r.Forecasts {
		c := ChosenForecast{P: f.P, TimeS: f.WallTime.Value, LowS: f.WallTime.SpreadLow, HighS: f.WallTime.SpreadHigh, Interval: plausible, Kind: mpip.KindWallTime}
		if model && f.ModelAppTimeS > 0 {
			c = ChosenForecast{P: f.P, TimeS: f.ModelAppTimeS, LowS: f.ModelAppTimeLowS, HighS: f.ModelAppTimeHighS, Interval: plausible, Kind: mpip.KindModel004}
		}
		out = append(out, c)
	}
	for i, p := range r.Predictions {
		switch {
		case (model || i >= len(r.WallTimeForecasts)) && p.Result != nil:
			c := ChosenForecast{P: p.P, TimeS: p.Result.AppTime.Model, LowS: p.Result.AppTime.Model, HighS: p.Result.AppTime.Model, Kind: mpip.KindModel004}
			if p.Interval {
				c.LowS, c.HighS, c.Interval = p.ATLow, p.ATHigh, "95 % interval"
			}
			out = append(out, c)
		case i < len(r.WallTimeForecasts):
			w := r.WallTimeForecasts[i]
			out = append(out, ChosenForecast{P: p.P, TimeS: w.Value, LowS: w.SpreadLow, HighS: w.SpreadHigh, Interval: plausible, Kind: mpip.KindWallTime})
		}
	}
	return out
}

const plausible = "plausible models' range"

// explain: mpip.Explain on the views (calibrated ones with Calibrate) beyond the threshold.
func (r *Result) explain(q Request) {
	if q.ExplainThreshold == 0 {
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
		r.Explanations = mpip.Explain(runs, mpip.ExplainOptions{Threshold: q.ExplainThreshold, Calibrated: r.Calibration != nil, Measured: measured})
	}
}

// SetAnswer sets the result's answer (package answer): its runs, and the forecast of the
// chosen kind at each asked P (Chosen: the one the sizing used and the plot rings).
func (r *Result) SetAnswer() {
	var runs []answer.MpipRun
	for _, x := range r.Runs {
		runs = append(runs, answer.MpipRun{Class: x.Class(), P: x.P, Profile: x.Profile, Model: x.Model})
	}
	var preds []answer.Predicted
	for _, c := range r.Chosen() {
		preds = append(preds, answer.Predicted{P: c.P, Quantity: "wall time", Unit: "s", Value: c.TimeS, Low: c.LowS, High: c.HighS, Interval: c.Interval})
	}
	r.Answer = answer.Mpip(runs, r.Program, preds, r.ForecastChoice, r.Sizing)
}
