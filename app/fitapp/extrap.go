package fitapp

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/extrap"
	"github.com/clusterperf/clusterperf/report"
)

// IsExtrapExperiment reports whether a fit input is an Extra-P experiment: a .jsonl or
// .json file, or text whose first keyword (after comments and blank lines) is PARAMETER.
func IsExtrapExperiment(path string, b []byte) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".json":
		return true
	}
	for _, line := range strings.SplitN(string(b[:min(len(b), 4096)]), "\n", 64) {
		s := strings.TrimSpace(line)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		return strings.HasPrefix(s, "PARAMETER ")
	}
	return false
}

// ExtrapResult is `fit EXPERIMENT` on an Extra-P experiment: one model per region and
// metric (extrap.Model) and the region that stops scaling first.
type ExtrapResult struct {
	report.Answered
	Command    string         `json:"command"`
	Method     string         `json:"method"`
	Experiment string         `json:"experiment"`
	Format     string         `json:"format"`
	Parameters []string       `json:"parameters"`
	Points     int            `json:"points"`
	Result     *extrap.Models `json:"result"`
	// Notes are NoteLines (the output contract's notes array).
	Notes []string `json:"notes"`
}

// RunExtrap reads an Extra-P experiment (extrap.ReadFile: text, JSON or JSON lines) and
// models every region and metric (extrap.Model).
func RunExtrap(ctx context.Context, path string, input []byte) (*ExtrapResult, error) {
	e, err := extrap.ReadFile(path, input)
	if err != nil {
		return nil, app.Classify(err)
	}
	m, err := extrap.Model(ctx, e)
	if err != nil {
		return nil, app.Classify(err)
	}
	r := &ExtrapResult{Command: "fit", Method: extrapMethod(e),
		Experiment: path, Format: e.Format, Parameters: e.Parameters, Points: len(e.Points), Result: m}
	r.Notes = r.NoteLines()
	return r, nil
}

// SetAnswer sets the result's answer block (answer.Extrap).
func (r *ExtrapResult) SetAnswer() { r.Answer = answer.Extrap(r.Result) }

func (r *ExtrapResult) Tables() []*report.Table {
	if r.Result.SecondParameter != "" {
		return []*report.Table{r.pnTable()}
	}
	x := r.Result.Parameter
	t := &report.Table{Name: "regions", Title: fmt.Sprintf("%s (%s, parameter %s, %d points): one model per region and metric; backtest at the largest %s: backtest_rel_error the stacked forecast's (docs/extrapolation.md), chosen_model_rel_error the chosen model's alone; trend and stops_scaling_at as %s doubles, up to twice the largest measured %s", r.Experiment, r.Format, x, r.Points, x, x, x),
		Header: []string{"region", "metric", "model", "formula", "backtest_rel_error", "chosen_model_rel_error", "trend", "stops_scaling_at"}}
	for _, m := range r.Result.Models {
		bt, own := any("none"), any("none")
		if m.Backtest != nil {
			bt = fmt.Sprintf("%+.1f%%", 100*m.Backtest.RelError)
			if m.Backtest.SelectedRelError != nil {
				own = fmt.Sprintf("%+.1f%%", 100*(*m.Backtest.SelectedRelError))
			}
		}
		t.Add(m.Region, m.Metric, m.Fit.Chosen.Name, m.Formula, bt, own, m.Trend, stopCell(m))
	}
	return []*report.Table{t}
}

// stopCell is a model's stops_scaling_at: the value, or why there is none.
func stopCell(m extrap.RegionModel) any {
	switch {
	case m.StopsScalingAt > 0:
		return m.StopsScalingAt
	case m.Trend == "falls":
		return "still scaling"
	}
	return "-"
}

// pnTable is a two-parameter experiment's joint models and their backtests.
func (r *ExtrapResult) pnTable() *report.Table {
	res := r.Result
	t := &report.Table{Name: "regions", Title: fmt.Sprintf("%s (%s, parameters p = %s and n = %s, %d points): one joint model T(%s, %s) per region and metric (scaling.FitPN); trend and stops_scaling_at as %s doubles at %s = %g", r.Experiment, r.Format, res.Parameter, res.SecondParameter, r.Points, res.Parameter, res.SecondParameter, res.Parameter, res.SecondParameter, res.TrendAtN),
		Header: []string{"region", "metric", "formula", "loo_rms_log_error", "interval95_high_low", "trend", "stops_scaling_at", "backtest_largest_p", "backtest_largest_n"}}
	for _, m := range res.Models {
		bt := map[string]string{"largest p": "none", "largest n": "none"}
		for _, b := range m.PNBacktests {
			if b.Skipped != "" {
				bt[b.HeldOut] = "skipped: " + b.Skipped
				continue
			}
			bt[b.HeldOut] = fmt.Sprintf("median %.1f%%, interval held %d of %d", 100*b.MedianAbsRE, b.Inside95, b.Points)
		}
		t.Add(m.Region, m.Metric, m.Formula, report.Magnitude(m.PN.LOO), math.Exp(2*m.PN.HalfWidth95), m.Trend, stopCell(m), bt["largest p"], bt["largest n"])
	}
	return t
}

func (r *ExtrapResult) NoteLines() []string {
	var n []string
	if r.Result.SecondParameter != "" {
		n = append(n, fmt.Sprintf("two parameters: %s is taken as the process count p and %s as the problem size n; the 95 %% intervals come from leave-one-(p, n)-out errors (interpolation), the backtests say how many held-out runs they held", r.Result.Parameter, r.Result.SecondParameter))
	}
	n = append(n, r.Result.Stops().Sentence())
	return append(n, r.Result.Notes...)
}

// extrapMethod says how an experiment is modelled.
func extrapMethod(e *extrap.Experiment) string {
	if len(e.Parameters) == 2 {
		return "Extra-P experiment in two parameters: one scaling.FitPN per region and metric (Extra-P's multi-parameter normal form, one term per parameter, relative NNLS, leave-one-(p, n)-out selection)"
	}
	return "Extra-P experiment: one scaling.Fit per region and metric (the parameter as p), stacked predictions (docs/extrapolation.md)"
}

// Figure (the --report page's picture): how far each region's model can be trusted — its
// backtest, the largest parameter value predicted from the rest (relative error, %; two
// parameters: the median over the held-out runs of the largest-p backtest); the first region
// to stop scaling highlighted.
func (r *ExtrapResult) Figure() ([]report.Panel, error) {
	var names []string
	var errs []float64
	var hl []int
	for _, m := range r.Result.Models {
		v, ok := 0.0, false
		switch {
		case m.Backtest != nil:
			v, ok = 100*math.Abs(m.Backtest.RelError), true
		case len(m.PNBacktests) > 0 && m.PNBacktests[0].Skipped == "":
			v, ok = 100*m.PNBacktests[0].MedianAbsRE, true
		}
		if !ok {
			continue
		}
		if m.Region == r.Result.FirstToStop && m.Metric == r.Result.FirstToStopMetric {
			hl = append(hl, len(names))
		}
		names, errs = append(names, m.Region+" ("+m.Metric+")"), append(errs, v)
	}
	if len(names) == 0 {
		return nil, nil
	}
	p, err := report.Bars("Backtest per region: |model − measured| / measured at the held-out largest value (first to stop scaling highlighted)", "%", names, errs, hl, 0)
	return []report.Panel{p}, err
}
