package main

import (
	"github.com/clusterperf/clusterperf/app/solveapp"
	"github.com/clusterperf/clusterperf/report"
)

// figurer is a result with a figure for the --report page when the command drew no plot
// (solve without --sweep, simulate, queue, pmva: commands without --plot), so every page
// shows a picture of its answer.
type figurer interface {
	figure() ([]report.Panel, error)
}

// appFigurer is figurer for a result of an app package (Figure exported).
type appFigurer interface {
	Figure() ([]report.Panel, error)
}

// figure is the one model's figure (solveapp.Solution.Figure).
func (r *solveResult) figure() ([]report.Panel, error) { return (*solveapp.Solution)(r).Figure() }
