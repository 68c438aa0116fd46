package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/validate"
)

type pipelineOptions struct {
	p        string
	measured string
	out      outOptions
	plot     string
	fit      string
	sizing   sizingFlags
}

func newPipelineCmd(stdout, stderr io.Writer) *cobra.Command {
	var o pipelineOptions
	cmd := &cobra.Command{
		Use:   "pipeline MODEL.yaml",
		Short: "Bottleneck model of overlapped read/distribute/process/gather/write after Juhász & Charaf (003), and the optimal cluster size",
		Long: `Predict the run time of a job fed in and collected at one node, after Juhász & Charaf (003): every stage runs at
the speed of its slowest resource. Prints the time at every cluster size p, each stage's
bottleneck, the optimal cluster size (least time; the knee; the closed form of 003 eq. (19)
where it applies) and flags sizes whose data overflow node memory. The knee is package
sizing's, the same in every command: the first p from which no larger p saves --knee-gain
(default 10 %) of the time per doubling; the first p within 1 % of the least time is
printed too, as "within 1 % of least".

--measured F.csv (columns p,time; times in seconds or with a unit, 750ms) puts measured times beside the predictions with relative
errors rel_error = (model − measured)/measured (the opposite sign of 003's
tables, which divide by the prediction); --fit c_m,b_gather fits those constants of a
sort model to the measurements (runs that overflow memory are left out).

--p takes the one range syntax: lists (1,2,4,8), FROM:TO, FROM:TO:STEP, FROM:TO:xK (powers of
K, e.g. 1:64:x2). The summary prints the least time, the knee, 003 eq. (19)'s closed form,
eq. (21)'s storage bound (no p reads and writes the data faster than storage: 2N/b_io for
the sort) and the recommendation of package sizing's rule (--rule: balanced, the default, is
the fastest p at or below the knee with efficiency ≥ --efficiency; fastest, knee,
efficiency, cheapest within --within of the fastest, core_hours), with the trade-off table
around it. Speedup and efficiency are against T_1, the model's time at p = 1, whatever --p
starts at (package sizing's one definition S = T_1/T(p), E = S/p; speedup_reference in JSON).

CSV tables (--csv-table): points (default), optimum, trade_off.

` + pipeline.FileFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPipeline(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.p, "p", "1:32", "cluster sizes: 1,2,4,8 | FROM:TO | FROM:TO:STEP | FROM:TO:xK")
	f.StringVar(&o.measured, "measured", "", "CSV of measured times (columns p,time)")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.plot, "plot", "", "write time against p to FILE.svg or FILE.png")
	f.StringVar(&o.fit, "fit", "", "comma-separated sort constants to fit to --measured (c_q, c_m, b_io, l_n, b_n, b_gather)")
	o.sizing.register(cmd)
	return cmd
}

func (o pipelineOptions) check() (ps []int, err error) {
	var c flagCheck
	o.out.check(&c)
	c.output("plot", o.plot, ".svg", ".png")
	ps, err = ranges.Parse("--p", o.p, ranges.Limits{Min: 1, Max: pipeline.MaxP, MaxCount: pipeline.MaxPoints})
	if err != nil {
		c.errs = append(c.errs, err)
	}
	if o.fit != "" && o.measured == "" {
		c.add("--fit needs --measured")
	}
	o.sizing.check(&c)
	return ps, c.err()
}

// pipelineResult is pipeline's one result value (003's bottleneck model).
type pipelineResult struct {
	report.Answered
	Model string `json:"model,omitempty"`
	// Method and Exact: 003's bottleneck model evaluated in closed form, exact for that model
	// (its error against a real run is what --measured shows).
	Method  string          `json:"method"`
	Exact   bool            `json:"exact"`
	Points  []pipelinePoint `json:"points"`
	Optimum pipelineOptimum `json:"optimum"`
	Fit     *pipelineFit    `json:"fit,omitempty"`
	Sizing  *sizing.Advice  `json:"sizing"`
	Notes   []string        `json:"notes"`
	stages  []string
	fixed   []string
}

type pipelinePoint struct {
	P              int                `json:"p"`
	TimeS          float64            `json:"time_s"`
	Bottleneck     string             `json:"bottleneck"`
	Stages         []pipelineStage    `json:"stages"`
	FixedTimes     []pipelineFixed    `json:"fixed_times"`
	MemoryExceeded bool               `json:"memory_exceeded"`
	Measured       []pipelineMeasured `json:"measured,omitempty"`
}

