package main

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/app/tpnapp"
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
// that it then reads (studyMerge parses a study's arguments with it).
func tpnCmd(o *tpnOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "tpn PROGRAM.yaml --cluster CLUSTER.yaml | tpn NET.pnml",
		Short: "Predict a message-passing program's time on a shared, heterogeneous cluster with a timed Petri net (002)",
		Long: `Build the timed Petri net of a message-passing program (002 §3) on a cluster of workstations
with power weights and background load, simulate it to its final marking, and print the
predicted execution time, each process's computing / sending / waiting time and the critical
path; --plot draws a Gantt chart. The per-process columns overlap: sending_s (the time at
least one of the process's messages is on the network, overlapping transfers counted once)
runs while the process computes or waits, and waiting_s is
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

func runTpn(ctx context.Context, o tpnOptions, path string, stdout, stderr io.Writer) error {
	if err := o.check(path); err != nil {
		return err
	}
	q, err := o.request(path, stderr)
	if err != nil {
		return err
	}
	out, stop := tpnapp.Run(ctx, q)
	if out == nil {
		return stop
	}
	if q.Net != nil && o.plot != "" && len(out.Processes) == 0 {
		return badInputf("--plot %s: no process to chart: the net's places name no process (<process> in their toolspecific block), or its log was dropped (more than %d firings)", o.plot, tpn.DefaultMaxLog)
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot = o.out.plotFile(o.plot); o.plot != "" && stop == nil && len(out.Processes) > 0 {
		return out.SaveGantt(o.plot)
	}
	return stop
}

// request reads the program and cluster (or the net) of the flags into tpnapp's Request.
func (o tpnOptions) request(path string, stderr io.Writer) (tpnapp.Request, error) {
	q := tpnapp.Request{Build: o.build(), Run: o.runOpts(), ExportPNML: o.exportPNML, Sampled: o.sampled(), Reps: o.reps, Seed: o.seed,
		Advise: o.advise, Budget: o.budget, Sizing: o.sizing.options(nil), Notify: stderr,
		Progress: func(label string) func(done, total int) { return progressFunc(o.progress, label) }}
	var err error
	if isPNML(path) {
		q.Net, err = tpn.ReadPNMLFile(path)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return q, badInputf("cannot read %s: %v", path, err)
		}
		return q, libError(err)
	}
	q.Program, q.Cluster, err = parseTpn(path, o.cluster, o.build())
	return q, err
}

func parseTpn(path, cluster string, bo tpn.BuildOptions) (*tpn.Program, *tpn.Cluster, error) {
	return tpnapp.Parse(readInput, path, cluster, bo)
}

// runTpnStudy runs one shard of a sharded tpn --advise study (tpnapp.AdviceStudy), or
// submits the study to Slurm.
func runTpnStudy(cmd *cobra.Command, o tpnOptions, args []string, stdout io.Writer) error {
	if err := o.check(args[0]); err != nil {
		return err
	}
	if o.plot != "" || o.exportPNML != "" {
		return badInputf("--plot and --export-pnml with --shard/--slurm: give them to the one-machine run (merge prints the result)")
	}
	st, err := o.adviceStudy(args)
	if err != nil {
		return err
	}
	return startStudy(cmd, args, o.study, st, stdout)
}

// adviceStudy is the --advise study of the program args[0] and its cluster.
func (o tpnOptions) adviceStudy(args []string) (studyapp.Study, error) {
	if len(args) != 1 || !o.advise {
		return nil, badInputf("the arguments %q are not a tpn --advise study", args)
	}
	prog, cl, err := tpnapp.Parse(o.study.read, args[0], o.cluster, o.build())
	if err != nil {
		return nil, err
	}
	return tpnapp.NewAdviceStudy(tpnapp.Request{Program: prog, Cluster: cl, Build: o.build(), Run: o.runOpts(), ExportPNML: o.exportPNML,
		Notify: io.Discard, Budget: o.budget, Sizing: o.sizing.options(nil)})
}

// mergeTpn turns the mapping times of a complete tpn --advise study into tpn's result.
var mergeTpn = studyMerge(func(o *tpnOptions) *cobra.Command { return tpnCmd(o, io.Discard, io.Discard) },
	func(o *tpnOptions) *studyOptions { return &o.study },
	func(o *tpnOptions, pos []string) (studyapp.Study, error) { return o.adviceStudy(pos) })
