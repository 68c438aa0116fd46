package main

import (
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
