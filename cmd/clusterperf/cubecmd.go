package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/cube"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
)

type cubeOptions struct {
	out                outOptions
	param              string
	fix                string
	metrics            string
	values             string
	latency, bandwidth string
}

const cubeLong = `cube PROFILE.cubex | SET_DIR | PROFILE.cubex… --values V,…: Score-P / Scalasca CUBE4 profiles.

One profile: its metrics and call tree, each call path's inclusive and exclusive values summed
over the locations, and the check that the root's inclusive value equals the sum of the
exclusive values over the call tree.

A set (a folder of <name>.<parameters>.r<repetition>/ folders, as Extra-P's cube-set loader
reads them, e.g. mm.x10y1z1.r1; or several files with --values giving --param's value of each):
per call path and metric, the mean value per location (exclusive; the application total
inclusive) fitted against --param by package scaling's models (as fit DATA.csv), the
application total, and which call path stops scaling first (the smallest p at which doubling p
cuts its fitted time by less than 10 %). Other parameters must be fixed (--fix y=1,z=1).
CSV tables (--csv-table): one profile: call_tree (default), metrics; a set: models (default), summary.
`

func newCubeCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &cubeOptions{}
	cmd := &cobra.Command{
		Use:   "cube PROFILE.cubex | SET_DIR | PROFILE.cubex… --values V,…",
		Short: "Read Score-P CUBE4 profiles: call tree and metrics, or per-region scaling models of a profile set",
		Long:  cubeLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCube(cmd, *o, args, stdout)
		},
	}
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.param, "param", "", "the parameter to model against (default: p, or the only one that varies in the set)")
	f.StringVar(&o.fix, "fix", "", "values of the other parameters, e.g. y=1,z=1")
	f.StringVar(&o.metrics, "metric", "", "metrics to model, by uniq_name (default: every metric with data), e.g. time,visits")
	f.StringVar(&o.latency, "latency", "", "one profile: network latency (e.g. 2us) for 004's queueing model from the profile's MPI call paths")
	f.StringVar(&o.bandwidth, "bandwidth", "", "one profile: network bandwidth (e.g. 10GB/s) for 004's queueing model")
	f.StringVar(&o.values, "values", "", "with several .cubex files: --param's value of each, in order (e.g. 1,2,4,8)")
	return cmd
}

// cubeResult is the command's one result value: a profile, or a set's models.
type cubeResult struct {
	report.Answered
	Method        string          `json:"method"`
	Exact         bool            `json:"exact"`
	ErrorEstimate *errorEstimate  `json:"error_estimate,omitempty"`
	Profile       *cubeProfileOut `json:"profile,omitempty"`
	Set           *cube.Models    `json:"set,omitempty"`
	// MPI (one profile, --latency and --bandwidth): its MPI call paths and 004's model of it,
	// as the mpip command solves an mpiP report.
	MPI   *cubeMPIOut `json:"mpi,omitempty"`
	Notes []string    `json:"notes"`
}

// cubeProfileOut is one profile as printed: its metrics and each call path's values.
type cubeProfileOut struct {
	File      string          `json:"file"`
	Version   string          `json:"version"`
	Processes int             `json:"processes"`
	Locations int             `json:"locations"`
	Metrics   []cube.Metric   `json:"metrics"`
	CallPaths []cubeCallPath  `json:"call_paths"`
	Layouts   []cubeLayoutOut `json:"layouts"`
	TreeCheck string          `json:"tree_check"`
}

// cubeMPIOut is a profile's MPI time and bytes per call path, the collected values they give
// (package mpip's summary) and 004's queueing model solved with them.
type cubeMPIOut struct {
	Paths   []cube.MPIPath `json:"call_paths"`
	Summary mpip.Summary   `json:"summary"`
	Model   *mpip.Result   `json:"model_004"`
}

type cubeLayoutOut struct {
	Metric string `json:"metric"`
	Layout string `json:"layout"`
}

// cubeCallPath is a call path's inclusive and exclusive value of each metric with data,
// summed over the locations (in the metric's unit).
type cubeCallPath struct {
	CallPath string           `json:"call_path"`
	Values   []cubeMetricPair `json:"values"`
}

