package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/tpn"
)

type tpnOptions struct {
	cluster    string
	background string
	reps       int
	seed       uint64
	progress   bool
	sizing     sizingFlags
	// sampleFlags: --reps or --seed was given (they belong to --background sampled)
	sampleFlags bool
	out         outOptions
	plot        string
	exportPNML  string
	atomic      bool
	maxTime     float64
	advise      bool
	budget      int
	maxTrans    int64
	maxFirings  int64
	study       studyOptions
}

// tpnCmd is the tpn command with its flags bound to o: root gives it a fresh o, merge one
// that it then reads (reparseStudy parses a study's arguments with it).
func tpnCmd(o *tpnOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tpn PROGRAM.yaml --cluster CLUSTER.yaml | tpn NET.pnml",
		Short: "Predict a message-passing program's time on a shared, heterogeneous cluster with a timed Petri net (002)",
		Long: `Build the timed Petri net of a message-passing program (002 §3) on a cluster of workstations
with power weights and background load, simulate it to its final marking, and print the
predicted execution time, each process's computing / sending / waiting time and the critical
path; --plot draws a Gantt chart. The per-process columns overlap: sending_s (the process's
messages on the network) runs while the process computes or waits, and waiting_s is
finish_s − computing_s, so computing_s + sending_s + waiting_s can exceed finish_s.

Background load: --background mean (default) slows every compute step on a workstation by
002's expansion factor 1/(1 − U), U = Σ arrival_rate·demand (deterministic firing: exact for
the resulting times). --background sampled simulates the background instead: each CPU is
processor-sharing, and background jobs arrive and leave during the run with the cluster
file's distributions (arrivals:, demands:; default exponential); --reps replications
(seeded by --seed) give the mean makespan with its 95 % interval, printed beside the
mean-expansion answer. Ctrl-C stops the replications (or the --advise search) and prints
what finished, marked partial.

--advise searches mappings of processes to workstations; the best mapping for each number of
workstations used goes through the sizing rules (--rule, --efficiency, --knee-gain,
--within; p = workstations booked), printed as a trade-off table.

A deadlock is reported with the blocked steps, the missing messages and the processes in the
wait-for cycle (exit code 3, a finding, no result).
A run cut off by --max-time or --max-firings is a finding too (exit 3). A file ending in
.pnml is a net itself (as --export-pnml writes it, timing in the toolspecific block): it is
run to its final marking with no program or cluster.
CSV tables (--csv-table): processes (the default; with --background sampled, background),
critical_path, advice, trade_off, background.

--advise with an exhaustive search (at most 20000 mappings) can be split over machines:
--shard I/N --out DIR simulates mappings of shard I, --slurm --out DIR submits all shards
as a Slurm job array, and "clusterperf merge DIR" prints the one-machine result.

` + tpn.ProgramFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.sampleFlags = cmd.Flags().Changed("reps") || cmd.Flags().Changed("seed")
			if o.study.active() {
				return runTpnStudy(cmd, *o, args, stdout)
			}
			return runTpn(cmd.Context(), *o, args[0], stdout, stderr)
		},
	}
	o.register(cmd)
	return cmd
}

