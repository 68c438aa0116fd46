// Package pipelineapp answers "how long does this pipeline (003's sort) take on p nodes, and
// how many nodes should it use?": 003's bottleneck model at every p, the optimum (least time,
// knee, eq. (19)'s closed form, eq. (21)'s storage bound), the sizing under package sizing's
// rules, measured runs beside the model and, with Fit, the sort's constants fitted to them.
// The pipeline command renders the Result; the explorer evaluates the same Run.
package pipelineapp

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
	"github.com/clusterperf/clusterperf/validate"
)

// Request is everything one pipeline run needs: the parsed model (and its sort parameters,
// nil for a stages model), the measured runs, the constants to fit (empty: none), the cluster
// sizes p (increasing) and the sizing rule's options (T1 is set by Run: the model at p = 1).
type Request struct {
	Model    *pipeline.Model
	Sort     *pipeline.SortParams
	Measured []pipeline.Measurement
	Fit      []string
	P        []int
	Sizing   sizing.Options
}

// Run fits the sort's constants when asked, predicts every p, finds the optimum and sizes.
func Run(ctx context.Context, q Request) (*Result, error) {
	m := q.Model
	var fr *pipeline.FitResult
	if len(q.Fit) > 0 {
		if q.Sort == nil {
			return nil, app.Inputf("--fit works on sort models (the model file's sort: block)")
		}
		var err error
		if fr, err = pipeline.FitSort(*q.Sort, m.Memory, q.Fit, q.Measured); err != nil {
			return nil, app.Inputf("--fit %s: %s", strings.Join(q.Fit, ","), fault.Detail(err))
		}
		mem := m.Memory
		m = fr.Params.Model(m.Name)
		m.Memory = mem
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	pts := make([]pipeline.Point, 0, len(q.P))
	for _, p := range q.P {
		pts = append(pts, m.Predict(p))
	}
	out := newResult(m, pts, m.Optimal(pts), q.Measured, fr)
	out.model, out.points = m, pts
	var err error
	if out.Sizing, err = size(m, pts, q.Sizing); err != nil {
		return nil, app.Input(err)
	}
	out.setKnee()
	if ps := q.P; ps[len(ps)-1]-ps[0]+1 != len(ps) {
		out.Notes = append(out.Notes, "--p is not contiguous: saved_vs_p_minus_1_s and saved_vs_p_plus_1_s compare with the neighbouring p given, and within 1 % of least is the first p given within 1 % of the least time")
	}
	return out, nil
}

// FittedModel is the model the points were predicted with (the fitted one with Fit) and the
// predicted points, for plots.
func (r *Result) FittedModel() (*pipeline.Model, []pipeline.Point) { return r.model, r.points }

// Result is the pipeline question's one result value (003's bottleneck model).
type Result struct {
	report.Answered        // the answer block (package answer; set when rendered)
	Model           string `json:"model,omitempty"`
	// Method and Exact: 003's bottleneck model evaluated in closed form, exact for that model
	// (its error against a real run is what --measured shows).
	Method  string         `json:"method"`
	Exact   bool           `json:"exact"`
	Points  []Point        `json:"points"`
	Optimum Optimum        `json:"optimum"`
	Fit     *Fit           `json:"fit,omitempty"`
	Sizing  *sizing.Advice `json:"sizing"`
	Notes   []string       `json:"notes"`
	stages  []string
	fixed   []string
	model   *pipeline.Model
	points  []pipeline.Point
	meas    []pipeline.Measurement // drawn by Figure
}

type Point struct {
	P              int        `json:"p"`
	TimeS          float64    `json:"time_s"`
	Bottleneck     string     `json:"bottleneck"`
	Stages         []Stage    `json:"stages"`
	FixedTimes     []Fixed    `json:"fixed_times"`
	MemoryExceeded bool       `json:"memory_exceeded"`
	Measured       []Measured `json:"measured,omitempty"`
}

// Fixed is one fixed time of the model file (a name the user chose: a value, not a
// JSON key) at a point.
type Fixed struct {
	Name  string  `json:"name"`
	TimeS float64 `json:"time_s"`
}

type Stage struct {
	Stage      string  `json:"stage"`
	TimeS      float64 `json:"time_s"`
	RatePerS   float64 `json:"rate_elements_per_s"`
	Bottleneck string  `json:"bottleneck"`
}

// Measured is one measured run at p: rel_error = (model − measured)/measured.
type Measured struct {
	TimeS    float64 `json:"time_s"`
	RelError float64 `json:"rel_error"`
}

type Optimum struct {
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

type Fit struct {
	Constants map[string]float64 `json:"constants"`
	RMSBefore float64            `json:"rms_rel_error_before"`
	RMSAfter  float64            `json:"rms_rel_error_after"`
	Used      int                `json:"measurements_used"`
	Status    string             `json:"status"`
	Evals     int                `json:"evaluations"`
}

func newResult(m *pipeline.Model, pts []pipeline.Point, opt pipeline.Optimum, meas []pipeline.Measurement, fr *pipeline.FitResult) *Result {
	out := &Result{Model: m.Name, Method: "bottleneck model of Juhász and Charaf (003), closed form", Exact: true, Optimum: newOptimum(opt), Notes: []string{}, meas: meas}
	for _, st := range m.Stages {
		out.stages = append(out.stages, st.Name)
	}
	for _, f := range m.Fixed {
		out.fixed = append(out.fixed, f.Name)
	}
	for _, pt := range pts {
		j := Point{P: pt.P, TimeS: pt.Time, Bottleneck: pt.Bottleneck, MemoryExceeded: pt.MemoryExceeded, FixedTimes: []Fixed{}}
		for _, st := range pt.Stages {
			j.Stages = append(j.Stages, Stage{st.Stage, st.Time, st.Rate, st.Bottleneck})
		}
		for i, name := range out.fixed {
			j.FixedTimes = append(j.FixedTimes, Fixed{name, pt.Fixed[i]})
		}
		for _, mt := range meas {
			if mt.P == pt.P {
				j.Measured = append(j.Measured, Measured{mt.Time, validate.RelError(pt.Time, mt.Time)})
			}
		}
		out.Points = append(out.Points, j)
	}
	if fr != nil {
		out.Fit = &Fit{Constants: map[string]float64{}, RMSBefore: fr.Before, RMSAfter: fr.After, Used: fr.Used, Status: fr.Status, Evals: fr.Evals}
		for i, n := range fr.Names {
			out.Fit.Constants[n] = fr.Values[i]
		}
	}
	return out
}

func newOptimum(opt pipeline.Optimum) Optimum {
	o := Optimum{P: opt.P, TimeS: opt.Time, NearLeastP: opt.Knee, NearLeastTimeS: opt.KneeTime, ClosedNote: opt.ClosedNote}
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

// size applies package sizing's rule to the predicted times, with T_1 the model at
// p = 1 (pipeline.Model.T1).
func size(m *pipeline.Model, pts []pipeline.Point, so sizing.Options) (*sizing.Advice, error) {
	sp := make([]sizing.Point, len(pts))
	for i, pt := range pts {
		sp[i] = sizing.Point{P: pt.P, TimeS: pt.Time}
	}
	return sizing.Advise(sp, app.WithT1(so, m.T1()))
}

// setKnee takes the optimum's knee from the sizing advice's knee pick: one knee definition
// in the whole output (and in every command), said in KneeDefinition.
func (r *Result) setKnee() {
	for _, c := range r.Sizing.Choices {
		if c.Rule == sizing.Knee || c.Rule == sizing.RangeEnd {
			r.Optimum.KneeP, r.Optimum.KneeTimeS = c.Config.P, c.Config.TimeS
		}
	}
	r.Optimum.KneeDefinition = fmt.Sprintf("the first p from which no larger p saves %.3g %% of the time per doubling (--knee-gain; package sizing)", 100*r.Sizing.Options.KneeGain)
}

func (r *Result) NoteLines() []string { return r.Notes }

// Tables: "points" (default; one row per p, measured runs joined) and "optimum".
func (r *Result) Tables() []*report.Table {
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
	return []*report.Table{t, r.OptimumTable(), app.TradeOffTable(r.Sizing, "Trade-off around the recommendation")}
}

func (r *Result) pointRow(pt Point) []any {
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

// OptimumTable is the "optimum" table: least time, knee, within 1 %, closed form, storage bound,
// the recommendation and the fitted constants.
func (r *Result) OptimumTable() *report.Table {
	o := r.Optimum
	t := &report.Table{Name: "optimum", Title: "Optimal cluster size", Header: []string{"what", "p", "time_s", "note"}}
	t.Add("least predicted time", o.P, o.TimeS, "")
	t.Add("knee", o.KneeP, o.KneeTimeS, o.KneeDefinition)
	t.Add("within 1 % of least", o.NearLeastP, o.NearLeastTimeS, "the first p whose time is within 1 % of the least")
	t.Add("closed form p* (003 eq. 19)", app.OptNum(o.ClosedFormP), "", o.ClosedNote)
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

// SetAnswer sets the answer block (package answer): the sizing and the bottleneck at the
// recommended p.
func (r *Result) SetAnswer() {
	b := ""
	if r.Sizing != nil {
		for _, pt := range r.Points {
			if pt.P == r.Sizing.Recommended.Config.P {
				b = pt.Bottleneck
			}
		}
	}
	r.Answer = answer.Pipeline(r.Model, r.Sizing, b)
}