type cubeMetricPair struct {
	Metric    string  `json:"metric"`
	Unit      string  `json:"unit"`
	Inclusive float64 `json:"inclusive"`
	Exclusive float64 `json:"exclusive"`
}

// check reads the flags: --fix's values, --metric's names, the network of --latency and
// --bandwidth.
func (o cubeOptions) check() (fixed map[string]float64, metrics []string, lat, bw float64, err error) {
	var c flagCheck
	o.out.check(&c)
	fixed = map[string]float64{}
	if o.fix != "" {
		for _, kv := range strings.Split(o.fix, ",") {
			k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
			x, err := strconv.ParseFloat(v, 64)
			if !ok || err != nil || k == "" {
				c.add("--fix %q: want name=value pairs such as y=1,z=1", o.fix)
				break
			}
			fixed[k] = x
		}
	}
	if o.metrics != "" {
		metrics = strings.Split(o.metrics, ",")
	}
	if (o.latency == "") != (o.bandwidth == "") {
		c.add("--latency and --bandwidth go together (004's network)")
	} else if o.latency != "" {
		var e error
		if lat, e = units.Duration(o.latency); e != nil || !(lat >= 0) {
			c.add("--latency %q: want a time such as 2us", o.latency)
		}
		if bw, e = units.Bandwidth(o.bandwidth); e != nil || !(bw > 0) {
			c.add("--bandwidth %q: want a rate such as 10GB/s", o.bandwidth)
		}
	}
	return fixed, metrics, lat, bw, c.err()
}

func runCube(cmd *cobra.Command, o cubeOptions, args []string, stdout io.Writer) error {
	fixed, metrics, lat, bw, err := o.check()
	if err != nil {
		return err
	}
	if len(args) == 1 && o.values == "" {
		if st, err := os.Stat(args[0]); args[0] == input.Stdin || err == nil && !st.IsDir() {
			return runCubeProfile(args[0], o, lat, bw, stdout)
		}
	}
	if o.latency != "" {
		return badInputf("--latency and --bandwidth: 004's model is solved for one profile (give one .cubex file)")
	}
	runs, err := cubeRuns(args, o)
	if err != nil {
		return classify(err)
	}
	if len(fixed) > 0 {
		if runs, err = cube.Fix(runs, fixed); err != nil {
			return classify(err)
		}
	}
	param := o.param
	if param == "" {
		param = defaultParam(runs)
	}
	ms, err := cube.ModelSet(cmd.Context(), runs, param, metrics)
	if err != nil {
		return classify(err)
	}
	res := &cubeResult{Method: ms.Method, Set: ms, Notes: []string{}}
	if ms.Total != nil {
		res.ErrorEstimate = &errorEstimate{RMSRelError: ms.Total.RMSRel, Against: fmt.Sprintf("the application total's %d profiles (in-sample relative residuals; per-region errors in the models table)", ms.Total.Points)}
	}
	if ms.FirstToStop == "" {
		res.Notes = append(res.Notes, "no call path stops scaling within twice the largest measured "+param+" (doubling still cuts every fitted time by 10 % or more), or the models grow with "+param)
	}
	return render(stdout, res, o.out)
}

// cubeRuns: a set folder, or files with --values.
func cubeRuns(args []string, o cubeOptions) ([]cube.Run, error) {
	if o.values == "" {
		if len(args) != 1 {
			return nil, fmt.Errorf("%w: several .cubex files need --values (the --param value of each, in order)", fault.ErrInput)
		}
		return cube.LoadSet(args[0])
	}
	vs := strings.Split(o.values, ",")
	if len(vs) != len(args) {
		return nil, fmt.Errorf("%w: --values has %d values for %d files", fault.ErrInput, len(vs), len(args))
	}
	name := o.param
	if name == "" {
		name = "p"
	}
	var runs []cube.Run
	for i, a := range args {
		v, err := strconv.ParseFloat(strings.TrimSpace(vs[i]), 64)
		if err != nil {
			return nil, fmt.Errorf("%w: --values %q: %q is not a number", fault.ErrInput, o.values, vs[i])
		}
		p, err := cube.ReadFile(a)
		if err != nil {
			return nil, err
		}
		runs = append(runs, cube.Run{Path: a, Params: map[string]float64{name: v}, Profile: p})
	}
	return runs, nil
}

