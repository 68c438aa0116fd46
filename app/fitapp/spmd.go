// Package fitapp answers "which model explains my measurements, what will an untried
// configuration take, and how large should the run be?": `fit MODEL.yaml DATA.csv` (SPMD
// queueing models, Amdahl and USL fitted and ranked by AICc: Run), `fit DATA.csv` (scaling
// models chosen by held-out error and a stacked extrapolation: RunScaling), p,n,time data
// (RunPN) and Extra-P experiments (RunExtrap). The fit command is flags → Request → Run →
// render.
package fitapp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/speedupapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/spmd"
)

// Request is one `fit MODEL.yaml DATA.csv` run: the parsed model file (with --bootstrap and
// --objective applied), the data, the configurations to predict and the sizing.
type Request struct {
	Spec     fit.Spec
	Data     *fit.Data
	DataPath string         // for messages
	Configs  [][2]int       // (p, d) to predict
	PMax     int            // sizing range; 0: twice the largest measured p
	DMax     int            // 0: the largest measured d
	Sizing   sizing.Options // the rule; T1 is set from the winner
	LOO      bool           // leave-one-out cross-validation of every candidate
	Band     bool           // the w = 0 / w = 1 contention band
}

// Run fits every candidate (fit.Run with ctx) and assembles the result (Finish). When Ctrl-C
// stopped a bootstrap, the result is returned, marked partial, together with
// fault.ErrInterrupted; any other error comes alone, classified.
func Run(ctx context.Context, q Request) (*Result, error) {
	q.Spec.Context = ctx
	rep, err := fit.Run(q.Spec, q.Data)
	if err != nil {
		return nil, app.Input(DataError(q.DataPath, err))
	}
	out, err := Finish(q, rep)
	if err != nil {
		return nil, err
	}
	return out, out.interrupted(rep, q.Spec.Bootstrap)
}

// Prediction is the winning model at (p, d); Low/High (95 % prediction interval) only when
// an SPMD family wins (Amdahl and USL have none here).
type Prediction struct {
	P     int      `json:"p"`
	D     int      `json:"d"`
	Model string   `json:"model"`
	Value float64  `json:"value"`
	Low   *float64 `json:"low,omitempty"`
	High  *float64 `json:"high,omitempty"`
	// UndeterminedRelChange: how far (max − min over the value) the prediction moves along
	// the parameter directions the data do not determine; BeyondInterval when that exceeds
	// the interval's half-width — the interval then covers only what the data determine.
	UndeterminedRelChange *float64 `json:"undetermined_rel_change,omitempty"`
	BeyondInterval        bool     `json:"beyond_interval,omitempty"`
}

// Result is `fit MODEL.yaml DATA.csv`'s one result value.
type Result struct {
	report.Answered
	// Method, Exact and ErrorEstimate are the output contract's: the winning model and how
	// it was fitted and chosen; a fit is never exact; its residual error (and --loo's).
	Method        string             `json:"method"`
	Exact         bool               `json:"exact"`
	ErrorEstimate *app.ErrorEstimate `json:"error_estimate"`
	// Partial: Ctrl-C stopped the bootstrap; the bootstrap ranges rest on the replicates run.
	Partial bool `json:"partial,omitempty"`
	// Objective is what the least squares minimised: "relative" or "absolute" (001 §6.2).
	Objective    string                `json:"objective"`
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
	Predictions  []Prediction          `json:"predictions,omitempty"`
	// Chosen is the model that wins the AICc ranking; it drives the predictions, the
	// bottleneck (inference) and the sizing. ChosenFormula/ChosenParameters are Amdahl's or
	// USL's when one of them wins (the SPMD family's are Parameters).
	Chosen           string              `json:"chosen_model"`
	ChosenFormula    string              `json:"chosen_formula,omitempty"`
	ChosenParameters []fit.ParamEstimate `json:"chosen_parameters,omitempty"`
	PMax             int                 `json:"recommend_pmax"`
	DMax             int                 `json:"recommend_dmax"`
	Sizing           *sizing.Advice      `json:"sizing"`
	Skipped          []string            `json:"skipped,omitempty"`
	// BootstrapReplicates: residual-bootstrap replicates behind the parameters' boot_low/high.
	BootstrapReplicates int `json:"bootstrap_replicates,omitempty"`
	// Identifiability: every direction of the SPMD family's parameters the data do not
	// determine, how far it reaches and which runs would determine it.
	Identifiability []fit.Direction `json:"identifiability,omitempty"`
	// Band (--band): the SPMD family at the measured and predicted configurations with
	// contention w as fitted, w = 0 (optimistic) and w = 1 (pessimistic).
	// BottleneckShares: the shares of the time at the largest measured p and d (fitted, and
	// their range along the undetermined directions); BottleneckUndetermined when a share
	// moves by more than 5 points, so the inference's verdict is not determined by the data.
	BottleneckShares       []fit.Share         `json:"bottleneck_shares,omitempty"`
	BottleneckUndetermined bool                `json:"bottleneck_undetermined,omitempty"`
	Band                   []fit.BandPoint     `json:"band,omitempty"`
	BandArchitecture       string              `json:"band_architecture,omitempty"`
	baseline               *fit.BaselineResult // the winner when Amdahl or USL wins
	best                   *fit.SPMDResult
	rep                    *fit.Report
	data                   *fit.Data
	Notes                  []string `json:"notes"`
}

