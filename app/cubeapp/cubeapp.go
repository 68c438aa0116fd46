// Package cubeapp answers "what does this Score-P profile say, and how do its regions scale?":
// one CUBE4 profile's metrics and call tree (package cube) with the check that the root's
// inclusive value equals the sum over the tree, and optionally 004's queueing model from its
// MPI call paths (package mpip); or a set of profiles at several parameter values modelled
// per call path and metric (cube.ModelSet). The cube command is flags → Request → Run → render.
package cubeapp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/cube"
	"github.com/clusterperf/clusterperf/extrap"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
)

// Request is one cube question. Paths: one profile (a .cubex file or "-"), a set folder, or
// several files with Values (Param's value of each, in order). Param: the parameter to model
// against, or two comma-separated to model jointly ("": those that vary, p first). Fix: the other parameters' values. Metrics:
// the metrics to model by uniq_name (nil: every metric with data). Network: solve 004's
// model of one profile's MPI call paths on a network of Latency (s) and Bandwidth (bytes/s).
type Request struct {
	Paths              []string
	Values             []float64
	Param              string
	Fix                map[string]float64
	Metrics            []string
	Network            bool
	Latency, Bandwidth float64
}

// Run reads one profile, or a set and models it; errors are classified (a damaged archive
// is input, exit 2).
func Run(ctx context.Context, q Request) (*Result, error) {
	if len(q.Paths) == 0 {
		return nil, app.Inputf("no profile given")
	}
	if len(q.Paths) == 1 && q.Values == nil {
		if st, err := os.Stat(q.Paths[0]); q.Paths[0] == input.Stdin || err == nil && !st.IsDir() {
			return runProfile(q)
		}
	}
	if q.Network {
		return nil, app.Inputf("--latency and --bandwidth: 004's model is solved for one profile (give one .cubex file)")
	}
	runs, err := loadRuns(q)
	if err != nil {
		return nil, app.Classify(err)
	}
	if len(q.Fix) > 0 {
		if runs, err = cube.Fix(runs, q.Fix); err != nil {
			return nil, app.Classify(err)
		}
	}
	params := defaultParams(runs)
	if q.Param != "" {
		if params, err = paramNames(q.Param, runs); err != nil {
			return nil, err
		}
	}
	ms, err := cube.ModelSet(ctx, runs, params, q.Metrics)
	if ov := (*cube.OneValueError)(nil); errors.As(err, &ov) {
		return nil, app.Inputf("%s: %v", oneValueSource(q), ov)
	}
	if err != nil {
		return nil, app.Classify(err)
	}
	res := &Result{Method: ms.Method, Set: ms, Notes: []string{}}
	if t := ms.Total; t != nil {
		res.ErrorEstimate = &app.ErrorEstimate{RMSRelError: t.RMSRel, CVRMSLogError: t.CVRMSLogError, Against: fmt.Sprintf("the application total's %d profiles (in-sample relative residuals; per-region errors in the models table)", t.Points)}
		if t.CVRMSLogError != nil {
			res.ErrorEstimate.Against = fmt.Sprintf("the application total's %d profiles: rms_rel_error in-sample, cv_rms_log_error leaving out each measured (%s, %s) (per-region errors in the models table)", t.Points, ms.Param, ms.Param2)
		}
	}
	res.Notes = append(res.Notes, stopNote(ms)...)
	return res, nil
}

// paramNames are --param's names, each one the set has (hostile7 P3: "x," was taken as x,
// and an unknown name was answered with advice about another parameter).
func paramNames(flag string, runs []cube.Run) ([]string, error) {
	names := strings.Split(flag, ",")
	var have []string
	for k := range runs[0].Params {
		have = append(have, k)
	}
	sort.Strings(have)
	for _, n := range names {
		if strings.TrimSpace(n) == "" {
			return nil, app.Inputf("--param %q: an empty name (give one name, or two separated by a comma)", flag)
		}
		if _, ok := runs[0].Params[n]; !ok {
			return nil, app.Inputf("--param %s: the profiles have no parameter %s (they have %s)", flag, n, strings.Join(have, ", "))
		}
	}
	return names, nil
}

