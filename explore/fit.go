package explore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/fitapp"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/scaling"
)

// fitModel is a CSV of measured run times (p,time): `clusterperf fit DATA.csv` in the
// explorer. Each point is fitapp.RunScaling — the command's own call — at the slider's p
// (--predict) and efficiency threshold (--efficiency), so the page and the command give one
// answer.
type fitModel struct {
	path string
	data []byte
	maxP int
}

// isScalingCSV reports a CSV whose header names p and time (scaling.ReadCSV's columns).
func isScalingCSV(path string, data []byte) bool {
	if !strings.EqualFold(filepath.Ext(path), ".csv") {
		return false
	}
	head := bytes.ToLower(data[:min(len(data), 4096)])
	return bytes.Contains(head, []byte("time")) && !bytes.Contains(head, []byte("app_time"))
}

// loadFit reads the CSV once (scaling.ReadCSV: refusals at file:line) for the sliders' range.
func loadFit(path string, data []byte) (Model, error) {
	d, err := scaling.ReadCSV(path, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	m := &fitModel{path: path, data: data}
	for _, pt := range d.Points {
		m.maxP = max(m.maxP, pt.P)
	}
	return m, nil
}

func (m *fitModel) Kind() string { return "fit" }
func (m *fitModel) Name() string { return base(m.path) }
func (m *fitModel) Inputs() []htmlreport.Input {
	return []htmlreport.Input{htmlreport.InputFile(m.path, m.data)}
}

// Params: the p to predict (1 … 8× the largest measured, default 2×) and the sizing rule's
// efficiency threshold.
func (m *fitModel) Params() []Param {
	hi := float64(min(8*m.maxP, scaling.MaxPredictP))
	return []Param{
		{ID: "p", Label: "predict at p", Group: "configuration", Min: 1, Max: hi, Step: 1, Value: float64(min(2*m.maxP, scaling.MaxPredictP)), Integer: true, Unit: "processes"},
		{ID: "efficiency", Label: "sizing: efficiency at least", Group: "rule", Min: 0.05, Max: 1, Step: 0.05, Value: 0.5},
	}
}

func (m *fitModel) Eval(v Values) (*Result, error) { return m.EvalContext(context.Background(), v) }

// EvalContext runs fitapp.RunScaling at the point and shows its answer, tables and the
// measured points with the chosen model's curve.
func (m *fitModel) EvalContext(ctx context.Context, v Values) (*Result, error) {
	p := int(v["p"])
	opts := app.DefaultSizing()
	opts.MinEfficiency = v["efficiency"]
	res, err := fitapp.RunScaling(ctx, fitapp.ScalingRequest{Path: m.path, Input: m.data, Predict: []int{p}, Sizing: opts})
	if err != nil {
		return nil, err
	}
	res.SetAnswer()
	r := &Result{Kind: "fit", Model: m.Name(), Method: res.Method, Exact: false, ErrorEstimate: res.ErrorEstimate,
		Values: map[string]float64{"p": float64(p)}, Notes: append([]string{res.Answer.Summary}, res.NoteLines()...),
		Command: []string{"fit", m.path, "--predict", strconv.Itoa(p), "--efficiency", strconv.FormatFloat(v["efficiency"], 'g', -1, 64)}}
	r.ChartCommand = r.Command
	if len(res.Predictions) > 0 {
		r.Values["predicted_time_s"] = res.Predictions[0].TimeS
	}
	if a := res.Sizing; a != nil {
		c := a.Recommended.Config
		r.Best = fmt.Sprintf("p = %d: %.4g s (%s rule)", c.P, c.TimeS, a.Recommended.Rule)
		r.Values["recommended_p"] = float64(c.P)
	}
	r.Tables = htmlreport.FromTables(res.Tables())
	chart, err := m.chart(res, p)
	if err != nil {
		return nil, err
	}
	r.Charts = []Chart{chart}
	return r, nil
}

// chart: the figure of `fit DATA.csv --plot` at the point (fitapp's DataFigure: the
// measured runs, the chosen model with its interval, the prediction at p), p marked.
func (m *fitModel) chart(res *fitapp.ScalingResult, p int) (Chart, error) {
	fig, err := res.DataFigure()
	if err != nil || len(fig) == 0 {
		return Chart{}, cmp.Or(err, errors.New("fit: no figure"))
	}
	at := float64(p)
	return chart("time", fig[0], &at, nil), nil
}

// File: the CSV as read (the sliders change what is asked, not the data).
func (m *fitModel) File(v Values) ([]byte, string, error) { return m.data, ".csv", nil }