// interrupted marks the result partial when Ctrl-C stopped a candidate's bootstrap, with a
// note, and returns the error (fault.ErrInterrupted, exit 130) to give after printing it.
func (r *Result) interrupted(rep *fit.Report, b int) error {
	for _, c := range rep.Candidates {
		if c.BootstrapPartial {
			r.Partial = true
			r.Notes = append(r.Notes, fmt.Sprintf("partial: interrupted after %d of %d bootstrap replicates of %s; its bootstrap ranges rest on those", c.BootstrapReplicates, b, c.Architecture))
		}
	}
	if !r.Partial {
		return nil
	}
	return fmt.Errorf("%w: fit --bootstrap stopped before every replicate ran (the partial result is printed)", fault.ErrInterrupted)
}

// Finish turns a fit report into the result: the winner, sizing, predictions,
// identifiability, (Band) the contention band and the answer. merge calls it with the
// bootstrap intervals of the merged shards in rep.
func Finish(q Request, rep *fit.Report) (*Result, error) {
	out, err := newResult(q, rep)
	if err != nil {
		return nil, err
	}
	for _, c := range q.Configs {
		pr, err := out.predict(c[0], c[1])
		if err != nil {
			return nil, err
		}
		out.Predictions = append(out.Predictions, pr)
	}
	out.explainIdentifiability()
	if q.Band {
		if err := out.addBand(q.Data); err != nil {
			return nil, err
		}
	}
	out.rep, out.data = rep, q.Data
	out.SetAnswer()
	return out, nil
}

// DataError names the data file in an error that is about its amount of data (fewer
// observations than free parameters), which the library cannot name.
func DataError(dataPath string, err error) error {
	if errors.Is(err, fit.ErrTooFewObservations) {
		return fmt.Errorf("%s: %w", dataPath, err)
	}
	return err
}

// newFitResult assembles the fit report, the winner of the AICc ranking, the sizing within
// --pmax/--dmax and the leave-one-out errors (--loo).
func newResult(q Request, rep *fit.Report) (*Result, error) {
	sp, data := q.Spec, q.Data
	best := rep.Best
	maxP, maxD := 1, 1
	for _, ob := range data.Obs {
		maxP, maxD = max(maxP, ob.P), max(maxD, ob.D)
	}
	pmax, dmax := cmp.Or(q.PMax, 2*maxP), cmp.Or(q.DMax, maxD)
	out := &Result{Objective: cmp.Or(sp.Objective, "relative"), BootstrapReplicates: best.BootstrapReplicates, Model: sp.Name, Architecture: best.Architecture, Target: string(data.Target), Observations: len(data.Obs),
		Parameters: best.Parameters, Unidentified: best.Unidentified, AverageError: best.Metrics.AverageError, Metrics: best.Metrics,
		Status: best.Status, Converged: best.Converged, Iterations: best.Iterations, Ranking: rep.Ranking, Baselines: rep.Baselines,
		Inference: fit.Inference(best, maxP, maxD), Residuals: best.Residuals, PMax: pmax, DMax: dmax,
		Skipped: rep.Skipped, Notes: []string{}, Chosen: best.Architecture, best: best}
	if rk := rep.Ranking; len(rk) > 0 {
		for _, b := range rep.Baselines {
			if b.Name == rk[0].Name {
				out.useBaseline(b)
			}
		}
	}
	pts, err := out.sizingPoints(pmax, dmax)
	if err != nil {
		return nil, err
	}
	if out.Sizing, err = sizing.Advise(pts, withT1(q.Sizing, out.sizingT1())); err != nil {
		return nil, app.Classify(err)
	}
	out.speedupUnits(sp)
	if rk := rep.Ranking; len(rk) > 1 && rk[1].DeltaAICc != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("%s explains the data best; the next, %s, is %.1f AICc units worse (weight %.3g)", rk[0].Name, rk[1].Name, *rk[1].DeltaAICc, *rk[1].Weight))
	}
	for _, x := range rep.Ranking {
		if x.AICc == nil {
			out.Notes = append(out.Notes, x.Name+": "+x.Note)
		}
	}
	if q.LOO {
		out.LOO = map[string]float64{}
		for _, c := range rep.Candidates {
			if v, err := fit.LeaveOneOut(c, data); err == nil {
				out.LOO[c.Architecture] = v
			}
		}
	}
	out.setMethod(sp, rep)
	return out, nil
}

