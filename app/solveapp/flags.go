package solveapp

import (
	"io"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/qn"
)

// Flags are the solve command's options as given: the solver by name, the what-if sweep,
// the measured points' CSV, the station of --distribution, the approximate solvers'
// multi-server method, tolerance and iteration limit, --all and --exact.
type Flags struct {
	Solver, Sweep, Measured, Distribution, MSMethod string
	Tol                                             float64
	MaxIter                                         int
	All, Exact                                      bool
}

// Check records the options' problems in c; validate: --validate was given.
func (o Flags) Check(c *app.FlagCheck, validate bool) {
	if o.Measured != "" && (o.Distribution != "" || (validate && o.Sweep == "")) {
		c.Add("--measured is compared with a sweep: it cannot be combined with --distribution or with --validate of one model")
	}
	if o.Sweep != "" && o.Distribution != "" {
		c.Add("--sweep cannot be combined with --distribution (it takes one model)")
	}
	if !slices.Contains(qn.SolverNames(), strings.ToLower(o.Solver)) {
		c.Add("--solver: unknown solver %q (allowed: %s)", o.Solver, strings.Join(qn.SolverNames(), ", "))
	}
	if !slices.Contains([]string{"marginal", "seidmann"}, strings.ToLower(o.MSMethod)) {
		c.Add("--ms-method: unknown method %q (allowed: marginal, seidmann)", o.MSMethod)
	}
	c.NonNegative("tol", o.Tol, "the default 1e-10")
	c.AtLeast("max-iter", int64(o.MaxIter), 0)
}

// Request is the request of the checked options for the parsed model in: validate and sim
// say whether and how to simulate, read reads the measured CSV, progress gives the
// reporter of a long step, log receives the account of approximate results.
func (o Flags) Request(in *Input, validate bool, sim simapp.Options, read func(string) ([]byte, error),
	progress func(what string) func(done, total int), log io.Writer) Request {
	opt := qn.AMVAOptions{Tol: o.Tol, MaxIter: o.MaxIter, RequireExact: o.Exact}
	if strings.EqualFold(o.MSMethod, "seidmann") {
		opt.MultiServer = qn.MSSeidmann
	}
	return Request{Input: in, Solver: o.Solver, Options: opt, Sweep: o.Sweep, Measured: o.Measured, Read: read,
		Distribution: o.Distribution, Validate: validate, All: o.All, Sim: sim, Progress: progress, Log: log}
}
