package explore

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/modelfile"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/spmd"
)

type spmdModel struct {
	path string
	data []byte
	m    *spmd.Model
	p, d int // the default point
}

// maxSurface bounds the (p, d) points evaluated to find the best configuration per request.
const maxSurface = 4096

// loadSPMD reads an SPMD model from its file's YAML tree (doc: modelfile.Parse of data).
func loadSPMD(path string, data []byte, doc *modelfile.Doc) (Model, error) {
	m, err := spmd.DecodeModel(doc)
	if err != nil {
		return nil, err
	}
	if _, err := spmd.NewEvaluator(m); err != nil {
		return nil, err
	}
	s := &spmdModel{path: path, data: data, m: m, p: 16, d: 4}
	if m.Name == "" {
		m.Name = base(path)
	}
	// a valid default point: the smallest p ≥ 16 the model accepts at d = 4 (or d = 1)
	for _, d := range []int{4, 1} {
		for p := 16; p <= 1024; p++ {
			if m.CheckConfig(p, d) == nil {
				s.p, s.d = p, d
				return s, nil
			}
		}
	}
	return nil, fmt.Errorf("%s: no valid (p, d) with p ≤ 1024 and d ∈ {1, 4}", path)
}

func (s *spmdModel) Kind() string { return "spmd" }
func (s *spmdModel) Name() string { return s.m.Name }
func (s *spmdModel) Inputs() []htmlreport.Input {
	return []htmlreport.Input{htmlreport.InputFile(s.path, s.data)}
}

type phaseField struct {
	id, label string
	get       func(*spmd.Phase) *float64
	max1      bool
}

var phaseFields = []phaseField{
	{"s_par", "S_par, parallel CPU time per burst", func(p *spmd.Phase) *float64 { return &p.SPar }, false},
	{"s_ser", "S_ser, serial CPU time per burst", func(p *spmd.Phase) *float64 { return &p.SSer }, false},
	{"s0_com", "S0_COM, communication startup", func(p *spmd.Phase) *float64 { return &p.S0Com }, false},
	{"sr_com", "SR_COM, communication transfer", func(p *spmd.Phase) *float64 { return &p.SRCom }, false},
	{"s0_io", "S0_IO, I/O startup", func(p *spmd.Phase) *float64 { return &p.S0IO }, false},
	{"sr_io", "SR_IO, I/O transfer on one disk", func(p *spmd.Phase) *float64 { return &p.SRIO }, false},
	{"w", "w, network contention level", func(p *spmd.Phase) *float64 { return &p.W }, true},
}

// checkPhases refuses a slider point the model file's rules refuse (spmd.Phase.Validate: every
// time 0 or in [MinTime, MaxTime], some work > 0), as an input error (HTTP 400) naming the
// phase's sliders: the sliders reach 0 and any value the client sends (hostile review 8, P1-3:
// all times 0 gave the model's time NaN and HTTP 500).
func checkPhases(m *spmd.Model) error {
	for i := range m.Phases {
		if err := m.Phases[i].Validate(); err != nil {
			ids := make([]string, len(phaseFields))
			for j, f := range phaseFields {
				ids[j] = fmt.Sprintf("%s.%d", f.id, i)
			}
			return fmt.Errorf("%w: sliders of phase %d (%s): %w", fault.ErrInput, i+1, strings.Join(ids, ", "), err)
		}
	}
	return nil
}

// Params: p and d of the point, the ranges of the charts and of the best-configuration search,
// and per phase the service times (0 … 4× the file's) and the contention level w (0 … 1).
func (s *spmdModel) Params() []Param {
	ps := []Param{
		{ID: "p", Label: "processors p", Group: "configuration", Min: 1, Max: 1024, Step: 1, Value: float64(s.p), Integer: true},
		{ID: "d", Label: "disks (I/O nodes) d", Group: "configuration", Min: 1, Max: 256, Step: 1, Value: float64(s.d), Integer: true},
		{ID: "p_max", Label: "charts and best search: p up to", Group: "sweep", Min: 2, Max: 1024, Step: 1, Value: 64, Integer: true},
		{ID: "d_max", Label: "best search: d up to", Group: "sweep", Min: 1, Max: 256, Step: 1, Value: 16, Integer: true},
	}
	for i := range s.m.Phases {
		ph := &s.m.Phases[i]
		prefix := ""
		if len(s.m.Phases) > 1 {
			prefix = "phase " + strconv.Itoa(i+1) + ": "
		}
		for _, f := range phaseFields {
			v := *f.get(ph)
			lo, hi, st := span(v)
			if f.max1 {
				lo, hi, st = 0, 1, 0.01
			}
			ps = append(ps, Param{ID: fmt.Sprintf("%s.%d", f.id, i), Label: prefix + f.label, Group: "phase " + strconv.Itoa(i+1), Min: lo, Max: hi, Step: st, Value: v, Unit: map[bool]string{true: "", false: "s"}[f.max1]})
		}
	}
	return ps
}

