package main

import (
	"bytes"
	"cmp"
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
	out        outOptions
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
CSV tables (--csv-table): residuals (default), parameters, ranking, predictions, summary.

` + fit.FileFormat,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFit(o, args[0], args[1], stdout, stderr)
		},
	}
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
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

func (o fitOptions) check() ([][2]int, error) {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	c.zeroOrAtLeast("pmax", int64(o.pmax), 1, "twice the largest measured p")
	c.zeroOrAtLeast("dmax", int64(o.dmax), 1, "the largest measured d")
	if int64(o.pmax)*int64(max(o.dmax, 1)) > 4_000_000 {
		c.add("--pmax %d × --dmax %d is more than 4 million points (the limit)", o.pmax, o.dmax)
	}
	c.fraction("efficiency", o.efficiency, 0, 1)
	if o.bootstrap < -1 {
		c.add("--bootstrap %d: want 0 or more replicates (-1: the model file's)", o.bootstrap)
	}
	var configs [][2]int
	if o.predict != "" {
		var err error
		if configs, err = parseConfigs(o.predict); err != nil {
			c.errs = append(c.errs, err)
		}
	}
	return configs, c.err()
}

// fitResult is fit's one result value.
type fitResult struct {
	Model        string                `json:"model,omitempty"`
	Architecture string                `json:"architecture"`
	Target       string                `json:"target"`
	Observations int                   `json:"observations"`
	Parameters   []fit.ParamEstimate   `json:"parameters"`
	Unidentified []string              `json:"unidentified,omitempty"`
	AverageError float64               `json:"average_error"`
	Metrics      fit.Metrics           `json:"metrics"`
	Status       string                `json:"status"`
	Converged    bool                  `json:"converged"`
	Iterations   int                   `json:"iterations"`
	Ranking      []fit.Ranked          `json:"ranking"`
	Baselines    []*fit.BaselineResult `json:"baselines"`
	LOO          map[string]float64    `json:"loo_rms_rel_error,omitempty"`
	Inference    string                `json:"inference"`
	Residuals    []fit.Residual        `json:"residuals"`
	Predictions  []prediction          `json:"predictions,omitempty"`
	PMax         int                   `json:"recommend_pmax"`
	DMax         int                   `json:"recommend_dmax"`
	Recommended  spmd.Point            `json:"recommended"`
	Efficiency   float64               `json:"efficiency_threshold"`
	Efficient    *spmd.Point           `json:"largest_efficient_p,omitempty"`
	Skipped      []string              `json:"skipped,omitempty"`
	Notes        []string              `json:"notes"`
}

func runFit(o fitOptions, modelPath, dataPath string, stdout, stderr io.Writer) error {
	configs, err := o.check()
	if err != nil {
		return err
	}
	sp, data, err := parseFit(modelPath, dataPath)
	if err != nil {
		return err
	}
	if o.bootstrap >= 0 {
		sp.Bootstrap = o.bootstrap
	}
	rep, err := fit.Run(sp, data)
	if err != nil {
		return badInput(err)
	}
	out, err := newFitResult(sp, data, rep, o)
	if err != nil {
		return err
	}
	for _, c := range configs {
		v, lo, hi, err := rep.Best.Predict(c[0], c[1])
		if err != nil {
			return badInputf("--predict: cannot predict p = %d, d = %d with %s: %v", c[0], c[1], rep.Best.Architecture, err)
		}
		out.Predictions = append(out.Predictions, prediction{c[0], c[1], v, lo, hi})
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot != "" {
		return fitPlot(o.plot, rep.Best, rep, data)
	}
	return nil
}

func parseFit(modelPath, dataPath string) (fit.Spec, *fit.Data, error) {
	mb, err := readInput(modelPath)
	if err != nil {
		return fit.Spec{}, nil, err
	}
	sp, err := fit.ParseSpec(modelPath, mb)
	if err != nil {
		return fit.Spec{}, nil, badInput(err)
	}
	db, err := readInput(dataPath)
	if err != nil {
		return fit.Spec{}, nil, err
	}
	data, err := fit.ReadData(dataPath, bytes.NewReader(db))
	if err != nil {
		return fit.Spec{}, nil, badInput(err)
	}
	return sp, data, nil
}

// newFitResult assembles the fit report, the recommendation within --pmax/--dmax and the
// leave-one-out errors (--loo).
func newFitResult(sp fit.Spec, data *fit.Data, rep *fit.Report, o fitOptions) (*fitResult, error) {
	best := rep.Best
	maxP, maxD := 1, 1
	for _, ob := range data.Obs {
		maxP, maxD = max(maxP, ob.P), max(maxD, ob.D)
	}
	o.pmax, o.dmax = cmp.Or(o.pmax, 2*maxP), cmp.Or(o.dmax, maxD)
	e, err := spmd.NewEvaluator(best.Model())
	if err != nil {
		return nil, libError(err)
	}
	pts, _, err := e.Surface(span(1, o.pmax), span(1, o.dmax), nil)
	if err != nil {
		return nil, libError(err)
	}
	if len(pts) == 0 {
		return nil, badInputf("no valid (p, d) within --pmax %d, --dmax %d", o.pmax, o.dmax)
	}
	out := &fitResult{Model: sp.Name, Architecture: best.Architecture, Target: string(data.Target), Observations: len(data.Obs),
		Parameters: best.Parameters, Unidentified: best.Unidentified, AverageError: best.Metrics.AverageError, Metrics: best.Metrics,
		Status: best.Status, Converged: best.Converged, Iterations: best.Iterations, Ranking: rep.Ranking, Baselines: rep.Baselines,
		Inference: fit.Inference(best, maxP, maxD), Residuals: best.Residuals, PMax: o.pmax, DMax: o.dmax, Efficiency: o.efficiency,
		Skipped: rep.Skipped, Notes: []string{}}
	out.Recommended, _ = spmd.Best(pts)
	if pt, ok := spmd.LargestEfficient(pts, o.efficiency)[o.dmax]; ok {
		out.Efficient = &pt
	}
	if rk := rep.Ranking; len(rk) > 1 {
		out.Notes = append(out.Notes, fmt.Sprintf("%s explains the data best; the next, %s, is %.1f AICc units worse (weight %.3g)", rk[0].Name, rk[1].Name, rk[1].DeltaAICc, rk[1].Weight))
	}
	for _, u := range best.Unidentified {
		out.Notes = append(out.Notes, fmt.Sprintf("the data do not determine the direction %s (moving along it leaves the fit unchanged)", u))
	}
	if o.loo {
		out.LOO = map[string]float64{}
		for _, c := range rep.Candidates {
			if v, err := fit.LeaveOneOut(c, data); err == nil {
				out.LOO[c.Architecture] = v
			}
		}
	}
	return out, nil
}

func (r *fitResult) NoteLines() []string { return r.Notes }

// Tables: "residuals" (default), "parameters", "ranking", "predictions", "summary".
func (r *fitResult) Tables() []*report.Table {
	res := &report.Table{Name: "residuals", Title: fmt.Sprintf("%s fitted to %d %s observations: %s after %d iterations", r.Architecture, r.Observations, r.Target, r.Status, r.Iterations),
		Header: []string{"p", "d", "observed", "fitted", "rel_error"}}
	for _, x := range r.Residuals {
		res.Add(x.P, x.D, x.Observed, x.Fitted, report.Percent(x.RelError))
	}
	pt := &report.Table{Name: "predictions", Title: "Predictions (95 % prediction intervals)", Header: []string{"p", "d", r.Target, "low", "high"}}
	for _, p := range r.Predictions {
		pt.Add(p.P, p.D, p.Value, p.Low, p.High)
	}
	return []*report.Table{res, r.paramTable(), r.rankTable(), pt, r.summaryTable()}
}

func (r *fitResult) paramTable() *report.Table {
	t := &report.Table{Name: "parameters", Title: "Parameters (95 % confidence intervals)", Header: []string{"parameter", "value", "ci_low", "ci_high", "note"}}
	for _, p := range r.Parameters {
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
		t.Add(p.Name, p.Value, optNum(p.CILow), optNum(p.CIHigh), note)
	}
	return t
}

func (r *fitResult) rankTable() *report.Table {
	t := &report.Table{Name: "ranking", Title: "Which model explains the data (AICc; Akaike weights)", Header: []string{"model", "k", "average_error", "aicc", "delta_aicc", "weight", "loo_rms_rel_error", "note"}}
	for _, x := range r.Ranking {
		var l any = ""
		if v, ok := r.LOO[x.Name]; ok {
			l = report.Percent(v)
		}
		t.Add(x.Name, x.K, report.Percent(x.AvgError), x.AICc, x.DeltaAICc, x.Weight, l, x.Note)
	}
	return t
}

func (r *fitResult) summaryTable() *report.Table {
	m := r.Metrics
	t := &report.Table{Name: "summary", Title: "Summary", Header: []string{"what", "value"}}
	t.Add("average error (000 §5.2)", report.Percent(r.AverageError))
	t.Add("SMAPE %", m.SMAPE)
	t.Add("R²", m.R2)
	t.Add("what limits the program", r.Inference)
	t.Add(fmt.Sprintf("recommended within p ≤ %d, d ≤ %d", r.PMax, r.DMax), fmt.Sprintf("p = %d, d = %d (time %.4g, speedup %.4g, bottleneck %s)", r.Recommended.P, r.Recommended.D, r.Recommended.Time, r.Recommended.Speedup, r.Recommended.Bottleneck))
	if r.Efficient != nil {
		t.Add(fmt.Sprintf("largest p with efficiency ≥ %g at d = %d", r.Efficiency, r.DMax), r.Efficient.P)
	}
	for _, s := range r.Skipped {
		t.Add("not fitted", s)
	}
	return t
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
