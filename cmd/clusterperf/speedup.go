package main

import (
	"cmp"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/app/speedupapp"
	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/spmd"
	"github.com/clusterperf/clusterperf/validate"
)

type speedupOptions struct {
	speedupapp.Flags
	out      outOptions
	progress bool
	sim      simOptions
}

// speedupCmd is the speedup command with its flags bound to o: root gives it a
// fresh o, merge one that it then reads (studyMerge parses a study's arguments with it).
func speedupCmd(o *speedupOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "speedup MODEL.yaml",
		Short: "SPMD speedup models (Cremonesi & Gennaro (000), Gennaro (001)): time, speedup and bottleneck over p processors and d disks",
		Long:  speedupLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.sim.study.active() {
				return runSpeedupStudy(cmd, *o, args, stdout)
			}
			return runSpeedup(cmd.Context(), *o, args[0], stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.P, "p", "1:64", "processors: "+app.RangeSyntax)
	f.StringVar(&o.D, "d", "1", "disks (I/O nodes): "+app.RangeSyntax)
	addOutFlags(cmd, &o.out)
	f.BoolVar(&o.All, "all", false, fmt.Sprintf("print every (p, d) in the table even when there are more than %d (JSON and CSV always have every point)", speedupapp.SummaryRows))
	f.StringVar(&o.Plot, "plot", "", "write plots to FILE.svg or FILE.png")
	f.StringVar(&o.Solver, "solver", "recursive", "BUS-AIO's MVA: recursive (exact MVA over the population) or non-recursive (Cremonesi & Gennaro (000) eqs. 17/22, Gennaro (001) App. A; p/c ≤ 150)")
	f.StringVar(&o.Measured, "measured", "", "CSV of measured runs (columns p, time, optional d) to compare with the model")
	registerSizing(cmd, &o.Sizing)
	f.BoolVar(&o.progress, "progress", true, "show the progress of a surface that takes more than a second, with the time left, on stderr (only on a terminal)")
	f.BoolVar(&o.Validate, "validate", false, "also simulate the program directly at the best point and the range's ends and compare")
	f.Uint64Var(&o.sim.Seed, "seed", 1, "--validate: random seed")
	f.IntVar(&o.sim.Reps, "reps", 10, "--validate: replications, ≥ 2")
	f.IntVar(&o.sim.Cycles, "cycles", 2000, "--validate: cycles per replication, ≥ 1")
	f.StringVar(&o.sim.CPU, "cpu", "exponential", "--validate: CPU burst distribution")
	f.StringVar(&o.sim.MaxMemory, "max-memory", "", "--validate: refuse a replication whose estimated memory exceeds this size, e.g. 8GB (default 1 GiB)")
	addStudyFlags(f, &o.sim.study, "--validate replications")
	return cmd
}

func runSpeedup(ctx context.Context, o speedupOptions, path string, stdout io.Writer) error {
	sp, err := prepareSpeedup(ctx, o, path)
	if err != nil {
		return err
	}
	if sp.Stopped != nil { // Ctrl-C: the points evaluated so far, no validation or plot
		cmdline.ClearProgress()
		return cmp.Or(render(stdout, sp.Out, o.out), sp.Stopped)
	}
	if sp.PDs != nil {
		o.sim.progress = o.progress
		var stop error
		sp.Out.Validation, stop = simapp.SimulateSPMD(ctx, sp.Model, sp.Eval, sp.PDs, o.sim.app())
		if sp.Out.Validation != nil && sp.Out.Validation.Partial {
			cmdline.ClearProgress()
		}
		if stop != nil {
			if sp.Out.Validation == nil {
				return stop
			}
			sp.Out.Partial = true // Ctrl-C: the surface, and the validation of what finished
			sp.Out.Notes = append(sp.Out.Notes, "partial: the validation was interrupted (see its notes); the surface is complete; no plot written")
			return cmp.Or(render(stdout, sp.Out, o.out), stop)
		}
	}
	if err := render(stdout, sp.Out, o.out); err != nil {
		return err
	}
	if plot := o.out.plotFile(o.Plot); plot != "" {
		panels, err := sp.Out.Panels()
		if err != nil {
			return err
		}
		return report.SaveFigure(plot, panels...)
	}
	return nil
}

// prepareSpeedup checks the flags (speedupapp.Flags.Check) and evaluates the surface
// (speedupapp.Flags.Prepare): speedup's work before the simulation of --validate.
func prepareSpeedup(ctx context.Context, o speedupOptions, path string) (*speedupapp.Prepared, error) {
	var c flagCheck
	o.out.check(&c)
	ps, ds := o.Check(&c.FlagCheck, func(fc *app.FlagCheck) {
		var sc flagCheck
		o.sim.checkRun(&sc) // --reps ≥ 2, --max-memory a size
		sc.AtLeast("cycles", int64(o.sim.Cycles), 1)
		fc.Errs = append(fc.Errs, sc.Errs...)
	}, o.sim.study.into)
	if err := c.Err(); err != nil {
		return nil, err
	}
	return o.Prepare(ctx, o.sim.study.read, path, ps, ds, speedupapp.Output{Format: o.out.format, WithReport: o.out.report != ""},
		cmdline.ProgressFunc(o.progress, "surface: values of p"))
}

