package main

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

type extrapolateOptions struct {
	out        outOptions
	predict    string
	rule       string
	pmax       int
	efficiency float64
	kneeGain   float64
	within     float64
}

func newExtrapolateCmd(stdout, stderr io.Writer) *cobra.Command {
	var o extrapolateOptions
	cmd := &cobra.Command{
		Use:   "extrapolate DATA.csv",
		Short: "Predict the time at untried process counts from measured p,time data, with the backtest and a sizing",
		Long: `Fit measured scaling data (a "p,time" CSV; repeated p are replicates; "# scaling: strong|weak"
optional) without a model file: Amdahl, USL, Gustafson and the Extra-P normal form fitted to
relative error, the model chosen by held-out prediction error (forward-chaining and
leave-one-out cross-validation). Prints the chosen model (Amdahl's serial fraction, USL's σ,
κ and N_max when they win), predictions with 95 % intervals (or, with fewer than 4 distinct p,
the spread of the plausible models), the backtest — the largest measured p predicted from the
others, the error you would have made — and the configuration the sizing rules recommend
(default "balanced": the fastest at or below the knee with efficiency ≥ 0.5). Coverage of
the intervals on real data: docs/extrapolation.md.
CSV tables (--csv-table): summary (default), parameters, plausible, predictions, trade_off.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExtrapolate(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.predict, "predict", "", "process counts to predict, e.g. 128,256,1024")
	f.StringVar(&o.rule, "rule", string(sizing.DefaultRule), "sizing rule: balanced, fastest, knee, efficiency, cheapest, core_hours")
	f.IntVar(&o.pmax, "pmax", 0, "size within p ≤ pmax (default: twice the largest measured p)")
	f.Float64Var(&o.efficiency, "efficiency", sizing.DefaultMinEfficiency, "minimum efficiency of the efficiency and balanced rules")
	f.Float64Var(&o.kneeGain, "knee-gain", sizing.DefaultKneeGain, "the knee: below this time reduction per doubling of p")
	f.Float64Var(&o.within, "within", sizing.DefaultWithinFastest, "cheapest rule: within this fraction of the fastest time")
	return cmd
}

// extrapolateResult is the command's one result value (JSON as is).
type extrapolateResult struct {
	Fit         *scaling.Result       `json:"fit"`
	Predictions []*scaling.Prediction `json:"predictions"`
	Backtest    *scaling.Backtest     `json:"backtest,omitempty"`
	Sizing      *sizing.Advice        `json:"sizing"`
	Notes       []string              `json:"notes"`
	data        string
}

func (o extrapolateOptions) check() (sizing.Rule, []int, error) {
	var c flagCheck
	o.out.check(&c)
	rule, err := sizing.ParseRule(o.rule)
	if err != nil {
		c.add("--rule: %v", err)
	}
	var ps []int
	for _, s := range strings.Split(o.predict, ",") {
		if o.predict == "" {
			break
		}
		p, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || p < 1 || p > scaling.MaxPredictP {
			c.add("--predict %q: want process counts 1 … 2^30 separated by commas, e.g. 128,256", o.predict)
			break
		}
		ps = append(ps, p)
	}
	if o.pmax < 0 || o.pmax > scaling.MaxPredictP {
		c.add("--pmax %d: allowed 0 (twice the largest measured p) or 1 … 2^30", o.pmax)
	}
	c.fraction("efficiency", o.efficiency, 0, 1)
	c.nonNegative("knee-gain", o.kneeGain, "no knee")
	c.nonNegative("within", o.within, "only the fastest")
	return rule, ps, c.err()
}

func runExtrapolate(o extrapolateOptions, path string, stdout, stderr io.Writer) error {
	rule, ps, err := o.check()
	if err != nil {
		return err
	}
	b, err := readInput(path)
	if err != nil {
		return err
	}
	d, err := scaling.ReadCSV(path, bytes.NewReader(b))
	if err != nil {
		return classify(err)
	}
	fr, err := scaling.Fit(d)
	if err != nil {
		return classify(err)
	}
	res := &extrapolateResult{Fit: fr, Notes: []string{}, data: d.Name}
	for _, p := range ps {
		pr, err := fr.Predict(p)
		if err != nil {
			return classify(err)
		}
		res.Predictions = append(res.Predictions, pr)
	}
	if bt, err := scaling.BacktestLargest(d); err == nil {
		res.Backtest = bt
	} else if errors.Is(err, fault.ErrInput) {
		res.Notes = append(res.Notes, "no backtest: "+err.Error())
	} else {
		return err
	}
	if res.Sizing, err = advise(d, fr, rule, o); err != nil {
		return err
	}
	return render(stdout, res, o.out)
}

// advise applies the sizing rule to the model's times on sizingGrid up to --pmax.
func advise(d *scaling.Data, fr *scaling.Result, rule sizing.Rule, o extrapolateOptions) (*sizing.Advice, error) {
	pmax := cmp.Or(o.pmax, 2*fr.MaxP)
	if pmax > scaling.MaxPredictP {
		return nil, badInputf("--pmax %d: allowed 1 … 2^30", pmax)
	}
	pts, err := fr.Times(sizingGrid(d, pmax))
	if err != nil {
		return nil, classify(err)
	}
	adv, err := sizing.Advise(pts, sizing.Options{Rule: rule, MinEfficiency: o.efficiency, KneeGain: o.kneeGain, WithinFastest: o.within})
	return adv, classify(err)
}

// sizingGrid: every measured p up to pmax, the powers of two up to pmax, and pmax.
func sizingGrid(d *scaling.Data, pmax int) []int {
	seen := map[int]bool{}
	for _, pt := range d.Points {
		if pt.P <= pmax {
			seen[pt.P] = true
		}
	}
	for p := 1; p <= pmax; p *= 2 {
		seen[p] = true
	}
	seen[pmax] = true
	var out []int
	for p := range seen {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

func classify(err error) error {
	if errors.Is(err, fault.ErrInput) {
		return badInput(err)
	}
	return err
}

func (r *extrapolateResult) NoteLines() []string {
	out := append(append(slices.Clone(r.Fit.Notes), r.Sizing.Notes...), r.Notes...)
	for _, p := range r.Predictions {
		for _, n := range p.Notes {
			out = append(out, fmt.Sprintf("p = %d: %s", p.P, n))
		}
	}
	return out
}

// Tables: summary, parameters, plausible, predictions, trade_off.
func (r *extrapolateResult) Tables() []*report.Table {
	f, m := r.Fit, r.Fit.Chosen
	pt := &report.Table{Name: "parameters", Title: fmt.Sprintf("Chosen model (held-out error): %s   T(p) = %s", m.Name, m.Formula), Header: []string{"parameter", "value", "ci95_low", "ci95_high", "note"}}
	for _, p := range m.Parameters {
		note := ""
		if p.AtZero {
			note = "at its bound"
		}
		pt.Add(p.Name, p.Value, optNum(p.Low95), optNum(p.High95), note)
	}
	ct := &report.Table{Name: "plausible", Title: "Plausible models (cross-validation, RMS of log(pred/obs))", Header: []string{"model", "k", "cv_score", "llo", "loo", "formula"}}
	for i, c := range f.Plausible {
		if i == 5 {
			break
		}
		ct.Add(c.Name, c.K, optPercent(c.Score), optPercent(c.LLO), optPercent(c.LOO), c.Formula)
	}
	t := &report.Table{Name: "predictions", Title: "Predictions", Header: []string{"p", "time_s", "low95_s", "high95_s", "plausible_low_s", "plausible_high_s", "extrapolation"}}
	for _, p := range r.Predictions {
		var lo, hi any = "none", "none"
		if p.Interval {
			lo, hi = *p.Low95S, *p.High95S
		}
		t.Add(p.P, p.TimeS, lo, hi, p.PlausibleLowS, p.PlausibleHighS, p.Extrapolation)
	}
	return []*report.Table{r.summaryTable(), pt, ct, t, r.tradeOffTable()}
}

func optPercent(v *float64) any {
	if v == nil {
		return ""
	}
	return report.Percent(*v)
}

func (r *extrapolateResult) summaryTable() *report.Table {
	f, m := r.Fit, r.Fit.Chosen
	sc := f.Scaling
	if f.ScalingInferred {
		sc += " (inferred)"
	}
	t := &report.Table{Name: "summary", Title: fmt.Sprintf("%s: %d points at %d distinct p (largest %d), %s scaling", r.data, f.Points, f.DistinctP, f.MaxP, sc), Header: []string{"what", "value"}}
	t.Add("chosen model", m.Name+": T(p) = "+m.Formula)
	if m.SerialFraction != nil {
		t.Add("Amdahl serial fraction of T(1)", *m.SerialFraction)
	}
	if m.NMax != nil {
		t.Add("USL N_max = sqrt((1−σ)/κ)", *m.NMax)
	}
	if f.NoiseRelSD != nil {
		t.Add("relative noise", report.Percent(*f.NoiseRelSD))
	}
	if bt := r.Backtest; bt != nil {
		t.Add(fmt.Sprintf("backtest: p = %d from the other %d points, rel_error", bt.HeldOutP, bt.TrainingPoints), report.Percent(bt.RelError))
	}
	a := r.Sizing.Recommended
	t.Add(fmt.Sprintf("recommended (%s)", r.Sizing.Rule), fmt.Sprintf("p = %d, time %s s, efficiency %.2f, %s core-hours — %s", a.Config.P, report.Num(a.Config.TimeS), a.Config.Efficiency, report.Num(a.Config.CoreHours), a.Reason))
	return t
}

func (r *extrapolateResult) tradeOffTable() *report.Table {
	t := &report.Table{Name: "trade_off", Title: "Trade-off (model times)", Header: []string{"p", "time_s", "speedup", "efficiency", "core_hours", "gain_per_doubling", "picked_by"}}
	for _, c := range r.Sizing.TradeOff {
		var by []string
		for _, x := range c.PickedBy {
			by = append(by, string(x))
		}
		t.Add(c.P, c.TimeS, c.Speedup, c.Efficiency, c.CoreHours, optPercent(c.GainPerDoubling), strings.Join(by, ","))
	}
	return t
}
