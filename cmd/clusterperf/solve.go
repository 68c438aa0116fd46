package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/validate"
)

type solveOptions struct {
	validate     bool
	sim          simOptions
	solver       string
	out          outOptions
	sweep        string
	plot         string
	tol          float64
	maxIter      int
	progress     bool
	all          bool
	exact        bool
	msMethod     string
	distribution string
	exportJMVA   string
	measured     string
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
// fresh o, merge one that it then reads (reparseStudy parses a study's arguments with it).
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
	f.StringVar(&o.solver, "solver", "auto", "solver: "+strings.Join(qn.SolverNames(), ", "))
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.sweep, "sweep", "", "what-if sweep, e.g. population=1:100 (see above)")
	f.StringVar(&o.plot, "plot", "", "write a plot of the sweep to FILE.svg or FILE.png")
	f.Float64Var(&o.tol, "tol", 0, "convergence tolerance of approximate solvers, ≥ 0 (0: 1e-10)")
	f.IntVar(&o.maxIter, "max-iter", 0, "iteration limit of approximate solvers, ≥ 0 (0: 100000)")
	f.BoolVar(&o.progress, "progress", true, "show progress of long sweeps on stderr (only on a terminal)")
	f.BoolVar(&o.validate, "validate", false, "also simulate the model and compare (see clusterperf help simulate)")
	f.BoolVar(&o.exact, "exact", false, "refuse to approximate: exit 2 when no exact solver fits the model")
	f.StringVar(&o.msMethod, "ms-method", "marginal", "approximate multi-server/load-dependent method: marginal or seidmann")
	f.StringVar(&o.distribution, "distribution", "", "print the queue-length distribution P(n = j) of this station and ln G")
	f.StringVar(&o.exportJMVA, "export-jmva", "", "write the model with its solution(s) to FILE.jmva for JMT")
	f.StringVar(&o.measured, "measured", "", "with a sweep: measured points to overlay (CSV value,class,throughput_per_s,response_time_s)")
	f.BoolVar(&o.all, "all", false, "with a sweep, table format: print the bounds at every swept value (default: the first and last value; JSON and CSV always carry every row)")
	addRunFlags(f, &o.sim)
	addStudyFlags(f, &o.sim.study, "--validate replications or --sweep points")
	return cmd
}

func (o solveOptions) check() error {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.output("export-jmva", o.exportJMVA, ".jmva")
	if o.measured != "" && (o.distribution != "" || (o.validate && o.sweep == "")) {
		c.add("--measured is compared with a sweep: it cannot be combined with --distribution or with --validate of one model")
	}
	if o.sweep != "" && o.distribution != "" {
		c.add("--sweep cannot be combined with --distribution (it takes one model)")
	}
	if !slices.Contains(qn.SolverNames(), strings.ToLower(o.solver)) {
		c.add("--solver: unknown solver %q (allowed: %s)", o.solver, strings.Join(qn.SolverNames(), ", "))
	}
	if !slices.Contains([]string{"marginal", "seidmann"}, strings.ToLower(o.msMethod)) {
		c.add("--ms-method: unknown method %q (allowed: marginal, seidmann)", o.msMethod)
	}
	c.nonNegative("tol", o.tol, "the default 1e-10")
	c.atLeast("max-iter", int64(o.maxIter), 0)
	o.sim.checkRun(&c)    // --validate, and the simulated error estimate of fork/join results
	o.sim.study.check(&c) // --shard, --out, --slurm*
	return c.err()
}

// noEffect notes the solver flags given that did not act on res (review P3: --ms-method
// seidmann was silently ignored by exact MVA): --ms-method, --tol and --max-iter tune the
// approximate solvers schweitzer and linearizer only (qn.AMVAOptions).
func (o solveOptions) noEffect(res *qn.Result) []string {
	if res.Solver == "schweitzer" || res.Solver == "linearizer" {
		return nil
	}
	var notes []string
	add := func(set bool, flag string) {
		if set {
			notes = append(notes, fmt.Sprintf("%s: no effect: it applies to the approximate solvers schweitzer and linearizer, and this result is from %s", flag, res.Method))
		}
	}
	add(strings.EqualFold(o.msMethod, "seidmann"), "--ms-method "+o.msMethod)
	add(o.tol != 0, fmt.Sprintf("--tol %g", o.tol))
	add(o.maxIter != 0, fmt.Sprintf("--max-iter %d", o.maxIter))
	return notes
}

// amvaOptions are the solver options the flags give.
func (o solveOptions) amvaOptions() qn.AMVAOptions {
	opt := qn.AMVAOptions{Tol: o.tol, MaxIter: o.maxIter, RequireExact: o.exact}
	if strings.EqualFold(o.msMethod, "seidmann") {
		opt.MultiServer = qn.MSSeidmann
	}
	return opt
}

