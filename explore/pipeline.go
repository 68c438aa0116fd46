package explore

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/modelfile"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
)

type pipelineModel struct {
	path string
	data []byte
	m    *pipeline.Model
	sp   *pipeline.SortParams // nil: a general pipeline model (only p is adjustable)
}

// loadPipeline reads a pipeline model from its file's YAML tree (doc: modelfile.Parse of data).
func loadPipeline(path string, data []byte, doc *modelfile.Doc) (Model, error) {
	m, sp, err := pipeline.DecodeModel(doc)
	if err != nil {
		return nil, err
	}
	if m.Name == "" {
		m.Name = base(path)
	}
	return &pipelineModel{path: path, data: data, m: m, sp: sp}, nil
}

func (pm *pipelineModel) Kind() string { return "pipeline" }
func (pm *pipelineModel) Name() string { return pm.m.Name }
func (pm *pipelineModel) Inputs() []htmlreport.Input {
	return []htmlreport.Input{htmlreport.InputFile(pm.path, pm.data)}
}

var sortUnits = map[string]string{"c_q": "s", "c_m": "s", "b_io": "elements/s", "l_n": "s", "b_n": "elements/s", "b_gather": "elements/s"}

// Params: the cluster size p, the charts' range, and for 003's sort the constants (bandwidths
// in elements per second, 0 … 4× the file's; a zero bandwidth is refused by the model).
func (pm *pipelineModel) Params() []Param {
	ps := []Param{
		{ID: "p", Label: "cluster size p", Group: "configuration", Min: 1, Max: 1024, Step: 1, Value: 4, Integer: true, Unit: "nodes"},
		{ID: "p_max", Label: "chart: p up to", Group: "sweep", Min: 2, Max: 1024, Step: 1, Value: 16, Integer: true, Unit: "nodes"},
	}
	if pm.sp != nil {
		ps = append(ps, Param{ID: "n", Label: "N, elements to sort", Group: "job", Min: 1, Max: 4 * pm.sp.N, Step: math.Max(1, math.Round(pm.sp.N/400)), Value: pm.sp.N, Integer: true, Unit: "elements"})
		for _, name := range pipeline.SortParamNames() {
			v := pm.sortValue(name)
			_, hi, st := span(v)
			ps = append(ps, Param{ID: name, Label: name, Group: "constants (003 §5)", Min: st, Max: hi, Step: st, Value: v, Unit: sortUnits[name]})
		}
	}
	return ps
}

func (pm *pipelineModel) sortValue(name string) float64 {
	sp := *pm.sp
	return map[string]float64{"c_q": sp.CQ, "c_m": sp.CM, "b_io": sp.BIO, "l_n": sp.LN, "b_n": sp.BN, "b_gather": sp.BGather}[name]
}

func (pm *pipelineModel) apply(v Values) (*pipeline.Model, *pipeline.SortParams, error) {
	if pm.sp == nil {
		return pm.m, nil, nil
	}
	sp := *pm.sp
	sp.N = v["n"]
	sp.CQ, sp.CM, sp.BIO, sp.LN, sp.BN, sp.BGather = v["c_q"], v["c_m"], v["b_io"], v["l_n"], v["b_n"], v["b_gather"]
	m := sp.Model(pm.m.Name)
	m.Memory = pm.m.Memory
	if err := m.Validate(); err != nil {
		return nil, nil, err
	}
	return m, &sp, nil
}

// Eval predicts the time at p (003 eq. 4: each stage bounded by its least bandwidth, plus
// the fixed terms), over 1 … p_max for the chart, the best configuration as the pipeline
// command recommends it (recommend: pipelineapp.Run) and the optimum (least time over whole
// p, the first p within 1 % of it, and eq. 19's closed form when it applies).
func (pm *pipelineModel) Eval(v Values) (*Result, error) {
	return pm.EvalContext(context.Background(), v)
}

