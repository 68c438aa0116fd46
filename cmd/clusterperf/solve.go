package main

import (
	"cmp"
	"context"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/solveapp"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

type solveOptions struct {
	solveapp.Flags
	validate   bool
	sim        simOptions
	out        outOptions
	plot       string
	progress   bool
	exportJMVA string
}

const solveLong = `Solve a queueing network model and print throughputs, response times, utilizations,
queue lengths and residence times, with every bound that applies (table "bounds").

MODEL is a clusterperf model file (YAML/JSON, format below) or a JMT JMVA file (*.jmva):
a JMVA what-if analysis in the file is run as the sweep (unless --sweep, --validate or
--distribution is given); --export-jmva FILE writes the model with its solution(s) for JMT.

Solvers (--solver): auto (default: fork/join nodes → forkjoin (approximate); open classes
only → open; open and closed → mixed; one closed class → exact MVA (while its work,
population × stations, fits 2e9; else Linearizer, saying why); several → comom where
its estimated time is lower, else exact multi-class MVA (multi-server and load-dependent
stations included) while its cost fits, else integral where its grid converges, else
Linearizer (approximate)), mva, comom (exact class-oriented Method of Moments, Casale 2009:
cost grows with the total population, not the population lattice; queue and delay stations
only; multi-precision, verified at two precisions), integral (numerical integration of the
exact integral representation, McKenna & Mitra 1982: APPROXIMATE, error estimate ≤ 1e-9,
ten times the difference from a coarser grid; its cost does not grow with the populations:
thousands of jobs per class on a few queues in seconds; queue and delay stations only;
exit 3 when its grid does not converge within 3e7 points), schweitzer, linearizer, open,
mixed, forkjoin
(approximate fork/join MVA, one closed class: no exact solver exists, so its error is
estimated against a seeded simulation of the model, --seed/--reps/--events; without fork/join
nodes it is exact MVA and says so).
Every result says its method and whether it is exact (JSON "method", "exact", "reason";
the classes table's title). An approximate result also carries "error_estimate" (the
spread to a second approximation and, where affordable, the measured error at a smaller
population) and the same account is printed on stderr. --exact refuses to approximate
(exit 2, with the reason and the estimate of the work). Ctrl-C stops the exact solvers
(exit 130). --ms-method chooses how the approximate solvers (schweitzer, linearizer; a note
says when it has no effect) treat multi-server and load-dependent stations: marginal (default:
approximate marginal probabilities) or seidmann (an m-server queue as a 1-server queue of
demand D/m plus a delay D(m−1)/m; multi-server stations only).
Exactness depends on the model too: MVA's product form (BCMP) needs, at a FCFS station
(type queue, fcfs, multiserver, ld), the same service time per visit for every class; where
they differ, an exact solver's result says "exact": false with a note naming the stations
(the numbers are exact for processor sharing: declare type ps; JMVA stations are product
form). Utilization: per server, X_c·D_{c,k}/m per class; at a load-dependent station the
station's busy probability 1 − P(0 jobs) split among the classes in proportion to X_c·D_{c,k}
(JSON stations[].utilization and per_class[].utilization); at a delay station the mean number
of busy servers.

Bounds (table "bounds", JSON "bounds"): asymptotic and balanced job bounds (closed, any
number of classes; open), proportional and geometric bounds (closed, one class, queues and
delays), each labelled by its name; notes say which do not apply and why.

--distribution STATION prints P(n = j), the exact distribution of the number of jobs (all
classes) at one copy of STATION, and ln G, the logarithm of the normalising constant
(times in seconds), for closed product-form networks (table "distribution").

Zero convention:
` + qn.ZeroConvention + ` A station's residence_time_s (all classes) is the
throughput-weighted mean of its classes' residence times, or, when no job passes through
it, their plain mean over the classes that visit it.

What-if sweeps (--sweep), as in JMVA:
  --sweep population=1:200            population of the closed class, step 1 (or A:B:STEP)
  --sweep population.batch=10:100:10  of a named class
  --sweep demand.cpu=0.01:0.2:n20     a station's demand (every class), 20 points
  --sweep demand.cpu.web=0.01:0.2     one class's demand there (21 points)
  --sweep arrival_rate.web=0.1:2:n20  an open class's arrival rate
Each point carries its method, exact flag and error estimate, and the bounds that apply
(fork/join models: every point is simulated for its estimate; --events shortens that).
The table format shows the bounds at the first and last swept value and leaves out
columns empty at every point; --all prints the bounds at every value (JSON and CSV always
carry every column and row).
--plot FILE.svg|png draws throughput and response time against the swept value, with
every bound as a dashed line labelled by its name in the legend.
--measured FILE.csv overlays measurements on a sweep: a CSV with the columns value (a
swept value), class (may be left out for a one-class model) and throughput_per_s and/or
response_time_s; the table "measured" (JSON "measured") puts each beside the model's value
with the relative error (model − measured)/measured, and the plot draws them as points.

--validate simulates the model and compares it with the solution of the chosen --solver;
with a sweep, every point with a steady state is simulated and compared (table
"validation"; JSON "validation", one report per point). Progress (stderr, on a terminal)
counts events with the time left; Ctrl-C during --validate of one model prints the solution
and the validation of the replications finished, marked partial: true, and exits 130.
A file with class switching (routing: switch:) is solved by its routing chains, one with
capacities (capacity:) by the exact CTMC of blocking after service when it has at most 1000
states, else by --solver mvablo (approximate, with its measured error; --solver exact
insists on the CTMC); neither takes --sweep, --distribution, --export-jmva or bounds.
A solver that does not converge, or a saturated open station, is a finding (exit 3).
CSV tables (--csv-table): classes (default), stations, bounds, distribution, validation;
sweeps: sweep (default), sweep_bounds, measured, validation.

`

// solveCmd is the solve command with its flags bound to o: root gives it a
// fresh o, merge one that it then reads (studyMerge parses a study's arguments with it).
func solveCmd(o *solveOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "solve MODEL.yaml|MODEL.jmva",
		Short: "Solve a queueing network (exact/approximate MVA, open, mixed, bounds)",
		Long:  solveLong + solveStudyLong + qn.FileFormat,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.sim.study.active() {
				return runSolveStudy(cmd, o, args, stdout, stderr)
			}
			return runSolve(cmd.Context(), *o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Solver, "solver", "auto", "solver: "+strings.Join(qn.SolverNames(), ", "))
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.Sweep, "sweep", "", "what-if sweep, e.g. population=1:100 (see above)")
	f.StringVar(&o.plot, "plot", "", "write a plot of the sweep to FILE.svg or FILE.png")
	f.Float64Var(&o.Tol, "tol", 0, "convergence tolerance of approximate solvers, ≥ 0 (0: 1e-10)")
	f.IntVar(&o.MaxIter, "max-iter", 0, "iteration limit of approximate solvers, ≥ 0 (0: 100000)")
	f.BoolVar(&o.progress, "progress", true, "show progress of long sweeps on stderr (only on a terminal)")
	f.BoolVar(&o.validate, "validate", false, "also simulate the model and compare (see clusterperf help simulate)")
	f.BoolVar(&o.Exact, "exact", false, "refuse to approximate: exit 2 when no exact solver fits the model")
	f.StringVar(&o.MSMethod, "ms-method", "marginal", "approximate multi-server/load-dependent method: marginal or seidmann")
	f.StringVar(&o.Distribution, "distribution", "", "print the queue-length distribution P(n = j) of this station and ln G")
	f.StringVar(&o.exportJMVA, "export-jmva", "", "write the model with its solution(s) to FILE.jmva for JMT")
	f.StringVar(&o.Measured, "measured", "", "with a sweep: measured points to overlay (CSV value,class,throughput_per_s,response_time_s)")
	f.BoolVar(&o.All, "all", false, "with a sweep, table format: print the bounds at every swept value (default: the first and last value; JSON and CSV always carry every row)")
	addRunFlags(f, &o.sim)
	addStudyFlags(f, &o.sim.study, "--validate replications or --sweep points")
	return cmd
}

