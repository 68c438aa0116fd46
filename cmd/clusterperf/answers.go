package main

import (
	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app/pipelineapp"
	"github.com/clusterperf/clusterperf/app/speedupapp"
	"github.com/clusterperf/clusterperf/report"
)

// answerSetter is a result that computes its answer block (package answer) just before it
// is rendered, so every path that renders it (the command, merge of a sharded study) says
// the same answer.
type answerSetter interface{ setAnswer() }

// setAnswer calls doc's setAnswer when it has one; the results of package app's questions
// get theirs here.
func setAnswer(doc report.Document) {
	switch r := doc.(type) {
	case answerSetter:
		r.setAnswer()
	case interface{ SetAnswer() }: // the app packages' results that set their own (historyapp, cubeapp)
		r.SetAnswer()
	case *speedupapp.Result:
		r.Answer = answer.Speedup(r.Model, r.Points, r.Sizing)
	case *pipelineapp.Result:
		b := ""
		if r.Sizing != nil {
			for _, pt := range r.Points {
				if pt.P == r.Sizing.Recommended.Config.P {
					b = pt.Bottleneck
				}
			}
		}
		r.Answer = answer.Pipeline(r.Model, r.Sizing, b)
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

func (r *tpnResult) setAnswer() {
	last, at := "", -1.0
	for _, p := range r.Processes {
		if p.Finish > at {
			last, at = p.Name, p.Finish
		}
	}
	r.Answer = answer.TPN(r.Outcome, r.TimeS, last, r.Advice)
}

func (r *pmvaResult) setAnswer() { r.Answer = answer.PMVA(r.Model, r.Results) }

func (r *simulateResult) setAnswer() { r.Answer = answer.Simulation(r.Report) }