// speedupUnits says, for speedup data, what the sizing's times are (T_ref/s, in seconds only
// if reference_time is), and, for either target, when the fitted SPMD model's
// s(1, 1) = T_ref/T(1, 1) is far from 1 that the trade-off's speedups are against T_ref, so
// s(1, 1) ≠ 1 there too.
func (r *Result) speedupUnits(sp fit.Spec) {
	if r.Target == "speedup" {
		r.Notes = append(r.Notes, fmt.Sprintf("the data are speedups: the sizing's times (time_s, core_hours) are T(p, d) = T_ref/s(p, d) with T_ref = reference_time = %g (seconds only if the model file's reference_time is)", sp.Reference))
	}
	if r.baseline != nil {
		return
	}
	v, _, _, err := r.best.Predict(1, 1)
	if r.Target != "speedup" && v > 0 {
		v = r.best.Model().RefTime() / v // a time target predicts T(1, 1)
	}
	if err == nil && math.Abs(v-1) > 0.05 {
		r.Notes = append(r.Notes, fmt.Sprintf("the fitted %s gives s(1, 1) = T_ref/T(1, 1) = %.4g, not 1: the trade-off's speedup and efficiency are against T_ref (sizing.speedup_reference), as the speedup command's, so they are %.4g at p = 1, d = 1", r.Architecture, v, v))
	}
}

// setMethod states the output contract's method (the winner, how it was fitted, how it was
// chosen) and error estimate (the winner's in-sample relative residuals; --loo's
// cross-validated error when the SPMD family wins).
func (r *Result) setMethod(sp fit.Spec, rep *fit.Report) {
	var names []string
	for _, x := range rep.Ranking {
		names = append(names, x.Name)
	}
	how := fmt.Sprintf("bounded Levenberg–Marquardt on %s residuals from %d starts", r.Objective, r.best.Starts)
	m := r.Metrics
	if r.baseline != nil {
		how = fmt.Sprintf("nonlinear least squares (Levenberg–Marquardt) on %s residuals", r.Objective)
		m = r.baseline.Metrics
	}
	r.Method = fmt.Sprintf("%s, %s, selected by AICc among %s", r.Chosen, how, strings.Join(names, ", "))
	r.ErrorEstimate = &app.ErrorEstimate{RMSRelError: m.RMSRel, Against: fmt.Sprintf("the %d observations it was fitted to (in-sample relative residuals)", m.N)}
	if v, ok := r.LOO[r.Chosen]; ok && r.baseline == nil {
		r.ErrorEstimate.LOORMSRelError = &v
		r.ErrorEstimate.Against += "; loo_rms_rel_error: each observation predicted from a fit to the others"
	}
}