// oneValueSource names what gave a parameter its one value: the --values flag, the
// --param flag that chose it, or the set folder.
func oneValueSource(q Request) string {
	switch {
	case q.Values != nil:
		return "--values"
	case q.Param != "":
		return "--param " + q.Param
	}
	return q.Paths[0]
}

// Stops is the set's extrap.StopSummary over its time call paths (the sentence fit says
// of Extra-P experiments): along the first parameter, for two at TrendAt2.
func Stops(ms *cube.Models) extrap.StopSummary {
	s := extrap.StopSummary{Unit: "call path", Metric: "time", Param: ms.Param, First: ms.FirstToStop}
	for _, m := range ms.Models {
		if m.Trend == "" {
			continue
		}
		s.Models++
		switch m.Trend {
		case "falls":
			s.Falling++
		case "grows":
			s.Growing++
		}
		if m.CallPath == ms.FirstToStop && m.StopsScalingAt != nil {
			s.At = *m.StopsScalingAt
		}
	}
	if ms.Param2 != "" {
		s.At2 = fmt.Sprintf(" at %s = %g", ms.Param2, ms.TrendAt2)
	}
	return s
}

// stopNote is the set's stop sentence when no call path stops (the answer says the first).
func stopNote(ms *cube.Models) []string {
	if ms.FirstToStop != "" {
		return nil
	}
	return []string{Stops(ms).Sentence()}
}

// loadRuns: a set folder, or files with Values.
func loadRuns(q Request) ([]cube.Run, error) {
	if q.Values == nil {
		if len(q.Paths) != 1 {
			return nil, app.Inputf("several .cubex files need --values (the --param value of each, in order)")
		}
		return cube.LoadSet(q.Paths[0])
	}
	if len(q.Values) != len(q.Paths) {
		return nil, app.Inputf("--values has %d values for %d files", len(q.Values), len(q.Paths))
	}
	for i, v := range q.Values {
		if !(v >= 1) || v != math.Trunc(v) || v > scaling.MaxPredictP {
			return nil, app.Inputf("--values: value %d (%g, for %s): want a whole number from 1 to %d (a process count or size)", i+1, v, q.Paths[i], scaling.MaxPredictP)
		}
	}
	name := q.Param
	if name == "" {
		name = "p"
	}
	if strings.Contains(name, ",") {
		return nil, app.Inputf("--values gives one parameter's values: --param %s names several", name)
	}
	var runs []cube.Run
	for i, a := range q.Paths {
		p, err := cube.ReadFile(a)
		if err != nil {
			return nil, err
		}
		runs = append(runs, cube.Run{Path: a, Params: map[string]float64{name: q.Values[i]}, Profile: p})
	}
	return runs, nil
}

// defaultParams are the parameters that vary across the runs, p first and the rest by name
// (ModelSet refuses more than two); when none varies, p when the runs have it, else the
// first by name (ModelSet then says there is one value).
func defaultParams(runs []cube.Run) []string {
	var names, varying []string
	for k := range runs[0].Params {
		names = append(names, k)
	}
	sort.Slice(names, func(a, b int) bool { return names[a] == "p" || names[b] != "p" && names[a] < names[b] })
	for _, k := range names {
		seen := map[float64]bool{}
		for _, r := range runs {
			seen[r.Params[k]] = true
		}
		if len(seen) > 1 {
			varying = append(varying, k)
		}
	}
	if len(varying) > 0 {
		return varying
	}
	return names[:1]
}