func (s *spmdModel) apply(v Values) *spmd.Model {
	m := *s.m
	m.Phases = append([]spmd.Phase(nil), s.m.Phases...)
	for i := range m.Phases {
		for _, f := range phaseFields {
			*f.get(&m.Phases[i]) = v[fmt.Sprintf("%s.%d", f.id, i)]
		}
	}
	return &m
}

// Eval evaluates the model at (p, d) (spmd.Evaluator.Evaluate: MVA of 000/001, or the
// CLU-AIO convolution), the speedup against p at this d for the chart, and the best
// configuration over p ≤ p_max, d ≤ d_max: the speedup command's recommendation
// (speedupapp.Run, sizing's default rule), see recommend.
func (s *spmdModel) Eval(v Values) (*Result, error) { return s.EvalContext(context.Background(), v) }

// EvalContext is Eval stopping when ctx is done (ContextModel): the surface of the best
// search (speedupapp.Run) between values of p, the chart's own line between points.
func (s *spmdModel) EvalContext(ctx context.Context, v Values) (*Result, error) {
	m := s.apply(v)
	if err := checkPhases(m); err != nil {
		return nil, err
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		return nil, fmt.Errorf("%w", err)
	}
	p, d := int(v["p"]), int(v["d"])
	pmax, dmax := int(v["p_max"]), int(v["d_max"])
	if pmax*dmax > maxSurface {
		dmax = max(1, maxSurface/pmax)
	}
	pt, err := e.Evaluate(p, d)
	if err != nil {
		return nil, err
	}
	method := "mva"
	if pt.Solver != "" {
		method = pt.Solver
	}
	r := &Result{Kind: "spmd", Model: m.Name, Method: method + " (" + m.Arch.String() + ", 000/001)", Exact: true,
		Values: map[string]float64{"time_s": pt.Time, "speedup": pt.Speedup, "efficiency": pt.Efficiency}}
	r.Notes = append(r.Notes, "the model's queueing networks are solved exactly; the model itself is 000/001's approximation of the program")
	r.Bottleneck = fmt.Sprintf("%s (%.4g of %.4g s at p = %d, d = %d)", pt.Bottleneck, pt.Components.Value(pt.Bottleneck), pt.Time, p, d)
	comp := htmlreport.Table{Title: fmt.Sprintf("Time at p = %d, d = %d", p, d), Header: []string{"component", "time (s)", "share"}}
	for i, name := range []string{"cpu", "sync", "comm_startup", "comm_transfer", "contention", "io"} {
		c := pt.Components.Value(name)
		comp.Rows = append(comp.Rows, []string{name, htmlreport.Num(c), fmt.Sprintf("%.1f %%", 100*c/pt.Time)})
		if name == pt.Bottleneck {
			comp.Highlight = []int{i}
		}
	}
	comp.Rows = append(comp.Rows, []string{"total", htmlreport.Num(pt.Time), "100 %"})
	summary := htmlreport.Table{Title: "Speedup", Header: []string{"p", "d", "time (s)", "speedup", "efficiency", "bottleneck"},
		Rows: [][]string{{strconv.Itoa(p), strconv.Itoa(d), htmlreport.Num(pt.Time), htmlreport.Num(pt.Speedup), htmlreport.Num(pt.Efficiency), pt.Bottleneck}}}
	ps := make([]int, 0, pmax)
	for i := 1; i <= pmax; i++ {
		ps = append(ps, i)
	}
	ds := make([]int, 0, dmax)
	for i := 1; i <= dmax; i++ {
		ds = append(ds, i)
	}
	res, best, ok, err := s.recommend(ctx, r, v, m, ps, ds)
	if err != nil {
		return nil, err
	}
	if ok {
		summary.Rows = append(summary.Rows, []string{strconv.Itoa(best.P), strconv.Itoa(best.D), htmlreport.Num(best.Time), htmlreport.Num(best.Speedup), htmlreport.Num(best.Efficiency), best.Bottleneck + " (recommended)"})
		summary.Highlight = []int{1}
	}
	r.Tables = append(r.Tables, summary, comp)
	charts, err := spmdCharts(ctx, e, res.Points, ps, p, d, dmax, best, ok)
	if err != nil {
		return nil, err
	}
	r.Charts = append(r.Charts, charts...)
	return r, nil
}

