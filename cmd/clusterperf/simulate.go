package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/validate"
)

type simOptions struct {
	seed       uint64
	precision  float64
	reps       int
	batches    int
	events     int64
	maxEvents  int64
	maxMemory  string
	service    []string
	discipline []string
	arrival    []string
	think      []string
	out        outOptions
	p, d       int
	cpu        string
	cycles     int
	bursts     string
	progress   bool
	study      studyOptions
	// set holds the flags given on the command line (simulate only), so that a flag that
	// does not apply to the model's kind is refused rather than ignored.
	set map[string]bool
	// simulations, if set, counts the queueing-network simulations run (simulateQNRun and
	// the fork/join error estimates), for tests: a validated fork/join point is simulated once.
	simulations *int
}

// spmdOnlyFlags and qnOnlyFlags are simulate's flags that apply to one kind of model.
var (
	spmdOnlyFlags = []string{"p", "d", "cpu", "cycles", "bursts"}
	qnOnlyFlags   = []string{"service", "discipline", "arrival", "think", "batches", "events", "max-events", "precision"}
)

// checkKind refuses a flag given for the other kind of model (kind "qn" or "spmd").
func (o simOptions) checkKind(kind, path string) error {
	other, what := spmdOnlyFlags, "an SPMD model (a speedup file)"
	if kind == "spmd" {
		other, what = qnOnlyFlags, "a queueing network (a solve file)"
	}
	var given []string
	for _, f := range other {
		if o.set[f] {
			given = append(given, "--"+f)
		}
	}
	if len(given) == 0 {
		return nil
	}
	verb := "applies"
	if len(given) > 1 {
		verb = "apply"
	}
	return badInputf("%s %s to %s only; %s is %s (see clusterperf help simulate)", strings.Join(given, ", "), verb, what, path, map[string]string{"qn": "a queueing-network model", "spmd": "an SPMD model"}[kind])
}

// addRunFlags adds the flags of a simulation run shared by simulate and --validate.
func addRunFlags(f *pflag.FlagSet, o *simOptions) {
	f.Uint64Var(&o.seed, "seed", 1, "random seed (replication i uses stream i)")
	f.Float64Var(&o.precision, "precision", 0, "run replications until every class's X and R have a 95 % half-width within this fraction of the mean, in (0, 1] (0: off)")
	f.IntVar(&o.reps, "reps", 10, "replications, ≥ 2 (the minimum, with --precision)")
	f.Int64Var(&o.events, "events", 0, "events per replication, warm-up included (the warm-up is chosen from the data by MSER-5), ≥ 500 (0: the model's default length, which grows with its population and stations)")
	f.Int64Var(&o.maxEvents, "max-events", 0, "refuse a run of more events than this, per replication and over all replications (0: 10⁹ per replication, 4·10⁹ in all)")
	f.StringVar(&o.maxMemory, "max-memory", "", "refuse a replication whose estimated memory exceeds this size, e.g. 8GB or 512MiB (default 1 GiB); also bounds the replications run at once")
}

func addSimFlags(cmd *cobra.Command, o *simOptions) {
	f := cmd.Flags()
	addRunFlags(f, o)
	f.IntVar(&o.batches, "batches", 0, "queueing networks: batch means instead of replications — one run of --events events cut into this many batches (one core), ≥ 2 (0: off)")
	f.StringArrayVar(&o.service, "service", nil, "service distribution of a station, STATION=DIST (DIST: "+sim.DistNames+")")
	f.StringArrayVar(&o.discipline, "discipline", nil, "STATION=fcfs|ps")
	f.StringArrayVar(&o.arrival, "arrival", nil, "inter-arrival distribution of an open class, CLASS=DIST")
	f.StringArrayVar(&o.think, "think", nil, "think-time distribution of a closed class, CLASS=DIST")
	f.IntVar(&o.cycles, "cycles", 2000, "SPMD models: cycles per replication, ≥ 1")
	f.StringVar(&o.cpu, "cpu", "exponential", "SPMD models: CPU burst distribution")
	f.StringVar(&o.bursts, "bursts", "fixed", "SPMD models: computation bursts per I/O burst: fixed (exactly bursts_per_io, as programs do) or geometric (mean bursts_per_io, the models' assumption, 000 §3.4)")
	f.BoolVar(&o.progress, "progress", true, "show progress on stderr (only on a terminal)")
}

