package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	format     string
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
the intervals on real data: docs/extrapolation.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExtrapolate(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "table", "output format: table, json")
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
	Notes       []string              `json:"notes,omitempty"`
}

func runExtrapolate(o extrapolateOptions, path string, stdout, stderr io.Writer) error {
	if o.format != "table" && o.format != "json" {
		return badInputf("--format %q: allowed table, json", o.format)
	}
	rule, err := sizing.ParseRule(o.rule)
	if err != nil {
		return badInputf("--rule: %v", err)
	}
	var ps []int
	if o.predict != "" {
		for _, s := range strings.Split(o.predict, ",") {
			p, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || p < 1 || p > scaling.MaxPredictP {
				return badInputf("--predict %q: want process counts 1 … 2^30 separated by commas, e.g. 128,256", o.predict)
			}
			ps = append(ps, p)
		}
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
	res := &extrapolateResult{Fit: fr}
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
	pmax := o.pmax
	if pmax == 0 {
		pmax = 2 * fr.MaxP
	}
	if pmax < 1 || pmax > scaling.MaxPredictP {
		return badInputf("--pmax %d: allowed 1 … 2^30", o.pmax)
	}
	grid := sizingGrid(d, pmax)
	pts, err := fr.Times(grid)
	if err != nil {
		return classify(err)
	}
	adv, err := sizing.Advise(pts, sizing.Options{Rule: rule, MinEfficiency: o.efficiency, KneeGain: o.kneeGain, WithinFastest: o.within})
	if err != nil {
		return classify(err)
	}
	res.Sizing = adv
	if o.format == "json" {
		return report.WriteJSON(stdout, res)
	}
	return writeExtrapolateText(stdout, d, res)
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

func writeExtrapolateText(w io.Writer, d *scaling.Data, r *extrapolateResult) error {
	f := r.Fit
	sc := f.Scaling
	if f.ScalingInferred {
		sc += " (inferred)"
	}
	fmt.Fprintf(w, "%s: %d points at %d distinct p (largest %d), %s scaling\n", d.Name, f.Points, f.DistinctP, f.MaxP, sc)
	m := f.Chosen
	fmt.Fprintf(w, "Chosen model (held-out error): %s   T(p) = %s\n", m.Name, m.Formula)
	pt := &report.Table{Header: []string{"parameter", "value", "ci95_low", "ci95_high", "note"}}
	for _, p := range m.Parameters {
		lo, hi, note := "", "", ""
		if p.Low95 != nil {
			lo, hi = report.Num(*p.Low95), report.Num(*p.High95)
		}
		if p.AtZero {
			note = "at its bound"
		}
		pt.Add(p.Name, report.Num(p.Value), lo, hi, note)
	}
	if err := pt.WriteText(w); err != nil {
		return err
	}
	if m.SerialFraction != nil {
		fmt.Fprintf(w, "Amdahl serial fraction: %.4g of T(1)\n", *m.SerialFraction)
	}
	if m.NMax != nil {
		fmt.Fprintf(w, "USL: σ = %.4g, κ = %.4g, N_max = sqrt((1−σ)/κ) = %.4g\n", m.Parameters[1].Value, m.Parameters[2].Value, *m.NMax)
	}
	if f.NoiseRelSD != nil {
		fmt.Fprintf(w, "Relative noise: %.2f %%", 100**f.NoiseRelSD)
		if f.PureErrorRelSD != nil {
			fmt.Fprintf(w, " (replicates: %.2f %%, %d dof)", 100**f.PureErrorRelSD, f.ReplicateDOF)
		}
		fmt.Fprintln(w)
	}
	ct := &report.Table{Title: "Plausible models (cross-validation, RMS of log(pred/obs)):", Header: []string{"model", "k", "cv_score_%", "llo_%", "loo_%", "formula"}}
	pc := func(v *float64) string {
		if v == nil {
			return "—"
		}
		return fmt.Sprintf("%.2f", 100**v)
	}
	for i, c := range f.Plausible {
		if i == 5 {
			break
		}
		ct.Add(c.Name, c.K, pc(c.Score), pc(c.LLO), pc(c.LOO), c.Formula)
	}
	fmt.Fprintln(w)
	if err := ct.WriteText(w); err != nil {
		return err
	}
	if len(r.Predictions) > 0 {
		t := &report.Table{Title: "Predictions:", Header: []string{"p", "time", "95%_low", "95%_high", "plausible_low", "plausible_high", "× largest p"}}
		for _, p := range r.Predictions {
			lo, hi := "none", "none"
			if p.Interval {
				lo, hi = report.Num(*p.Low95S), report.Num(*p.High95S)
			}
			t.Add(p.P, report.Num(p.TimeS), lo, hi, report.Num(p.PlausibleLowS), report.Num(p.PlausibleHighS), fmt.Sprintf("%.3g", p.Extrapolation))
		}
		fmt.Fprintln(w)
		if err := t.WriteText(w); err != nil {
			return err
		}
		for _, p := range r.Predictions {
			for _, n := range p.Notes {
				fmt.Fprintf(w, "note (p = %d): %s\n", p.P, n)
			}
		}
	}
	if bt := r.Backtest; bt != nil {
		fmt.Fprintf(w, "\nBacktest: p = %d predicted from the other %d points: %s (observed %s), error %+.1f %%",
			bt.HeldOutP, bt.TrainingPoints, report.Num(bt.Prediction.TimeS), report.Num(bt.ObservedS), 100*bt.RelError)
		if bt.InsideInterval != nil {
			fmt.Fprintf(w, ", inside the 95 %% interval: %v", *bt.InsideInterval)
		}
		fmt.Fprintln(w)
		if bt.AmdahlRelError != nil && bt.USLRelError != nil && f.Scaling == "strong" {
			fmt.Fprintf(w, "  (Amdahl would have missed by %+.1f %%, USL by %+.1f %%)\n", 100**bt.AmdahlRelError, 100**bt.USLRelError)
		}
	}
	a := r.Sizing
	fmt.Fprintf(w, "\nRecommended (%s): p = %d, time %s, efficiency %.2f, %s core-hours — %s\n", a.Rule, a.Recommended.Config.P,
		report.Num(a.Recommended.Config.TimeS), a.Recommended.Config.Efficiency, report.Num(a.Recommended.Config.CoreHours), a.Recommended.Reason)
	tt := &report.Table{Title: "Trade-off (model times):", Header: []string{"p", "time", "speedup", "efficiency", "core_hours", "gain/doubling_%", "picked_by"}}
	for _, c := range a.TradeOff {
		g := ""
		if c.GainPerDoubling != nil {
			g = fmt.Sprintf("%.1f", 100**c.GainPerDoubling)
		}
		var by []string
		for _, r := range c.PickedBy {
			by = append(by, string(r))
		}
		tt.Add(c.P, report.Num(c.TimeS), fmt.Sprintf("%.3g", c.Speedup), fmt.Sprintf("%.2f", c.Efficiency), report.Num(c.CoreHours), g, strings.Join(by, ","))
	}
	if err := tt.WriteText(w); err != nil {
		return err
	}
	for _, n := range append(append(f.Notes, a.Notes...), r.Notes...) {
		fmt.Fprintln(w, "note:", n)
	}
	return nil
}
