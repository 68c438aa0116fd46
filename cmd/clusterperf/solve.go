package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

type solveOptions struct {
	validate bool
	sim      simOptions
	solver   string
	format   string
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

` + qn.FileFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSolve(cmd.Context(), o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.solver, "solver", "auto", "solver: "+strings.Join(qn.SolverNames(), ", "))
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv")
	f.StringVar(&o.sweep, "sweep", "", "what-if sweep, e.g. population=1:100 (see above)")
	f.StringVar(&o.plot, "plot", "", "write a plot of the sweep to FILE.svg or FILE.png")
	f.Float64Var(&o.tol, "tol", 0, "convergence tolerance of approximate solvers (default 1e-10)")
	f.IntVar(&o.maxIter, "max-iter", 0, "iteration limit of approximate solvers (default 100000)")
	f.BoolVar(&o.progress, "progress", true, "show progress of long sweeps on stderr (only on a terminal)")
	f.BoolVar(&o.validate, "validate", false, "also simulate the model and compare (see clusterperf help simulate)")
	f.Uint64Var(&o.sim.seed, "seed", 1, "--validate: random seed")
	f.IntVar(&o.sim.reps, "reps", 10, "--validate: replications")
	f.Int64Var(&o.sim.events, "events", 200000, "--validate: events per replication")
	f.Float64Var(&o.sim.precision, "precision", 0, "--validate: target relative precision")
	return cmd
}

func runSolve(ctx context.Context, o solveOptions, path string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.format); err != nil {
		return badInput(err)
	}
	if err := checkPlotPath(o.plot); err != nil {
		return err
	}
	if o.plot != "" && o.sweep == "" {
		return badInputf("--plot needs --sweep (the plot shows results against the swept value)")
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	m, name, err := qn.ParseModel(path, data)
	if err != nil {
		return badInput(err)
	}
	opt := qn.AMVAOptions{Tol: o.tol, MaxIter: o.maxIter}
	if o.sweep != "" {
		return runSweep(m, o, opt, stdout)
	}
	res, err := qn.Solve(m, o.solver, opt)
	if err != nil {
		return solverError(err)
	}
	if !res.Status.Converged {
		fmt.Fprintf(stderr, "warning: %s did not converge after %d iterations (residual %.3g)\n", res.Solver, res.Status.Iterations, res.Status.Residual)
	}
	v := qn.NewView(name, m, res)
	switch o.format {
	case "json":
		err = report.WriteJSON(stdout, v)
	case "csv":
		// station rows: throughput at the station X_c·V (X_c when the model gives no visits),
		// visits per job when the model gives visits or routing
		t := &report.Table{Header: []string{"record", "name", "class", "visits", "throughput", "response_time", "utilization", "queue_length", "residence_time"}}
		for _, c := range v.Classes {
			t.Add("class", c.Name, c.Name, "", c.Throughput, c.ResponseTime, "", "", "")
		}
		for k, s := range v.Stations {
			for c, cl := range m.Classes {
				var vis any = ""
				x := res.Throughput[c]
				if m.Visits != nil {
					vis, x = m.Visits[c][k], x*m.Visits[c][k]
				}
				t.Add("station", s.Name, cl.Name, vis, x, "", res.Utilization[k][c], res.QueueLength[k][c], res.Residence[k][c])
			}
		}
		err = t.WriteCSV(stdout)
	default:
		if name != "" {
			fmt.Fprintf(stdout, "%s\n\n", name)
		}
		for i, t := range v.Tables() {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			if err = t.WriteText(stdout); err != nil {
				return err
			}
		}
	}
	if err == nil && o.validate {
		o.sim.progress = o.progress
		rows, sr, verr := validateQN(m, o.sim, stderr)
		if verr != nil {
			return verr
		}
		fmt.Fprintln(stdout)
		err = writeRows(stdout, o.format, fmt.Sprintf("Validation by simulation (exponential service, %d replications, %d events):", sr.Replications, sr.Events), rows)
	}
	if err == nil && !res.Status.Converged {
		return fmt.Errorf("%s did not converge", res.Solver)
	}
	return err
}

// solverError maps solver errors: model problems (saturation, unsupported combinations,
// bad solver names) are bad input; anything else is a failure.
func solverError(err error) error {
	var se *qn.SaturationError
	if errors.As(err, &se) || errors.Is(err, qn.ErrUnsupported) || strings.Contains(err.Error(), "unknown solver") || strings.Contains(err.Error(), "unbounded") {
		return badInput(err)
	}
	return err
}

func runSweep(m *qn.Model, o solveOptions, opt qn.AMVAOptions, stdout io.Writer) error {
	p, vals, err := qn.ParseSweep(o.sweep, m)
	if err != nil {
		return badInput(err)
	}
	pts, err := qn.Sweep(m, p, vals, o.solver, opt, progressFunc(o.progress, "sweep"))
	if err != nil {
		return solverError(err)
	}
	t := &report.Table{Header: []string{p.Label}}
	for _, c := range m.Classes {
		t.Header = append(t.Header, "X_"+c.Name, "R_"+c.Name)
	}
	hasBounds := len(pts) > 0 && pts[0].Bounds != nil
	if hasBounds {
		t.Header = append(t.Header, "X_upper_aba", "X_lower_bjb", "X_upper_bjb", "R_lower_aba", "R_lower_bjb", "R_upper_bjb")
	}
	t.Header = append(t.Header, "note")
	for _, pt := range pts {
		row := []any{pt.Value}
		for c := range m.Classes {
			if pt.Result == nil {
				row = append(row, "", "")
				continue
			}
			row = append(row, pt.Result.Throughput[c], pt.Result.ResponseTime[c])
		}
		if hasBounds {
			b := pt.Bounds
			row = append(row, b.XUpperABA, b.XLowerBJB, b.XUpperBJB, b.RLowerABA, b.RLowerBJB, b.RUpperBJB)
		}
		note := ""
		if pt.Err != nil {
			note = pt.Err.Error()
		} else if !pt.Result.Status.Converged {
			note = "not converged"
		}
		row = append(row, note)
		t.Add(row...)
	}
	switch o.format {
	case "json":
		type jpt struct {
			Value  float64    `json:"value"`
			Result *qn.View   `json:"result,omitempty"`
			Bounds *qn.Bounds `json:"bounds,omitempty"`
			Error  string     `json:"error,omitempty"`
		}
		out := struct {
			Parameter string `json:"parameter"`
			Points    []jpt  `json:"points"`
		}{Parameter: p.Label}
		for _, pt := range pts {
			j := jpt{Value: pt.Value}
			if pt.Result != nil {
				v := qn.NewView("", p.Apply(m, pt.Value), pt.Result)
				j.Result = &v
			}
			if pt.Bounds != nil && !math.IsNaN(pt.Bounds.XLowerBJB) {
				j.Bounds = pt.Bounds
			}
			if pt.Err != nil {
				j.Error = pt.Err.Error()
			}
			out.Points = append(out.Points, j)
		}
		err = report.WriteJSON(stdout, out)
	case "csv":
		err = t.WriteCSV(stdout)
	default:
		err = t.WriteText(stdout)
	}
	if err != nil {
		return err
	}
	if o.plot != "" {
		return sweepPlot(o.plot, m, p, pts)
	}
	return nil
}

func sweepPlot(path string, m *qn.Model, p qn.SweepParam, pts []qn.SweepPoint) error {
	xp := report.Panel{Title: "Throughput", XLabel: p.Label, YLabel: "jobs/s"}
	rp := report.Panel{Title: "Response time", XLabel: p.Label, YLabel: "s"}
	for c, cl := range m.Classes {
		var xs, xv, rv []float64
		for _, pt := range pts {
			if pt.Result == nil {
				continue
			}
			xs = append(xs, pt.Value)
			xv = append(xv, pt.Result.Throughput[c])
			rv = append(rv, pt.Result.ResponseTime[c])
		}
		xp.Series = append(xp.Series, report.Series{Name: "X " + cl.Name, X: xs, Y: xv})
		rp.Series = append(rp.Series, report.Series{Name: "R " + cl.Name, X: xs, Y: rv})
	}
	if len(pts) > 0 && pts[0].Bounds != nil {
		var xs, xu, xl, xbu, rl, rbl, rbu []float64
		bjb := !math.IsNaN(pts[0].Bounds.XLowerBJB)
		for _, pt := range pts {
			b := pt.Bounds
			xs = append(xs, pt.Value)
			xu = append(xu, b.XUpperABA)
			xl = append(xl, b.XLowerBJB)
			xbu = append(xbu, b.XUpperBJB)
			rl = append(rl, b.RLowerABA)
			rbl = append(rbl, b.RLowerBJB)
			rbu = append(rbu, b.RUpperBJB)
		}
		xp.Series = append(xp.Series, report.Series{Name: "ABA upper", X: xs, Y: xu, Dashed: true})
		rp.Series = append(rp.Series, report.Series{Name: "ABA lower", X: xs, Y: rl, Dashed: true})
		if bjb {
			xp.Series = append(xp.Series, report.Series{Name: "BJB upper", X: xs, Y: xbu, Dashed: true}, report.Series{Name: "BJB lower", X: xs, Y: xl, Dashed: true})
			rp.Series = append(rp.Series, report.Series{Name: "BJB lower", X: xs, Y: rbl, Dashed: true}, report.Series{Name: "BJB upper", X: xs, Y: rbu, Dashed: true})
		}
	}
	return report.SaveFigure(path, xp, rp)
}
