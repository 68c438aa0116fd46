// Package solveapp answers "how does this queueing network perform, and where does it
// saturate?": one model solved by the chosen solver (its method, exactness for this model and
// error estimate), every bound that applies, the queue-length distribution, --validate by
// simulation, the fork/join error estimate by simulation, and what-if sweeps (--sweep, a JMVA
// file's what-if analysis) with measured points beside them. The solve command renders the
// Result; the explorer evaluates the same Run; a sharded study (Shard, Merge) computes the
// same points on several machines.
package solveapp

import (
	"context"
	"fmt"
	"io"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sim"
)

// Request is everything one solve run needs: the parsed model, the solver and its options
// (Run's ctx stops the work), what to compute besides the
// solution, how to simulate, and where progress and the account of approximate results go.
type Request struct {
	Input   *Input
	Solver  string         // a qn.SolverNames name; "" is auto
	Options qn.AMVAOptions // Tol, MaxIter, MultiServer, RequireExact (--exact)
	// Sweep is the what-if sweep (--sweep NAME=FROM:TO[:STEP], app.ParseSweep); "" with a .jmva
	// what-if analysis and neither Distribution nor Validate: the file's analysis. Points,
	// when set, is the sweep already parsed (the explorer's population sweep).
	Sweep  string
	Points *Points
	// Measured is the path of a CSV of measured sweep points (ReadMeasurements), read with
	// Read (nil: internal/input.Read).
	Measured     string
	Read         func(path string) ([]byte, error)
	Distribution string         // a station: P(n = j) there and ln G
	Validate     bool           // simulate and compare (every solved point of a sweep)
	All          bool           // sweep table format: the bounds at every swept value
	Sim          simapp.Options // --validate and the fork/join estimate: how to simulate
	// Simulated is the simulation of --validate of one model, merged from a study's shards
	// (nil: Run simulates); a fork/join result's error estimate then comes from it too.
	Simulated *sim.Result
	// Progress gives the reporter of a long step named what (nil, or a nil reporter: silent).
	Progress func(what string) func(done, total int)
	// Log receives the account of an approximate result ("clusterperf solve: …", the
	// command's stderr); nil: discarded.
	Log io.Writer
}

// Points is a parsed sweep: the parameter and its values.
type Points struct {
	Param  qn.SweepParam
	Values []float64
}

// Result is one run's result: the solution of one model or the sweep (exactly one is set),
// and the solver's result of one model (for the JMVA export).
type Result struct {
	Solution *Solution
	Sweep    *Sweep
	QN       *qn.Result
}

// Document is the value the command renders (table, JSON, CSV).
func (r *Result) Document() report.Document {
	if r.Sweep != nil {
		return r.Sweep
	}
	return r.Solution
}

// Partial reports whether Ctrl-C stopped the run after part of it (the command prints it
// and exits 130).
func (r *Result) Partial() bool {
	return (r.Sweep != nil && r.Sweep.Partial) || (r.Solution != nil && r.Solution.Partial)
}

// IsSweep reports whether the request is a sweep: Sweep or Points, or a .jmva file's what-if
// analysis when neither Distribution nor Validate asks for the model as written.
func (q *Request) IsSweep() bool {
	return q.Sweep != "" || q.Points != nil || (q.Input.WhatIf != nil && q.Distribution == "" && !q.Validate)
}

// Check refuses what cannot be combined with the model, before any work: --exact on a model
// with fork/join nodes, and the options a model file's class switching or capacities do not
// carry through (exportJMVA: the --export-jmva path, "" when not asked for).
func (q *Request) Check(path, exportJMVA string) error {
	in := q.Input
	if q.Options.RequireExact && len(in.Model.ForkJoins) > 0 {
		return noExactForkJoin(in.Model)
	}
	if err := CheckExport(exportJMVA, in.Model); err != nil {
		return err
	}
	if !in.Special() {
		return nil
	}
	switch {
	case q.Sweep != "":
		return app.Inputf("--sweep %s: %s has %s, which the sweep's what-if changes (populations, demands) do not carry through; solve the model as written, or edit the file per point", q.Sweep, path, in.Features())
	case q.Distribution != "":
		return app.Inputf("--distribution %s: %s has %s; the queue-length distribution is computed for product-form networks only", q.Distribution, path, in.Features())
	case exportJMVA != "":
		return app.Inputf("--export-jmva %s: %s has %s, which JMVA files cannot express", exportJMVA, path, in.Features())
	}
	return nil
}

// Run solves the request: the sweep when IsSweep, else one model. After Ctrl-C (ctx
// cancelled) during --validate or a sweep it returns the partial result with the error
// (wrapping fault.ErrInterrupted): the command prints the result, then exits 130.
func Run(ctx context.Context, q Request) (*Result, error) {
	if q.Solver == "" {
		q.Solver = "auto"
	}
	if q.IsSweep() {
		sw, err := runSweep(ctx, q)
		if sw == nil {
			return nil, err
		}
		return &Result{Sweep: sw}, err
	}
	if q.Measured != "" {
		return nil, app.Inputf("--measured %s: the measurements are compared with a sweep: give --sweep (or a .jmva file with a what-if analysis)", q.Measured)
	}
	out, res, err := solveOne(ctx, q)
	if out == nil {
		return nil, err
	}
	return &Result{Solution: out, QN: res}, err
}

// JMVA is the model with its solution(s) for JMT (--export-jmva): one solution, or a sweep's
// solved points with the what-if analysis.
func (r *Result) JMVA(in *Input) *jmva.Document {
	if r.Sweep != nil {
		return sweepDocument(in, r.Sweep.param, r.Sweep.points)
	}
	return &jmva.Document{Description: in.Description(), Model: in.Model, Solutions: []jmva.Solution{jmva.SolutionOf(in.Model, r.QN)}}
}

// read is q.Read or internal/input.Read.
func (q *Request) read(path string) ([]byte, error) {
	if q.Read != nil {
		return q.Read(path)
	}
	return input.Read(path)
}

// progress is the reporter of the step named what (nil: silent).
func (q *Request) progress(what string) func(done, total int) {
	if q.Progress == nil {
		return nil
	}
	return q.Progress(what)
}

// log writes the account of approximate results.
func (q *Request) log(s string) {
	if q.Log != nil {
		io.WriteString(q.Log, "clusterperf solve: "+s+"\n")
	}
}

// noEffect notes the solver options given that did not act on res (review P3: --ms-method
// seidmann was silently ignored by exact MVA): --ms-method, --tol and --max-iter tune the
// approximate solvers schweitzer and linearizer only (qn.AMVAOptions).
func (q *Request) noEffect(res *qn.Result) []string {
	if res.Solver == "schweitzer" || res.Solver == "linearizer" {
		return nil
	}
	var notes []string
	add := func(set bool, flag string) {
		if set {
			notes = append(notes, fmt.Sprintf("%s: no effect: it applies to the approximate solvers schweitzer and linearizer, and this result is from %s", flag, res.Method))
		}
	}
	o := q.Options
	add(o.MultiServer == qn.MSSeidmann, "--ms-method seidmann")
	add(o.Tol != 0, fmt.Sprintf("--tol %g", o.Tol))
	add(o.MaxIter != 0, fmt.Sprintf("--max-iter %d", o.MaxIter))
	return notes
}
