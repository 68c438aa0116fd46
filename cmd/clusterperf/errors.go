package main

import (
	"errors"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
)

// badInput, badInputf, finding, libError: the application layer's classification of errors
// by fault class (package app), under the names the command's files use.
var (
	badInput  = app.Input
	badInputf = app.Inputf
	finding   = app.Finding
	libError  = app.Lib
	classify  = app.Classify
)

func asTableError(err error, te **report.TableError) bool { return errors.As(err, te) }