// EvalContext is Eval stopping when ctx is done (ContextModel): before the prediction over
// p and in the sizing (pipelineapp.Run).
func (pm *pipelineModel) EvalContext(ctx context.Context, v Values) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, _, err := pm.apply(v)
	if err != nil {
		return nil, err
	}
	p, pmax := int(v["p"]), int(v["p_max"])
	pts, err := m.PredictRange(1, max(pmax, 2))
	if err != nil {
		return nil, err
	}
	pt := m.Predict(p)
	opt := m.Optimal(pts)
	r := &Result{Kind: "pipeline", Model: m.Name, Method: "003 bottleneck-bandwidth model, eq. (4)", Exact: true,
		Values: map[string]float64{"time_s": pt.Time, "optimal_p": float64(opt.P), "optimal_time_s": opt.Time, "knee_p": float64(opt.Knee)}}
	r.Notes = append(r.Notes, "closed form (the model is evaluated exactly; it is 003's model of the program)")
	if pt.MemoryExceeded {
		r.Warnings = append(r.Warnings, fmt.Sprintf("p = %d: N/p elements exceed a node's memory: expect paging, the prediction is too low", p))
	}
	r.Bottleneck = fmt.Sprintf("%s at p = %d", pt.Bottleneck, p)
	rec, err := pm.recommend(ctx, r, v, m, len(pts))
	if err != nil {
		return nil, err
	}
	r.Best += fmt.Sprintf("; least time p = %d: %.4g s (over 1 … %d); within 1 %% of it from p = %d (%.4g s)", opt.P, opt.Time, len(pts), opt.Knee, opt.KneeTime)
	if !math.IsNaN(opt.ClosedForm) {
		r.Best += fmt.Sprintf("; eq. (19) p* = %.3g", opt.ClosedForm)
		r.Values["closed_form_p"] = opt.ClosedForm
	}
	st := htmlreport.Table{Title: fmt.Sprintf("Stages at p = %d", p), Header: []string{"stage", "time (s)", "rate (elements/s)", "bounded by"}}
	longest := 0
	for i, s := range pt.Stages {
		st.Rows = append(st.Rows, []string{s.Stage, htmlreport.Num(s.Time), htmlreport.Num(s.Rate), s.Bottleneck})
		if s.Time > pt.Stages[longest].Time {
			longest = i
		}
	}
	st.Highlight = []int{longest}
	for i, f := range m.Fixed {
		st.Rows = append(st.Rows, []string{f.Name + " (fixed)", htmlreport.Num(pt.Fixed[i]), "", ""})
	}
	st.Rows = append(st.Rows, []string{"total", htmlreport.Num(pt.Time), "", ""})
	ot := htmlreport.Table{Title: "Optimum", Header: []string{"", "p", "time (s)"}, Rows: [][]string{
		{"current", strconv.Itoa(p), htmlreport.Num(pt.Time)},
		{"least time", strconv.Itoa(opt.P), htmlreport.Num(opt.Time)},
		{"within 1 % of least", strconv.Itoa(opt.Knee), htmlreport.Num(opt.KneeTime)},
		{"recommended (" + string(rec.Rule) + ")", strconv.Itoa(rec.Recommended.Config.P), htmlreport.Num(rec.Recommended.Config.TimeS)},
	}, Highlight: []int{3}}
	r.Tables = append(r.Tables, st, ot)
	total := Series{Name: "total time"}
	stages := make([]Series, len(m.Stages))
	for i, s := range m.Stages {
		stages[i].Name = s.Name
	}
	for _, q := range pts {
		total.X, total.Y = append(total.X, float64(q.P)), append(total.Y, q.Time)
		for i, s := range q.Stages {
			stages[i].X, stages[i].Y = append(stages[i].X, float64(q.P)), append(stages[i].Y, s.Time)
		}
	}
	cur, best := float64(p), float64(rec.Recommended.Config.P)
	r.Charts = append(r.Charts, chart("time", report.Panel{Title: "Predicted time against cluster size", XLabel: "nodes p", YLabel: "s",
		Series: append([]Series{total}, stages...)}, &cur, &best))
	return r, nil
}

// File writes the point as a pipeline model file (the sort form); a general pipeline model,
// which has nothing adjustable but p, is returned as read.
func (pm *pipelineModel) File(v Values) ([]byte, string, error) {
	_, sp, err := pm.apply(v)
	if err != nil {
		return nil, "", err
	}
	name := base(pm.path) + "-whatif.yaml"
	if sp == nil {
		return pm.data, name, nil
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var b bytes.Buffer
	fmt.Fprintf(&b, "# written by clusterperf explore from %s (p = %d)\nname: %s\nn: %s\nblock: %s\nsort:\n", pm.path, int(v["p"]), strconv.Quote(pm.m.Name), f(sp.N), f(sp.S))
	for _, n := range pipeline.SortParamNames() {
		fmt.Fprintf(&b, "  %s: %s\n", n, f(map[string]float64{"c_q": sp.CQ, "c_m": sp.CM, "b_io": sp.BIO, "l_n": sp.LN, "b_n": sp.BN, "b_gather": sp.BGather}[n]))
	}
	if mem := pm.m.Memory; mem.NodeBytes > 0 {
		fmt.Fprintf(&b, "memory:\n  node_bytes: %s\n  bytes_per_element: %s\n", f(mem.NodeBytes), f(mem.BytesPerElement))
	}
	return b.Bytes(), name, nil
}