// register binds tpn's flags to o.
func (o *tpnOptions) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&o.cluster, "cluster", "", "cluster file (required)")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write a Gantt chart to FILE.svg or FILE.png")
	f.StringVar(&o.exportPNML, "export-pnml", "", "write the net as PNML (timing in a toolspecific block)")
	f.BoolVar(&o.atomic, "atomic", false, "atomic firing: tokens stay in the input places until a firing ends")
	durationVar(f, &o.maxTime, "max-time", "cut the run off at this simulated time (s, or with a unit: 90min), 0 … 4.6e9 s (0: no limit)")
	f.BoolVar(&o.advise, "advise", false, "search process-to-workstation mappings for the least predicted time")
	f.IntVar(&o.budget, "budget", 2000, "--advise: simulations allowed to the heuristic search, ≥ 1")
	f.Int64Var(&o.maxTrans, "max-transitions", 0, "refuse a program whose net unrolls to more transitions (0: 2000000)")
	f.Int64Var(&o.maxFirings, "max-firings", 0, "refuse a program whose run takes more firings, and cut a run off there (0: 10000000)")
	f.StringVar(&o.background, "background", "mean", "background load: mean (002's expansion factor 1/(1 − U)) or sampled (background jobs simulated during the run, --reps replications)")
	f.IntVar(&o.reps, "reps", 30, "--background sampled: replications, 2 … 1000000")
	f.Uint64Var(&o.seed, "seed", 1, "--background sampled: random seed (replication i uses streams i)")
	f.BoolVar(&o.progress, "progress", true, "show progress of --advise and sampled replications on stderr (only on a terminal)")
	o.sizing.register(cmd)
	addStudyFlags(f, &o.study, "--advise mappings (exhaustive search)")
}

// build are the net budgets of the flags.
func (o tpnOptions) build() tpn.BuildOptions {
	return tpn.BuildOptions{MaxTransitions: o.maxTrans, MaxFirings: o.maxFirings}
}

// isPNML tells a net file from a program file by its extension.
func isPNML(path string) bool { return strings.EqualFold(filepath.Ext(path), ".pnml") }

func (o tpnOptions) check(path string) error {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.output("export-pnml", o.exportPNML)
	switch {
	case isPNML(path) && (o.cluster != "" || o.advise):
		c.add("%s is a net: --cluster and --advise belong to a program file", path)
	case !isPNML(path) && o.cluster == "":
		c.add("--cluster CLUSTER.yaml is required (the workstations and the network)")
	}
	if _, err := tpn.Ticks(o.maxTime); err != nil {
		c.add("--max-time %g: want a duration in seconds from 0 (no limit) to the representable horizon of %.4g s (2^62 ticks of 1 ns)", o.maxTime, tpn.MaxSeconds)
	}
	c.atLeast("budget", int64(o.budget), 1)
	c.zeroOrAtLeast("max-transitions", o.maxTrans, 1, "the default")
	c.zeroOrAtLeast("max-firings", o.maxFirings, 1, "the default")
	o.study.check(&c)
	if o.study.active() && !o.advise {
		c.add("--shard/--slurm split the mappings of --advise; one run of a net is not a study")
	}
	o.sizing.check(&c)
	o.checkBackground(&c, path)
	return c.err()
}

// sampled: --background sampled.
func (o tpnOptions) sampled() bool { return o.background == "sampled" }

func (o tpnOptions) checkBackground(c *flagCheck, path string) {
	switch o.background {
	case "mean":
		if o.sampleFlags {
			c.add("--reps and --seed belong to --background sampled (the mean expansion is deterministic)")
		}
		return
	case "sampled":
	default:
		c.add("--background %q: allowed mean (default) or sampled", o.background)
		return
	}
	if o.reps < 2 || o.reps > tpn.MaxReps {
		c.add("--reps %d: want a whole number from 2 (an interval needs two) to %d", o.reps, tpn.MaxReps)
	}
	switch {
	case isPNML(path):
		c.add("--background sampled needs a program and its cluster (the workstations' background load); %s is a net", path)
	case o.atomic:
		c.add("--atomic with --background sampled: a sampled run fires tokens at start only")
	case o.study.active():
		c.add("--shard/--slurm split the mappings of --advise, not sampled replications")
	}
}

// runOpts are the run options of the flags (the checked --max-time in ticks).
func (o tpnOptions) runOpts() tpn.Options {
	t, _ := tpn.Ticks(o.maxTime)
	return tpn.Options{Record: true, AtomicFiring: o.atomic, MaxTime: t, MaxFirings: o.maxFirings}
}

