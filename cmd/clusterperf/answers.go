package main

import (
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app/mpipapp"
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
	case *mpipapp.Result:
		r.Answer = answerOfMpip(r)
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

func (r *historyResult) setAnswer() {
	if r.Analysis == nil {
		r.Answer = answer.History(r.Chosen, "", nil, nil, "no study fitted", strings.Join(r.Notes, " "))
		return
	}
	prog := ""
	for _, s := range r.Studies {
		if s.ID == r.Chosen {
			prog = s.Program
		}
	}
	r.Answer = answer.History(r.Chosen, prog, r.Analysis.Predictions, r.Analysis.Sizing, "", "")
}

func (r *cubeResult) setAnswer() {
	switch {
	case r.Set != nil:
		r.Answer = answer.CubeSet(r.Set.Param, r.Set.Total, r.Set.FirstToStop, r.Set.Profiles)
	case r.Profile != nil:
		p := r.Profile
		pick := 0 // the time metric when the profile has one, else the first
		if len(p.CallPaths) > 0 {
			for i, v := range p.CallPaths[0].Values {
				if v.Metric == "time" {
					pick = i
				}
			}
		}
		top, metric, unit, best, total := "", "", "", -1.0, 0.0
		for _, cp := range p.CallPaths {
			if len(cp.Values) <= pick {
				continue
			}
			v := cp.Values[pick]
			metric, unit, total = v.Metric, v.Unit, total+v.Exclusive
			if v.Exclusive > best {
				top, best = cp.CallPath, v.Exclusive
			}
		}
		share := 0.0
		if total > 0 {
			share = best / total
		}
		r.Answer = answer.CubeProfile(p.File, metric, unit, top, share, p.Processes)
	default:
		r.Answer = answer.CubeProfile("", "", "", "", 0, 0)
	}
}

// answerOfMpip is the mpip result's answer: its runs, and the forecast of the chosen kind at
// each asked P (mpipapp.Result.Chosen: the one the sizing used and the plot rings).
func answerOfMpip(r *mpipapp.Result) report.Answer {
	var runs []answer.MpipRun
	for _, x := range r.Runs {
		runs = append(runs, answer.MpipRun{Class: x.Class(), P: x.P, Profile: x.Profile, Model: x.Model})
	}
	var preds []answer.Predicted
	for _, c := range r.Chosen() {
		preds = append(preds, answer.Predicted{P: c.P, Quantity: "wall time", Unit: "s", Value: c.TimeS, Low: c.LowS, High: c.HighS, Interval: c.Interval})
	}
	return answer.Mpip(runs, r.Program, preds, r.ForecastChoice, r.Sizing)
}
