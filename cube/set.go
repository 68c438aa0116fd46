package cube

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

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

// Model is the fitted model of one call path and metric over the modelled parameter.
type Model struct {
	CallPath string  `json:"call_path"`
	Region   string  `json:"region"`
	Metric   string  `json:"metric"`
	Unit     string  `json:"unit"`
	Value    string  `json:"value"` // "exclusive" or "inclusive" (the application total)
	Formula  string  `json:"formula"`
	Name     string  `json:"model"`
	RMSRel   float64 `json:"rms_rel_error"`
	// AtMaxP is the mean value per location at the largest parameter value measured;
	// ShareAtMaxP its share of the application total there (time metrics).
	AtMaxP      float64  `json:"at_max_p"`
	ShareAtMaxP *float64 `json:"share_at_max_p,omitempty"`
	// StopsScalingAt (time metrics) is the smallest p of the doubling grid from the smallest
	// measured p to twice the largest at which doubling p no longer cuts the fitted time by
	// KneeGain (10 %); nil when it still does at the end of the grid.
	StopsScalingAt *int `json:"stops_scaling_at_p,omitempty"`
	Points         int  `json:"points"`
}

// KneeGain is the per-doubling gain below which a region has stopped scaling.
const KneeGain = 0.10

// Models is a profile set modelled region by region.
type Models struct {
	Method   string    `json:"method"`
	Param    string    `json:"param"`
	Fixed    []string  `json:"fixed,omitempty"`
	Profiles int       `json:"profiles"`
	Values   []float64 `json:"param_values"`
	Total    *Model    `json:"application_total,omitempty"`
	Models   []Model   `json:"models"`
	// FirstToStop is the call path (time metric) that stops scaling at the smallest p.
	FirstToStop string   `json:"first_to_stop_scaling,omitempty"`
	Skipped     []string `json:"skipped"`
}

// ModelSet fits, for each call path and metric with data, package scaling's models to the
// mean value per location against param (the exclusive value; the application total is the
// roots' inclusive value). Runs must agree on every other parameter (fixed picks them).
func ModelSet(ctx context.Context, runs []Run, param string, metrics []string) (*Models, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("%w: no profiles", fault.ErrInput)
	}
	out := &Models{Param: param, Profiles: len(runs), Skipped: []string{},
		Method: "per call path and metric: the mean over locations (exclusive; the application total inclusive) fitted by package scaling (relative least squares, selection by cross-validation) against " + param}
	ref := runs[0].Profile
	if err := checkOthers(runs, param); err != nil {
		return nil, err
	}
	vals := map[float64]bool{}
	for _, r := range runs {
		vals[r.Params[param]] = true
	}
	for v := range vals {
		out.Values = append(out.Values, v)
	}
	sort.Float64s(out.Values)
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
		if err := out.fitMetric(ctx, runs, param, m.Name); err != nil {
			return nil, err
		}
	}
	out.firstToStop()
	return out, nil
}

// checkOthers: every parameter other than param has one value across the runs, and param
// is a whole number ≥ 1 in every run.
func checkOthers(runs []Run, param string) error {
	for k := range runs[0].Params {
		if k == param {
			continue
		}
		seen := map[float64]bool{}
		for _, r := range runs {
			seen[r.Params[k]] = true
		}
		if len(seen) > 1 {
			return fmt.Errorf("%w: parameter %s varies too (%d values): choose its value with --fix %s=V (modelling several parameters at once is issue 30's)", fault.ErrInput, k, len(seen), k)
		}
	}
	for _, r := range runs {
		v, ok := r.Params[param]
		if !ok || v < 1 || v != math.Trunc(v) || v > scaling.MaxPredictP {
			return fmt.Errorf("%w: %s: parameter %s = %v: want a whole number ≥ 1 (a process count or size)", fault.ErrInput, r.Path, param, v)
		}
	}
	return nil
}