// tpnResult is tpn's one result value.
type tpnResult struct {
	report.Answered
	Program string `json:"program,omitempty"`
	// Method and Exact say how time_s was obtained: deterministic firing of the net (exact for
	// its times, the background as a mean expansion) or the sampled simulation's mean.
	Method        string             `json:"method"`
	Exact         bool               `json:"exact"`
	ErrorEstimate *tpnErrorEstimate  `json:"error_estimate,omitempty"`
	Partial       bool               `json:"partial,omitempty"` // interrupted (Ctrl-C): what finished
	Outcome       string             `json:"outcome"`
	TimeS         float64            `json:"time_s"`
	Firings       int64              `json:"firings"`
	Places        int                `json:"places"`
	Transitions   int                `json:"transitions"`
	Processes     []tpn.ProcessTimes `json:"processes"`
	Critical      []tpnStep          `json:"critical_path"`
	Advice        *tpn.Advice        `json:"advice,omitempty"`
	Sizing        *sizing.Advice     `json:"sizing,omitempty"` // --advise: p = workstations used
	// SizingAllocation is the mapping of the configuration the sizing rule recommends.
	SizingAllocation tpn.Allocation `json:"sizing_allocation,omitempty"`
	Background       *tpnBackground `json:"background,omitempty"` // --background sampled
	Notes            []string       `json:"notes"`
	order            []string       // process names in program order, for the advice table
}

// tpnErrorEstimate is a sampled result's error: the half-width of its 95 % interval.
type tpnErrorEstimate struct {
	HalfWidthS   float64 `json:"half_width_s"`
	RelHalfWidth float64 `json:"rel_half_width"` // half-width / mean
	Confidence   float64 `json:"confidence"`
	Against      string  `json:"against"`
}

// tpnBackground is the sampled study beside the mean-expansion answer.
type tpnBackground struct {
	tpn.Replications
	MeanExpansionS float64 `json:"mean_expansion_time_s"` // the deterministic run, 1/(1 − U)
	// RelError is the mean-expansion answer's (model − observed)/observed against the
	// sampled mean.
	RelError     float64   `json:"rel_error"`
	Workstations []tpnLoad `json:"workstations"`
}

// tpnLoad is one loaded workstation's background.
type tpnLoad struct {
	Workstation string  `json:"workstation"`
	Utilization float64 `json:"utilization"`
	Expansion   float64 `json:"expansion_factor"`
	Streams     string  `json:"streams"` // per class: rate, demand, distributions
}

type tpnStep struct {
	Step   string  `json:"step"`
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
}

func runTpn(ctx context.Context, o tpnOptions, path string, stdout, stderr io.Writer) error {
	if err := o.check(path); err != nil {
		return err
	}
	if isPNML(path) {
		return runPNML(o, path, stdout)
	}
	prog, cl, err := parseTpn(path, o.cluster, o.build())
	if err != nil {
		return err
	}
	out, spans, err := tpnRun(o, prog, cl, stderr)
	if err != nil {
		return err
	}
	var stop error // an interruption: the partial result is printed, then this is returned
	if o.sampled() {
		stop = out.sample(ctx, o, prog, cl)
		if stop != nil && (out.Background == nil || out.Background.Done < 2) {
			return stop
		}
	}
	if o.advise && stop == nil {
		ao := tpn.AdviseOptions{Budget: o.budget, Progress: progressFunc(o.progress, "advise: simulations")}
		out.Advice, err = tpn.AdviseContext(ctx, prog, cl, ao)
		if out.Advice == nil {
			return libError(err)
		}
		if err != nil && !isInterrupt(err) {
			return libError(err)
		}
		if err != nil {
			stop = fmt.Errorf("interrupted after %d simulations of the allocation search (the best so far printed, marked partial): %w", out.Advice.Evaluated, err)
		}
		if err := out.size(o); err != nil {
			return err
		}
		if b := out.Background; b != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("advice and sizing compare mappings by the deterministic run with 002's mean expansion 1/(1 − U) (the given mapping: %.6g s), not by the sampled background (%.6g s): sampling every mapping would take --reps replications each", b.MeanExpansionS, b.MeanS))
		}
	}
	out.Partial = stop != nil
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot = o.out.plotFile(o.plot); o.plot != "" && stop == nil {
		return ganttPlot(o.plot, out.Processes, spans)
	}
	return stop
}