// useBaseline makes Amdahl or USL (the AICc winner) drive the result: its parameters, and
// what limits the program by its own terms.
func (r *Result) useBaseline(b *fit.BaselineResult) {
	r.baseline, r.Chosen, r.ChosenFormula, r.ChosenParameters = b, b.Name, b.Formula, b.Parameters
	par := map[string]float64{}
	for _, p := range b.Parameters {
		par[p.Name] = p.Value
	}
	switch b.Name {
	case "amdahl":
		f := par["f"]
		r.Inference = fmt.Sprintf("Amdahl wins the AICc ranking: a serial fraction f = %.4g limits the speedup to 1/f = %.4g (the SPMD family %s does not explain the data better)", f, 1/math.Max(f, 1e-300), r.Architecture)
	case "usl":
		sg, k := par["sigma"], par["kappa"]
		nmax := "∞ (κ = 0: no retrograde scaling)"
		if k > 0 {
			nmax = fmt.Sprintf("%.4g", math.Sqrt((1-sg)/k))
		}
		r.Inference = fmt.Sprintf("the Universal Scalability Law wins the AICc ranking: contention σ = %.4g, coherency κ = %.4g, peak at N_max = sqrt((1−σ)/κ) = %s processors (the SPMD family %s does not explain the data better)", sg, k, nmax, r.Architecture)
	}
	r.Notes = append(r.Notes, fmt.Sprintf("%s wins the AICc ranking: predictions and sizing use it, at d = 1 (it knows nothing of disks)", b.Name))
}

// sizingPoints are the winner's times on p = 1 … pmax (and d = 1 … dmax for an SPMD
// family); for a speedup target the time is 1/S.
func (r *Result) sizingPoints(pmax, dmax int) ([]sizing.Point, error) {
	var pts []sizing.Point
	if b := r.baseline; b != nil {
		for p := 1; p <= pmax; p++ {
			v := b.Value(p)
			if r.Target == "speedup" {
				v = 1 / v
			}
			if v > 0 && !math.IsInf(v, 0) {
				pts = append(pts, sizing.Point{P: p, TimeS: v})
			}
		}
	} else {
		e, err := spmd.NewEvaluator(r.best.Model())
		if err != nil {
			return nil, app.Lib(err)
		}
		sp, _, err := e.Surface(span(1, pmax), span(1, dmax), nil)
		if err != nil {
			return nil, app.Lib(err)
		}
		for _, pt := range sp {
			pts = append(pts, sizing.Point{P: pt.P, D: pt.D, TimeS: pt.Time})
		}
	}
	if len(pts) == 0 {
		return nil, app.Inputf("no valid (p, d) within --pmax %d, --dmax %d", pmax, dmax)
	}
	return pts, nil
}

// sizingT1 is the winner's one-processor time, the T_1 of the sizing's speedups: the SPMD
// model's T_ref (as the speedup command's), or Amdahl's/USL's time at p = 1 (1/S(1) for
// speedup data; S(1) = 1 in both laws). Nil only if the law gives no finite time at p = 1.
func (r *Result) sizingT1() *sizing.Reference {
	b := r.baseline
	if b == nil {
		return speedupapp.T1(r.best.Model(), "fitted "+r.Architecture+" model")
	}
	v := b.Value(1)
	if r.Target == "speedup" {
		v = 1 / v
	}
	if !(v > 0) || math.IsInf(v, 0) {
		return nil
	}
	return sizing.ModelT1(v, "the fitted "+b.Name+" law at p = 1")
}

// predict is the winner at (p, d).
func (r *Result) predict(p, d int) (Prediction, error) {
	if b := r.baseline; b != nil {
		v := b.Value(p)
		if !(v > 0) || math.IsInf(v, 0) {
			return Prediction{}, app.Inputf("--predict: %s gives no finite %s at p = %d", b.Name, r.Target, p)
		}
		return Prediction{P: p, D: d, Model: b.Name, Value: v}, nil
	}
	v, lo, hi, err := r.best.Predict(p, d)
	if err != nil {
		return Prediction{}, app.Inputf("--predict: cannot predict p = %d, d = %d with %s: %v", p, d, r.best.Architecture, err)
	}
	return Prediction{P: p, D: d, Model: r.best.Architecture, Value: v, Low: &lo, High: &hi}, nil
}

func (r *Result) NoteLines() []string { return r.Notes }