// solveResult is solve's one result value: the solution's view (its fields, method and
// exact flag included, at the top level of the JSON document), every bound that applies,
// the queue-length distribution when --distribution, the validation when --validate, and
// notes (the solver's, the bounds', the validation's).
type solveResult struct {
	report.Answered
	qn.View
	Bounds       []qn.Bound          `json:"bounds"`
	Distribution *distributionResult `json:"distribution,omitempty"`
	Validation   *validate.Report    `json:"validation,omitempty"`
	// Partial is true when Ctrl-C stopped --validate (exit 130): Validation is that of the
	// replications finished, itself marked partial.
	Partial bool     `json:"partial,omitempty"`
	Notes   []string `json:"notes"`
}

// distributionResult is P(n_k = j) at one copy of a station, with ln G of the network.
type distributionResult struct {
	Station string `json:"station"`
	// LogNormalizingConstant is ln G(N) with times in seconds (qn.NormalizingConstant).
	LogNormalizingConstant float64          `json:"log_normalizing_constant"`
	Probabilities          []jobProbability `json:"probabilities"`
}

type jobProbability struct {
	Jobs        int     `json:"jobs"`
	Probability float64 `json:"probability"`
	Cumulative  float64 `json:"cumulative"` // P(n ≤ jobs)
}