// isInterrupt: the run was stopped (Ctrl-C cancels the command's context).
func isInterrupt(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// sample runs the sampled-background replications of the program's own allocation and
// makes their mean the result's time (the mean-expansion run stays beside it). It returns
// the interruption, if any, with what finished already in the result.
func (r *tpnResult) sample(ctx context.Context, o tpnOptions, prog *tpn.Program, cl *tpn.Cluster) error {
	net, err := tpn.BuildWith(prog, cl, o.build())
	if err != nil {
		return libError(err)
	}
	ro := o.runOpts()
	ro.Record = false
	st, err := tpn.Replicate(ctx, net, tpn.ReplicateOptions{Reps: o.reps, Seed: o.seed, Run: ro, Progress: progressFunc(o.progress, "replications")})
	if st == nil {
		return libError(err)
	}
	if err != nil && !isInterrupt(err) {
		return libError(err)
	}
	det := r.TimeS
	r.Background = &tpnBackground{Replications: *st, MeanExpansionS: det, RelError: (det - st.MeanS) / st.MeanS, Workstations: loads(prog, cl)}
	r.TimeS = st.MeanS
	r.Method = fmt.Sprintf("simulation, %d replications: the timed Petri net with background jobs sampled on processor-sharing CPUs (seed %d)", st.Done, o.seed)
	r.Exact = false
	r.ErrorEstimate = &tpnErrorEstimate{HalfWidthS: st.HalfWidthS, RelHalfWidth: st.HalfWidthS / st.MeanS, Confidence: 0.95,
		Against: "the sampled model's true mean makespan (Student-t interval over the replications)"}
	r.Notes = append(r.Notes, sampledNotes(st, det)...)
	if err != nil {
		return fmt.Errorf("interrupted after %d of %d replications (printed, marked partial): %w", st.Done, st.Reps, err)
	}
	return nil
}

// sampledNotes say what the sampled figures are, and where they part from 002.
func sampledNotes(st *tpn.Replications, det float64) []string {
	n := []string{
		fmt.Sprintf("time_s is the mean makespan of %d sampled replications, ± %s s (95 %% interval); one run's standard deviation is %s s. 002's mean expansion 1/(1 − U) predicts %s s (rel_error %+.1f %%); processes and critical path are that run's",
			st.Done, report.Num(st.HalfWidthS), report.Num(st.StdDevS), report.Num(det), 100*(det-st.MeanS)/st.MeanS),
		"002 (§3, preliminary experiments) found 1/(1 − U) underestimates, more as the CV of the background CPU demand grows, and little sensitivity to the inter-arrival distribution. On an ideal processor-sharing CPU with Poisson arrivals the mean of a step is exactly 1/(1 − U) whatever the demands (M/G/1-PS insensitivity): here the demand distribution changes only the spread, the inter-arrival distribution the mean too, and a program's mean rises above 1/(1 − U) only through its synchronisations (a receive waits for the slower path). 002's CPUs were round-robin Unix schedulers, not processor sharing: see docs/studies-findings.md §1",
	}
	if st.Partial {
		n = append(n, fmt.Sprintf("interrupted: %d of %d replications finished; the interval is theirs", st.Done, st.Reps))
	}
	return n
}

// loads describes the background of the workstations the program uses.
func loads(prog *tpn.Program, cl *tpn.Cluster) []tpnLoad {
	out := []tpnLoad{}
	for i, w := range cl.Workstations {
		used := false
		for k, pr := range prog.Processes {
			a, ok := prog.Allocation[pr.Name]
			used = used || a == w.Name || (!ok && k%len(cl.Workstations) == i)
		}
		if !used || len(w.Background) == 0 {
			continue
		}
		var parts []string
		for _, b := range w.Background {
			parts = append(parts, fmt.Sprintf("λ = %g/s %s, D = %g s %s", b.ArrivalRate, distName(b.Arrivals), b.Demand, distName(b.Demands)))
		}
		ef, _ := w.ExpansionFactor()
		out = append(out, tpnLoad{Workstation: w.Name, Utilization: w.Utilization(), Expansion: ef, Streams: strings.Join(parts, "; ")})
	}
	return out
}

func distName(d sim.Dist) string {
	if d == nil {
		return "exponential"
	}
	return d.String()
}

// size applies the sizing rules to the advice's best mapping per number of workstations
// (p = workstations booked; core-hours are workstation-hours).
func (r *tpnResult) size(o tpnOptions) error {
	var pts []sizing.Point
	for _, k := range r.Advice.ByWorkstations {
		pts = append(pts, sizing.Point{P: k.Workstations, TimeS: k.TimeS})
	}
	if len(pts) == 0 {
		return nil
	}
	adv, err := sizing.Advise(pts, o.sizing.options(tpn.SizingT1(r.Advice.ByWorkstations)))
	if err != nil {
		return libError(err)
	}
	r.Sizing = adv
	for _, k := range r.Advice.ByWorkstations {
		if k.Workstations == adv.Recommended.Config.P {
			r.SizingAllocation = k.Allocation
		}
	}
	r.Notes = append(r.Notes, "sizing: p is the number of workstations used; messages between processes on one workstation still cross the network in the model (002 models network communication only), so packing processes is not favoured by cheaper local messages")
	r.Notes = append(r.Notes, omittedNotes(r.Advice.ByWorkstations, adv)...)
	if !r.Advice.Exhaustive {
		r.Notes = append(r.Notes, "sizing: the heuristic search simulated some mappings for each number of workstations, not all; each time is the best found")
	}
	return nil
}

// tpnRun builds and runs the net of a program (--export-pnml on the way); a deadlock or a
// cut-off is the run's finding (exit 3), with the program's message counts on stderr.
func tpnRun(o tpnOptions, prog *tpn.Program, cl *tpn.Cluster, stderr io.Writer) (*tpnResult, []tpn.Interval, error) {
	net, err := tpn.BuildWith(prog, cl, o.build())
	if err != nil {
		return nil, nil, libError(err)
	}
	if o.exportPNML != "" {
		if err := report.WriteAtomic(o.exportPNML, func(f *os.File) error { return tpn.WritePNML(f, net) }); err != nil {
			return nil, nil, err
		}
	}
	res, err := net.Run(o.runOpts())
	if err != nil {
		return nil, nil, libError(err)
	}
	if err := res.Err(); err != nil {
		for _, n := range tpn.CountMessages(prog) {
			fmt.Fprintf(stderr, "note: %s\n", n)
		}
		if res.Outcome == tpn.Deadlock {
			return nil, nil, fmt.Errorf("the program deadlocks: %w", err)
		}
		return nil, nil, err
	}
	out, spans := newTpnResult(prog, net, res)
	return out, spans, nil
}

// runPNML runs a net read from PNML to its final marking.
func runPNML(o tpnOptions, path string, stdout io.Writer) error {
	net, err := tpn.ReadPNMLFile(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return badInputf("cannot read %s: %v", path, err)
	}
	if err != nil {
		return libError(err)
	}
	res, err := net.Run(o.runOpts())
	if err != nil {
		return libError(err)
	}
	if err := res.Err(); err != nil {
		return err
	}
	out, spans := newNetResult(net, res)
	if o.plot != "" && len(out.Processes) == 0 {
		return badInputf("--plot %s: no process to chart: the net's places name no process (<process> in their toolspecific block), or its log was dropped (more than %d firings)", o.plot, tpn.DefaultMaxLog)
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot = o.out.plotFile(o.plot); o.plot != "" && len(out.Processes) > 0 {
		return ganttPlot(o.plot, out.Processes, spans)
	}
	return nil
}

func parseTpn(path, cluster string, bo tpn.BuildOptions) (*tpn.Program, *tpn.Cluster, error) {
	return parseTpnWith(readInput, path, cluster, bo)
}

// parseTpnWith is parseTpn reading the files with read (a study's merge reads them where
// its plan recorded them).
func parseTpnWith(read func(string) ([]byte, error), path, cluster string, bo tpn.BuildOptions) (*tpn.Program, *tpn.Cluster, error) {
	pb, err := read(path)
	if err != nil {
		return nil, nil, err
	}
	prog, err := tpn.ParseProgramWith(path, pb, bo)
	if err != nil {
		return nil, nil, badInput(err)
	}
	cb, err := read(cluster)
	if err != nil {
		return nil, nil, err
	}
	cl, err := tpn.ParseCluster(cluster, cb)
	if err != nil {
		return nil, nil, badInput(err)
	}
	return prog, cl, nil
}

func newTpnResult(prog *tpn.Program, net *tpn.Net, res *tpn.Result) (*tpnResult, []tpn.Interval) {
	out, spans := newNetResult(net, res)
	out.Program = prog.Name
	out.Method = "timed Petri net, deterministic firing (exact for the given times; background load as 002's mean expansion factor 1/(1 − U))"
	out.Notes = append(out.Notes, tpn.CountMessages(prog)...)
	for _, pr := range prog.Processes {
		out.order = append(out.order, pr.Name)
	}
	return out, spans
}

// newNetResult is the result of a completed run of a net: times per process, critical path.
func newNetResult(net *tpn.Net, res *tpn.Result) (*tpnResult, []tpn.Interval) {
	times, spans := tpn.Times(net, res)
	out := &tpnResult{Outcome: res.Outcome.String(), TimeS: tpn.Seconds(res.Time), Firings: res.Firings,
		Places: len(net.Places), Transitions: len(net.Transitions), Processes: times, Notes: []string{overlapNote},
		Method: "timed Petri net, deterministic firing (exact for the given times)", Exact: true}
	for _, c := range tpn.CriticalPath(net, res) {
		out.Critical = append(out.Critical, tpnStep{c.Name, c.Start, c.End})
	}
	if res.LogDropped {
		out.Notes = append(out.Notes, fmt.Sprintf("%s at t = %.6g s after %d firings, more than the log keeps (tpn.DefaultMaxLog = %d firings, or the net's transitions): the critical path is left out; time_s, firings, the per-process times and the Gantt chart (from per-transition sums) are exact", res.Outcome, out.TimeS, res.Firings, tpn.DefaultMaxLog))
	}
	return out, spans
}

// overlapNote explains the per-process columns.
const overlapNote = "per process, the columns overlap: sending_s (its messages on the network) runs while it computes or waits, and waiting_s = finish_s − computing_s, so computing_s + sending_s + waiting_s can exceed finish_s"

// NoteLines: the run's notes, then the advice's (budget cuts of the search).
func (r *tpnResult) NoteLines() []string {
	if r.Advice == nil {
		return r.Notes
	}
	out := append([]string{}, r.Notes...)
	for _, n := range r.Advice.Notes {
		out = append(out, "advice: "+n)
	}
	return out
}

// Tables: "processes" (default), "critical_path", "advice", "trade_off"; with sampled
// background "background" comes first.
func (r *tpnResult) Tables() []*report.Table {
	at := fmt.Sprintf("at t = %.6g s", r.TimeS)
	if r.Background != nil {
		at = fmt.Sprintf("at t = %.6g s with the mean expansion", r.Background.MeanExpansionS)
	}
	t := &report.Table{Name: "processes", Title: strings.TrimSpace(fmt.Sprintf("%s: %s %s after %d firings (%d places, %d transitions); the columns overlap (see notes)", r.Program, r.Outcome, at, r.Firings, r.Places, r.Transitions)),
		Header: []string{"process", "finish_s", "computing_s", "sending_s", "waiting_s"}}
	for _, p := range r.Processes {
		t.Add(p.Name, p.Finish, p.Computing, p.Sending, p.Waiting)
	}
	cp := &report.Table{Name: "critical_path", Title: "Critical path", Header: []string{"step", "start_s", "end_s"}}
	for _, c := range r.Critical {
		cp.Add(c.Step, c.StartS, c.EndS)
	}
	ts := []*report.Table{t, cp}
	if b := r.Background; b != nil {
		ts = append([]*report.Table{r.backgroundTable()}, ts...)
	}
	if r.Advice != nil {
		ts = append(ts, r.adviceTable())
	}
	if r.Sizing != nil {
		ts = append(ts, tradeOffTable(r.Sizing, "Trade-off (p = workstations used, each with the best mapping found)"))
	}
	return ts
}

// backgroundTable puts the sampled makespan beside the mean-expansion answer.
func (r *tpnResult) backgroundTable() *report.Table {
	b := r.Background
	partial := ""
	if b.Partial {
		partial = fmt.Sprintf(" — PARTIAL: %d of %d replications", b.Done, b.Reps)
	}
	t := &report.Table{Name: "background", Title: fmt.Sprintf("Makespan with background load: sampled (%d replications, seed %d) and 002's mean expansion%s", b.Done, b.Seed, partial),
		Header: []string{"method", "time_s", "half_width_95_s", "std_dev_s", "min_s", "max_s", "rel_error"}}
	t.Add("sampled background (simulation)", b.MeanS, b.HalfWidthS, b.StdDevS, b.MinS, b.MaxS, "")
	t.Add("mean expansion 1/(1 − U) (002)", b.MeanExpansionS, "", "", "", "", report.Percent(b.RelError))
	return t
}

// adviceTable is the fastest mapping found and the one the sizing rule recommends.
func (r *tpnResult) adviceTable() *report.Table {
	a := r.Advice
	how := "exhaustive search"
	if !a.Exhaustive {
		how = fmt.Sprintf("greedy + local search, %.1f %% above the lower bound at most", 100*a.Gap)
	}
	if a.Partial {
		how += ", INTERRUPTED: best so far"
	}
	header := []string{"process", "fastest"}
	if r.SizingAllocation != nil {
		header = append(header, "recommended_"+string(r.Sizing.Rule))
	}
	basis := ""
	if r.Background != nil {
		basis = "; times with the mean expansion 1/(1 − U), not sampled (see notes)"
	}
	at := &report.Table{Name: "advice", Title: fmt.Sprintf("Allocation advice (%s, %d simulations%s): %.6g s instead of %.6g s; lower bound %.6g s", how, a.Evaluated, basis, a.Time, a.Given, a.LowerBound),
		Header: header}
	best, rec := a.Allocation.Map(), r.SizingAllocation.Map()
	for _, p := range r.order {
		if r.SizingAllocation != nil {
			at.Add(p, best[p], rec[p])
		} else {
			at.Add(p, best[p])
		}
	}
	return at
}

func ganttPlot(path string, times []tpn.ProcessTimes, spans []tpn.Interval) error {
	rows := make([]string, len(times))
	for i, t := range times {
		rows[i] = t.Name
	}
	bars := make([]report.Span, len(spans))
	for i, s := range spans {
		bars[i] = report.Span{Row: s.Process, Start: s.Start, End: s.End, Kind: s.Kind}
		switch s.Kind {
		case "transfer", "transfers": // a channel's many messages: one span
			bars[i].Color, bars[i].Thin = 5, true
		case "loop": // a loop's iterations grouped: first start to last end
			bars[i].Color = 2
		}
	}
	p, err := report.Gantt("Gantt chart: computing, loops (iterations grouped) and messages on the network", "time (s)", rows, bars)
	if err != nil {
		return err
	}
	return report.SaveFigure(path, p)
}

// runTpnStudy runs one shard of a sharded tpn --advise study (mapping k of the exhaustive
// search is simulated from the program and k alone), or submits the study to Slurm.
func runTpnStudy(cmd *cobra.Command, o tpnOptions, args []string, stdout io.Writer) error {
	if err := o.check(args[0]); err != nil {
		return err
	}
	if o.plot != "" || o.exportPNML != "" {
		return badInputf("--plot and --export-pnml with --shard/--slurm: give them to the one-machine run (merge prints the result)")
	}
	_, _, st, err := prepareAdvise(o, args[0], io.Discard)
	if err != nil {
		return err
	}
	p, err := studyPlan(cmd, args, o.study, 0, st.Items())
	if err != nil {
		return err
	}
	work := func(k int) (json.RawMessage, error) {
		mt, err := st.Eval(k)
		if err != nil {
			return nil, err
		}
		return json.Marshal(mt)
	}
	return runStudy(cmd.Context(), o.study, p, work, stdout)
}

// prepareAdvise parses a program and its cluster, runs the program's own allocation (a
// deadlock or cut-off is the finding it is on one machine) and prepares the exhaustive
// advice study.
func prepareAdvise(o tpnOptions, path string, stderr io.Writer) (*tpnResult, *tpn.Program, *tpn.AdviseStudy, error) {
	prog, cl, err := parseTpnWith(o.study.read, path, o.cluster, o.build())
	if err != nil {
		return nil, nil, nil, err
	}
	out, _, err := tpnRun(o, prog, cl, stderr)
	if err != nil {
		return nil, nil, nil, err
	}
	st, err := tpn.NewAdviseStudy(prog, cl, tpn.AdviseOptions{Budget: o.budget})
	if err != nil {
		return nil, nil, nil, libError(err)
	}
	return out, prog, st, nil
}

// mergeTpn turns the mapping times of a complete tpn --advise study into tpn's result: the
// one-machine run's value, byte for byte in every format.
func mergeTpn(p shard.Plan, items []json.RawMessage) (any, error) {
	var o tpnOptions
	pos, err := reparseStudy(tpnCmd(&o, io.Discard, io.Discard), p, &o.study)
	if err != nil {
		return nil, err
	}
	if len(pos) != 1 || !o.advise {
		return nil, badInputf("the plan's arguments %q are not a tpn --advise study", p.Args)
	}
	out, _, st, err := prepareAdvise(o, pos[0], io.Discard)
	if err != nil {
		return nil, err
	}
	times := make([]tpn.MappingTime, len(items))
	for k, it := range items {
		if err := decodeMapping(k, it, &times[k]); err != nil {
			return nil, err
		}
		if err := recheckMapping(st, k, times[k]); err != nil {
			return nil, err
		}
	}
	if out.Advice, err = st.Merge(times); err != nil {
		return nil, libError(err)
	}
	if err := out.size(o); err != nil {
		return nil, err
	}
	return out, nil
}

// omittedNotes says why a number of workstations searched by the advice has no row in the
// sizing trade-off: package sizing keeps a p on its frontier only when it is faster than every
// smaller p (a dominated p costs more workstations for no less time), and shows the frontier
// rows around the recommendation plus every rule's pick.
func omittedNotes(by []tpn.KBest, adv *sizing.Advice) []string {
	shown := map[int]bool{}
	for _, c := range adv.TradeOff {
		shown[c.P] = true
	}
	var dominated, far []string
	best, bestP := math.Inf(1), 0
	for _, k := range by { // ascending workstations
		switch {
		case shown[k.Workstations]:
		case k.TimeS >= best:
			dominated = append(dominated, fmt.Sprintf("p = %d (%s s, no faster than p = %d)", k.Workstations, report.Num(k.TimeS), bestP))
		default:
			far = append(far, fmt.Sprintf("p = %d (%s s)", k.Workstations, report.Num(k.TimeS)))
		}
		if k.TimeS < best {
			best, bestP = k.TimeS, k.Workstations
		}
	}
	var notes []string
	if len(dominated) > 0 {
		notes = append(notes, "sizing: the trade-off leaves out "+strings.Join(dominated, ", ")+": more workstations for no less time; advice.by_workstations lists every p searched")
	}
	if len(far) > 0 {
		notes = append(notes, "sizing: the trade-off shows the rows next to the recommendation and every rule's pick; left out: "+strings.Join(far, ", ")+" (advice.by_workstations lists every p searched)")
	}
	return notes
}