// defaultParam is p when the runs have it, else the only parameter that varies (else the
// first by name: ModelSet then names the others that vary).
func defaultParam(runs []cube.Run) string {
	if _, ok := runs[0].Params["p"]; ok {
		return "p"
	}
	var names []string
	for k := range runs[0].Params {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		seen := map[float64]bool{}
		for _, r := range runs {
			seen[r.Params[k]] = true
		}
		if len(seen) > 1 {
			return k
		}
	}
	return names[0]
}

func runCubeProfile(path string, o cubeOptions, lat, bw float64, stdout io.Writer) error {
	p, err := cube.ReadFile(path)
	if err != nil {
		return classify(err)
	}
	out := &cubeProfileOut{File: path, Version: p.Version, Processes: p.Processes, Locations: len(p.Locations), Metrics: p.Metrics, TreeCheck: "the root's inclusive value equals the sum of the exclusive values over the call tree, for every metric with data"}
	if err := p.CheckTree(); err != nil {
		out.TreeCheck = "failed: " + err.Error()
	}
	for name, l := range p.Layouts {
		out.Layouts = append(out.Layouts, cubeLayoutOut{Metric: name, Layout: l})
	}
	sort.Slice(out.Layouts, func(a, b int) bool { return out.Layouts[a].Metric < out.Layouts[b].Metric })
	for _, c := range p.CNodes {
		cp := cubeCallPath{CallPath: p.Path(c.ID)}
		for i := range p.Metrics {
			m := &p.Metrics[i]
			if m.HasData {
				cp.Values = append(cp.Values, cubeMetricPair{Metric: m.Name, Unit: m.Unit, Inclusive: p.Inclusive(m, c.ID), Exclusive: p.Exclusive(m, c.ID)})
			}
		}
		out.CallPaths = append(out.CallPaths, cp)
	}
	res := &cubeResult{Method: "read: CUBE4 archive (anchor.xml, index and data files); values summed over the locations as stored", Exact: true, Profile: out, Notes: []string{}}
	if o.latency != "" {
		s, paths, err := p.MPI()
		if err != nil {
			return classify(err)
		}
		m, err := mpip.Solve(mpip.InputsFrom(s, lat, bw))
		if err != nil {
			return classify(err)
		}
		res.MPI = &cubeMPIOut{Paths: paths, Summary: s, Model: m}
		res.Method += "; 004's queueing model (mpip) from its MPI call paths: exact MVA of one class"
		res.Exact = false
	}
	for _, m := range p.Metrics {
		if m.Unsupped != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("metric %s: %s", m.Name, m.Unsupped))
		}
	}
	return render(stdout, res, o.out)
}

func (r *cubeResult) NoteLines() []string {
	out := append([]string{}, r.Notes...)
	if r.Set != nil {
		out = append(out, r.Set.Skipped...)
	}
	return out
}

func (r *cubeResult) Tables() []*report.Table {
	if r.Profile != nil {
		return r.profileTables()
	}
	s := r.Set
	t := &report.Table{Name: "models", Title: fmt.Sprintf("Models per call path and metric against %s (%d profiles, %s = %s): %s", s.Param, s.Profiles, s.Param, floatList(s.Values), s.Method),
		Header: []string{"call_path", "metric", "unit", "model", "formula", "rms_rel_error", "at_max", "share_at_max", "stops_scaling_at"}}
	add := func(m cube.Model) {
		var stop any = ""
		if m.StopsScalingAt != nil {
			stop = *m.StopsScalingAt
		}
		t.Add(m.CallPath, m.Metric, m.Unit, m.Name, m.Formula, report.Magnitude(m.RMSRel), m.AtMaxP, optNum(m.ShareAtMaxP), stop)
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
	}
	first := s.FirstToStop
	if first == "" {
		first = "none within the grid"
	}
	sum.Add("first call path to stop scaling", first)
	return []*report.Table{t, sum}
}

func (r *cubeResult) profileTables() []*report.Table {
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
