package answer

import (
	"fmt"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

// Scaling is the answer of `fit DATA.csv`: the chosen model, the predicted time at every
// asked p with its 95 % interval (or the plausible models' range when there is no
// interval), the recommended p and its rule (adv; nil for weak-scaling data, whose refusal
// is said in words), and how the backtest's held-out point fared.
func Scaling(fr *scaling.Result, preds []*scaling.Prediction, bt *scaling.Backtest, adv *sizing.Advice) report.Answer {
	var ps []Predicted
	for _, p := range preds {
		pr := Predicted{P: p.P, Quantity: "time", Unit: "s", Value: p.TimeS, Low: p.PlausibleLowS, High: p.PlausibleHighS, Interval: "plausible models' range"}
		if p.Low95S != nil && p.High95S != nil {
			pr.Low, pr.High, pr.Interval = *p.Low95S, *p.High95S, "95 % interval"
		}
		ps = append(ps, pr)
	}
	refusal, why := "", ""
	if fr.Scaling == "weak" {
		refusal, why = "no processor count recommended: weak-scaling data", "the problem grows with p, so the times of different p are different problems and no speedup"
	}
	var b builder
	b.a.Word("model", fr.Chosen.Name+": T(p) = "+fr.Chosen.Formula)
	buildSizing(&b, "", ps, adv, "s", "", "", refusal, why)
	if bt != nil {
		b.a.Num("backtest_held_out_p", float64(bt.HeldOutP))
		b.a.Num("backtest_rel_error", bt.RelError)
		b.say(fmt.Sprintf("held-out p = %d predicted within %s", bt.HeldOutP, pct(abs(bt.RelError))),
			fmt.Sprintf("Backtest: the model refitted without the largest p (%d) predicted it within %s.", bt.HeldOutP, pct(abs(bt.RelError))))
	}
	b.say("", fmt.Sprintf("Model: %s, T(p) = %s, fitted to %d runs at %d values of p.", fr.Chosen.Name, fr.Chosen.Formula, fr.Points, fr.DistinctP))
	return b.done()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
