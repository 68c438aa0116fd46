package answer

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// MpipRun is one measured run as the mpip answer needs it: its class (a CSV row's label or
// the program), its P, its profile (nil for a CSV row of 004's collected values) and its 004
// model result (nil without a network).
type MpipRun struct {
	Class   string
	P       int
	Profile *mpip.ProfileSummary
	Model   *mpip.Result
}

// timeS is the run's measured wall time per process AT* = App_Time/P, s (0: unknown).
func (r MpipRun) timeS() float64 {
	if r.Profile != nil {
		return r.Profile.MeanAppTimeS
	}
	if r.Model != nil {
		return r.Model.AppTime.Observed
	}
	return 0
}

// Mpip is the answer of `clusterperf mpip`: does it scale and what limits it. First how the
// measured wall time per process changes from the smallest to the largest P (strong
// scaling: speedup and efficiency; runs of different arguments: the growth, since the
// problem changes with P), then what limits the largest run (MPI share, waiting, the top
// operation, compute imbalance beyond mpip.ImbalanceLimit). With forecasts (preds: the
// forecast of the kind mpip.ForecastChoice chose, the one the sizing uses and the plot rings)
// the time at each asked P, the recommended P and rule, and the route's reason. Mixed
// programs and weak scaling are said in words.
func Mpip(runs []MpipRun, prog *mpip.ProgramCheck, preds []Predicted, ch *mpip.ForecastChoice, adv *sizing.Advice) report.Answer {
	var b builder
	if prog == nil || !prog.Mixed {
		mpipScales(&b, runs, prog != nil && prog.ArgumentsDiffer)
	}
	if last := largest(runs); last != nil {
		mpipLimit(&b, last)
	}
	refusal, why := "", ""
	switch {
	case prog != nil && prog.Mixed:
		refusal, why = "no forecast: the profiles are of different programs", "the runs are of "+strings.Join(prog.Executables, ", ")+": they do not describe one program's scaling"
	case ch != nil && ch.NoSizing != "":
		refusal, why = "no processor count recommended", ch.NoSizing
	}
	buildSizing(&b, "", preds, adv, "s", "", "", refusal, why)
	if ch != nil && len(preds) > 0 {
		b.a.Word("forecast_route", ch.Used+": "+ch.Reason)
		d := "Forecast by " + ch.Used + ": " + ch.Reason + "."
		if ch.Runs < ch.RunsForInterval {
			d += fmt.Sprintf(" Its range is the spread of plausible models, no interval: an interval needs ≥ %d runs at different P, there are %d; the backtest error is the guide to its accuracy.", ch.RunsForInterval, ch.Runs)
		}
		b.say("", d)
	}
	return b.done()
}

// largest is the run at the largest P (nil for none).
func largest(runs []MpipRun) *MpipRun {
	var last *MpipRun
	for i := range runs {
		if last == nil || runs[i].P >= last.P {
			last = &runs[i]
		}
	}
	return last
}