func (r *solveResult) Tables() []*report.Table {
	ts := append(app.QNTables(r.View), app.BoundsTable(r.Bounds))
	if d := r.Distribution; d != nil {
		t := &report.Table{Name: "distribution", Title: fmt.Sprintf("Queue-length distribution at %s (one copy; ln G = %.10g with demands in s)", d.Station, d.LogNormalizingConstant),
			Header: []string{"jobs", "probability", "cumulative"}}
		for _, p := range d.Probabilities {
			t.Add(p.Jobs, p.Probability, p.Cumulative)
		}
		ts = append(ts, t)
	}
	if r.Validation != nil {
		ts = append(ts, app.ValidationTable(r.Validation))
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
	in, err := parseSolveModel(path)
	if err != nil {
		return err
	}
	m, opt := in.model, o.amvaOptions()
	if err := checkExport(o.exportJMVA, m); err != nil {
		return err
	}
	if err := o.checkSpecial(in, path); err != nil {
		return err
	}
	if o.isSweep(in) {
		return runSweep(ctx, in, o, opt, stdout, stderr)
	}
	if flag := o.sweepOnlyFlag(); flag != "" { // checked once read: a .jmva what-if is a sweep too
		return badInputf("%s needs --sweep, or a .jmva file with a what-if analysis (the plot shows results against the swept value; one model prints all its bounds anyway)", flag)
	}
	if o.measured != "" {
		return badInputf("--measured %s: the measurements are compared with a sweep: give --sweep (or a .jmva file with a what-if analysis)", o.measured)
	}
	out, res, err := solveOne(ctx, in, o, nil, stderr)
	if out == nil || (err != nil && !out.Partial) {
		return err
	}
	if o.exportJMVA != "" {
		out.Notes = append(out.Notes, jmva.ExportNotes(o.exportJMVA, m)...)
	}
	if err := cmp.Or(render(stdout, out, o.out), err); err != nil {
		return err // or, after the partial result, interrupted (exit 130)
	}
	if o.exportJMVA != "" {
		return exportJMVA(o.exportJMVA, &jmva.Document{Description: in.description(), Model: m, Solutions: []jmva.Solution{jmva.SolutionOf(m, res)}})
	}
	return nil
}

// sweepOnlyFlag names a flag given that only a sweep takes (--plot, --all), or "".
func (o solveOptions) sweepOnlyFlag() string {
	switch {
	case o.plot != "":
		return "--plot"
	case o.all:
		return "--all"
	}
	return ""
}

// isSweep reports whether the run is a sweep: --sweep, or a .jmva file's what-if analysis
// when neither --distribution nor --validate asks for the model as written.
func (o solveOptions) isSweep(in *solveInput) bool {
	return o.sweep != "" || (in.whatIf != nil && o.distribution == "" && !o.validate)
}

// solveOne is the result of one model (no sweep): the solution, its bounds, --distribution
// and --validate. sr is the simulation of a sharded --validate, merged from its shards
// (nil: the model is simulated here); a fork/join result's error estimate then comes from
// it too, as it is the same simulation.
func solveOne(ctx context.Context, in *solveInput, o solveOptions, sr *sim.Result, stderr io.Writer) (*solveResult, *qn.Result, error) {
	m, opt := in.model, o.amvaOptions()
	opt.Context = ctx // Ctrl-C stops comom mid-solve (exit 130)
	special := in.file != nil && (in.file.Switch != nil || in.file.Capacity != nil)
	var dist *distributionResult // first: a model it does not apply to is refused before solving
	if o.distribution != "" {
		var err error
		if dist, err = distribution(m, o.distribution); err != nil {
			return nil, nil, err
		}
	}
	var simErr error // an interrupted --validate simulation (Ctrl-C): its partial result is sr
	if o.validate && sr == nil && !special && len(m.ForkJoins) > 0 {
		// one simulation for both the fork/join error estimate and --validate (it was run twice)
		o.sim.progress = o.progress
		if sr, simErr = simulateQNRun(ctx, in.file, m, o.sim); sr == nil {
			return nil, nil, simErr
		}
	}
	estimate := func(r *qn.Result) { simulatedEstimate(m, r, o.sim) }
	if sr != nil && !special {
		estimate = func(r *qn.Result) { observedEstimate(r, sr, o.sim.seed) }
	}
	res, err := solveLabelledWith(in.solver(m), m, o.solver, opt, estimate, stderr)
	if err != nil {
		return nil, nil, err
	}
	out := &solveResult{View: qn.NewView(in.name, m, res), Bounds: []qn.Bound{}, Distribution: dist, Notes: append([]string{}, res.Notes...)}
	out.Answer = answer.Solve(m, res)
	out.Notes = append(append(out.Notes, in.notes...), o.noEffect(res)...)
	if in.whatIf != nil {
		out.Notes = append(out.Notes, "the file's what-if analysis was not run: --validate and --distribution take the model as written")
	}
	if special {
		out.Notes = append(out.Notes, "bounds: not computed: the asymptotic, balanced-job, proportional and geometric bounds assume independent classes and unlimited capacities; this model has "+fileFeatures(in.file))
	} else if err := out.addBounds(m); err != nil {
		return nil, nil, err
	}
	switch {
	case o.validate && sr != nil:
		out.Validation = qnReport(m, o.solver, res, nil, sr, o.sim.seed)
		if simErr != nil {
			out.Partial = true
			out.Notes = append(out.Notes, "partial: the validation was interrupted (see its notes); the solution is complete")
			return out, res, simErr
		}
	case o.validate:
		o.sim.progress = o.progress
		if out.Validation, err = simulateQN(ctx, in.file, m, o.solver, res, nil, o.sim); err != nil {
			if out.Validation == nil {
				return nil, nil, err
			}
			out.Partial = true // Ctrl-C: the solution, and the validation of the replications finished
			out.Notes = append(out.Notes, "partial: the validation was interrupted (see its notes); the solution is complete")
			return out, res, err
		}
	}
	return out, res, nil
}

// solveFunc solves a model with the named solver (qn.Solve, or a model file's
// qn.ModelFile.Solve, which covers class switching and finite capacities).
type solveFunc func(solver string, opt qn.AMVAOptions) (*qn.Result, error)

// solveLabelled solves m by solve and refuses what must not be printed (a solver that did
// not converge: exit 3); an approximate result's method and error estimate go to stderr too.
func solveLabelled(solve solveFunc, m *qn.Model, solver string, opt qn.AMVAOptions, so simOptions, stderr io.Writer) (*qn.Result, error) {
	return solveLabelledWith(solve, m, solver, opt, func(r *qn.Result) { simulatedEstimate(m, r, so) }, stderr)
}

// solveLabelledWith is solveLabelled with the fork/join error estimate made by estimate.
func solveLabelledWith(solve solveFunc, m *qn.Model, solver string, opt qn.AMVAOptions, estimate func(*qn.Result), stderr io.Writer) (*qn.Result, error) {
	res, err := solve(solver, opt)
	if err != nil {
		if opt.RequireExact && errors.Is(err, fault.ErrTooLarge) {
			return nil, badInputf("--exact: %w", err)
		}
		return nil, libError(err)
	}
	if !res.Status.Converged {
		return nil, finding(fault.ErrNotConverged, fmt.Errorf("%s did not converge after %d iterations (residual %.3g): no result printed; raise --max-iter or use an exact solver", res.Solver, res.Status.Iterations, res.Status.Residual))
	}
	if !res.Exact && res.ErrorEstimate == nil && len(m.ForkJoins) > 0 {
		estimate(res)
	}
	if !res.Exact {
		fmt.Fprintf(stderr, "clusterperf solve: %s\n", res.Describe())
	}
	return res, nil
}

// noExactForkJoin is the refusal of --exact on a model with fork/join nodes, before any
// solver runs, sweep or not (exit 2: no solver can meet the requirement, whichever
// --solver is given), naming what does apply.
func noExactForkJoin(m *qn.Model) error {
	return badInputf("--exact: fork/join node %q: no exact solver models fork/join synchronisation. "+
		"What applies: solve without --exact (--solver forkjoin, the default here: approximate fork/join MVA for one closed class, "+
		"its error measured against a seeded simulation), or clusterperf simulate (discrete events, 95 %% intervals)", m.ForkJoins[0].Name)
}

// simulatedEstimate measures a fork/join result, which no exact solver can check, against
// a seeded simulation of the same model (--seed, --reps, --events): its error estimate is
// the difference plus the 95 % half-width (qn.SetObservedEstimate). A simulation that
// cannot run leaves the result without an estimate and says why in a note.
func simulatedEstimate(m *qn.Model, res *qn.Result, o simOptions) {
	_ = simulatedEstimateContext(context.Background(), m, res, o)
}

// simulatedEstimateContext is simulatedEstimate stopped by ctx: when ctx is cancelled the
// simulation is abandoned, res is left without an estimate and the error wraps
// fault.ErrInterrupted (any other failure is a note on res, nil returned).
func simulatedEstimateContext(ctx context.Context, m *qn.Model, res *qn.Result, o simOptions) error {
	fail := func(err error) { res.Notes = append(res.Notes, "no error estimate by simulation: "+fault.Detail(err)) }
	o.count()
	cfg, err := o.config(m)
	if err != nil {
		fail(err)
		return nil
	}
	s, err := sim.New(m, cfg)
	if err != nil {
		fail(err)
		return nil
	}
	sr, err := s.ReplicateContext(ctx, sim.Options{Seed: o.seed, Reps: o.reps})
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("%w: %w", fault.ErrInterrupted, ctx.Err())
	}
	if err != nil {
		fail(err)
		return nil
	}
	observedEstimate(res, sr, o.seed)
	return nil
}

