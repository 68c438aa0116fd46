package answer

import (
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// MpipRun is one measured run as the mpip answer needs it: its P, its profile (nil for a
// CSV row of 004's collected values) and its 004 model result (nil without a network).
type MpipRun struct {
	P       int
	Profile *mpip.ProfileSummary
	Model   *mpip.Result
}

// MpipForecast is the forecast the answer uses at one unmeasured P: the route
// mpip.ForecastChoice chose (model_004: 004's model AT with its plausible-models spread;
// wall_time: the measured wall time extrapolated directly). The plot marks the same value.
func MpipForecast(f *mpip.Forecast, ch *mpip.ForecastChoice) (value, low, high float64, route string) {
	if ch != nil && ch.Used == "model_004" && f.ModelAppTimeS > 0 {
		return f.ModelAppTimeS, f.ModelAppTimeLowS, f.ModelAppTimeHighS, "004's model with its inputs extrapolated"
	}
	return f.WallTime.Value, f.WallTime.SpreadLow, f.WallTime.SpreadHigh, "the measured wall time extrapolated"
}

// Mpip is the answer of `clusterperf mpip`: does it scale and what limits it. With
// forecasts: the time at each asked P by the route the backtest chose (its spread of
// plausible models), the recommended P and rule; the limiting component from the largest
// run's profile (MPI share, waiting, top operation) or 004's model. Mixed programs and too
// few runs are said in words.
func Mpip(runs []MpipRun, prog *mpip.ProgramCheck, fcs []*mpip.Forecast, walls []mpip.Extrapolation, ch *mpip.ForecastChoice, adv *sizing.Advice) report.Answer {
	var last *MpipRun
	for i := range runs {
		if last == nil || runs[i].P >= last.P {
			last = &runs[i]
		}
	}
	limit, limitWhy := "", ""
	if last != nil {
		limit, limitWhy = mpipLimit(last)
	}
	var preds []Predicted
	for _, f := range fcs {
		v, lo, hi, _ := MpipForecast(f, ch)
		preds = append(preds, Predicted{P: f.P, Quantity: "wall time", Unit: "s", Value: v, Low: lo, High: hi, Interval: "plausible models' range"})
	}
	for _, w := range walls {
		preds = append(preds, Predicted{P: w.P, Quantity: "wall time", Unit: "s", Value: w.Value, Low: w.SpreadLow, High: w.SpreadHigh, Interval: "plausible models' range"})
	}
	refusal, why := "", ""
	switch {
	case prog != nil && prog.Mixed:
		refusal, why = "no forecast: the profiles are of different programs", "the runs are of "+strings.Join(prog.Executables, ", ")+": they do not describe one program's scaling"
	case ch != nil && ch.NoSizing != "":
		refusal, why = "no processor count recommended", ch.NoSizing
	}
	var b builder
	buildSizing(&b, "", preds, adv, "s", limit, limitWhy, refusal, why)
	if ch != nil && len(preds) > 0 {
		b.a.Word("forecast_route", ch.Used+": "+ch.Reason)
		d := "Forecast by " + ch.Used + ": " + ch.Reason + "."
		if ch.Runs < ch.RunsForInterval {
			d += fmt.Sprintf(" Its range is the spread of plausible models, no interval: an interval needs ≥ %d runs at different P, there are %d.", ch.RunsForInterval, ch.Runs)
		}
		b.say("", d)
	}
	return b.done()
}

// mpipLimit names what dominates the largest run, short and explained: the MPI share and
// its largest operation, or 004's model where there is no profile.
func mpipLimit(r *MpipRun) (string, string) {
	if p := r.Profile; p != nil {
		s := fmt.Sprintf("at P = %d MPI is %s of the time", r.P, pct(p.MPIShare))
		why := fmt.Sprintf("At P = %d MPI takes %s of the time, %s of it in wait operations", r.P, pct(p.MPIShare), pct(p.WaitShareOfMPI))
		if len(p.Top) > 0 {
			s += fmt.Sprintf(", most in %s", p.Top[0].Operation)
			why += fmt.Sprintf("; the largest operation is %s (%s of MPI)", p.Top[0].Operation, pct(p.Top[0].ShareOfMPI))
		}
		return s, why + "."
	}
	if m := r.Model; m != nil && m.AppTime.Observed > 0 {
		return fmt.Sprintf("at P = %d 004's model: %s s (measured %s s)", r.P, g(m.AppTime.Model), g(m.AppTime.Observed)),
			fmt.Sprintf("004's model at P = %d: wall time AT = %s s against the measured AT* = %s s, of which MPI time %s s.", r.P, g(m.AppTime.Model), g(m.AppTime.Observed), g(m.MPITime.Model))
	}
	return "", ""
}
