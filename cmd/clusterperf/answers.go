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
		var runs []answer.MpipRun
		for _, x := range r.Runs {
			runs = append(runs, answer.MpipRun{P: x.P, Profile: x.Profile, Model: x.Model})
		}
		r.Answer = answer.Mpip(runs, r.Program, r.Forecasts, r.WallTimeForecasts, r.ForecastChoice, r.Sizing)
	}
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