// observedEstimate sets res's error estimate from the simulation sr of its model (seed:
// the simulation's seed): the difference plus the 95 % half-width.
func observedEstimate(res *qn.Result, sr *sim.Result, seed uint64) {
	obs := func(es []sim.Estimate) []qn.Observed {
		out := make([]qn.Observed, len(es))
		for i, e := range es {
			out[i] = qn.Observed{Mean: e.Mean, Half: e.Half}
		}
		return out
	}
	method := fmt.Sprintf("simulation (%d replications of %d events, seed %d; 95 %% half-width added)", sr.Replications, sr.EventsPerRep, seed)
	if err := qn.SetObservedEstimate(res, method, obs(sr.Throughput), obs(sr.ResponseTime)); err != nil {
		res.Notes = append(res.Notes, "no error estimate by simulation: "+fault.Detail(err))
	}
}

// addBounds adds every bound that applies to m; why the others do not goes to the notes.
func (r *solveResult) addBounds(m *qn.Model) error {
	if len(m.ForkJoins) > 0 {
		r.Notes = append(r.Notes, "bounds: not available for models with fork/join nodes (the named bounds assume stations without synchronisation); the fork/join result's error estimate is measured by simulation instead")
		return nil
	}
	set, err := qn.AllBounds(m)
	switch {
	case errors.Is(err, fault.ErrSaturated):
		return libError(err)
	case err != nil:
		r.Notes = append(r.Notes, "bounds: not computed: "+fault.Detail(err))
		return nil
	}
	r.Bounds = append(r.Bounds, set.Bounds...)
	for _, n := range set.Notes {
		r.Notes = append(r.Notes, "bounds: "+n)
	}
	return nil
}

// distribution is --distribution STATION: P(n_k = j) and ln G.
func distribution(m *qn.Model, station string) (*distributionResult, error) {
	k := slices.IndexFunc(m.Stations, func(s qn.Station) bool { return s.Name == station })
	if k < 0 {
		names := make([]string, len(m.Stations))
		for i, s := range m.Stations {
			names[i] = s.Name
		}
		return nil, badInputf("--distribution %q: no such station (the model has %s)", station, strings.Join(names, ", "))
	}
	p, err := qn.QueueLengthDistribution(m, k)
	if err != nil {
		return nil, badInputf("--distribution %s: %w", station, libError(err))
	}
	lg, err := qn.NormalizingConstant(m)
	if err != nil {
		return nil, badInputf("--distribution %s: %w", station, libError(err))
	}
	d := &distributionResult{Station: station, LogNormalizingConstant: lg}
	cum := 0.0
	for j, pj := range p {
		cum += pj
		d.Probabilities = append(d.Probabilities, jobProbability{Jobs: j, Probability: pj, Cumulative: min(cum, 1)})
	}
	return d, nil
}