// runProfile reads one profile: its metrics, call paths and layouts, the tree check and,
// with Network, 004's model of its MPI call paths.
func runProfile(q Request) (*Result, error) {
	path := q.Paths[0]
	p, err := cube.ReadFile(path)
	if err != nil {
		return nil, app.Classify(err)
	}
	out := &ProfileOut{File: path, Version: p.Version, Processes: p.Processes, Locations: len(p.Locations), Metrics: p.Metrics, TreeCheck: "the root's inclusive value equals the sum of the exclusive values over the call tree, for every metric with data"}
	if err := p.CheckTree(); err != nil {
		out.TreeCheck = "failed: " + err.Error()
	}
	for name, l := range p.Layouts {
		out.Layouts = append(out.Layouts, LayoutOut{Metric: name, Layout: l})
	}
	sort.Slice(out.Layouts, func(a, b int) bool { return out.Layouts[a].Metric < out.Layouts[b].Metric })
	for _, c := range p.CNodes {
		cp := CallPath{CallPath: p.Path(c.ID)}
		for i := range p.Metrics {
			m := &p.Metrics[i]
			if m.HasData {
				cp.Values = append(cp.Values, MetricPair{Metric: m.Name, Unit: m.Unit, Inclusive: p.Inclusive(m, c.ID), Exclusive: p.Exclusive(m, c.ID)})
			}
		}
		out.CallPaths = append(out.CallPaths, cp)
	}
	res := &Result{Method: "read: CUBE4 archive (anchor.xml, index and data files); values summed over the locations as stored", Exact: true, Profile: out, Notes: []string{}}
	if q.Network {
		s, paths, err := p.MPI()
		if err != nil {
			return nil, app.Classify(err)
		}
		m, err := mpip.Solve(mpip.InputsFrom(s, q.Latency, q.Bandwidth))
		if err != nil {
			return nil, app.Classify(err)
		}
		res.MPI = &MPIOut{Paths: paths, Summary: s, Model: m}
		res.Method += "; 004's queueing model (mpip) from its MPI call paths: exact MVA of one class"
		res.Exact = false
	}
	for _, m := range p.Metrics {
		if m.Unsupped != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("metric %s: %s", m.Name, m.Unsupped))
		}
	}
	return res, nil
}

// Result is the command's one result value: a profile, or a set's models.
type Result struct {
	report.Answered
	Method        string             `json:"method"`
	Exact         bool               `json:"exact"`
	ErrorEstimate *app.ErrorEstimate `json:"error_estimate,omitempty"`
	Profile       *ProfileOut        `json:"profile,omitempty"`
	Set           *cube.Models       `json:"set,omitempty"`
	// MPI (one profile, --latency and --bandwidth): its MPI call paths and 004's model of it,
	// as the mpip command solves an mpiP report.
	MPI   *MPIOut  `json:"mpi,omitempty"`
	Notes []string `json:"notes"`
}

// ProfileOut is one profile as printed: its metrics and each call path's values.
type ProfileOut struct {
	File      string        `json:"file"`
	Version   string        `json:"version"`
	Processes int           `json:"processes"`
	Locations int           `json:"locations"`
	Metrics   []cube.Metric `json:"metrics"`
	CallPaths []CallPath    `json:"call_paths"`
	Layouts   []LayoutOut   `json:"layouts"`
	TreeCheck string        `json:"tree_check"`
}

// MPIOut is a profile's MPI time and bytes per call path, the collected values they give
// (package mpip's summary) and 004's queueing model solved with them.
type MPIOut struct {
	Paths   []cube.MPIPath `json:"call_paths"`
	Summary mpip.Summary   `json:"summary"`
	Model   *mpip.Result   `json:"model_004"`
}

type LayoutOut struct {
	Metric string `json:"metric"`
	Layout string `json:"layout"`
}

// CallPath is a call path's inclusive and exclusive value of each metric with data,
// summed over the locations (in the metric's unit).
type CallPath struct {
	CallPath string       `json:"call_path"`
	Values   []MetricPair `json:"values"`
}

type MetricPair struct {
	Metric    string  `json:"metric"`
	Unit      string  `json:"unit"`
	Inclusive float64 `json:"inclusive"`
	Exclusive float64 `json:"exclusive"`
}