// pipelineFixed is one fixed time of the model file (a name the user chose: a value, not a
// JSON key) at a point.
type pipelineFixed struct {
	Name  string  `json:"name"`
	TimeS float64 `json:"time_s"`
}

type pipelineStage struct {
	Stage      string  `json:"stage"`
	TimeS      float64 `json:"time_s"`
	RatePerS   float64 `json:"rate_elements_per_s"`
	Bottleneck string  `json:"bottleneck"`
}

// pipelineMeasured is one measured run at p: rel_error = (model − measured)/measured.
type pipelineMeasured struct {
	TimeS    float64 `json:"time_s"`
	RelError float64 `json:"rel_error"`
}

type pipelineOptimum struct {
	P          int      `json:"p"`
	TimeS      float64  `json:"time_s"`
	SavedPrevS *float64 `json:"saved_vs_p_minus_1_s,omitempty"`
	SavedNextS *float64 `json:"saved_vs_p_plus_1_s,omitempty"`
	// KneeP is package sizing's knee (the first p from which no larger p saves
	// KneeGain of the time per doubling), the knee of every command; KneeDefinition says so.
	KneeP          int     `json:"knee_p"`
	KneeTimeS      float64 `json:"knee_time_s"`
	KneeDefinition string  `json:"knee_definition"`
	// NearLeastP is the first p whose time is within 1 % of the least (pipeline.Optimum.Knee).
	NearLeastP     int      `json:"within_1_percent_of_least_p"`
	NearLeastTimeS float64  `json:"within_1_percent_of_least_time_s"`
	ClosedFormP    *float64 `json:"closed_form_p,omitempty"`
	ClosedNote     string   `json:"closed_form_note"`
	// StorageBoundS is 003 eq. (21): reading and writing the data through storage alone
	// (2N/b_io for the sort), a lower bound on the time at every p; absent without storage.
	StorageBoundS *float64 `json:"storage_bound_s,omitempty"`
}

type pipelineFit struct {
	Constants map[string]float64 `json:"constants"`
	RMSBefore float64            `json:"rms_rel_error_before"`
	RMSAfter  float64            `json:"rms_rel_error_after"`
	Used      int                `json:"measurements_used"`
	Status    string             `json:"status"`
	Evals     int                `json:"evaluations"`
}