func (out *Models) fitMetric(ctx context.Context, runs []Run, param, metric string) error {
	ref := runs[0].Profile
	paths := map[string]bool{}
	var order []string
	for _, c := range ref.CNodes {
		if p := ref.Path(c.ID); !paths[p] {
			paths[p] = true
			order = append(order, p)
		}
	}
	series := map[string][]scaling.Point{}
	total := []scaling.Point{}
	for _, r := range runs {
		pr := r.Profile
		m := pr.MetricByName(metric)
		if m == nil || !m.HasData {
			return fmt.Errorf("%w: %s: metric %q has no data here but has in %s", fault.ErrInput, r.Path, metric, ref.File)
		}
		L := float64(len(pr.Locations))
		p := int(r.Params[param])
		byPath := map[string]float64{}
		for _, c := range pr.CNodes {
			byPath[pr.Path(c.ID)] += pr.Exclusive(m, c.ID) / L
		}
		for _, path := range order {
			series[path] = append(series[path], scaling.Point{P: p, TimeS: byPath[path]})
		}
		t := 0.0
		for _, root := range pr.Roots() {
			t += pr.Inclusive(m, root) / L
		}
		total = append(total, scaling.Point{P: p, TimeS: t})
	}
	isTime := metric == "time" || ref.MetricByName(metric).Unit == "sec"
	tm, why := fitOne(ctx, "application total", metric, total, isTime)
	if tm != nil {
		tm.Value, tm.Unit, tm.Region = "inclusive", ref.MetricByName(metric).Unit, "(all)"
		if isTime || out.Total == nil {
			if isTime {
				out.Total = tm
			}
		}
	} else {
		out.Skipped = append(out.Skipped, fmt.Sprintf("%s of the application total: %s", metric, why))
	}
	for _, path := range order {
		mm, why := fitOne(ctx, path, metric, series[path], isTime)
		if mm == nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s of %s: %s", metric, path, why))
			continue
		}
		mm.Value, mm.Unit = "exclusive", ref.MetricByName(metric).Unit
		mm.Region = path[strings.LastIndex(path, ">")+1:]
		if isTime && tm != nil && tm.AtMaxP > 0 {
			s := mm.AtMaxP / tm.AtMaxP
			mm.ShareAtMaxP = &s
		}
		out.Models = append(out.Models, *mm)
	}
	return nil
}

// fitOne fits one series; nil and why when it cannot (a value ≤ 0, one distinct p).
func fitOne(ctx context.Context, path, metric string, pts []scaling.Point, isTime bool) (*Model, string) {
	if err := ctx.Err(); err != nil {
		return nil, "interrupted"
	}
	maxP, atMax, n := 0, 0.0, 0
	for _, pt := range pts {
		if !(pt.TimeS > 0) {
			return nil, fmt.Sprintf("a value of %g at %d: only positive values are modelled", pt.TimeS, pt.P)
		}
		if pt.P > maxP {
			maxP, atMax, n = pt.P, 0, 0
		}
		if pt.P == maxP {
			atMax += pt.TimeS
			n++
		}
	}
	r, err := scaling.Fit(ctx, &scaling.Data{Name: path + " " + metric, Scaling: "", Points: pts})
	if err != nil {
		return nil, fault.Detail(err)
	}
	m := &Model{CallPath: path, Metric: metric, Formula: r.Chosen.Formula, Name: r.Chosen.Name, RMSRel: r.Chosen.RMSRelError, AtMaxP: atMax / float64(n), Points: len(pts)}
	if isTime {
		minP := maxP
		for _, pt := range pts {
			minP = min(minP, pt.P)
		}
		for p := minP; p <= 2*maxP; p *= 2 {
			a, e1 := r.Predict(p)
			b, e2 := r.Predict(2 * p)
			if e1 != nil || e2 != nil {
				break
			}
			if b.TimeS > (1-KneeGain)*a.TimeS {
				k := p
				m.StopsScalingAt = &k
				break
			}
		}
	}
	return m, ""
}

// firstToStop names the time call path that stops scaling at the smallest p, ties to the
// larger share of the time.
func (out *Models) firstToStop() {
	best := -1
	for i, m := range out.Models {
		if m.StopsScalingAt == nil || m.ShareAtMaxP == nil {
			continue
		}
		if best < 0 || *m.StopsScalingAt < *out.Models[best].StopsScalingAt ||
			(*m.StopsScalingAt == *out.Models[best].StopsScalingAt && *m.ShareAtMaxP > *out.Models[best].ShareAtMaxP) {
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