// SetAnswer computes the answer block (package answer): a set's total and first call path
// to stop scaling, or a profile's largest call path by exclusive time.
func (r *Result) SetAnswer() {
	switch {
	case r.Set != nil:
		stop := ""
		if r.Set.FirstToStop != "" {
			stop = Stops(r.Set).Sentence()
		}
		r.Answer = answer.CubeSet(strings.Join(slices.DeleteFunc([]string{r.Set.Param, r.Set.Param2}, func(x string) bool { return x == "" }), ", "), r.Set.Total, r.Set.FirstToStop, stop, r.Set.Profiles)
	case r.Profile != nil:
		p := r.Profile
		pick := 0 // the time metric when the profile has one, else the first
		if len(p.CallPaths) > 0 {
			for i, v := range p.CallPaths[0].Values {
				if v.Metric == "time" {
					pick = i
				}
			}
		}
		top, metric, unit, best, total := "", "", "", -1.0, 0.0
		for _, cp := range p.CallPaths {
			if len(cp.Values) <= pick {
				continue
			}
			v := cp.Values[pick]
			metric, unit, total = v.Metric, v.Unit, total+v.Exclusive
			if v.Exclusive > best {
				top, best = cp.CallPath, v.Exclusive
			}
		}
		share := 0.0
		if total > 0 {
			share = best / total
		}
		r.Answer = answer.CubeProfile(p.File, metric, unit, top, share, p.Processes)
	default:
		r.Answer = answer.CubeProfile("", "", "", "", 0, 0)
	}
}

// figure: one profile's call paths by exclusive value of its first metric (time when it
// has one), the largest first (at most 15); a set's call paths by their share of the
// total at the largest parameter value; the MPI call paths' time.
func (r *Result) Figure() ([]report.Panel, error) {
	type bar struct {
		name string
		v    float64
	}
	var bars []bar
	title, unit := "", ""
	switch {
	case r.Set != nil:
		title, unit = "Call paths: share of the total at the largest "+r.Set.Param, "share"
		for _, m := range r.Set.Models {
			if m.ShareAtMax != nil {
				bars = append(bars, bar{m.CallPath, *m.ShareAtMax})
			}
		}
	case r.MPI != nil:
		title, unit = "MPI call paths: exclusive time", "s"
		for _, p := range r.MPI.Paths {
			bars = append(bars, bar{p.CallPath, p.TimeS})
		}
	case r.Profile != nil:
		for _, cp := range r.Profile.CallPaths {
			if len(cp.Values) > 0 {
				v := cp.Values[0]
				title, unit = "Call paths: exclusive "+v.Metric, v.Unit
				bars = append(bars, bar{cp.CallPath, v.Exclusive})
			}
		}
	}
	if len(bars) == 0 {
		return nil, nil
	}
	sort.SliceStable(bars, func(i, j int) bool { return bars[i].v > bars[j].v })
	bars = bars[:min(len(bars), 15)]
	var names []string
	var vals []float64
	for _, b := range bars {
		names, vals = append(names, b.name), append(vals, b.v)
	}
	p, err := report.Bars(title, unit, names, vals, []int{0}, 0)
	return []report.Panel{p}, err
}

func (r *Result) NoteLines() []string {
	out := append([]string{}, r.Notes...)
	if r.Set != nil {
		out = append(out, r.Set.Skipped...)
	}
	return out
}

