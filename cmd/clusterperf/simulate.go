package main

import (
	"cmp"
	"context"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/sim"
)

type simOptions struct {
	simapp.Flags
	out      outOptions
	progress bool
	study    studyOptions
	// set holds the flags given on the command line (simulate only), so that a flag that
	// does not apply to the model's kind is refused rather than ignored.
	set map[string]bool
}

// addRunFlags adds the flags of a simulation run shared by simulate and --validate.
func addRunFlags(f *pflag.FlagSet, o *simOptions) {
	f.Uint64Var(&o.Seed, "seed", 1, "random seed (replication i uses stream i)")
	f.Float64Var(&o.Precision, "precision", 0, "run replications until every class's X and R have a 95 % half-width within this fraction of the mean, in (0, 1] (0: off)")
	f.IntVar(&o.Reps, "reps", 10, "replications, ≥ 2 (the minimum, with --precision)")
	f.Int64Var(&o.Events, "events", 0, "events per replication, warm-up included (the warm-up is chosen from the data by MSER-5), ≥ 500 (0: the model's default length, which grows with its population and stations)")
	f.Int64Var(&o.MaxEvents, "max-events", 0, "refuse a run of more events than this, per replication and over all replications (0: 10⁹ per replication, 4·10⁹ in all)")
	f.StringVar(&o.MaxMemory, "max-memory", "", "refuse a replication whose estimated memory exceeds this size, e.g. 8GB or 512MiB (default 1 GiB); also bounds the replications run at once")
}

func addSimFlags(cmd *cobra.Command, o *simOptions) {
	f := cmd.Flags()
	addRunFlags(f, o)
	f.IntVar(&o.Batches, "batches", 0, "queueing networks: batch means instead of replications — one run of --events events cut into this many batches (one core), ≥ 2 (0: off)")
	f.StringArrayVar(&o.Service, "service", nil, "service distribution of a station, STATION=DIST (DIST: "+sim.DistNames+")")
	f.StringArrayVar(&o.Discipline, "discipline", nil, "STATION=fcfs|ps")
	f.StringArrayVar(&o.Arrival, "arrival", nil, "inter-arrival distribution of an open class, CLASS=DIST")
	f.StringArrayVar(&o.Think, "think", nil, "think-time distribution of a closed class, CLASS=DIST")
	f.IntVar(&o.Cycles, "cycles", 2000, "SPMD models: cycles per replication, ≥ 1")
	f.StringVar(&o.CPU, "cpu", "exponential", "SPMD models: CPU burst distribution")
	f.StringVar(&o.Bursts, "bursts", "fixed", "SPMD models: computation bursts per I/O burst: fixed (exactly bursts_per_io, as programs do) or geometric (mean bursts_per_io, the models' assumption, 000 §3.4)")
	f.BoolVar(&o.progress, "progress", true, "show progress on stderr (only on a terminal)")
}

// checkRun adds the range errors of the flags of addRunFlags to c (simapp.Flags.CheckRun).
func (o simOptions) checkRun(c *flagCheck) { o.CheckRun(&c.FlagCheck) }

// check adds the range errors of all simulation flags to c (simapp.Flags.Check).
func (o simOptions) check(c *flagCheck) { o.Check(&c.FlagCheck, o.study.into) }

// simulateCmd is the simulate command with its flags bound to o: root gives it a
// fresh o, merge one that it then reads (studyMerge parses a study's arguments with it).
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
	f.IntVar(&o.P, "p", 16, "SPMD models: processors")
	f.IntVar(&o.D, "d", 1, "SPMD models: disks")
	return cmd
}

func runSimulate(ctx context.Context, o *simOptions, path string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	o.check(&c)
	c.AtLeast("p", int64(o.P), 1)
	c.AtLeast("d", int64(o.D), 1)
	if err := c.Err(); err != nil {
		return err
	}
	data, err := readInput(path)
	if err != nil {
		return err
	}
	sm, err := simapp.Decode(path, data, o.set)
	if err != nil {
		return err
	}
	out, stop := simapp.Run(ctx, simapp.Request{Path: path, QN: sm.QN, SPMD: sm.SPMD, P: o.P, D: o.D, Options: o.app()})
	if out == nil {
		return stop
	}
	if out.Partial {
		cmdline.ClearProgress()
	}
	return cmp.Or(render(stdout, out, o.out), stop) // stop: nil, or interrupted (exit 130) after the partial result
}

// app is the simulation options of the flags (package simapp), with progress on a terminal.
func (o simOptions) app() simapp.Options {
	return o.Options(func(unit string) func(done, total int) { return cmdline.ProgressFunc(o.progress, unit) })
}

// runSimulateStudy runs one shard of a sharded simulate study (simapp.Study), or submits
// the study to Slurm.
func runSimulateStudy(cmd *cobra.Command, o *simOptions, args []string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	o.check(&c)
	if err := c.Err(); err != nil {
		return err
	}
	st, err := o.qnStudy(args)
	if err != nil {
		return err
	}
	return startStudy(cmd, args, o.study, st, stdout)
}

// qnStudy is the study of the replications of the queueing network args[0].
func (o *simOptions) qnStudy(args []string) (studyapp.Study, error) {
	data, err := o.study.read(args[0])
	if err != nil {
		return nil, err
	}
	return simapp.NewStudy(args[0], data, o.set, o.app())
}

// mergeSimulate turns the replications of a complete simulate study into simulate's result.
var mergeSimulate = studyMerge(func(o *simOptions) *cobra.Command { return simulateCmd(o, io.Discard, io.Discard) },
	func(o *simOptions) *studyOptions { return &o.study }, (*simOptions).qnStudy)