// Tables: "residuals" (default), "parameters", "ranking", "predictions", "summary".
func (r *Result) Tables() []*report.Table {
	res := &report.Table{Name: "residuals", Title: fmt.Sprintf("%s fitted to %d %s observations: %s after %d iterations", r.Architecture, r.Observations, r.Target, r.Status, r.Iterations),
		Header: []string{"p", "d", "observed", "fitted", "rel_error"}, Keys: 2}
	for _, x := range r.Residuals {
		res.Add(x.P, x.D, x.Observed, x.Fitted, report.Percent(x.RelError))
	}
	pt := &report.Table{Name: "predictions", Title: "Predictions of the winning model (95 % prediction intervals; none for Amdahl/USL; undetermined_move: how far it moves along the parameter directions the data do not determine)",
		Header: []string{"p", "d", "model", r.Target, "low", "high", "undetermined_move", "note"}, Keys: 2}
	for _, p := range r.Predictions {
		var mv any = ""
		if p.UndeterminedRelChange != nil {
			mv = report.Magnitude(*p.UndeterminedRelChange)
		}
		note := ""
		if p.BeyondInterval {
			note = "moves beyond its interval: not determined by these data"
		}
		pt.Add(p.P, p.D, p.Model, p.Value, app.OptNum(p.Low), app.OptNum(p.High), mv, note)
	}
	ts := []*report.Table{res, r.paramTable(), r.rankTable(), pt, r.summaryTable(), app.TradeOffTable(r.Sizing, "Trade-off (winning model's times)")}
	if r.Band != nil {
		ts = append(ts, r.bandTable())
	}
	return ts
}

func (r *Result) paramTable() *report.Table {
	t := &report.Table{Name: "parameters", Title: "Parameters of " + r.Architecture + " (95 % confidence intervals)", Header: []string{"parameter", "value", "ci_low", "ci_high", "note"}}
	ps := r.Parameters
	if r.baseline != nil {
		t.Title = fmt.Sprintf("Parameters of the winner %s: %s (95 %% confidence intervals)", r.Chosen, r.ChosenFormula)
		ps = r.ChosenParameters
	}
	for _, p := range ps {
		note := ""
		switch {
		case p.Fixed:
			note = "fixed"
		case p.Bound != nil && p.Value != *p.Bound:
			note = fmt.Sprintf("= %s, its bound, within rounding", report.Num(*p.Bound))
		case p.AtBound:
			note = "at a bound"
		}
		if p.CILow == nil && !p.Fixed {
			note = strings.TrimPrefix(note+"; not identifiable from these data", "; ")
		}
		if p.BootLow != nil {
			cond := ""
			if p.CILow == nil && !p.Fixed {
				cond = " (conditional: see the notes)"
			}
			note = strings.TrimPrefix(note+fmt.Sprintf("; bootstrap %s … %s%s", report.Num(*p.BootLow), report.Num(*p.BootHi), cond), "; ")
		}
		t.Add(p.Name, p.Value, app.OptNum(p.CILow), app.OptNum(p.CIHigh), note)
	}
	return t
}

func (r *Result) rankTable() *report.Table {
	t := &report.Table{Name: "ranking", Title: "Which model explains the data (AICc; Akaike weights; " + r.Objective + " residuals)", Header: []string{"model", "free_parameters", "average_error", "aicc", "delta_aicc", "weight", "loo_rms_rel_error", "note"}}
	for _, x := range r.Ranking {
		var l any = ""
		if v, ok := r.LOO[x.Name]; ok {
			l = report.Magnitude(v)
		}
		t.Add(x.Name, x.K, report.Magnitude(x.AvgError), app.OptNum(x.AICc), app.OptNum(x.DeltaAICc), app.OptNum(x.Weight), l, x.Note)
	}
	return t
}

func (r *Result) summaryTable() *report.Table {
	m := r.Metrics
	t := &report.Table{Name: "summary", Title: "Summary", Header: []string{"what", "value"}, Left: true}
	t.Add("method", r.Method)
	t.Add("objective", objectiveText(r.Objective))
	of := ""
	if r.baseline != nil { // the winner's own figures, then the SPMD family's
		b := r.baseline.Metrics
		t.Add(fmt.Sprintf("average error of %s (Cremonesi & Gennaro (000) §5.2)", r.Chosen), report.Magnitude(b.AverageError))
		t.Add("SMAPE of "+r.Chosen, report.Magnitude(b.SMAPE/100))
		t.Add(fmt.Sprintf("R² of %s", r.Chosen), r2Cell(b.R2))
		of = " of " + r.Architecture
	}
	t.Add("average error"+of+" (Cremonesi & Gennaro (000) §5.2)", report.Magnitude(r.AverageError))
	t.Add("SMAPE"+of, report.Magnitude(m.SMAPE/100)) // Metrics.SMAPE is in percent; shown like the average error
	t.Add("R²"+of, r2Cell(m.R2))
	t.Add("what limits the program", r.Inference)
	t.Add("model driving predictions and sizing", r.Chosen)
	rec := r.Sizing.Recommended.Config
	t.Add(fmt.Sprintf("Recommended (%s) within p ≤ %d, d ≤ %d", r.Sizing.Rule, r.PMax, r.DMax), fmt.Sprintf("d = %d, %s", max(rec.D, 1), app.RecommendedLine(r.Sizing)))
	for _, s := range r.Skipped {
		t.Add("not fitted", s)
	}
	return t
}