// spmdCharts are the speedup and time charts against p at the point's d (and at the best
// configuration's d when it differs), from the best search's surface, or evaluated along ps
// when d is outside the search (stopping when ctx is done).
func spmdCharts(ctx context.Context, e *spmd.Evaluator, surf []spmd.Point, ps []int, p, d, dmax int, best spmd.Point, ok bool) ([]Chart, error) {
	sp := Series{Name: fmt.Sprintf("speedup, d = %d", d)}
	tm := Series{Name: fmt.Sprintf("time, d = %d", d)}
	var bs, bt Series
	if ok && best.D != d {
		bs.Name, bt.Name = fmt.Sprintf("speedup, d = %d (best)", best.D), fmt.Sprintf("time, d = %d (best)", best.D)
	}
	for _, q := range surf {
		switch {
		case q.D == d:
			sp.X, sp.Y = append(sp.X, float64(q.P)), append(sp.Y, q.Speedup)
			tm.X, tm.Y = append(tm.X, float64(q.P)), append(tm.Y, q.Time)
		case ok && bs.Name != "" && q.D == best.D:
			bs.X, bs.Y = append(bs.X, float64(q.P)), append(bs.Y, q.Speedup)
			bt.X, bt.Y = append(bt.X, float64(q.P)), append(bt.Y, q.Time)
		}
	}
	if d > dmax { // the current d is outside the search: evaluate its line too
		for _, q := range ps {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if qq, err := e.Evaluate(q, d); err == nil {
				sp.X, sp.Y = append(sp.X, float64(q)), append(sp.Y, qq.Speedup)
				tm.X, tm.Y = append(tm.X, float64(q)), append(tm.Y, qq.Time)
			}
		}
	}
	cur := float64(p)
	sc := chart("speedup", report.Panel{Title: "Speedup against p", XLabel: "processors p", YLabel: "speedup", Series: []Series{sp}}, &cur, nil)
	tc := chart("time", report.Panel{Title: "Predicted time against p", XLabel: "processors p", YLabel: "s", Series: []Series{tm}}, &cur, nil)
	if bs.Name != "" {
		sc.Series, tc.Series = append(sc.Series, bs), append(tc.Series, bt)
	}
	if ok {
		bp := float64(best.P)
		sc.Marks = append(sc.Marks, report.Mark{X: bp, Label: "best"})
		tc.Marks = append(tc.Marks, report.Mark{X: bp, Label: "best"})
	}
	return []Chart{sc, tc}, nil
}

// File writes the point as an SPMD model file, every phase in the seconds form.
func (s *spmdModel) File(v Values) ([]byte, string, error) {
	m := s.apply(v)
	if err := checkPhases(m); err != nil {
		return nil, "", err // the file would be refused when read back
	}
	var b bytes.Buffer
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	fmt.Fprintf(&b, "# written by clusterperf explore from %s: every phase in seconds form\n", s.path)
	fmt.Fprintf(&b, "name: %s\narchitecture: %s\nphases:\n", strconv.Quote(m.Name), m.Arch)
	for _, ph := range m.Phases {
		if ph.Cycles == 0 { // the parser's default
			ph.Cycles = 1
		}
		fmt.Fprintf(&b, "  - name: %s\n    cycles: %s\n    c: %d\n    w: %s\n    sync: %s\n    g_exponent: %s\n    no_comm_at_p1: %v\n",
			strconv.Quote(ph.Name), f(ph.Cycles), ph.C, f(ph.W), ph.Sync, f(ph.GExp), ph.NoCommAtOne)
		fmt.Fprintf(&b, "    seconds: {s_par: %s, s_ser: %s, n_io: %s, s0_com: %s, s0_com_exponent: %s, sr_com: %s, s0_io: %s, sr_io: %s",
			f(ph.SPar), f(ph.SSer), f(ph.NIO), f(ph.S0Com), f(ph.S0Exp), f(ph.SRCom), f(ph.S0IO), f(ph.SRIO))
		if ph.Ref > 0 {
			fmt.Fprintf(&b, ", reference_time: %s", f(ph.Ref))
		}
		b.WriteString("}\n")
	}
	return b.Bytes(), base(s.path) + "-whatif.yaml", nil
}
