package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/report"
)

type fitOptions struct {
	fitapp.Flags
	out   outOptions
	plot  string
	study studyOptions
}

// fitLong is fit's help text (the model file's format follows it).
const fitLong = `fit DATA.csv (a plain "p,time" CSV; repeated p are replicates; "# scaling: strong|weak"
optional), no model file: Amdahl, USL, Gustafson and the Extra-P normal form fitted to
relative error, the model chosen by held-out prediction error (forward-chaining and
leave-one-out cross-validation). Prints the chosen model with its parameters (Amdahl's
serial fraction; USL's σ, κ and N_max), predictions (--predict 128,256) with 95 % intervals
or, with fewer than 4 distinct p, the spread of the plausible models, the backtest — your
largest measured p predicted from the others, the error you would have made — and the
configuration the sizing rule recommends with the trade-off table. The sizing grid follows
the data: measured p and powers of two from the smallest measured p to --pmax.
CSV tables (--csv-table): summary (default), parameters, plausible, predictions, trade_off.
("extrapolate" is an alias of fit.)

fit MODEL.yaml DATA.csv: fit an SPMD queueing model (or every family, with architecture: auto) to measured times or
speedups by bounded Levenberg–Marquardt from several starting points. Reports the parameters
with 95 % confidence intervals (and which the data cannot determine), the documents' average
error, SMAPE and R², a ranking of the candidates and of Amdahl's law and the Universal
Scalability Law by AICc with Akaike weights, what limits the program, the residuals,
predictions with 95 % prediction intervals (--predict 128x8,256x16), and the recommended
configuration within --pmax/--dmax. The model that wins the AICc ranking (an SPMD family,
Amdahl or USL) drives the predictions, the bottleneck and the sizing; when Amdahl or USL
wins, its parameters are printed.
--objective (or objective: in the model file) chooses what the least squares minimise:
relative errors (default) or the thesis's absolute errors ε = Σ[s(p,d) − s_pd]² (Gennaro
(001) §6.2); the output names it. --band adds the optimistic (w = 0: the network a pure
delay) and pessimistic (w = 1: a pure queue) contention band of the fitted SPMD model at the
measured and predicted configurations, to the table, JSON and plot.
Parameters the data do not determine are named with the direction they move along, how far
the bounds and the data let them move, whether the predictions move with them, and which
runs (p, d) would determine them.
--bootstrap replicates can be split over machines: --shard I/N --out DIR (or --slurm --out
DIR), then "clusterperf merge DIR" prints the one-machine result (replicate b is drawn from
the seed and b alone).
CSV tables (--csv-table): residuals (default), parameters, ranking, predictions, summary, trade_off, band.

Sizing (both forms): --rule balanced (default: the fastest at or below the knee with
efficiency ≥ --efficiency), fastest, knee (where doubling p gains less than --knee-gain),
efficiency (the largest p with efficiency ≥ --efficiency), cheapest (fewest core-hours within
--within of the fastest time), core-hours (fewest core-hours). Speedup S = T_1/T(p) and
efficiency S/p, as in every command: T_1 is the winning SPMD model's T_ref (the speedup
command's), Amdahl's or USL's time at p = 1, or the scaling model at p = 1 when the data
include p = 1; otherwise p_min·T(p_min), said in a note (sizing.speedup_reference in JSON).
Weak-scaling data are not sized (the rules compare the times of one problem).

`

// fitCmd is the fit command with its flags bound to o: root gives it a fresh o, merge one
// that it then reads (studyMerge parses a study's arguments with it).
func fitCmd(o *fitOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "fit [MODEL.yaml] DATA.csv",
		Aliases: []string{"extrapolate"},
		Short:   "Fit scaling or SPMD models to measurements, predict untried p with the backtest, and size the run",
		Long:    fitLong + fit.FileFormat,
		Args:    cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				return runFitCSV(cmd.Context(), *o, args[0], stdout)
			}
			if o.study.active() {
				return runFitStudy(cmd, *o, args, stdout)
			}
			return runFit(cmd.Context(), *o, args[0], args[1], stdout, stderr)
		},
	}
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write observed vs fitted to FILE.svg or FILE.png")
	f.StringVar(&o.Objective, "objective", "", "relative or absolute (the thesis's ε, Gennaro (001) §6.2); overrides the model file's objective")
	f.BoolVar(&o.Band, "band", false, "also print and draw the w = 0 (optimistic) / w = 1 (pessimistic) contention band of the fitted SPMD model")
	f.StringVar(&o.Predict, "predict", "", "configurations to predict: p x d pairs with a model file (128x8,256x16); without one, process counts in the range syntax ("+app.RangeSyntax+", e.g. 128:1024:x2)")
	f.IntVar(&o.PMax, "pmax", 0, "recommend within p ≤ pmax (default: twice the largest measured p)")
	f.IntVar(&o.DMax, "dmax", 0, "recommend within d ≤ dmax (default: the largest measured d; model file only)")
	registerSizing(cmd, &o.Sizing)
	f.BoolVar(&o.LOO, "loo", false, "leave-one-out cross-validation of every candidate (slower)")
	f.IntVar(&o.Bootstrap, "bootstrap", -1, "bootstrap replicates (overrides the model file)")
	addStudyFlags(f, &o.study, "--bootstrap replicates")
	return cmd
}