// solveInput is a parsed model file: a clusterperf model (with its class switching and
// capacities in file) or a JMVA document.
type solveInput struct {
	model  *qn.Model
	file   *qn.ModelFile // a clusterperf model file; nil for .jmva
	name   string
	doc    *jmva.Document // a .jmva file
	whatIf *jmva.WhatIf   // the file's what-if analysis that maps onto a sweep
	notes  []string
}

// solver is how in's model is solved: through its model file when it has one (class
// switching, capacities), else qn.Solve.
func (in *solveInput) solver(m *qn.Model) solveFunc {
	if in.file != nil && m == in.file.Model {
		return in.file.Solve
	}
	return func(solver string, opt qn.AMVAOptions) (*qn.Result, error) { return qn.Solve(m, solver, opt) }
}

// checkSpecial refuses the flags that cannot take a model file's class switching or
// capacities (in.file.Switch, in.file.Capacity) into account, and --exact on a model with
// fork/join nodes.
func (o solveOptions) checkSpecial(in *solveInput, path string) error {
	if o.exact && len(in.model.ForkJoins) > 0 {
		return noExactForkJoin(in.model)
	}
	if in.file == nil || (in.file.Switch == nil && in.file.Capacity == nil) {
		return nil
	}
	switch {
	case o.sweep != "":
		return badInputf("--sweep %s: %s has %s, which the sweep's what-if changes (populations, demands) do not carry through; solve the model as written, or edit the file per point", o.sweep, path, fileFeatures(in.file))
	case o.distribution != "":
		return badInputf("--distribution %s: %s has %s; the queue-length distribution is computed for product-form networks only", o.distribution, path, fileFeatures(in.file))
	case o.exportJMVA != "":
		return badInputf("--export-jmva %s: %s has %s, which JMVA files cannot express", o.exportJMVA, path, fileFeatures(in.file))
	}
	return nil
}

// fileFeatures names what a model file holds beyond its Model.
func fileFeatures(mf *qn.ModelFile) string {
	var f []string
	if mf.Switch != nil {
		f = append(f, "class switching (routing: switch:)")
	}
	if mf.Capacity != nil {
		f = append(f, "finite capacities (capacity:)")
	}
	return strings.Join(f, " and ")
}

func (in *solveInput) description() string {
	if in.doc != nil && in.doc.Description != "" {
		return in.doc.Description
	}
	return "exported by clusterperf solve from " + in.name
}

// parseSolveModel reads and parses a model file (once): *.jmva through package jmva.
func parseSolveModel(path string) (*solveInput, error) {
	return parseSolveModelWith(readInput, path)
}

// parseSolveModelWith is parseSolveModel reading the file with read (a study's merge reads
// it where its plan recorded it).
func parseSolveModelWith(read func(string) ([]byte, error), path string) (*solveInput, error) {
	data, err := read(path)
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(filepath.Ext(path), ".jmva") {
		mf, err := qn.ParseModelFile(path, data)
		if err != nil {
			return nil, badInput(err)
		}
		return &solveInput{model: mf.Model, name: mf.Name, file: mf}, nil
	}
	doc, err := jmva.Read(path, data)
	if err != nil {
		return nil, libError(err)
	}
	in := &solveInput{model: doc.Model, name: strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)), doc: doc}
	if w := doc.WhatIf; w != nil {
		if _, _, err := w.Sweep(doc.Model); err != nil {
			if !errors.Is(err, qn.ErrUnsupported) {
				return nil, badInputf("%s: %w", path, err)
			}
			in.notes = append(in.notes, "the file's what-if analysis was not run: "+err.Error())
		} else {
			in.whatIf = w
		}
	}
	return in, nil
}

// checkExport refuses, before any work, a model JMVA cannot express (fork/join nodes, an
// open class at a load-dependent station, …) when --export-jmva is given.
func checkExport(path string, m *qn.Model) error {
	if path == "" {
		return nil
	}
	if err := jmva.Write(io.Discard, &jmva.Document{Model: m}); err != nil {
		return badInputf("--export-jmva %s: %w", path, err)
	}
	return nil
}

// exportJMVA writes d for JMT (through a temporary file and a rename).
func exportJMVA(path string, d *jmva.Document) error {
	return report.WriteAtomic(path, func(f *os.File) error {
		if err := jmva.Write(f, d); err != nil {
			return libError(err)
		}
		return nil
	})
}
