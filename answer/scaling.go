package answer

import (
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

// Scaling is the answer of `fit DATA.csv`: the chosen model, the predicted time at every
// asked p with its 95 % interval (or the plausible models' range when there is no
// interval), the recommended p and its rule (adv; nil for weak-scaling data, whose refusal
// is said in words), and how the backtest's held-out point fared.
func Scaling(fr *scaling.Result, preds []*scaling.Prediction, bt *scaling.Backtest, adv *sizing.Advice) report.Answer {
	ps := ScalingPredictions(preds)
	refusal, why := "", ""
	if fr.Scaling == "weak" {
		refusal, why = "no processor count recommended: weak-scaling data", "the problem grows with p, so the times of different p are different problems and no speedup"
		if fr.ScalingInferred {
			// Inferred from times that do not fall (review 8, P2-11): a strong-scaling code
			// that does not speed up looks the same, so the inference is said with its
			// alternative and the CSV comment that overrides it.
			refusal = "no processor count recommended: the times do not fall with p, read as weak scaling"
			why = "inferred, not given: the problem grows with p (weak scaling), or one problem that does not speed up (strong scaling); a \"# scaling: strong\" line in the CSV sizes it as one problem, \"# scaling: weak\" confirms the reading"
		}
	}
	var b builder
	b.a.Word("model", fr.Chosen.Name+": T(p) = "+fr.Chosen.Formula)
	buildSizing(&b, "", ps, adv, "s", "", "", refusal, why)
	stackedDetail(&b, preds, fr.Chosen.Name)
	if bt != nil {
		backtestClause(&b, bt)
	}
	b.say("", fmt.Sprintf("Model: %s, T(p) = %s, fitted to %d runs at %d values of p.", fr.Chosen.Name, fr.Chosen.Formula, fr.Points, fr.DistinctP))
	return b.done()
}

// stacked reports whether the prediction's time is the stacked combination rather than the
// chosen model's own (beyond the largest measured p, scaling.Result.Predict).
func stacked(p *scaling.Prediction) bool {
	return p.TimeS != p.SelectedS
}

// stackedDetail says, when a printed time is the stacked forecast, what it combines and
// what the chosen model alone gives (review 8, P1-1: on exact data the two differ by 7–40 %
// and the sentence did not say which was shown).
func stackedDetail(b *builder, preds []*scaling.Prediction, chosen string) {
	var alone []string
	for _, p := range preds {
		if stacked(p) {
			alone = append(alone, fmt.Sprintf("%s s at p = %d", g(p.SelectedS), p.P))
		}
	}
	if len(alone) == 0 {
		return
	}
	b.say("", fmt.Sprintf("Stacked time: beyond the largest measured p the time is the weighted mix of the chosen model, Amdahl, USL, a local power law and the last time (docs/extrapolation.md); the chosen model %s alone gives %s.", chosen, strings.Join(alone, ", ")))
}

// backtestClause states the backtest of the stacked forecast and, beside it, the chosen
// model's own error (fact backtest_selected_model_rel_error), so neither is mistaken for the
// other.
func backtestClause(b *builder, bt *scaling.Backtest) {
	b.a.Num("backtest_held_out_p", float64(bt.HeldOutP))
	b.a.Num("backtest_rel_error", bt.RelError)
	what := "predicted"
	if bt.Prediction != nil && stacked(bt.Prediction) {
		what = "stacked forecast"
	}
	c := fmt.Sprintf("held-out p = %d predicted within %s", bt.HeldOutP, pct(abs(bt.RelError)))
	if what != "predicted" {
		c += " by the stacked forecast"
	}
	if what != "predicted" && bt.SelectedRelError != nil {
		b.a.Num("backtest_selected_model_rel_error", *bt.SelectedRelError)
		c += fmt.Sprintf(" (by the chosen model alone: %s)", pct(abs(*bt.SelectedRelError)))
	}
	b.say(c, "(Backtest: the model refitted without the largest p predicts it.)")
}

// ScalingPredictions are scaling's predictions as the answer states them: the 95 %
// interval where there is one, else the plausible models' range; a stacked time is
// labelled so.
func ScalingPredictions(preds []*scaling.Prediction) []Predicted {
	var ps []Predicted
	for _, p := range preds {
		pr := Predicted{P: p.P, Quantity: "time", Unit: "s", Value: p.TimeS, Low: p.PlausibleLowS, High: p.PlausibleHighS, Interval: "plausible models' range"}
		if p.Low95S != nil && p.High95S != nil {
			pr.Low, pr.High, pr.Interval = *p.Low95S, *p.High95S, "95 % interval"
		}
		if stacked(p) {
			pr.Label = "stacked time"
		}
		ps = append(ps, pr)
	}
	return ps
}

// History is the answer of `clusterperf history`: the study fitted (its program), the
// predictions at the asked task counts and the recommended count and rule; refusal when the
// job history holds no study that can be fitted.
func History(study int, program string, preds []*scaling.Prediction, adv *sizing.Advice, cost *NodeCost, refusal, why string) report.Answer {
	var b builder
	b.a.Num("study", float64(study))
	if cost != nil && adv != nil {
		b.cost = fmt.Sprintf(", %s node-hours", g(cost.NodeHours))
	}
	buildSizing(&b, fmt.Sprintf("Fitted study %d: %s.", study, program), ScalingPredictions(preds), adv, "s", "", "", refusal, why)
	if cost != nil && adv != nil {
		b.a.Num("recommended_nodes", float64(cost.Nodes))
		b.a.Num("recommended_node_hours", cost.NodeHours)
		d := fmt.Sprintf("It books %d node(s) at %d tasks per node (the study's densest packing) for %s s: %s node-hours.", cost.Nodes, cost.TasksPerNode, g(adv.Recommended.Config.TimeS), g(cost.NodeHours))
		if p := adv.Recommended.Config.P; cost.LargestRunP > 0 && p > cost.LargestRunP {
			d += fmt.Sprintf(" p = %d is %s× the largest run (p = %d): its time is extrapolated.", p, g(float64(p)/float64(cost.LargestRunP)), cost.LargestRunP)
		}
		b.say("", d)
	}
	return b.done()
}

// NodeCost is what history's recommendation books: nodes at the study's densest packing and
// node-hours = nodes × time / 3600; LargestRunP is the study's largest measured p (a
// recommendation beyond it is an extrapolation, said so).
type NodeCost struct {
	Nodes, TasksPerNode int
	NodeHours           float64
	LargestRunP         int
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