func (r *Result) Tables() []*report.Table {
	if r.Profile != nil {
		return r.profileTables()
	}
	s := r.Set
	against, values := s.Param, fmt.Sprintf("%s = %s", s.Param, floatList(s.Values))
	at := fmt.Sprintf("%s = %s", s.Param, report.Num(s.Values[len(s.Values)-1]))
	if s.Param2 != "" {
		against = s.Param + " and " + s.Param2
		values += fmt.Sprintf("; %s = %s", s.Param2, floatList(s.Values2))
		at = "the largest " + s.Param + ", there the largest " + s.Param2
	}
	t := &report.Table{Name: "models", Title: fmt.Sprintf("Models per call path and metric against %s (%d profiles, %s; at_max: at %s; trend and stops_scaling_at along %s): %s", against, s.Profiles, values, at, s.Param, s.Method),
		Header: []string{"call_path", "metric", "unit", "model", "formula", "rms_rel_error", "at_max", "share_at_max", "trend", "stops_scaling_at"}}
	joint := s.Param2 != ""
	if joint {
		t.Header = slices.Insert(t.Header, 6, "cv_rms_log_error")
	}
	add := func(m cube.Model) {
		var stop any = ""
		if m.StopsScalingAt != nil {
			stop = *m.StopsScalingAt
		}
		row := []any{m.CallPath, m.Metric, m.Unit, m.Name, m.Formula, report.Magnitude(m.RMSRel), m.AtMax, app.OptNum(m.ShareAtMax), m.Trend, stop}
		if joint {
			var cv any = ""
			if m.CVRMSLogError != nil {
				cv = report.Magnitude(*m.CVRMSLogError)
			}
			row = slices.Insert(row, 6, cv)
		}
		t.Add(row...)
	}
	if s.Total != nil {
		tt := *s.Total
		tt.CallPath = "(application total, inclusive)"
		add(tt)
	}
	for _, m := range s.Models {
		add(m)
	}
	sum := &report.Table{Name: "summary", Title: "Summary", Header: []string{"what", "value"}, Left: true}
	if s.Total != nil {
		sum.Add("application total ("+s.Total.Metric+")", s.Total.Name+": "+s.Total.Formula)
		sum.Add("its trend as "+s.Param+" doubles", s.Total.Trend)
	}
	sum.Add("time models growing with "+s.Param+" (the total and call paths)", s.Growing)
	first := s.FirstToStop
	if first == "" {
		first = "none within the grid"
	}
	sum.Add("first call path to stop scaling", first)
	return []*report.Table{t, sum}
}

func (r *Result) profileTables() []*report.Table {
	p := r.Profile
	ct := &report.Table{Name: "call_tree", Title: fmt.Sprintf("CUBE %s, %d processes, %d locations: each call path's values summed over the locations; %s", p.Version, p.Processes, p.Locations, p.TreeCheck),
		Header: []string{"call_path", "metric", "unit", "inclusive", "exclusive"}}
	for _, cp := range p.CallPaths {
		for _, v := range cp.Values {
			ct.Add(cp.CallPath, v.Metric, v.Unit, v.Inclusive, v.Exclusive)
		}
	}
	mt := &report.Table{Name: "metrics", Title: "Metrics", Header: []string{"id", "name", "unit", "dtype", "kind", "has_data", "layout"}}
	lay := map[string]string{}
	for _, l := range p.Layouts {
		lay[l.Metric] = l.Layout
	}
	for _, m := range p.Metrics {
		mt.Add(m.ID, m.Name, m.Unit, m.DType, m.Kind, fmt.Sprint(m.HasData), lay[m.Name])
	}
	ts := []*report.Table{ct, mt}
	if r.MPI != nil {
		t := &report.Table{Name: "mpi", Title: "MPI call paths at the processes' master locations (the 004 model's collected values)", Header: []string{"call_path", "operation", "time_s", "visits", "bytes_sent", "counts_as"}}
		for _, x := range r.MPI.Paths {
			as := ""
			switch {
			case x.Wait:
				as = "MPI_Wait"
			case x.Send:
				as = "message (M)"
			}
			t.Add(x.CallPath, x.Operation, x.TimeS, x.Visits, x.BytesSent, as)
		}
		m := r.MPI.Model
		v := &report.Table{Name: "model_004", Title: fmt.Sprintf("004 model: P = %d, M = %s messages of %s bytes; per process", r.MPI.Summary.P, report.Num(r.MPI.Summary.Messages), report.Num(r.MPI.Summary.AvgSize)), Header: []string{"view", "observed_s", "model_s", "rel_error"}}
		v.Add("application time", m.AppTime.Observed, m.AppTime.Model, app.OptPercent(m.AppTime.RelError))
		v.Add("MPI time", m.MPITime.Observed, m.MPITime.Model, app.OptPercent(m.MPITime.RelError))
		v.Add("MPI wait", m.WaitTime.Observed, m.WaitTime.Model, app.OptPercent(m.WaitTime.RelError))
		ts = append(ts, t, v)
	}
	return ts
}

func floatList(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = report.Num(x)
	}
	return strings.Join(s, ", ")
}
