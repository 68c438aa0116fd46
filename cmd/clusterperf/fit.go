package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

type fitOptions struct {
	out        outOptions
	plot       string
	predict    string
	pmax, dmax int
	sizing     sizingFlags
	loo        bool
	bootstrap  int
	band       bool
	objective  string
	study      studyOptions
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
	f.StringVar(&o.objective, "objective", "", "relative or absolute (the thesis's ε, Gennaro (001) §6.2); overrides the model file's objective")
	f.BoolVar(&o.band, "band", false, "also print and draw the w = 0 (optimistic) / w = 1 (pessimistic) contention band of the fitted SPMD model")
	f.StringVar(&o.predict, "predict", "", "configurations to predict: p x d pairs with a model file (128x8,256x16); without one, process counts in the range syntax ("+rangeSyntax+", e.g. 128:1024:x2)")
	f.IntVar(&o.pmax, "pmax", 0, "recommend within p ≤ pmax (default: twice the largest measured p)")
	f.IntVar(&o.dmax, "dmax", 0, "recommend within d ≤ dmax (default: the largest measured d; model file only)")
	o.sizing.register(cmd)
	f.BoolVar(&o.loo, "loo", false, "leave-one-out cross-validation of every candidate (slower)")
	f.IntVar(&o.bootstrap, "bootstrap", -1, "bootstrap replicates (overrides the model file)")
	addStudyFlags(f, &o.study, "--bootstrap replicates")
	return cmd
}

// runFitCSV is `fit DATA.csv`: the model-free scaling fit (flags of the model-file form
// refused).
func runFitCSV(ctx context.Context, o fitOptions, path string, stdout io.Writer) error {
	var c flagCheck
	if o.dmax != 0 || o.loo || o.bootstrap != -1 || o.band || o.objective != "" || o.study.active() {
		c.add("--dmax, --loo, --bootstrap, --band, --objective, --shard and --slurm need a model file: fit MODEL.yaml DATA.csv")
	}
	if err := c.err(); err != nil {
		return err
	}
	return runFitScaling(ctx, scalingOptions{out: o.out, predict: o.predict, pmax: o.pmax, sizing: o.sizing, plot: o.plot}, path, stdout)
}

func parseConfigs(s string) ([][2]int, error) {
	var out [][2]int
	for _, item := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(item), "x")
		if !ok {
			b = "1"
		}
		p, err1 := strconv.Atoi(a)
		d, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || p < 1 || d < 1 {
			return nil, fmt.Errorf("--predict %q: want p x d pairs such as 128x8,256x16", s)
		}
		out = append(out, [2]int{p, d})
	}
	return out, nil
}

