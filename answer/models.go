package answer

import (
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/cube"
	"github.com/clusterperf/clusterperf/extrap"
	"github.com/clusterperf/clusterperf/pmva"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/tpn"
	"github.com/clusterperf/clusterperf/validate"
)

// Speedup is the answer of `clusterperf speedup`: the recommended (p, d) and its rule, and
// the component that limits the model there (spmd.Point.Bottleneck).
func Speedup(model string, pts []spmd.Point, adv *sizing.Advice) report.Answer {
	limit := ""
	if adv != nil {
		for _, pt := range pts {
			if pt.P == adv.Recommended.Config.P && pt.D == adv.Recommended.Config.D && pt.Bottleneck != "" {
				limit = "limited by " + pt.Bottleneck
			}
		}
	}
	return Sizing(fmt.Sprintf("SPMD model %s over %d configurations.", model, len(pts)), nil, adv, "s", limit, "", "", "")
}

// Pipeline is the answer of `clusterperf pipeline`: the recommended p and its rule, and the
// stage that bounds the pipeline there (bottleneck, from 003's model).
func Pipeline(model string, adv *sizing.Advice, bottleneck string) report.Answer {
	limit := ""
	if bottleneck != "" {
		limit = "limited by the stage " + bottleneck
	}
	return Sizing("Pipeline model "+model+".", nil, adv, "s", limit, "", "", "")
}

// FitSPMD is the answer of `clusterperf fit MODEL DATA`: the chosen model's predictions at
// the asked configurations with their intervals, the recommended configuration, and what
// limits it (the inference from the fitted parameters).
func FitSPMD(chosen string, preds []Predicted, adv *sizing.Advice, inference string) report.Answer {
	short := inference
	if i := strings.IndexAny(short, ":;—"); i > 0 {
		short = strings.TrimSpace(short[:i])
	}
	return Sizing("Fitted model: "+chosen+".", preds, adv, "s", short, inference, "", "")
}

// TPNPick is the mapping tpn --advise recommends: the sizing rule's choice among the best
// mappings per number of workstations (tpnapp.Result.Size).
type TPNPick struct {
	Rule         string  // the sizing rule (balanced, …)
	Workstations int     // workstations used
	TimeS        float64 // s, the mapping's makespan
	Mapping      string  // the mapping in words ("P0, P1 on ws1; P2 on ws2")
}

// TPN is the answer of `clusterperf tpn`: the program's completion time with its interval
// from the network's measured t_s and B (iv, nil when the network is given as constants),
// which process finishes last, and with --advise the recommended mapping (pick) beside the
// fastest found and the program's own.
func TPN(outcome string, timeS float64, last string, iv *tpn.NetBounds, adv *tpn.Advice, pick *TPNPick) report.Answer {
	var b builder
	b.a.Word("outcome", outcome)
	b.a.Num("time_s", timeS)
	at := fmt.Sprintf("%s at t = %s s", outcome, g(timeS))
	if iv != nil {
		b.a.Num("time_low_s", iv.LowS)
		b.a.Num("time_high_s", iv.HighS)
		b.say(fmt.Sprintf("%s (network interval %s–%s s)", at, g(iv.LowS), g(iv.HighS)),
			fmt.Sprintf("The network interval %s … %s s holds the time with ≥ %.0f %% joint confidence in the network's measured t_s and B.", g(iv.LowS), g(iv.HighS), 100*iv.Confidence))
	} else {
		b.say(at)
	}
	if adv != nil && pick != nil { // the recommendation next to the time: it is the answer
		b.a.Word("recommended_rule", pick.Rule)
		b.a.Num("recommended_workstations", float64(pick.Workstations))
		b.a.Num("recommended_time_s", pick.TimeS)
		ws := "workstations"
		if pick.Workstations == 1 {
			ws = "workstation"
		}
		b.say(fmt.Sprintf("recommended (%s): %d %s, %s s", pick.Rule, pick.Workstations, ws, g(pick.TimeS)),
			fmt.Sprintf("The recommended mapping: %s.", pick.Mapping))
	}
	if last != "" {
		b.a.Word("last_process", last)
		b.say(last + " finishes last")
	}
	if adv != nil {
		tpnAdvice(&b, adv)
	}
	return b.done()
}

// tpnAdvice adds the fastest mapping found against the program's own, and the lower bound.
func tpnAdvice(b *builder, adv *tpn.Advice) {
	b.a.Num("advised_time_s", adv.Time)
	b.a.Num("lower_bound_s", adv.LowerBound)
	how := "the fastest mapping simulated"
	if adv.Exhaustive {
		how = "the fastest mapping"
	}
	fast := fmt.Sprintf("%s takes %s s", how, g(adv.Time))
	switch {
	case adv.Given > 0 && adv.Time >= adv.Given:
		fast = fmt.Sprintf("%s takes %s s, no faster than the program's own allocation", how, g(adv.Time))
	case adv.Given > 0:
		fast = fmt.Sprintf("%s takes %s s against the program's own allocation's %s s", how, g(adv.Time), g(adv.Given))
	}
	if adv.Given > 0 {
		b.a.Num("given_time_s", adv.Given)
	}
	b.say(fast, fmt.Sprintf("No mapping can beat %s s (lower bound).", g(adv.LowerBound)))
}

