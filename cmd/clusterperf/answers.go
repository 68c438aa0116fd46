package main

import (
	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/report"
)

// answerSetter is a result that computes its answer block (package answer) just before it
// is rendered, so every path that renders it (the command, merge of a sharded study) says
// the same answer; appAnswerSetter is one of package app's results (SetAnswer exported).
type (
	answerSetter    interface{ setAnswer() }
	appAnswerSetter interface{ SetAnswer() }
)

// setAnswer calls doc's setAnswer or SetAnswer when it has one.
func setAnswer(doc report.Document) {
	switch r := doc.(type) {
	case answerSetter:
		r.setAnswer()
	case appAnswerSetter:
		r.SetAnswer()
	}
}

func (r *fitResult) setAnswer() {
	var ps []answer.Predicted
	for _, p := range r.Predictions {
		pr := answer.Predicted{P: p.P, D: p.D, Quantity: r.Target, Value: p.Value}
		if r.Target == "time" {
			pr.Unit = "s"
		}
		if p.Low != nil && p.High != nil {
			pr.Low, pr.High = *p.Low, *p.High
		}
		ps = append(ps, pr)
	}
	r.Answer = answer.FitSPMD(r.Chosen, ps, r.Sizing, r.Inference)
}

func (r *extrapolateResult) setAnswer() {
	r.Answer = answer.Scaling(r.Fit, r.Predictions, r.Backtest, r.Sizing)
}
