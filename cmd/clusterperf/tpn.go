package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/app/tpnapp"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/tpn"
)

type tpnOptions struct {
	tpnapp.Flags
	progress bool
	out      outOptions
	study    studyOptions
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
			o.SampleFlags = cmd.Flags().Changed("reps") || cmd.Flags().Changed("seed")
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
	f.StringVar(&o.Cluster, "cluster", "", "cluster file (required)")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.Plot, "plot", "", "write a Gantt chart to FILE.svg or FILE.png")
	f.StringVar(&o.ExportPNML, "export-pnml", "", "write the net as PNML (timing in a toolspecific block)")
	f.BoolVar(&o.Atomic, "atomic", false, "atomic firing: tokens stay in the input places until a firing ends")
	cmdline.DurationVar(f, &o.MaxTime, "max-time", "cut the run off at this simulated time (s, or with a unit: 90min), 0 … 4.6e9 s (0: no limit)")
	f.BoolVar(&o.Advise, "advise", false, "search process-to-workstation mappings for the least predicted time")
	f.IntVar(&o.Budget, "budget", 2000, "--advise: simulations allowed to the heuristic search, ≥ 1")
	f.Int64Var(&o.MaxTrans, "max-transitions", 0, "refuse a program whose net unrolls to more transitions (0: 2000000)")
	f.Int64Var(&o.MaxFirings, "max-firings", 0, "refuse a program whose run takes more firings, and cut a run off there (0: 10000000)")
	f.StringVar(&o.Background, "background", "mean", "background load: mean (002's expansion factor 1/(1 − U)) or sampled (background jobs simulated during the run, --reps replications)")
	f.IntVar(&o.Reps, "reps", 30, "--background sampled: replications, 2 … 1000000")
	f.Uint64Var(&o.Seed, "seed", 1, "--background sampled: random seed (replication i uses streams i)")
	f.BoolVar(&o.progress, "progress", true, "show progress of --advise and sampled replications on stderr (only on a terminal)")
	registerSizing(cmd, &o.Sizing)
	addStudyFlags(f, &o.study, "--advise mappings (exhaustive search)")
}

// check refuses bad flags for the file at path before any work (tpnapp.Flags.Check).
func (o tpnOptions) check(path string) error {
	var c flagCheck
	o.out.check(&c)
	o.Check(&c.FlagCheck, path, o.study.into)
	return c.Err()
}

func runTpn(ctx context.Context, o tpnOptions, path string, stdout, stderr io.Writer) error {
	if err := o.check(path); err != nil {
		return err
	}
	q, err := o.Request(readInput, path)
	if err != nil {
		return err
	}
	q.Notify, q.Progress = stderr, func(label string) func(done, total int) { return cmdline.ProgressFunc(o.progress, label) }
	out, stop := tpnapp.Run(ctx, q)
	if out == nil {
		return stop
	}
	if q.Net != nil && o.Plot != "" && len(out.Processes) == 0 {
		return badInputf("--plot %s: no process to chart: the net's places name no process (<process> in their toolspecific block), or its log was dropped (more than %d firings)", o.Plot, tpn.DefaultMaxLog)
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if plot := o.out.plotFile(o.Plot); plot != "" && stop == nil && len(out.Processes) > 0 {
		return out.SaveGantt(plot)
	}
	return stop
}

// runTpnStudy runs one shard of a sharded tpn --advise study (tpnapp.AdviceStudy), or
// submits the study to Slurm.
func runTpnStudy(cmd *cobra.Command, o tpnOptions, args []string, stdout io.Writer) error {
	if err := o.check(args[0]); err != nil {
		return err
	}
	if o.Plot != "" || o.ExportPNML != "" {
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
	if len(args) != 1 || !o.Advise {
		return nil, badInputf("the arguments %q are not a tpn --advise study", args)
	}
	q, err := o.Request(o.study.read, args[0])
	if err != nil {
		return nil, err
	}
	q.Notify = io.Discard
	return tpnapp.NewAdviceStudy(q)
}

// mergeTpn turns the mapping times of a complete tpn --advise study into tpn's result.
var mergeTpn = studyMerge(func(o *tpnOptions) *cobra.Command { return tpnCmd(o, io.Discard, io.Discard) },
	func(o *tpnOptions) *studyOptions { return &o.study },
	func(o *tpnOptions, pos []string) (studyapp.Study, error) { return o.adviceStudy(pos) })