// objectiveText is the least-squares objective in words.
func objectiveText(o string) string {
	if o == "absolute" {
		return "absolute: ε = Σ[model − observed]², Gennaro (001) §6.2 (weighs the large values most)"
	}
	return "relative: Σ((model − observed)/observed)²"
}

// Figure is the observed-vs-fitted plot (Panel) of the result.
func (r *Result) Figure() []report.Panel {
	return []report.Panel{Panel(r.rep.Best, r.rep, r.data, r.Band)}
}

// withT1 is o with the sizing's T_1 set.
func withT1(o sizing.Options, t1 *sizing.Reference) sizing.Options {
	o.T1 = t1
	return o
}

// SetAnswer sets the result's answer block (package answer).
func (r *Result) SetAnswer() {
	var ps []answer.Predicted
	for _, p := range r.Predictions {
		pr := answer.Predicted{P: p.P, D: p.D, Quantity: r.Target, Value: p.Value}
		if r.Target == "time" {
			pr.Unit = "s"
		}
		if p.Low != nil && p.High != nil {
			pr.Low, pr.High = *p.Low, *p.High
		}
		ps = append(ps, pr)
	}
	r.Answer = answer.FitSPMD(r.Chosen, ps, r.Sizing, r.Inference)
}

// Panel is the observed-vs-fitted plot: at most 6 disk counts (3 with the band), each a colour group (its
// fit, its observed points and its band lines), and the baselines dashed — at most 8
// colours, the palette's size, so no two series of different groups share a colour.
func Panel(best *fit.SPMDResult, rep *fit.Report, data *fit.Data, band []fit.BandPoint) report.Panel {
	byD := map[int][]fit.Residual{}
	var ds []int
	for _, r := range best.Residuals {
		if _, ok := byD[r.D]; !ok {
			ds = append(ds, r.D)
		}
		byD[r.D] = append(byD[r.D], r)
	}
	sort.Ints(ds)
	show := 6 // disk counts drawn; with the band (4 series each) 3, so the legend fits
	if len(band) > 0 {
		show = 3
	}
	if len(ds) > show {
		var pick []int
		for i := 0; i < show; i++ {
			pick = append(pick, ds[i*(len(ds)-1)/(show-1)])
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
		g := fmt.Sprintf("d%d", d) // a fit, its observations and its band share one colour
		panel.Series = append(panel.Series, report.Series{Name: fmt.Sprintf("fit d = %d", d), X: x, Y: yf, Group: g}, report.Series{Name: fmt.Sprintf("observed d = %d", d), X: x, Y: yo, Points: true, Group: g})
		panel.Series = append(panel.Series, bandSeries(band, d, g)...)
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
	return panel
}

// bandSeries are the w = 0 and w = 1 lines of the band at disk count d (none without --band).
func bandSeries(band []fit.BandPoint, d int, group string) []report.Series {
	var x, y0, y1 []float64
	for _, b := range band {
		if b.D == d {
			x, y0, y1 = append(x, float64(b.P)), append(y0, b.W0), append(y1, b.W1)
		}
	}
	if len(x) == 0 {
		return nil
	}
	return []report.Series{{Name: fmt.Sprintf("w = 0 (optimistic) d = %d", d), X: x, Y: y0, Dashed: true, Group: group},
		{Name: fmt.Sprintf("w = 1 (pessimistic) d = %d", d), X: x, Y: y1, Dashed: true, Group: group}}
}

// span is a, a+1, …, b.
func span(a, b int) []int {
	out := make([]int, 0, b-a+1)
	for v := a; v <= b; v++ {
		out = append(out, v)
	}
	return out
}

// r2Cell is R² for the summary, or why it has no value (SS_tot = 0: every observation equal).
func r2Cell(r2 *float64) any {
	if r2 == nil {
		return "undefined (every observation equal)"
	}
	return *r2
}
