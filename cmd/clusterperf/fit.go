package main

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/spmd"
)

type fitOptions struct {
	format     string
	plot       string
	predict    string
	pmax, dmax int
	efficiency float64
	loo        bool
	bootstrap  int
}

func newFitCmd(stdout, stderr io.Writer) *cobra.Command {
	var o fitOptions
	cmd := &cobra.Command{
		Use:   "fit MODEL.yaml DATA.csv",
		Short: "Fit SPMD speedup models to measurements (000 §5.2, 001 §6.2), with baselines and prediction",
		Long: `Fit an SPMD queueing model (or every family, with architecture: auto) to measured times or
speedups by bounded Levenberg–Marquardt from several starting points. Reports the parameters
with 95 % confidence intervals (and which the data cannot determine), the documents' average
error, SMAPE and R², a ranking of the candidates and of Amdahl's law and the Universal
Scalability Law by AICc with Akaike weights, what limits the program, the residuals,
predictions with 95 % prediction intervals (--predict 128x8,256x16), and the recommended
configuration within --pmax/--dmax.

` + fit.FileFormat,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFit(o, args[0], args[1], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "table", "output format: table, json, csv (residuals)")
	f.StringVar(&o.plot, "plot", "", "write observed vs fitted to FILE.svg or FILE.png")
	f.StringVar(&o.predict, "predict", "", "configurations to predict, e.g. 128x8,256x16 (p x d)")
	f.IntVar(&o.pmax, "pmax", 0, "recommend within p ≤ pmax (default: twice the largest measured p)")
	f.IntVar(&o.dmax, "dmax", 0, "recommend within d ≤ dmax (default: the largest measured d)")
	f.Float64Var(&o.efficiency, "efficiency", 0.5, "also report the largest p with efficiency at least this")
	f.BoolVar(&o.loo, "loo", false, "leave-one-out cross-validation of every candidate (slower)")
	f.IntVar(&o.bootstrap, "bootstrap", -1, "bootstrap replicates (overrides the model file)")
	return cmd
}

type prediction struct {
	P     int     `json:"p"`
	D     int     `json:"d"`
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
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

func runFit(o fitOptions, modelPath, dataPath string, stdout, stderr io.Writer) error {
	if err := report.CheckFormat(o.format); err != nil {
		return badInput(err)
	}
	if err := checkPlotPath(o.plot); err != nil {
		return err
	}
	var configs [][2]int
	if o.predict != "" {
		var err error
		if configs, err = parseConfigs(o.predict); err != nil {
			return badInput(err)
		}
	}
	mb, err := readInput(modelPath)
	if err != nil {
		return err
	}
	sp, err := fit.ParseSpec(modelPath, mb)
	if err != nil {
		return badInput(err)
	}
	if o.bootstrap >= 0 {
		sp.Bootstrap = o.bootstrap
	}
	db, err := readInput(dataPath)
	if err != nil {
		return err
	}
	data, err := fit.ReadData(dataPath, bytes.NewReader(db))
	if err != nil {
		return badInput(err)
	}
	rep, err := fit.Run(sp, data)
	if err != nil {
		return badInput(err)
	}
	best := rep.Best
	maxP, maxD := 1, 1
	for _, ob := range data.Obs {
		maxP, maxD = max(maxP, ob.P), max(maxD, ob.D)
	}
	if o.pmax == 0 {
		o.pmax = 2 * maxP
	}
	if o.dmax == 0 {
		o.dmax = maxD
	}
	var preds []prediction
	for _, c := range configs {
		v, lo, hi, err := best.Predict(c[0], c[1])
		if err != nil {
			return badInputf("cannot predict p = %d, d = %d with %s: %v", c[0], c[1], best.Architecture, err)
		}
		preds = append(preds, prediction{c[0], c[1], v, lo, hi})
	}
	e, err := spmd.NewEvaluator(best.Model())
	if err != nil {
		return err
	}
	pts, _, err := e.Surface(span(1, o.pmax), span(1, o.dmax), nil)
	if err != nil {
		return err
	}
	rec, _ := spmd.Best(pts)
	eff := spmd.LargestEfficient(pts, o.efficiency)
	loo := map[string]float64{}
	if o.loo {
		for _, c := range rep.Candidates {
			v, err := fit.LeaveOneOut(c, data)
			if err == nil {
				loo[c.Architecture] = v
			}
		}
	}
	inference := fit.Inference(best, maxP, maxD)
	switch o.format {
	case "json":
		out := struct {
			Model        string                `json:"model,omitempty"`
			Architecture string                `json:"architecture"`
			Target       string                `json:"target"`
			Parameters   []fit.ParamEstimate   `json:"parameters"`
			Unidentified []string              `json:"unidentified,omitempty"`
			AverageError float64               `json:"average_error"`
			Metrics      fit.Metrics           `json:"metrics"`
			Status       string                `json:"status"`
			Converged    bool                  `json:"converged"`
			Ranking      []fit.Ranked          `json:"ranking"`
			Baselines    []*fit.BaselineResult `json:"baselines"`
			LOO          map[string]float64    `json:"loo_rms_relative_error,omitempty"`
			Inference    string                `json:"inference"`
			Residuals    []fit.Residual        `json:"residuals"`
			Predictions  []prediction          `json:"predictions,omitempty"`
			Recommended  spmd.Point            `json:"recommended"`
			Skipped      []string              `json:"skipped,omitempty"`
		}{sp.Name, best.Architecture, best.Target, best.Parameters, best.Unidentified, best.Metrics.AverageError, best.Metrics,
			best.Status, best.Converged, rep.Ranking, rep.Baselines, loo, inference, best.Residuals, preds, rec, rep.Skipped}
		if err := report.WriteJSON(stdout, out); err != nil {
			return err
		}
	case "csv":
		t := &report.Table{Header: []string{"p", "d", "observed", "fitted", "relative_error"}}
		for _, r := range best.Residuals {
			t.Add(r.P, r.D, r.Observed, r.Fitted, r.RelError)
		}
		if err := t.WriteCSV(stdout); err != nil {
			return err
		}
	default:
		writeFitText(stdout, sp, data, rep, loo, inference, preds, rec, eff, o)
	}
	if o.plot != "" {
		return fitPlot(o.plot, best, rep, data)
	}
	return nil
}

func ci(p *float64) string {
	if p == nil {
		return "-"
	}
	return report.Num(*p)
}

func writeFitText(w io.Writer, sp fit.Spec, data *fit.Data, rep *fit.Report, loo map[string]float64, inference string, preds []prediction, rec spmd.Point, eff map[int]spmd.Point, o fitOptions) {
	best := rep.Best
	if sp.Name != "" {
		fmt.Fprintf(w, "%s\n", sp.Name)
	}
	fmt.Fprintf(w, "Fitted %s to %d %s observations: %s after %d iterations; %d of %d starts converged\n\n",
		best.Architecture, len(data.Obs), data.Target, best.Status, best.Iterations, best.StartsConverged, best.Starts)
	t := &report.Table{Header: []string{"parameter", "value", "ci_low", "ci_high", "note"}}
	for _, p := range best.Parameters {
		note := ""
		switch {
		case p.Fixed:
			note = "fixed"
		case p.CILow == nil:
			note = "not identifiable from these data"
		case p.AtBound:
			note = "at a bound"
		}
		if p.BootLow != nil {
			note = strings.TrimPrefix(note+fmt.Sprintf("; bootstrap %s … %s", report.Num(*p.BootLow), report.Num(*p.BootHi)), "; ")
		}
		t.Add(p.Name, p.Value, ci(p.CILow), ci(p.CIHigh), note)
	}
	t.WriteText(w)
	for _, u := range best.Unidentified {
		fmt.Fprintf(w, "The data do not determine the direction %s (moving along it leaves the fit unchanged).\n", u)
	}
	m := best.Metrics
	fmt.Fprintf(w, "\naverage error (000 §5.2) %.3g %%, SMAPE %.3g %%, R² %.5f, AICc %.2f, BIC %.2f\n\n", 100*m.AverageError, m.SMAPE, m.R2, best.AICc, best.BIC)
	rt := &report.Table{Title: "Which model explains the data (AICc; Akaike weights):", Header: []string{"model", "k", "avg_error_%", "aicc", "delta_aicc", "weight", "loo_rms_%", "note"}}
	for _, r := range rep.Ranking {
		l := ""
		if v, ok := loo[r.Name]; ok {
			l = report.Num(100 * v)
		}
		rt.Add(r.Name, r.K, 100*r.AvgError, r.AICc, r.DeltaAICc, r.Weight, l, r.Note)
	}
	rt.WriteText(w)
	if len(rep.Ranking) > 1 {
		fmt.Fprintf(w, "%s explains the data best; the next, %s, is %.1f AICc units worse (weight %.3g).\n", rep.Ranking[0].Name, rep.Ranking[1].Name, rep.Ranking[1].DeltaAICc, rep.Ranking[1].Weight)
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(w, "not fitted: %s\n", s)
	}
	fmt.Fprintf(w, "\nWhat limits the program: %s.\n\n", inference)
	res := &report.Table{Title: "Residuals", Header: []string{"p", "d", "observed", "fitted", "rel_error_%"}}
	for _, r := range best.Residuals {
		res.Add(r.P, r.D, r.Observed, r.Fitted, 100*r.RelError)
	}
	res.WriteText(w)
	if len(preds) > 0 {
		pt := &report.Table{Title: "\nPredictions (95 % prediction intervals)", Header: []string{"p", "d", data.Target, "low", "high"}}
		for _, p := range preds {
			pt.Add(p.P, p.D, p.Value, p.Low, p.High)
		}
		pt.WriteText(w)
	}
	fmt.Fprintf(w, "\nRecommended within p ≤ %d, d ≤ %d: p = %d, d = %d (time %.4g, speedup %.4g, bottleneck %s)\n", o.pmax, o.dmax, rec.P, rec.D, rec.Time, rec.Speedup, rec.Bottleneck)
	if pt, ok := eff[o.dmax]; ok {
		fmt.Fprintf(w, "Largest p with efficiency ≥ %.2g at d = %d: p = %d\n", o.efficiency, o.dmax, pt.P)
	}
}

func fitPlot(path string, best *fit.SPMDResult, rep *fit.Report, data *fit.Data) error {
	byD := map[int][]fit.Residual{}
	var ds []int
	for _, r := range best.Residuals {
		if _, ok := byD[r.D]; !ok {
			ds = append(ds, r.D)
		}
		byD[r.D] = append(byD[r.D], r)
	}
	sort.Ints(ds)
	if len(ds) > 6 {
		var pick []int
		for i := 0; i < 6; i++ {
			pick = append(pick, ds[i*(len(ds)-1)/5])
		}
		ds = pick
	}
	panel := report.Panel{Title: fmt.Sprintf("Observed (points) and fitted %s (lines)", best.Architecture), XLabel: "processors p", YLabel: data.Target, LogX: true}
	for _, d := range ds {
		rs := byD[d]
		sort.Slice(rs, func(i, j int) bool { return rs[i].P < rs[j].P })
		var x, yo, yf []float64
		for _, r := range rs {
			x, yo, yf = append(x, float64(r.P)), append(yo, r.Observed), append(yf, r.Fitted)
		}
		panel.Series = append(panel.Series, report.Series{Name: fmt.Sprintf("fit d = %d", d), X: x, Y: yf}, report.Series{Name: fmt.Sprintf("observed d = %d", d), X: x, Y: yo, Points: true})
	}
	if len(rep.Baselines) > 0 {
		pmax := 1
		for _, o := range data.Obs {
			pmax = max(pmax, o.P)
		}
		for _, b := range rep.Baselines {
			var x, y []float64
			for p := 1; p <= pmax; p = max(p+1, int(math.Ceil(float64(p)*1.2))) {
				x, y = append(x, float64(p)), append(y, b.Value(p))
			}
			panel.Series = append(panel.Series, report.Series{Name: b.Name, X: x, Y: y, Dashed: true})
		}
	}
	return report.SaveFigure(path, panel)
}
