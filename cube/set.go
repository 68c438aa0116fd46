package cube

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/extrap"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/scaling"
)

// MaxProfiles bounds a profile set.
const MaxProfiles = 4096

// Run is one profile of a set with its parameter values.
type Run struct {
	Path       string             `json:"path"`
	Params     map[string]float64 `json:"params"`
	Repetition int                `json:"repetition"`
	Profile    *Profile           `json:"-"`
}

var (
	paramRe = regexp.MustCompile(`([A-Za-z_]+)(\d+(?:\.\d+)?)`)
	repRe   = regexp.MustCompile(`^r(\d+)$`)
)

// ParseFolderName reads a folder name as Extra-P's cube-set loader does:
// <prefix>.<parameters>[.<parameters>…].r<repetition>, the parameters a letter name followed
// by a number, several of them run together or separated by dots (mm.x10y1z1.r1 is x = 10,
// y = 1, z = 1, repetition 1; app.p64.n2000.r2 is p = 64, n = 2000, repetition 2).
func ParseFolderName(name string) (map[string]float64, int, error) {
	parts := strings.Split(name, ".")
	if len(parts) < 3 || !repRe.MatchString(parts[len(parts)-1]) {
		return nil, 0, fmt.Errorf("%w: folder %q: want <name>.<parameters>.r<repetition>, e.g. mm.x10y1z1.r1 (Extra-P's cube-set naming)", fault.ErrInput, name)
	}
	rep, _ := strconv.Atoi(repRe.FindStringSubmatch(parts[len(parts)-1])[1])
	params := map[string]float64{}
	for _, part := range parts[1 : len(parts)-1] {
		ms := paramRe.FindAllStringSubmatchIndex(part, -1)
		covered := 0
		for _, m := range ms {
			if m[0] != covered {
				break
			}
			covered = m[1]
			k := part[m[2]:m[3]]
			v, err := strconv.ParseFloat(part[m[4]:m[5]], 64)
			if err != nil || math.IsInf(v, 0) {
				return nil, 0, fmt.Errorf("%w: folder %q: parameter %s: bad value", fault.ErrInput, name, k)
			}
			if _, dup := params[k]; dup {
				return nil, 0, fmt.Errorf("%w: folder %q: parameter %s twice", fault.ErrInput, name, k)
			}
			params[k] = v
		}
		if covered != len(part) {
			return nil, 0, fmt.Errorf("%w: folder %q: %q is not <name><number>… parameters", fault.ErrInput, name, part)
		}
	}
	if len(params) == 0 {
		return nil, 0, fmt.Errorf("%w: folder %q: no parameters", fault.ErrInput, name)
	}
	return params, rep, nil
}

// LoadSet reads the profiles of a cube set: each sub-folder of dir named as
// ParseFolderName reads, holding one .cubex file.
func LoadSet(dir string) ([]Run, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", fault.ErrInput, dir, err)
	}
	var runs []Run
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		params, rep, err := ParseFolderName(e.Name())
		if err != nil {
			return nil, fmt.Errorf("%w (in %s)", err, dir)
		}
		files, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*.cubex"))
		if len(files) != 1 {
			return nil, fmt.Errorf("%w: %s: %d .cubex files: want one per folder", fault.ErrInput, filepath.Join(dir, e.Name()), len(files))
		}
		if len(runs) >= MaxProfiles {
			return nil, fmt.Errorf("%w: %s: more than %d profiles", fault.ErrTooLarge, dir, MaxProfiles)
		}
		p, err := ReadFile(files[0])
		if err != nil {
			return nil, err
		}
		runs = append(runs, Run{Path: files[0], Params: params, Repetition: rep, Profile: p})
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%w: %s: no profile folders (want <name>.<parameters>.r<repetition>/…cubex)", fault.ErrInput, dir)
	}
	sort.Slice(runs, func(a, b int) bool { return runs[a].Path < runs[b].Path })
	return runs, nil
}