func (o solveOptions) check() error {
	var c flagCheck
	o.out.check(&c)
	c.Output("plot", o.plot, ".svg", ".png")
	c.Output("export-jmva", o.exportJMVA, ".jmva")
	o.Check(&c.FlagCheck, o.validate)
	o.sim.checkRun(&c)    // --validate, and the simulated error estimate of fork/join results
	o.sim.study.check(&c) // --shard, --out, --slurm*
	return c.Err()
}

// request is the solve request of the flags for the parsed model in (solveapp.Flags.Request);
// stderr receives the account of approximate results.
func (o solveOptions) request(in *solveapp.Input, stderr io.Writer) solveapp.Request {
	so := o.sim
	so.progress = o.progress // --validate's events; a sweep's points are simulated without
	return o.Request(in, o.validate, so.app(), o.sim.study.read,
		func(what string) func(done, total int) { return cmdline.ProgressFunc(o.progress, what) }, stderr)
}

func runSolve(ctx context.Context, o solveOptions, path string, stdout, stderr io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	in, err := solveapp.ParseInput(readInput, path)
	if err != nil {
		return err
	}
	q := o.request(in, stderr)
	if err := q.Check(path, o.exportJMVA); err != nil {
		return err
	}
	if flag := o.sweepOnlyFlag(); flag != "" && !q.IsSweep() { // checked once read: a .jmva what-if is a sweep too
		return badInputf("%s needs --sweep, or a .jmva file with a what-if analysis (the plot shows results against the swept value; one model prints all its bounds anyway)", flag)
	}
	res, err := solveapp.Run(ctx, q)
	if res == nil {
		return err
	}
	if res.Partial() {
		cmdline.ClearProgress()
	}
	doc := res.Document()
	if res.Solution != nil {
		doc = (*solveResult)(res.Solution)
	}
	if res.Sweep != nil {
		res.Sweep.ForFormat(o.out.format)
	}
	if o.exportJMVA != "" && !res.Partial() { // how the export changes the model's expression
		addNotes(doc, jmva.ExportNotes(o.exportJMVA, in.Model))
	}
	if err := cmp.Or(render(stdout, doc, o.out), err); err != nil || res.Partial() {
		return err // or, after the partial result, interrupted (exit 130)
	}
	if res.Sweep != nil {
		if o.plot = o.out.plotFile(o.plot); o.plot != "" {
			if err := res.Sweep.Plot(o.plot); err != nil {
				return err
			}
		}
	}
	if o.exportJMVA != "" {
		return report.WriteAtomic(o.exportJMVA, func(f *os.File) error { return libError(jmva.Write(f, res.JMVA(in))) })
	}
	return nil
}

// sweepOnlyFlag names a flag given that only a sweep takes (--plot, --all), or "".
func (o solveOptions) sweepOnlyFlag() string {
	switch {
	case o.plot != "":
		return "--plot"
	case o.All:
		return "--all"
	}
	return ""
}

// addNotes appends notes to a solve result's (the one model's or the sweep's).
func addNotes(doc report.Document, notes []string) {
	switch r := doc.(type) {
	case *solveResult:
		r.Notes = append(r.Notes, notes...)
	case *solveapp.Sweep:
		r.Notes = append(r.Notes, notes...)
	}
}

// solveResult is the one-model result (solveapp.Solution) under the command's name: the
// --report page's figure (figures.go) is a method of it.
type solveResult solveapp.Solution

func (r *solveResult) Tables() []*report.Table { return (*solveapp.Solution)(r).Tables() }
func (r *solveResult) NoteLines() []string     { return (*solveapp.Solution)(r).NoteLines() }