func (o fitOptions) check() ([][2]int, error) {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.zeroOrAtLeast("pmax", int64(o.pmax), 1, "twice the largest measured p")
	c.zeroOrAtLeast("dmax", int64(o.dmax), 1, "the largest measured d")
	if int64(max(o.pmax, 1))*int64(max(o.dmax, 1)) > sizing.MaxPoints {
		c.add("--pmax %d × --dmax %d is more than %d points (the sizing limit)", o.pmax, o.dmax, sizing.MaxPoints)
	}
	o.sizing.check(&c)
	if o.bootstrap < -1 || o.bootstrap > maxBootstrap {
		c.add("--bootstrap %d: want 0 … %d replicates (-1: the model file's); each replicate refits every candidate from its optimum", o.bootstrap, maxBootstrap)
	}
	if o.objective != "" && !slices.Contains(fit.Objectives(), o.objective) {
		c.add("--objective %q: allowed %s", o.objective, strings.Join(fit.Objectives(), ", "))
	}
	o.study.check(&c)
	var configs [][2]int
	if o.predict != "" {
		var err error
		if configs, err = parseConfigs(o.predict); err != nil {
			c.errs = append(c.errs, err)
		}
	}
	return configs, c.err()
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

// fitRequest is the flags and files of `fit MODEL.yaml DATA.csv` as a fitapp.Request.
func fitRequest(o fitOptions, modelPath, dataPath string) (fitapp.Request, error) {
	configs, err := o.check()
	if err != nil {
		return fitapp.Request{}, err
	}
	sp, data, err := parseFit(modelPath, dataPath, o)
	if err != nil {
		return fitapp.Request{}, err
	}
	return fitapp.Request{Spec: sp, Data: data, DataPath: dataPath, Configs: configs, PMax: o.pmax, DMax: o.dmax,
		Sizing: o.sizing.options(nil), LOO: o.loo, Band: o.band}, nil
}

// parseFit reads the model file and the data, with --bootstrap and --objective applied.
func parseFit(modelPath, dataPath string, o fitOptions) (fit.Spec, *fit.Data, error) {
	mb, err := o.study.read(modelPath)
	if err != nil {
		return fit.Spec{}, nil, err
	}
	sp, err := fit.ParseSpec(modelPath, mb)
	if err != nil {
		return fit.Spec{}, nil, badInput(err)
	}
	db, err := o.study.read(dataPath)
	if err != nil {
		return fit.Spec{}, nil, err
	}
	data, err := fit.ReadData(dataPath, bytes.NewReader(db))
	if err != nil {
		return fit.Spec{}, nil, badInput(err)
	}
	if o.bootstrap >= 0 {
		sp.Bootstrap = o.bootstrap
	}
	if o.objective != "" {
		sp.Objective = o.objective
	}
	sp.Progress = progressFunc(sp.Bootstrap > 0, "bootstrap replicates")
	return sp, data, nil
}

// maxBootstrap bounds --bootstrap: each replicate refits every model with its multi-start
// (tens of milliseconds here), so 10 000 replicates are minutes of work.
const maxBootstrap = 10000

// scalingOptions are fit's flags when it is given a plain p,time CSV (no model file).
type scalingOptions struct {
	out     outOptions
	predict string
	pmax    int
	sizing  sizingFlags
	plot    string // --plot FILE.svg|png (fitDataFigure)
}

func (o scalingOptions) check() ([]int, error) {
	var c flagCheck
	o.out.check(&c)
	o.sizing.check(&c)
	var ps []int
	if o.predict != "" {
		ps = rangeFlag(&c, "predict", o.predict, ranges.Limits{Min: 1, Max: scaling.MaxPredictP, MaxCount: maxPredictions})
	}
	if o.pmax < 0 || o.pmax > scaling.MaxPredictP {
		c.add("--pmax %d: allowed 0 (twice the largest measured p) or 1 … 2^30", o.pmax)
	}
	return ps, c.err()
}

// runFitScaling is `fit DATA.csv`: p,n,time data (fitapp.RunPN), an Extra-P experiment
// (fitapp.RunExtrap) or a plain p,time CSV (fitapp.RunScaling), rendered.
func runFitScaling(ctx context.Context, o scalingOptions, path string, stdout io.Writer) error {
	b, rerr := readInput(path)
	if rerr == nil && fitapp.IsPNCSV(b) { // p,n,time: models in two parameters
		pairs, err := fitapp.ParsePairs(o.predict)
		if err != nil {
			return badInput(err)
		}
		res, err := fitapp.RunPN(ctx, fitapp.PNRequest{Path: path, Input: b, Pairs: pairs})
		if err != nil {
			return err
		}
		return render(stdout, res, o.out)
	}
	ps, err := o.check()
	if err != nil {
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
	res, err := fitapp.RunScaling(ctx, fitapp.ScalingRequest{Path: path, Input: b, Predict: ps, PMax: o.pmax, Sizing: o.sizing.options(nil)})
	if err != nil {
		return err
	}
	if err := render(stdout, res, o.out); err != nil {
		return err
	}
	return fitDataPlot(o.out.plotFile(o.plot), res)
}