func runPipeline(o pipelineOptions, path string, stdout, stderr io.Writer) error {
	ps, err := o.check()
	if err != nil {
		return err
	}
	m, sp, meas, err := parsePipeline(path, o.measured)
	if err != nil {
		return err
	}
	var fr *pipeline.FitResult
	if o.fit != "" {
		if sp == nil {
			return badInputf("--fit works on sort models (the model file's sort: block)")
		}
		if fr, err = pipeline.FitSort(*sp, m.Memory, strings.Split(o.fit, ","), meas); err != nil {
			return badInput(err)
		}
		mem := m.Memory
		m = fr.Params.Model(m.Name)
		m.Memory = mem
	}
	pts := make([]pipeline.Point, 0, len(ps))
	for _, p := range ps {
		pts = append(pts, m.Predict(p))
	}
	out := newPipelineResult(m, pts, m.Optimal(pts), meas, fr)
	if out.Sizing, err = pipelineSizing(m, pts, o.sizing); err != nil {
		return badInput(err)
	}
	out.setKnee()
	if ps[len(ps)-1]-ps[0]+1 != len(ps) {
		out.Notes = append(out.Notes, "--p is not contiguous: saved_vs_p_minus_1_s and saved_vs_p_plus_1_s compare with the neighbouring p given, and within 1 % of least is the first p given within 1 % of the least time")
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if o.plot = o.out.plotFile(o.plot); o.plot != "" {
		return pipelinePlot(o.plot, m, pts, meas)
	}
	return nil
}

func parsePipeline(path, measured string) (*pipeline.Model, *pipeline.SortParams, []pipeline.Measurement, error) {
	data, err := readInput(path)
	if err != nil {
		return nil, nil, nil, err
	}
	m, sp, err := pipeline.ParseModel(path, data)
	if err != nil {
		return nil, nil, nil, badInput(err)
	}
	if measured == "" {
		return m, sp, nil, nil
	}
	b, err := readInput(measured)
	if err != nil {
		return nil, nil, nil, err
	}
	meas, err := pipeline.ReadMeasurements(measured, bytes.NewReader(b))
	if err != nil {
		return nil, nil, nil, badInput(err)
	}
	return m, sp, meas, nil
}

func newPipelineResult(m *pipeline.Model, pts []pipeline.Point, opt pipeline.Optimum, meas []pipeline.Measurement, fr *pipeline.FitResult) *pipelineResult {
	out := &pipelineResult{Model: m.Name, Method: "bottleneck model of Juhász and Charaf (003), closed form", Exact: true, Optimum: newPipelineOptimum(opt), Notes: []string{}}
	for _, st := range m.Stages {
		out.stages = append(out.stages, st.Name)
	}
	for _, f := range m.Fixed {
		out.fixed = append(out.fixed, f.Name)
	}
	for _, pt := range pts {
		j := pipelinePoint{P: pt.P, TimeS: pt.Time, Bottleneck: pt.Bottleneck, MemoryExceeded: pt.MemoryExceeded, FixedTimes: []pipelineFixed{}}
		for _, st := range pt.Stages {
			j.Stages = append(j.Stages, pipelineStage{st.Stage, st.Time, st.Rate, st.Bottleneck})
		}
		for i, name := range out.fixed {
			j.FixedTimes = append(j.FixedTimes, pipelineFixed{name, pt.Fixed[i]})
		}
		for _, mt := range meas {
			if mt.P == pt.P {
				j.Measured = append(j.Measured, pipelineMeasured{mt.Time, validate.RelError(pt.Time, mt.Time)})
			}
		}
		out.Points = append(out.Points, j)
	}
	if fr != nil {
		out.Fit = &pipelineFit{Constants: map[string]float64{}, RMSBefore: fr.Before, RMSAfter: fr.After, Used: fr.Used, Status: fr.Status, Evals: fr.Evals}
		for i, n := range fr.Names {
			out.Fit.Constants[n] = fr.Values[i]
		}
	}
	return out
}

func newPipelineOptimum(opt pipeline.Optimum) pipelineOptimum {
	o := pipelineOptimum{P: opt.P, TimeS: opt.Time, NearLeastP: opt.Knee, NearLeastTimeS: opt.KneeTime, ClosedNote: opt.ClosedNote}
	ptr := func(v float64) *float64 {
		if math.IsNaN(v) {
			return nil
		}
		return &v
	}
	o.SavedPrevS, o.SavedNextS, o.ClosedFormP = ptr(opt.SavedPrev), ptr(opt.SavedNext), ptr(opt.ClosedForm)
	o.StorageBoundS = ptr(opt.StorageBound)
	return o
}

// pipelineSizing applies package sizing's rule to the predicted times, with T_1 the model at
// p = 1 (pipeline.Model.T1).
func pipelineSizing(m *pipeline.Model, pts []pipeline.Point, sf sizingFlags) (*sizing.Advice, error) {
	sp := make([]sizing.Point, len(pts))
	for i, pt := range pts {
		sp[i] = sizing.Point{P: pt.P, TimeS: pt.Time}
	}
	return sizing.Advise(sp, sf.options(m.T1()))
}

// setKnee takes the optimum's knee from the sizing advice's knee pick: one knee definition
// in the whole output (and in every command), said in KneeDefinition.
func (r *pipelineResult) setKnee() {
	for _, c := range r.Sizing.Choices {
		if c.Rule == sizing.Knee {
			r.Optimum.KneeP, r.Optimum.KneeTimeS = c.Config.P, c.Config.TimeS
		}
	}
	r.Optimum.KneeDefinition = fmt.Sprintf("the first p from which no larger p saves %.3g %% of the time per doubling (--knee-gain; package sizing)", 100*r.Sizing.Options.KneeGain)
}

func (r *pipelineResult) NoteLines() []string { return r.Notes }

// Tables: "points" (default; one row per p, measured runs joined) and "optimum".
func (r *pipelineResult) Tables() []*report.Table {
	t := &report.Table{Name: "points", Title: r.Model, Header: []string{"p", "time_s"}}
	for _, st := range r.stages {
		t.Header = append(t.Header, st+"_s", st+"_bottleneck")
	}
	for _, f := range r.fixed {
		t.Header = append(t.Header, strings.ReplaceAll(f, " ", "_")+"_s")
	}
	t.Header = append(t.Header, "measured_s", "rel_error", "note")
	for _, pt := range r.Points {
		t.Add(r.pointRow(pt)...)
	}
	return []*report.Table{t, r.optimumTable(), tradeOffTable(r.Sizing, "Trade-off around the recommendation")}
}

func (r *pipelineResult) pointRow(pt pipelinePoint) []any {
	row := []any{pt.P, pt.TimeS}
	for _, st := range pt.Stages {
		row = append(row, st.TimeS, st.Bottleneck)
	}
	for _, f := range pt.FixedTimes {
		row = append(row, f.TimeS)
	}
	ms, es := report.List{}, report.List{Percent: true}
	for _, mt := range pt.Measured {
		ms.Values, es.Values = append(ms.Values, mt.TimeS), append(es.Values, mt.RelError)
	}
	var notes []string
	if pt.MemoryExceeded {
		notes = append(notes, "data exceed node memory: expect paging, prediction too low")
	}
	if pt.P == r.Optimum.P {
		notes = append(notes, "least time")
	}
	if pt.P == r.Optimum.KneeP {
		notes = append(notes, fmt.Sprintf("knee (gain < %.3g %% per doubling beyond)", 100*r.Sizing.Options.KneeGain))
	}
	if pt.P == r.Optimum.NearLeastP && pt.P != r.Optimum.P {
		notes = append(notes, "within 1 % of least")
	}
	return append(row, ms, es, strings.Join(notes, "; "))
}

func (r *pipelineResult) optimumTable() *report.Table {
	o := r.Optimum
	t := &report.Table{Name: "optimum", Title: "Optimal cluster size", Header: []string{"what", "p", "time_s", "note"}}
	t.Add("least predicted time", o.P, o.TimeS, "")
	t.Add("knee", o.KneeP, o.KneeTimeS, o.KneeDefinition)
	t.Add("within 1 % of least", o.NearLeastP, o.NearLeastTimeS, "the first p whose time is within 1 % of the least")
	t.Add("closed form p* (003 eq. 19)", optNum(o.ClosedFormP), "", o.ClosedNote)
	if o.StorageBoundS != nil {
		t.Add("storage bound (003 eq. 21)", "", *o.StorageBoundS, "reading and writing through storage alone: no p is faster")
	}
	if a := r.Sizing; a != nil {
		rc := a.Recommended
		t.Add("recommended ("+string(a.Rule)+")", rc.Config.P, rc.Config.TimeS, rc.Reason)
	}
	if f := r.Fit; f != nil {
		for _, n := range slices.Sorted(maps.Keys(f.Constants)) {
			t.Add("fitted "+n, "", f.Constants[n], fmt.Sprintf("Nelder–Mead on %d measurements (%s): rms relative error %.3g → %.3g", f.Used, f.Status, f.RMSBefore, f.RMSAfter))
		}
	}
	return t
}

func pipelinePlot(path string, m *pipeline.Model, pts []pipeline.Point, meas []pipeline.Measurement) error {
	p := report.Panel{Title: "Predicted run time by cluster size", XLabel: "cluster size p", YLabel: "time (s)"}
	// one line per bottleneck regime, so the regions show
	var order []string
	seg := map[string]*report.Series{}
	for _, pt := range pts {
		var parts []string
		for _, st := range pt.Stages {
			parts = append(parts, st.Stage+": "+st.Bottleneck)
		}
		key := strings.Join(parts, ", ")
		s, ok := seg[key]
		if !ok {
			s = &report.Series{Name: key}
			if n := len(order); n > 0 { // start where the previous regime ended
				prev := seg[order[n-1]]
				s.X = append(s.X, prev.X[len(prev.X)-1])
				s.Y = append(s.Y, prev.Y[len(prev.Y)-1])
			}
			seg[key] = s
			order = append(order, key)
		}
		s.X = append(s.X, float64(pt.P))
		s.Y = append(s.Y, pt.Time)
	}
	for _, k := range order {
		p.Series = append(p.Series, *seg[k])
	}
	var mem report.Series
	mem.Name, mem.Points = "memory exceeded (paging)", true
	for _, pt := range pts {
		if pt.MemoryExceeded {
			mem.X = append(mem.X, float64(pt.P))
			mem.Y = append(mem.Y, pt.Time)
		}
	}
	if len(mem.X) > 0 {
		p.Series = append(p.Series, mem)
	}
	if len(meas) > 0 {
		s := report.Series{Name: "measured", Points: true}
		for _, mt := range meas {
			s.X = append(s.X, float64(mt.P))
			s.Y = append(s.Y, mt.Time)
		}
		p.Series = append(p.Series, s)
	}
	return report.SaveFigure(path, p)
}