// runFitCSV is `fit DATA.csv`: the model-free scaling fit (flags of the model-file form
// refused).
func runFitCSV(ctx context.Context, o fitOptions, path string, stdout io.Writer) error {
	var c flagCheck
	o.CheckData(&c.FlagCheck, o.study.active())
	if err := c.Err(); err != nil {
		return err
	}
	return runFitScaling(ctx, o, path, stdout)
}

// runFit is `fit MODEL.yaml DATA.csv`: flags → fitapp.Request → fitapp.Run → render (and
// the plot); a bootstrap stopped by Ctrl-C prints the partial result and exits 130.
func runFit(ctx context.Context, o fitOptions, modelPath, dataPath string, stdout, stderr io.Writer) error {
	q, err := fitRequest(o, modelPath, dataPath)
	if err != nil {
		return err
	}
	out, stopped := fitapp.Run(ctx, q)
	if out == nil {
		return stopped
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if stopped != nil {
		return stopped
	}
	if o.plot = o.out.plotFile(o.plot); o.plot != "" {
		return report.SaveFigure(o.plot, out.Figure()...)
	}
	return nil
}

// fitRequest is the flags and files of `fit MODEL.yaml DATA.csv` as a fitapp.Request
// (fitapp.Flags: checked, then read), with the bootstrap's progress on a terminal.
func fitRequest(o fitOptions, modelPath, dataPath string) (fitapp.Request, error) {
	var c flagCheck
	o.out.check(&c)
	c.Output("plot", o.plot, ".svg", ".png")
	configs := o.Check(&c.FlagCheck, o.study.into)
	if err := c.Err(); err != nil {
		return fitapp.Request{}, err
	}
	q, err := o.Request(o.study.read, modelPath, dataPath, configs)
	q.Spec.Progress = cmdline.ProgressFunc(q.Spec.Bootstrap > 0, "bootstrap replicates")
	return q, err
}

// runFitScaling is `fit DATA.csv`: p,n,time data (fitapp.RunPN), an Extra-P experiment
// (fitapp.RunExtrap) or a plain p,time CSV (fitapp.RunScaling), rendered.
func runFitScaling(ctx context.Context, o fitOptions, path string, stdout io.Writer) error {
	b, rerr := readInput(path)
	if rerr == nil && fitapp.IsPNCSV(b) { // p,n,time: models in two parameters
		var c flagCheck
		if o.CheckPN(&c.FlagCheck, o.plot); c.Err() != nil {
			return c.Err()
		}
		pairs, err := fitapp.ParsePairs(o.Predict)
		if err != nil {
			return badInput(err)
		}
		res, err := fitapp.RunPN(ctx, fitapp.PNRequest{Path: path, Input: b, Pairs: pairs})
		if err != nil {
			return err
		}
		return render(stdout, res, o.out)
	}
	var c flagCheck
	o.out.check(&c)
	ps := o.ScalingPredict(&c.FlagCheck)
	if rerr == nil && fitapp.IsExtrapExperiment(path, b) {
		o.CheckExtrap(&c.FlagCheck, o.plot)
	}
	if err := c.Err(); err != nil {
		return err
	}
	if rerr != nil {
		return rerr
	}
	if fitapp.IsExtrapExperiment(path, b) { // Extra-P's text, JSON-lines or JSON experiment
		res, err := fitapp.RunExtrap(ctx, path, b)
		if err != nil {
			return err
		}
		return render(stdout, res, o.out)
	}
	res, err := fitapp.RunScaling(ctx, fitapp.ScalingRequest{Path: path, Input: b, Predict: ps, PMax: o.PMax, Sizing: o.Sizing.Options(nil)})
	if err != nil {
		return err
	}
	if err := render(stdout, res, o.out); err != nil {
		return err
	}
	if plot := o.out.plotFile(o.plot); plot != "" {
		panels, err := res.DataFigure()
		if err != nil {
			return err
		}
		return report.SaveFigure(plot, panels...)
	}
	return nil
}