// ReadFile reads one .cubex file.
func ReadFile(path string) (*Profile, error) {
	f, name, err := input.OpenStream(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(name, f)
}

// Model is the fitted model of one call path and metric over the modelled parameter(s).
type Model struct {
	CallPath string `json:"call_path"`
	Region   string `json:"region"`
	Metric   string `json:"metric"`
	Unit     string `json:"unit"`
	Value    string `json:"value"` // "exclusive" or "inclusive" (the application total)
	// Formula is in the parameters' own names (x, not p, for a set over x).
	Formula string  `json:"formula"`
	Name    string  `json:"model"`
	RMSRel  float64 `json:"rms_rel_error"`
	// CVRMSLogError (two parameters): RMS of log(T_pred/T) leaving out each measured
	// (a, b) with its repetitions (scaling.FitPN's selection score).
	CVRMSLogError *float64 `json:"cv_rms_log_error,omitempty"`
	// AtMax is the mean value per location at the largest measured parameter value (two
	// parameters: at the largest first parameter, and there the largest second one);
	// ShareAtMax its share of the application total there (time metrics).
	AtMax      float64  `json:"at_max"`
	ShareAtMax *float64 `json:"share_at_max,omitempty"`
	// Trend (time metrics): how the fitted time moves as the (first) parameter doubles from
	// its smallest measured value (two parameters: at the largest measured second one):
	// "falls", "grows" or "flat" (within 10⁻⁹ relative).
	Trend string `json:"trend,omitempty"`
	// StopsScalingAt (time metrics whose time falls) is the smallest value of the doubling
	// grid from the smallest measured value to twice the largest at which doubling no longer
	// cuts the fitted time by KneeGain (10 %); nil when it still does at the end of the grid,
	// and for times that grow or stay flat (weak-scaling-like regions, problem sizes).
	StopsScalingAt *int `json:"stops_scaling_at,omitempty"`
	Points         int  `json:"points"`
}

// KneeGain is the per-doubling gain below which a region has stopped scaling.
const KneeGain = 0.10

// Models is a profile set modelled region by region, over one parameter (scaling.Fit) or
// two jointly (scaling.FitPN).
type Models struct {
	Method   string    `json:"method"`
	Param    string    `json:"param"`
	Values   []float64 `json:"param_values"`
	Param2   string    `json:"param_2,omitempty"`
	Values2  []float64 `json:"param_2_values,omitempty"`
	Fixed    []string  `json:"fixed,omitempty"`
	Profiles int       `json:"profiles"`
	Total    *Model    `json:"application_total,omitempty"`
	Models   []Model   `json:"models"`
	// FirstToStop is the call path (time metric) that stops scaling at the smallest value.
	FirstToStop string `json:"first_to_stop_scaling,omitempty"`
	// Growing counts the time models (call paths and the total) whose time grows with the
	// (first) parameter.
	Growing int `json:"growing_time_models"`
	// TrendAt2 (two parameters) is the second parameter's value at which trends and stops are
	// walked along the first: its largest value measured at the first's largest.
	TrendAt2 float64  `json:"trend_at_param_2,omitempty"`
	Skipped  []string `json:"skipped"`
}

// OneValueError: a parameter to model against takes one value in every profile (a model
// needs at least two; a term in a constant parameter cannot be told from c0).
type OneValueError struct {
	Param    string
	Value    float64
	Profiles int
}

func (e *OneValueError) Error() string {
	return fmt.Sprintf("%s takes one value (%g) in all %d profiles: a model against it needs at least 2", e.Param, e.Value, e.Profiles)
}

// MaxParams is how many parameters a set is modelled over at once.
const MaxParams = 2

// ModelSet fits, for each call path and metric with data, the mean value per location (the
// exclusive value; the application total is the roots' inclusive value) against params: one
// parameter by package scaling's models and selection (scaling.Fit), two jointly by Extra-P's
// multi-parameter normal form (scaling.FitPN; the first parameter's term ranges over decay
// and growth terms, the second's over growth terms). Runs must agree on every other
// parameter (Fix picks them).
func ModelSet(ctx context.Context, runs []Run, params []string, metrics []string) (*Models, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("%w: no profiles", fault.ErrInput)
	}
	if len(params) == 0 || len(params) > MaxParams || len(params) == 2 && params[0] == params[1] {
		return nil, fmt.Errorf("%w: --param %s: model one parameter or two distinct ones at once", fault.ErrInput, strings.Join(params, ","))
	}
	if err := checkOthers(runs, params); err != nil {
		return nil, err
	}
	for _, k := range params {
		if vs := distinct(runs, k); len(vs) < 2 {
			return nil, fmt.Errorf("%w: %w", fault.ErrInput, &OneValueError{Param: k, Value: vs[0], Profiles: len(runs)})
		}
	}
	out := &Models{Param: params[0], Profiles: len(runs), Skipped: []string{}, Values: distinct(runs, params[0])}
	out.Method = "per call path and metric: the mean over locations (exclusive; the application total inclusive) fitted by package scaling (relative least squares, selection by cross-validation) against " + params[0]
	if len(params) == 2 {
		out.Param2, out.Values2 = params[1], distinct(runs, params[1])
		top := runs[0].Params
		for _, r := range runs {
			if a, b := r.Params[params[0]], r.Params[params[1]]; a > top[params[0]] || a == top[params[0]] && b > top[params[1]] {
				top = r.Params
			}
		}
		out.TrendAt2 = top[params[1]]
		out.Method = fmt.Sprintf("per call path and metric: the mean over locations (exclusive; the application total inclusive) fitted jointly in %s and %s by Extra-P's multi-parameter normal form with one term per parameter (package scaling's FitPN: additive, multiplicative and mixed shapes, non-negative relative least squares, selection by leave-one-(%s, %s)-out cross-validation)", params[0], params[1], params[0], params[1])
	}
	ref := runs[0].Profile
	want := map[string]bool{}
	for _, m := range metrics {
		want[m] = true
		if ref.MetricByName(m) == nil {
			return nil, fmt.Errorf("%w: --metric %q: %s has no such metric", fault.ErrInput, m, ref.File)
		}
	}
	for _, m := range ref.Metrics {
		if !m.HasData || (len(want) > 0 && !want[m.Name]) {
			continue
		}
		if m.Extremum() != "" {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s: a %s metric (combined by %s over locations) is not modelled", m.Name, m.DType, m.Extremum()))
			continue
		}
		if err := out.fitMetric(ctx, runs, params, m.Name); err != nil {
			return nil, err
		}
	}
	out.firstToStop()
	return out, nil
}

