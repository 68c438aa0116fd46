package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/validate"
)

type solveOptions struct {
	validate bool
	sim      simOptions
	solver   string
	out      outOptions
	sweep    string
	plot     string
	tol      float64
	maxIter  int
	progress bool
}

func newSolveCmd(stdout, stderr io.Writer) *cobra.Command {
	var o solveOptions
	cmd := &cobra.Command{
		Use:   "solve MODEL.yaml",
		Short: "Solve a queueing network (exact/approximate MVA, open, mixed, bounds)",
		Long: `Solve a queueing network model and print throughputs, response times, utilisations,
queue lengths and residence times.

Solvers (--solver): auto (default: open → open, mixed → mixed, one closed class → exact
MVA, several → exact multi-class MVA, or Linearizer when the population lattice is huge;
fork/join nodes → forkjoin), mva, schweitzer, linearizer, open, mixed, forkjoin (approximate
fork/join MVA, one closed class: within a few per cent of simulation, see the tests).

What-if sweeps (--sweep), as in JMVA:
  --sweep population=1:200            population of the closed class, step 1 (or A:B:STEP)
  --sweep population.batch=10:100:10  of a named class
  --sweep demand.cpu=0.01:0.2:20      a station's demand (every class), 20 points
  --sweep demand.cpu.web=0.01:0.2     one class's demand there (21 points)
  --sweep arrival_rate.web=0.1:2:20   an open class's arrival rate
--plot FILE.svg|png draws throughput and response time against the swept value, with the
asymptotic and balanced-job bounds for single-class closed models.

--validate simulates the model and compares it with the solution of the chosen --solver.
A solver that does not converge, or a saturated open station, is a finding (exit 3).
CSV tables (--csv-table): classes (default), stations, validation; sweeps: sweep.

` + qn.FileFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSolve(cmd.Context(), o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.solver, "solver", "auto", "solver: "+strings.Join(qn.SolverNames(), ", "))
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.sweep, "sweep", "", "what-if sweep, e.g. population=1:100 (see above)")
	f.StringVar(&o.plot, "plot", "", "write a plot of the sweep to FILE.svg or FILE.png")
	f.Float64Var(&o.tol, "tol", 0, "convergence tolerance of approximate solvers, ≥ 0 (0: 1e-10)")
	f.IntVar(&o.maxIter, "max-iter", 0, "iteration limit of approximate solvers, ≥ 0 (0: 100000)")
	f.BoolVar(&o.progress, "progress", true, "show progress of long sweeps on stderr (only on a terminal)")
	f.BoolVar(&o.validate, "validate", false, "also simulate the model and compare (see clusterperf help simulate)")
	addRunFlags(f, &o.sim)
	return cmd
}

func (o solveOptions) check() error {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	if o.plot != "" && o.sweep == "" {
		c.add("--plot needs --sweep (the plot shows results against the swept value)")
	}
	if !slices.Contains(qn.SolverNames(), strings.ToLower(o.solver)) {
		c.add("--solver: unknown solver %q (allowed: %s)", o.solver, strings.Join(qn.SolverNames(), ", "))
	}
	c.nonNegative("tol", o.tol, "the default 1e-10")
	c.atLeast("max-iter", int64(o.maxIter), 0)
	if o.validate {
		o.sim.checkRun(&c)
	}
	return c.err()
}

// solveResult is solve's one result value: the solution's view (its fields at the top
// level of the JSON document), the validation when --validate, and notes.
type solveResult struct {
	qn.View
	Validation *validate.Report `json:"validation,omitempty"`
	Notes      []string         `json:"notes"`
}

func (r *solveResult) Tables() []*report.Table {
	ts := report.QNTables(r.View)
	if r.Validation != nil {
		ts = append(ts, report.ValidationTable(r.Validation))
	}
	return ts
}

func (r *solveResult) NoteLines() []string {
	if r.Validation != nil {
		return append(slices.Clone(r.Notes), r.Validation.Notes...)
	}
	return r.Notes
}

func runSolve(ctx context.Context, o solveOptions, path string, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	m, name, err := parseQN(path)
	if err != nil {
		return err
	}
	opt := qn.AMVAOptions{Tol: o.tol, MaxIter: o.maxIter}
	if o.sweep != "" {
		return runSweep(m, o, opt, stdout)
	}
	res, err := qn.Solve(m, o.solver, opt)
	if err != nil {
		return libError(err)
	}
	if !res.Status.Converged {
		return finding(fault.ErrNotConverged, fmt.Errorf("%s did not converge after %d iterations (residual %.3g): no result printed; raise --max-iter or use an exact solver", res.Solver, res.Status.Iterations, res.Status.Residual))
	}
	out := &solveResult{View: qn.NewView(name, m, res), Notes: []string{}}
	if o.validate {
		o.sim.progress = o.progress
		if out.Validation, err = simulateQN(m, o.solver, res, nil, o.sim); err != nil {
			return err
		}
	}
	return render(stdout, out, o.out)
}

// parseQN reads and parses a queueing-network model file (once).
func parseQN(path string) (*qn.Model, string, error) {
	data, err := readInput(path)
	if err != nil {
		return nil, "", err
	}
	m, name, err := qn.ParseModel(path, data)
	if err != nil {
		return nil, "", badInput(err)
	}
	return m, name, nil
}

// sweepResult is solve --sweep's result value.
type sweepResult struct {
	Parameter string       `json:"parameter"`
	Solver    string       `json:"solver"`
	Classes   []string     `json:"classes"`
	Points    []sweepPoint `json:"points"`
	Notes     []string     `json:"notes"`
}

type sweepPoint struct {
	Value   float64      `json:"value"`
	Classes []sweepClass `json:"classes,omitempty"`
	Bounds  *sweepBounds `json:"bounds,omitempty"`
	Finding string       `json:"finding,omitempty"` // e.g. a saturated station: no steady state here
	Status  *sweepStatus `json:"status,omitempty"`
}

type sweepClass struct {
	Name         string  `json:"name"`
	Throughput   float64 `json:"throughput_per_s"`
	ResponseTime float64 `json:"response_time_s"`
}

type sweepStatus struct {
	Solver     string  `json:"solver"`
	Converged  bool    `json:"converged"`
	Iterations int     `json:"iterations"`
	Residual   float64 `json:"residual"`
}

// sweepBounds are qn.Bounds (QSP §5.2–5.3) with the contract's keys; the balanced-job
// bounds are absent where they do not apply.
type sweepBounds struct {
	XUpperABA float64  `json:"throughput_upper_aba_per_s"`
	RLowerABA float64  `json:"response_time_lower_aba_s"`
	XLowerBJB *float64 `json:"throughput_lower_bjb_per_s,omitempty"`
	XUpperBJB *float64 `json:"throughput_upper_bjb_per_s,omitempty"`
	RLowerBJB *float64 `json:"response_time_lower_bjb_s,omitempty"`
	RUpperBJB *float64 `json:"response_time_upper_bjb_s,omitempty"`
}