// runSpeedupStudy runs one shard of a sharded speedup --validate study
// (simapp.SPMDStudy), or submits it to Slurm.
func runSpeedupStudy(cmd *cobra.Command, o speedupOptions, args []string, stdout io.Writer) error {
	if o.Plot != "" {
		return badInputf("--plot with --shard/--slurm: give it to the one-machine run")
	}
	st, err := o.validationStudy(cmd.Context(), args)
	if err != nil {
		return err
	}
	return startStudy(cmd, args, o.sim.study, st, stdout)
}

// validationStudy is the study of the replications of --validate of the model args[0].
func (o speedupOptions) validationStudy(ctx context.Context, args []string) (studyapp.Study, error) {
	sp, err := prepareSpeedup(ctx, o, args[0])
	if err != nil {
		return nil, err
	}
	if sp.Stopped != nil {
		return nil, sp.Stopped
	}
	if sp.PDs == nil {
		return nil, badInputf("%s: the optimistic architectures are bounds, not simulated: nothing to shard", args[0])
	}
	return simapp.NewSPMDStudy(sp.Model, sp.Eval, sp.PDs, o.sim.app(), func(v *validate.Report) any { sp.Out.Validation = v; return sp.Out })
}

// mergeSpeedup turns the replications of a complete speedup --validate study into
// speedup's result.
var mergeSpeedup = studyMerge(func(o *speedupOptions) *cobra.Command { return speedupCmd(o, io.Discard, io.Discard) },
	func(o *speedupOptions) *studyOptions { return &o.sim.study },
	func(o *speedupOptions, pos []string) (studyapp.Study, error) {
		return o.validationStudy(context.Background(), pos)
	})

// speedupLong is the speedup command's help text.
const speedupLong = `Predict the time and speedup of an SPMD program on p processors and d disks (I/O nodes)
with the queueing-network models of Cremonesi & Gennaro: BUS/CLU × SIO/AIO and the
optimistic bounds. Prints every (p, d) with its components in seconds (CPU,
synchronisation, communication startup/transfer/contention, I/O) and bottleneck — a grid
of more than 200 points as a summary (corners, best, where each bottleneck region
starts; --all prints them all) — the best configuration, the asymptotic speedups, and
the recommended configuration with its trade-off table (sizing rules: --rule, see
--efficiency, --knee-gain, --within).

--p and --d take lists and ranges: 1,2,4,8 or 1:64 or 1:64:4 (step) or 1:1024:x2 (powers).

Speedup is s(p, d) = T_ref/T(p, d) (000 eq. 3), T_ref the program's time on one
processor and one disk without communication: per cycle n_IO(S_par + S_ser) + S0_IO +
SR_IO (000 eq. 1's T_1), 1 in normalised (σ) models (001 eq. 4.3: s = 1/τ), or the
phase's reference_time when the model gives one (a measured T1, as Cremonesi & Gennaro (000) Table 4). The
model's own T(1, 1) includes communication, so s(1, 1) can be below 1 (hybrid.yaml:
0.9775). Efficiency = speedup/p counts processors only, so with more disks than one an
I/O-bound program can show an efficiency above 1. The sizing table uses the same
speedup and efficiency (package sizing's one definition S = T_1/T(p) with T_1 = T_ref;
speedup_reference in JSON).

--measured F.csv (columns p, time and optionally d; times in seconds or with a unit such
as 750ms) puts measured runs beside the model at the same (p, d), with the measured
speedup T_ref/time and rel_error = (model − measured)/measured, and draws them on the plot.

CSV tables (--csv-table): points (default), summary, trade_off, measured, validation.
A grid whose JSON or CSV (or full table) would pass 1 GiB of output or about 1.5 GiB of
memory is refused before any work (exit 2, with the estimate): about 0.7 million points in
JSON, 1.4 million in CSV; the summary table holds the 4 million points allowed.

--plot FILE.svg|png draws the speedup surface as a heat map (when d varies), speedup
against p for several d, and the stacked time components against p.

Progress (stderr, on a terminal) shows the values of p evaluated, then the cycles of
--validate, with the time left. Ctrl-C prints what finished — the values of p evaluated,
or the surface with the validation of the replications finished — marked partial: true,
and exits 130.

The replications of --validate can be split over machines: --shard I/N --out DIR (or
--slurm --out DIR), then "clusterperf merge DIR" prints the one-machine result.

` + spmd.FileFormat