// Simulation is the answer of `clusterperf simulate`: how many quantities the analytic
// solution puts inside the simulation's 95 % intervals, and the largest relative
// difference.
func Simulation(rep *validate.Report) report.Answer {
	var b builder
	a := &b.a
	if rep == nil || len(rep.Rows) == 0 {
		b.say("the simulation finished no replication: no estimate")
		return b.done()
	}
	n, worst, wq := 0, 0.0, ""
	for _, r := range rep.Rows {
		if r.Inside != nil {
			n++
		}
		if r.RelError != nil && math.Abs(*r.RelError) > worst {
			worst, wq = math.Abs(*r.RelError), r.Quantity
		}
	}
	out := rep.Outside()
	a.Num("quantities_compared", float64(n))
	a.Num("outside_interval", float64(out))
	a.Num("largest_rel_difference", worst)
	if n == 0 {
		b.say(fmt.Sprintf("simulated %d quantities; no analytic value to compare with", len(rep.Rows)), "Method: "+rep.Simulation.Method+".")
		return b.done()
	}
	verdict := "agrees with"
	if out > 0 {
		verdict = "differs from"
	}
	b.say(fmt.Sprintf("the simulation %s the analytic %s: %d of %d quantities inside the 95 %% intervals", verdict, rep.AnalyticMethod, n-out, n))
	b.say(fmt.Sprintf("largest relative difference %s (%s)", pct(worst), wq))
	return b.done()
}

// PMVA is the answer of `clusterperf pmva`: the predicted time at the largest asked number
// of workers with its speedup and efficiency (001 ch. 6, eqs. 6.5 and 6.8).
func PMVA(network string, pts []pmva.Point) report.Answer {
	var b builder
	a := &b.a
	if len(pts) == 0 {
		b.say("no worker count to predict")
		return b.done()
	}
	best := pts[0]
	for _, pt := range pts {
		if pt.P > best.P {
			best = pt
		}
	}
	a.Num("workers", float64(best.P))
	a.Num("predicted_time_s", best.Time)
	a.Num("speedup", best.Speedup)
	a.Num("efficiency", best.Eff)
	b.say(fmt.Sprintf("with %d workers (%s): predicted %s s, speedup %s, efficiency %s", best.P, best.Algorithm, g(best.Time), g(best.Speedup), pct(best.Eff)),
		"Network: "+network+"; 001 chapter 6's model (eqs. 6.5 and 6.8).")
	return b.done()
}

// CubeSet is the answer of `clusterperf cube` over a set of profiles: the application
// total's model against the parameter, and the call path that stops scaling first
// (stopSentence: extrap.StopSummary's sentence, the one fit says of Extra-P experiments).
func CubeSet(param string, total *cube.Model, firstToStop, stopSentence string, n int) report.Answer {
	var b builder
	b.a.Num("profiles", float64(n))
	if total != nil {
		b.a.Word("total_model", total.Formula)
		grows := ""
		if total.Trend == "grows" {
			grows = fmt.Sprintf("; it grows as %s doubles", strings.SplitN(param, ",", 2)[0])
		}
		b.say(fmt.Sprintf("application total: %s = %s (%s)%s", total.Metric, total.Formula, param, grows),
			fmt.Sprintf("Fitted to %d profiles (relative RMS error %s).", n, pct(total.RMSRel)))
	}
	if firstToStop != "" {
		b.a.Word("first_to_stop_scaling", firstToStop)
		b.say(stopSentence)
	}
	if len(b.clauses) == 0 {
		b.say(fmt.Sprintf("%d profiles: no model of the application total", n))
	}
	return b.done()
}

// CubeProfile is the answer of `clusterperf cube` on one profile: the call path with the
// largest exclusive value of a metric and its share of the metric's total (what dominates).
func CubeProfile(file, metric, unit, top string, share float64, processes int) report.Answer {
	var b builder
	b.a.Num("processes", float64(processes))
	if top == "" {
		b.say(fmt.Sprintf("profile of %d processes: no call path with data", processes))
		return b.done()
	}
	b.a.Word("top_call_path", top)
	b.a.Num("top_share", share)
	b.say(fmt.Sprintf("largest call path by exclusive %s: %s, %s of the total", metric, top, pct(share)), fmt.Sprintf("Profile %s, %d processes; %s in %s.", file, processes, metric, unit))
	return b.done()
}

// Extrap is the answer of `fit EXPERIMENT` on an Extra-P experiment: the region that stops
// scaling first (extrap.StopsScaling; two parameters: along p at the largest n measured at
// the largest p), or why none does (extrap.StopSummary's sentence, as cube says it).
func Extrap(m *extrap.Models) report.Answer {
	var b builder
	b.a.Num("region_models", float64(len(m.Models)))
	if m.FirstToStop != "" {
		b.a.Word("first_to_stop_scaling", m.FirstToStop)
		b.a.Num("first_to_stop_at", float64(m.FirstToStopAt))
	}
	what := fmt.Sprintf("%d region model(s) in %s", len(m.Models), m.Parameter)
	if m.SecondParameter != "" {
		what = fmt.Sprintf("%d region models T(%s, %s)", len(m.Models), m.Parameter, m.SecondParameter)
	}
	b.say(what)
	b.say(m.Stops().Sentence())
	return b.done()
}

// PN is the answer of `fit DATA.csv` on p,n,time data: the joint model and, when asked, the
// first prediction with its 95 % interval.
func PN(formula string, runs int, p int, n, timeS, low, high float64, predicted bool) report.Answer {
	var b builder
	b.a.Word("model", formula)
	if predicted {
		b.a.Num("time_s", timeS)
		b.say(fmt.Sprintf("at p = %d, n = %s: %s s (95 %% interval %s … %s s)", p, g(n), g(timeS), g(low), g(high)))
	}
	b.say(fmt.Sprintf("T(p, n) = %s, fitted to %d runs", formula, runs))
	return b.done()
}