// checkRun adds the range errors of the flags of addRunFlags to c.
func (o simOptions) checkRun(c *flagCheck) {
	c.atLeast("reps", int64(o.reps), 2)
	c.zeroOrAtLeast("events", o.events, 500, "the model's default length")
	c.zeroOrAtLeast("max-events", o.maxEvents, 1, "the defaults")
	if o.maxMemory != "" {
		b, err := units.Bytes(o.maxMemory)
		switch {
		case err != nil:
			c.add("--max-memory: %v", err)
		case !(b >= 1 && b < math.MaxInt64):
			c.add("--max-memory %q: want a size of at least 1 byte and below 8 EiB", o.maxMemory)
		}
	}
	if o.precision != 0 {
		c.fraction("precision", o.precision, 0, 1)
	}
}

// memLimit is --max-memory in bytes (0: the library's default); checkRun has refused a
// value that does not parse.
func (o simOptions) memLimit() int64 {
	if o.maxMemory == "" {
		return 0
	}
	b, _ := units.Bytes(o.maxMemory)
	return int64(b)
}

// check adds the range errors of all simulation flags to c.
func (o simOptions) check(c *flagCheck) {
	o.checkRun(c)
	o.study.check(c)
	if o.study.active() && o.precision > 0 {
		c.add("--precision with --shard/--slurm: a precision target decides how many replications to run from the data of the earlier ones, which one shard does not see; give a fixed --reps")
	}
	if o.study.active() && o.batches > 0 {
		c.add("--batches with --shard/--slurm: batch means cut one long run into batches, which cannot be split over machines; use replications (--reps)")
	}
	c.zeroOrAtLeast("batches", int64(o.batches), 2, "off")
	c.atLeast("cycles", int64(o.cycles), 1)
	if o.bursts != "" && o.bursts != "fixed" && o.bursts != "geometric" {
		c.add("--bursts %q: want fixed or geometric", o.bursts)
	}
	if o.batches > 0 && o.precision > 0 {
		c.add("--batches and --precision: batch means run a fixed length; give one of them")
	}
}