// mpipScales says how the measured wall time per process changes from the smallest to the
// largest P of one class (the mean of runs at the same P): strong scaling (one input) by the
// speedup t(P₀)/t(P₁) against the ideal P₁/P₀; runs of different arguments by the growth of
// the time, since their problem changes with P. Several classes or one P: said as such.
func mpipScales(b *builder, runs []MpipRun, weak bool) {
	classes := map[string]bool{}
	sum, n := map[int]float64{}, map[int]int{}
	for _, r := range runs {
		classes[r.Class] = true
		if t := r.timeS(); t > 0 && r.P > 0 {
			sum[r.P] += t
			n[r.P]++
		}
	}
	var ps []int
	for p := range sum {
		ps = append(ps, p)
	}
	sort.Ints(ps)
	switch {
	case len(classes) > 1:
		b.say("", fmt.Sprintf("The runs are of %d classes: how one scales is in the across_p table, class by class.", len(classes)))
		return
	case len(ps) < 2:
		if len(ps) == 1 {
			b.say("", fmt.Sprintf("One P (%d) measured: how the program scales needs runs at two or more P.", ps[0]))
		}
		return
	}
	p0, p1 := ps[0], ps[len(ps)-1]
	t0, t1 := sum[p0]/float64(n[p0]), sum[p1]/float64(n[p1])
	b.a.Num("scaling_from_p", float64(p0))
	b.a.Num("scaling_to_p", float64(p1))
	b.a.Num("scaling_time_ratio", t1/t0)
	span := fmt.Sprintf("from P = %d to %d", p0, p1)
	measured := fmt.Sprintf("Measured wall time per process (time/process) AT* = App_Time/P: %s s at P = %d, %s s at P = %d.", g(t0), p0, g(t1), p1)
	if weak {
		verdict := fmt.Sprintf("does not scale: %s (inputs differ) time/process grows %s×", span, ratio(t1/t0))
		if t1 <= t0*1.1 {
			verdict = fmt.Sprintf("%s (inputs differ) time/process stays within 10 %%", span)
		}
		b.say(verdict, measured+" The runs have different arguments: constant time as P grows is ideal weak scaling.")
		return
	}
	speedup, ideal := t0/t1, float64(p1)/float64(p0)
	eff := speedup / ideal
	b.a.Num("scaling_efficiency", eff)
	var verdict string
	switch {
	case speedup <= 1.05 && t1 > t0:
		verdict = fmt.Sprintf("does not scale: %s the wall time grows %s×", span, ratio(t1/t0))
	case speedup <= 1.05:
		verdict = fmt.Sprintf("does not scale: %s the wall time falls only %s", span, pct(1-t1/t0))
	case eff >= 0.8:
		verdict = fmt.Sprintf("scales: %s the wall time falls %s× (efficiency %s)", span, ratio(speedup), pct(eff))
	default:
		verdict = fmt.Sprintf("scales poorly: %s the wall time falls %s× of an ideal %s× (efficiency %s)", span, ratio(speedup), ratio(ideal), pct(eff))
	}
	b.say(verdict, measured)
}

// mpipLimit says what limits the largest run: the MPI share and its largest operation, the
// compute imbalance when it exceeds mpip.ImbalanceLimit; 004's model where there is no
// profile.
func mpipLimit(b *builder, r *MpipRun) {
	if p := r.Profile; p != nil {
		s := fmt.Sprintf("at P = %d MPI takes %s", r.P, pct(p.MPIShare))
		why := fmt.Sprintf("Of the MPI time %s is in wait operations", pct(p.WaitShareOfMPI))
		if len(p.Top) > 0 {
			s += fmt.Sprintf(", most in %s", p.Top[0].Operation)
			why += fmt.Sprintf("; the largest operation, %s, takes %s of it", p.Top[0].Operation, pct(p.Top[0].ShareOfMPI))
		}
		b.a.Word("limiting", s)
		b.say(s, why+".")
		if im := p.Imbalance; im.Available && im.ComputeImbalance > mpip.ImbalanceLimit {
			b.a.Num("compute_imbalance", im.ComputeImbalance)
			b.say(fmt.Sprintf("compute imbalance %s", pct(im.ComputeImbalance)),
				fmt.Sprintf("(Compute imbalance: the slowest rank's computation App_Time − MPI_Time over the mean, minus 1; above %s the other ranks wait for it.)", pct(mpip.ImbalanceLimit)))
		}
		return
	}
	if m := r.Model; m != nil && m.AppTime.Observed > 0 {
		s := fmt.Sprintf("at P = %d MPI takes %s", r.P, pct(m.MPITime.Observed/m.AppTime.Observed))
		b.a.Word("limiting", s)
		b.say(s, fmt.Sprintf("004's model at P = %d: wall time AT = %s s against the measured AT* = %s s, of which MPI time %s s.", r.P, g(m.AppTime.Model), g(m.AppTime.Observed), g(m.MPITime.Model)))
	}
}

// ratio writes a factor with three significant digits: 7.47, 12.3.
func ratio(v float64) string { return fmt.Sprintf("%.3g", v) }