func distinct(runs []Run, param string) []float64 {
	seen := map[float64]bool{}
	var vs []float64
	for _, r := range runs {
		if v := r.Params[param]; !seen[v] {
			seen[v] = true
			vs = append(vs, v)
		}
	}
	sort.Float64s(vs)
	return vs
}

// checkOthers: every parameter other than params has one value across the runs, and each
// of params is a whole number ≥ 1 in every run.
func checkOthers(runs []Run, params []string) error {
	var names []string
	for k := range runs[0].Params {
		if !slices.Contains(params, k) && len(distinct(runs, k)) > 1 {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	if len(names) > 0 {
		k := names[0]
		hint := fmt.Sprintf("choose its value with --fix %s=V", k)
		if len(params) < MaxParams {
			hint += fmt.Sprintf(" or model both at once with --param %s,%s", params[0], k)
		}
		return fmt.Errorf("%w: parameter %s varies too (%d values): %s", fault.ErrInput, k, len(distinct(runs, k)), hint)
	}
	for _, r := range runs {
		for _, param := range params {
			v, ok := r.Params[param]
			if !ok || v < 1 || v != math.Trunc(v) || v > scaling.MaxPredictP {
				return fmt.Errorf("%w: %s: parameter %s = %v: want a whole number ≥ 1 (a process count or size)", fault.ErrInput, r.Path, param, v)
			}
		}
	}
	return nil
}

// obs is one profile's value of a call path and metric at its parameter values (b = 0 for
// one parameter).
type obs struct {
	a    int
	b, v float64
}

func (out *Models) fitMetric(ctx context.Context, runs []Run, params []string, metric string) error {
	ref := runs[0].Profile
	paths := map[string]bool{}
	var order []string
	for _, c := range ref.CNodes {
		if p := ref.Path(c.ID); !paths[p] {
			paths[p] = true
			order = append(order, p)
		}
	}
	series := map[string][]obs{}
	total := []obs{}
	for _, r := range runs {
		pr := r.Profile
		m := pr.MetricByName(metric)
		if m == nil || !m.HasData {
			return fmt.Errorf("%w: %s: metric %q has no data here but has in %s", fault.ErrInput, r.Path, metric, ref.File)
		}
		L := float64(len(pr.Locations))
		x := obs{a: int(r.Params[params[0]])}
		if len(params) == 2 {
			x.b = r.Params[params[1]]
		}
		byPath := map[string]float64{}
		for _, c := range pr.CNodes {
			byPath[pr.Path(c.ID)] += pr.Exclusive(m, c.ID) / L
		}
		for _, path := range order {
			x.v = byPath[path]
			series[path] = append(series[path], x)
		}
		x.v = 0
		for _, root := range pr.Roots() {
			x.v += pr.Inclusive(m, root) / L
		}
		total = append(total, x)
	}
	unit := ref.MetricByName(metric).Unit
	isTime := metric == "time" || unit == "sec"
	tm, why := fitOne(ctx, params, "application total", metric, total, isTime)
	if tm != nil {
		tm.Value, tm.Unit, tm.Region = "inclusive", unit, "(all)"
		if isTime {
			out.Total = tm
			out.countGrowing(tm)
		}
	} else {
		out.Skipped = append(out.Skipped, fmt.Sprintf("%s of the application total: %s", metric, why))
	}
	for _, path := range order {
		mm, why := fitOne(ctx, params, path, metric, series[path], isTime)
		if mm == nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s of %s: %s", metric, path, why))
			continue
		}
		mm.Value, mm.Unit = "exclusive", unit
		mm.Region = path[strings.LastIndex(path, ">")+1:]
		if isTime && tm != nil && tm.AtMax > 0 {
			s := mm.AtMax / tm.AtMax
			mm.ShareAtMax = &s
		}
		out.countGrowing(mm)
		out.Models = append(out.Models, *mm)
	}
	return nil
}

func (out *Models) countGrowing(m *Model) {
	if m.Trend == "grows" {
		out.Growing++
	}
}

// fitOne fits one series; nil and why when it cannot (a value ≤ 0, too few points).
func fitOne(ctx context.Context, params []string, path, metric string, pts []obs, isTime bool) (*Model, string) {
	if err := ctx.Err(); err != nil {
		return nil, "interrupted"
	}
	for _, pt := range pts {
		if !(pt.v > 0) {
			return nil, fmt.Sprintf("a value of %g at %s: only positive values are modelled", pt.v, atText(params, pt))
		}
	}
	at, atMax := atLargest(pts)
	var m *Model
	var predict func(a int) (float64, error)
	if len(params) == 1 {
		sp := make([]scaling.Point, len(pts))
		for i, pt := range pts {
			sp[i] = scaling.Point{P: pt.a, TimeS: pt.v}
		}
		r, err := scaling.Fit(ctx, &scaling.Data{Name: path + " " + metric, Scaling: "", Points: sp})
		if err != nil {
			return nil, fault.Detail(err)
		}
		m = &Model{Formula: extrap.RenameVars(r.Chosen.Formula, map[rune]string{'p': params[0]}), Name: r.Chosen.Name, RMSRel: r.Chosen.RMSRelError}
		predict = func(a int) (float64, error) {
			pr, err := r.Predict(a)
			if err != nil {
				return 0, err
			}
			return pr.TimeS, nil
		}
	} else {
		pp := make([]scaling.PNPoint, len(pts))
		for i, pt := range pts {
			pp[i] = scaling.PNPoint{P: pt.a, N: pt.b, TimeS: pt.v}
		}
		r, err := scaling.FitPN(pp)
		if err != nil {
			return nil, fault.Detail(err)
		}
		loo := r.LOO
		m = &Model{Formula: extrap.RenameVars(r.Formula, map[rune]string{'p': params[0], 'n': params[1]}), Name: "multi-parameter", RMSRel: pnRMSRel(r, pp), CVRMSLogError: &loo}
		predict = func(a int) (float64, error) { return r.Predict(float64(a), at.b) }
	}
	m.CallPath, m.Metric, m.AtMax, m.Points = path, metric, atMax, len(pts)
	if isTime {
		m.Trend, m.StopsScalingAt = stopsScaling(pts, at, predict)
	}
	return m, ""
}

func atText(params []string, pt obs) string {
	if len(params) == 1 {
		return fmt.Sprintf("%s = %d", params[0], pt.a)
	}
	return fmt.Sprintf("%s = %d, %s = %g", params[0], pt.a, params[1], pt.b)
}

// atLargest is the largest measured (a, b) — the largest a, and there the largest b — and
// the mean value of the runs there.
func atLargest(pts []obs) (obs, float64) {
	var at obs
	for _, pt := range pts {
		if pt.a > at.a || pt.a == at.a && pt.b > at.b {
			at = pt
		}
	}
	sum, n := 0.0, 0
	for _, pt := range pts {
		if pt.a == at.a && pt.b == at.b {
			sum += pt.v
			n++
		}
	}
	return at, sum / float64(n)
}

// stopsScaling is extrap.StopsScaling on the first parameter's doubling grid from its
// smallest measured value to twice the largest (two parameters: at the second's value of
// the largest point, at.b): the trend and, for a falling time, where it stops scaling.
func stopsScaling(pts []obs, at obs, predict func(int) (float64, error)) (string, *int) {
	minA := at.a
	for _, pt := range pts {
		minA = min(minA, pt.a)
	}
	trend, k := extrap.StopsScaling(minA, at.a, predict)
	if k == 0 {
		return trend, nil
	}
	return trend, &k
}

// pnRMSRel is the in-sample RMS relative error of a (p, n) model.
func pnRMSRel(m *scaling.PNModel, pts []scaling.PNPoint) float64 {
	ss := 0.0
	for _, pt := range pts {
		v, err := m.Predict(float64(pt.P), pt.N)
		if err != nil {
			return math.Inf(1)
		}
		e := (v - pt.TimeS) / pt.TimeS
		ss += e * e
	}
	return math.Sqrt(ss / float64(len(pts)))
}

// firstToStop names the time call path that stops scaling at the smallest value, ties to
// the larger share of the time.
func (out *Models) firstToStop() {
	best := -1
	for i, m := range out.Models {
		if m.StopsScalingAt == nil || m.ShareAtMax == nil {
			continue
		}
		if best < 0 || *m.StopsScalingAt < *out.Models[best].StopsScalingAt ||
			(*m.StopsScalingAt == *out.Models[best].StopsScalingAt && *m.ShareAtMax > *out.Models[best].ShareAtMax) {
			best = i
		}
	}
	if best >= 0 {
		out.FirstToStop = out.Models[best].CallPath
	}
}

// Fix keeps the runs whose parameters have the given values.
func Fix(runs []Run, fixed map[string]float64) ([]Run, error) {
	var out []Run
	for _, r := range runs {
		ok := true
		for k, v := range fixed {
			got, has := r.Params[k]
			if !has {
				return nil, fmt.Errorf("%w: --fix %s: %s has no parameter %s", fault.ErrInput, k, r.Path, k)
			}
			ok = ok && got == v
		}
		if ok {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: --fix: no profile has those values", fault.ErrInput)
	}
	return out, nil
}