// simulateCmd is the simulate command with its flags bound to o: root gives it a
// fresh o, merge one that it then reads (reparseStudy parses a study's arguments with it).
func simulateCmd(o *simOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "simulate MODEL.yaml",
		Short: "Discrete-event simulation of a queueing network or an SPMD model, with confidence intervals",
		Long: `Simulate the model of a solve file (queueing network) or a speedup file (SPMD program, at
--p and --d) by discrete events: independent replications on all cores, 95 % confidence
intervals, optionally until a relative precision. Distributions: ` + sim.DistNames + `.
The analytic answer is printed beside the simulated one with whether it falls inside the
interval. A replication's length (--events) includes its warm-up, which MSER-5 chooses
from the data; the notes say how long it was and whether the run was too short.
Progress (stderr, on a terminal) counts events, with the time left. Ctrl-C stops the run and
prints the replications finished (batch means: the part of the run simulated), marked
partial: true, and exits 130.

A queueing-network study with a fixed --reps can be split over machines: --shard I/N
--out DIR computes replications of shard I, --slurm --out DIR submits all shards as a
Slurm job array, and "clusterperf merge DIR" prints the result of the one-machine run
with the same seed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.set = map[string]bool{}
			cmd.Flags().Visit(func(f *pflag.Flag) { o.set[f.Name] = true })
			if o.study.active() {
				return runSimulateStudy(cmd, o, args, stdout)
			}
			return runSimulate(cmd.Context(), o, args[0], stdout)
		},
	}
	addSimFlags(cmd, o)
	addStudyFlags(cmd.Flags(), &o.study, "replications (a queueing network and a fixed --reps)")
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
	f.IntVar(&o.p, "p", 16, "SPMD models: processors")
	f.IntVar(&o.d, "d", 1, "SPMD models: disks")
	return cmd
}

func parseAssign(flag string, items []string) (map[string]string, error) {
	out := map[string]string{}
	for _, it := range items {
		k, v, ok := strings.Cut(it, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--%s %q: want NAME=VALUE", flag, it)
		}
		out[k] = v
	}
	return out, nil
}

func (o simOptions) config(m *qn.Model) (sim.Config, error) {
	cfg := sim.Config{Events: o.events, MaxEvents: o.maxEvents, MaxMemoryBytes: o.memLimit(), Service: map[string]sim.Dist{}, Arrival: map[string]sim.Dist{}, Think: map[string]sim.Dist{}, Discipline: map[string]sim.Discipline{}}
	stations, open, closed := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range m.Stations {
		stations[s.Name] = true
	}
	for _, c := range m.Classes {
		open[c.Name], closed[c.Name] = c.Open, !c.Open
	}
	// --arrival applies to open classes, --think to closed ones: naming another class would
	// be silently ignored by the simulator.
	for _, spec := range []struct {
		flag  string
		items []string
		names map[string]bool
		into  map[string]sim.Dist
	}{{"service", o.service, stations, cfg.Service}, {"arrival", o.arrival, open, cfg.Arrival}, {"think", o.think, closed, cfg.Think}} {
		a, err := parseAssign(spec.flag, spec.items)
		if err != nil {
			return cfg, err
		}
		for k, v := range a {
			if !spec.names[k] {
				what := map[string]string{"service": "station", "arrival": "open class", "think": "closed class"}[spec.flag]
				return cfg, fmt.Errorf("--%s %s=…: the model has no %s of that name", spec.flag, k, what)
			}
			d, err := sim.ParseDist(v)
			if err != nil {
				return cfg, fmt.Errorf("--%s %s: %v", spec.flag, k, err)
			}
			spec.into[k] = d
		}
	}
	a, err := parseAssign("discipline", o.discipline)
	if err != nil {
		return cfg, err
	}
	for k, v := range a {
		if !stations[k] {
			return cfg, fmt.Errorf("--discipline %s=…: the model has no such station", k)
		}
		switch v {
		case "fcfs":
			cfg.Discipline[k] = sim.FCFS
		case "ps":
			cfg.Discipline[k] = sim.PS
		default:
			return cfg, fmt.Errorf("--discipline %s=%s: want fcfs or ps", k, v)
		}
	}
	return cfg, nil
}

// simModel is simulate's input file decoded once: an SPMD model (a file with a top-level
// architecture field) or a queueing-network model file.
type simModel struct {
	kind string // "spmd" or "qn"
	spmd *spmd.Model
	qn   *qn.ModelFile
}

// parseSimModel reads the YAML of path once, tells its kind by its top-level fields,
// refuses the flags of the other kind (o.checkKind), and decodes the model.
func parseSimModel(o *simOptions, path string, data []byte) (simModel, error) {
	d, root, err := spec.Parse(path, data)
	if err != nil {
		return simModel{}, badInput(err)
	}
	sm := simModel{kind: "qn"}
	if root.Has("architecture") {
		sm.kind = "spmd"
	}
	if err := o.checkKind(sm.kind, path); err != nil {
		return sm, err
	}
	if sm.kind == "spmd" {
		sm.spmd, err = spmd.DecodeModel(d, root)
	} else {
		sm.qn, err = qn.ParseModelFile(path, data) // qn's decoder takes the file, not the tree
	}
	return sm, badInput(err)
}

// simulateResult is simulate's result value: the model's name and the validation report
// (its fields at the top level of the JSON document).
type simulateResult struct {
	report.Answered
	Model string `json:"model"`
	Kind  string `json:"kind"` // "qn" or "spmd"
	// Method is how the numbers were obtained: discrete-event simulation, and how its
	// intervals were formed (replications or batch means); the analytic answer it is compared
	// with names its own method in analytic_method.
	Method string `json:"method"`
	// Exact is false: a simulation is an estimate (its intervals are in the rows).
	Exact bool `json:"exact"`
	// Partial is true when the run was interrupted (Ctrl-C): the rows are those of the
	// replications finished by then (batch means: of the part of the run simulated), and a
	// note says how many; the command then exits 130.
	Partial bool `json:"partial,omitempty"`
	// Queueing networks: sim.Result's run length, warm-up and too-short count.
	EventsPerRep *int64   `json:"events_per_replication,omitempty"`
	WarmupEvents *float64 `json:"warmup_events_mean,omitempty"`
	TooShort     *int     `json:"too_short_replications,omitempty"`
	// PrecisionTarget is --precision, the relative 95 % half-width asked of every class's X
	// and R; PrecisionMet whether the simulation's achieved_precision (the largest such
	// half-width) is within it. Both absent without --precision.
	PrecisionTarget *float64 `json:"precision_target,omitempty"`
	PrecisionMet    *bool    `json:"precision_met,omitempty"`
	// ErrorEstimate is the contract's error estimate of an approximate result: for a
	// simulation, its largest relative 95 % half-width over the classes' X and R
	// (simulation.achieved_precision), absent when there is none (no finished replication).
	ErrorEstimate *simErrorEstimate `json:"error_estimate,omitempty"`
	*validate.Report
}

// simErrorEstimate states a simulation's statistical error (new-user review: simulate's
// JSON said exact false with no error_estimate).
type simErrorEstimate struct {
	RelHalfWidth95 float64 `json:"rel_half_width_95"`
	Against        string  `json:"against"`
}

// setMethod states the result's method from its simulation report.
func (r *simulateResult) setMethod() {
	r.Method = "discrete-event simulation"
	if r.Report != nil && r.Report.Simulation.Method != "" {
		r.Method += " (" + r.Report.Simulation.Method + ")"
	}
	if r.Report != nil && r.Report.Simulation.Precision > 0 && !math.IsInf(r.Report.Simulation.Precision, 0) {
		r.ErrorEstimate = &simErrorEstimate{RelHalfWidth95: r.Report.Simulation.Precision,
			Against: "the true mean: the largest relative 95 % confidence half-width of the classes' throughput and response time over the replications (batches)"}
	}
}

// setRun copies the run length, warm-up and too-short count of a queueing-network
// simulation into the result.
func (r *simulateResult) setRun(res *sim.Result) {
	r.EventsPerRep, r.WarmupEvents, r.TooShort = &res.EventsPerRep, &res.WarmupEvents, &res.TooShort
	r.Partial = res.Partial
}

// setPrecision records the --precision target (0: none) and whether the run met it: an
// interrupted run, or one whose replications were too short to estimate from, may stop
// above it.
func (r *simulateResult) setPrecision(target float64, res *sim.Result) {
	if target <= 0 {
		return
	}
	met := res.Precision <= target && !res.Partial
	r.PrecisionTarget, r.PrecisionMet = &target, &met
}

// precisionText is the table's account of a --precision target: met or not, and what was
// achieved.
func (r *simulateResult) precisionText() string {
	if r.PrecisionTarget == nil {
		return ""
	}
	verdict := "met"
	if !*r.PrecisionMet {
		verdict = "NOT met"
	}
	return fmt.Sprintf("; precision target %.3g %%: %s (achieved %.3g %%)", 100**r.PrecisionTarget, verdict, 100*r.Simulation.Precision)
}

// Tables is the validation table, titled with the run length per replication (as the
// warm-up note counts it) and in all.
func (r *simulateResult) Tables() []*report.Table {
	t := app.ValidationTable(r.Report)
	if s := r.Simulation; r.EventsPerRep != nil {
		how := fmt.Sprintf("%d replications of %d events each, %d in all", s.Replications, *r.EventsPerRep, s.Events)
		if s.Method == "batch means" {
			how = fmt.Sprintf("batch means: one run of %d events cut into %d batches after its warm-up", *r.EventsPerRep, s.Replications)
		}
		how += r.precisionText()
		if r.Partial {
			how += "; PARTIAL: interrupted"
		}
		t.Title = fmt.Sprintf("Validation of %s by simulation (%s, seed %d):", r.AnalyticMethod, how, s.Seed)
	}
	return []*report.Table{t}
}
func (r *simulateResult) NoteLines() []string { return r.Notes }

func runSimulate(ctx context.Context, o *simOptions, path string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	o.check(&c)
	c.atLeast("p", int64(o.p), 1)
	c.atLeast("d", int64(o.d), 1)
	if err := c.err(); err != nil {
		return err
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	sm, err := parseSimModel(o, path, data)
	if err != nil {
		return err
	}
	out := &simulateResult{Model: path, Kind: sm.kind}
	if sm.kind == "spmd" {
		out.Model = cmp.Or(sm.spmd.Name, path)
		var stop error
		if out.Report, stop = simulateSPMD(ctx, sm.spmd, nil, [][2]int{{o.p, o.d}}, *o); out.Report == nil {
			return stop
		}
		out.Partial = out.Report.Partial
		out.setMethod()
		return cmp.Or(render(stdout, out, o.out), stop) // stop: nil, or interrupted (exit 130) after the partial result
	}
	mf := sm.qn
	out.Model = cmp.Or(mf.Name, path)
	an, anErr := mf.Solve(ctx, "auto", qn.AMVAOptions{})
	res, runErr := simulateQNRun(ctx, mf, mf.Model, *o)
	if runErr != nil && (res == nil || !res.Partial) {
		return runErr
	}
	if res.Partial {
		clearProgress()
	}
	out.Report = qnReport(mf.Model, "auto", an, anErr, res, o.seed)
	out.setRun(res)
	out.setPrecision(o.precision, res)
	out.setMethod()
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	return runErr // nil, or interrupted (exit 130) after printing the partial result
}

// simulateQN simulates m and compares it with the solution an of the named solver (nil:
// the solver failed with anErr, said in a note). A cancelled ctx stops it: the report of
// the replications finished (marked Partial; none when fewer than two finished) with the
// error fault.ErrInterrupted (exit 130).
func simulateQN(ctx context.Context, mf *qn.ModelFile, m *qn.Model, solver string, an *qn.Result, anErr error, o simOptions) (*validate.Report, error) {
	res, err := simulateQNRun(ctx, mf, m, o)
	if res != nil && res.Partial {
		clearProgress()
		return qnReport(m, solver, an, anErr, res, o.seed), err
	}
	if err != nil {
		return nil, err
	}
	return qnReport(m, solver, an, anErr, res, o.seed), nil
}

// newSimulator builds the simulator of m under the distribution and budget flags, with
// the class switching and capacities of its model file mf (nil: none, e.g. a .jmva file).
func newSimulator(mf *qn.ModelFile, m *qn.Model, o simOptions) (*sim.Simulator, error) {
	cfg, err := o.config(m)
	if err != nil {
		return nil, badInput(err)
	}
	if mf != nil && mf.Model == m {
		cfg = sim.FileConfig(mf, cfg)
	}
	s, err := sim.New(m, cfg)
	return s, libError(err) // fault.ErrInput or ErrTooLarge, classified by sim
}

// count adds one to o.simulations, when set.
func (o simOptions) count() {
	if o.simulations != nil {
		*o.simulations++
	}
}

// simOpts are the replication options of the flags.
func (o simOptions) simOpts() sim.Options {
	return sim.Options{Seed: o.seed, Reps: o.reps, Precision: o.precision, Batches: o.batches, MaxTotalEvents: o.maxEvents,
		Progress: progressFunc(o.progress, "events")}
}

// simulateQNRun simulates m as the flags say until ctx is cancelled; the library classifies
// its errors (saturation and no steady state are findings, budgets and options input). An
// interrupted run returns the partial result with its error (fault.ErrInterrupted).
func simulateQNRun(ctx context.Context, mf *qn.ModelFile, m *qn.Model, o simOptions) (*sim.Result, error) {
	o.count()
	s, err := newSimulator(mf, m, o)
	if err != nil {
		return nil, err
	}
	res, err := s.ReplicateContext(ctx, o.simOpts())
	if res != nil && res.Partial {
		return res, err
	}
	return res, libError(err)
}

// qnReport compares a simulation with the solution an of the named solver. The report's
// notes are the simulation's (warm-up, run length, product-form caveats, lag-1); validate
// would add the lag-1 note a second time, so it is given the result without it.
func qnReport(m *qn.Model, solver string, an *qn.Result, anErr error, res *sim.Result, seed uint64) *validate.Report {
	if an != nil && an.Solver != "" {
		solver = an.Solver
	}
	if an != nil && an.Method != "" && an.Method != solver {
		solver = an.Solver + " (" + an.Method + ")" // e.g. auto (ctmc-blocking-after-service)
	}
	quiet := *res
	quiet.Lag1 = 0
	rep := validate.QNReport(m, solver, an, anErr, &quiet, seed, res.Notes)
	rep.Partial = res.Partial
	return rep
}

// simulateSPMD simulates the SPMD program directly at each (p, d) and compares the cycle
// time with the analytic model's (e: the evaluator already built, or nil), with progress
// in cycles on stderr. Ctrl-C (ctx cancelled) returns the report of what finished, marked
// Partial, with the error fault.ErrInterrupted (nil report: nothing finished).
func simulateSPMD(ctx context.Context, m *spmd.Model, e *spmd.Evaluator, pds [][2]int, o simOptions) (*validate.Report, error) {
	cfg, err := spmdConfig(o, m)
	if err != nil {
		return nil, err
	}
	if e == nil {
		if e, err = spmd.NewEvaluator(m); err != nil {
			return nil, badInput(err)
		}
	}
	rep, err := validate.SPMDContext(ctx, m, e, pds, cfg, o.seed, o.reps, progressFunc(o.progress, "cycles"))
	if rep != nil && rep.Partial {
		clearProgress()
		return rep, err
	}
	if err != nil {
		return nil, libError(err)
	}
	return rep, nil
}

// runSimulateStudy runs one shard of a sharded simulate study, or submits the study to
// Slurm: replication k is sim.Simulator.Run(seed, k), as in the one-machine run.
func runSimulateStudy(cmd *cobra.Command, o *simOptions, args []string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	o.check(&c)
	if err := c.err(); err != nil {
		return err
	}
	_, _, s, err := prepareSimulate(o, args[0])
	if err != nil {
		return err
	}
	p, err := studyPlan(cmd, args, o.study, o.seed, o.reps)
	if err != nil {
		return err
	}
	work := func(k int) (json.RawMessage, error) {
		r, err := s.Run(p.Seed, uint64(k))
		if err != nil {
			return nil, err
		}
		return json.Marshal(r)
	}
	return runStudy(cmd.Context(), o.study, p, work, stdout)
}

// prepareSimulate parses a queueing-network model for a study and builds its simulator,
// refusing (before any shard runs) what the one-machine run would refuse.
func prepareSimulate(o *simOptions, path string) (*qn.ModelFile, string, *sim.Simulator, error) {
	data, err := o.study.read(path)
	if err != nil {
		return nil, "", nil, err
	}
	sm, err := parseSimModel(o, path, data)
	if sm.kind == "spmd" {
		return nil, "", nil, badInputf("%s: an SPMD model: --shard/--slurm split the replications of a queueing network only (an SPMD simulation is short; run it on one machine)", path)
	}
	if err != nil {
		return nil, "", nil, err
	}
	mf := sm.qn
	s, err := newSimulator(mf, mf.Model, *o)
	if err != nil {
		return nil, "", nil, err
	}
	if err := s.CheckStudy(o.simOpts()); err != nil {
		return nil, "", nil, libError(err)
	}
	return mf, cmp.Or(mf.Name, path), s, nil
}

// mergeSimulate turns the replications of a complete simulate study into simulate's
// result: the one-machine run's value, byte for byte in every format.
func mergeSimulate(p shard.Plan, items []json.RawMessage) (any, error) {
	var o simOptions
	cmd := simulateCmd(&o, io.Discard, io.Discard)
	pos, err := reparseStudy(cmd, p, &o.study)
	if err != nil {
		return nil, err
	}
	if len(pos) != 1 || o.reps != p.Items || o.seed != p.Seed {
		return nil, badInputf("the plan's arguments %q are not a simulate study of %d replications with seed %d", p.Args, p.Items, p.Seed)
	}
	mf, name, s, err := prepareSimulate(&o, pos[0])
	if err != nil {
		return nil, err
	}
	res, err := summariseReps(s, items, mf.Model)
	if err != nil {
		return nil, err
	}
	an, anErr := mf.Solve(context.Background(), "auto", qn.AMVAOptions{})
	out := &simulateResult{Model: name, Kind: "qn", Report: qnReport(mf.Model, "auto", an, anErr, res, o.seed)}
	out.setRun(res)
	out.setMethod()
	return out, nil
}

// spmdConfig is the direct SPMD simulation the flags ask for.
// Direct simulation takes a one-phase model (validate.SPMD, sim.SimulateSPMD): another is
// refused here as input.
func spmdConfig(o simOptions, m *spmd.Model) (sim.SPMDConfig, error) {
	if len(m.Phases) != 1 {
		return sim.SPMDConfig{}, badInputf("direct simulation takes a one-phase model (this one has %d phases)", len(m.Phases))
	}
	cpu, err := sim.ParseDist(o.cpu)
	if err != nil {
		return sim.SPMDConfig{}, badInputf("--cpu: %v", err)
	}
	return sim.SPMDConfig{CPU: cpu, Cycles: o.cycles, MaxMemoryBytes: o.memLimit(), GeometricBursts: o.bursts == "geometric"}, nil
}

// spmdReport is validate.SPMD's report from cycle times computed elsewhere (the shards of a
// study): xs holds o.reps replications per (p, d) of pds, in order; each (p, d) is
// summarised by sim.SPMDEstimate and compared by validate.Compare with the analytic cycle
// time, as validate.SPMD does (TestSpeedupShardMerge checks the two agree byte for byte).
func spmdReport(m *spmd.Model, e *spmd.Evaluator, pds [][2]int, xs []float64, o simOptions) (*validate.Report, error) {
	cycles := m.Phases[0].Cycles
	if cycles <= 0 {
		cycles = 1
	}
	rep := &validate.Report{AnalyticMethod: "spmd " + m.Arch.String(), Simulation: validate.Simulation{Method: "direct SPMD simulation", Replications: o.reps, Seed: o.seed}, Notes: []string{}}
	for i, pd := range pds {
		pt, err := e.Evaluate(pd[0], pd[1])
		if err != nil {
			return nil, libError(err)
		}
		est, err := sim.SPMDEstimate(xs[i*o.reps : (i+1)*o.reps])
		if err != nil {
			return nil, libError(err)
		}
		rep.Rows = append(rep.Rows, validate.Compare(fmt.Sprintf("cycle time p=%d d=%d", pd[0], pd[1]), "s", est, pt.Time/cycles))
	}
	cfg, err := spmdConfig(o, m)
	if err != nil {
		return nil, err
	}
	rep.Notes = append(rep.Notes, validate.SPMDNotes(m, cfg, rep.Rows)...)
	return rep, nil
}
