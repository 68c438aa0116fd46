package explore

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
)

// MpipOptions are the network of reports explored without a CSV of collected values: a
// latency (s) and a bandwidth (bytes/s); 0 lets Load choose (see LoadMpip).
type MpipOptions struct {
	LatencyS           float64
	BandwidthBytesPerS float64
}

// defaultBandwidth is the bandwidth assumed for mpiP reports when none is given and the runs'
// message sizes cannot tell it from the latency (mpip.Calibrate): 10 Gb/s Ethernet, stated on
// the page as an assumption.
const defaultBandwidth = 1.25e9 // bytes/s

// mpipSamples is the number of Monte Carlo samples of the prediction interval at the current
// P (mpip.Predict; only with ≥ mpip.MinRunsForInterval runs): (samples + 1) × P MVA steps,
// kept within mpipWork steps (tens of ms) by fewer samples at a large P, at least 50.
const (
	mpipSamples = 400
	mpipWork    = 4_000_000
)

// samplesAt is the number of interval samples at P.
func samplesAt(p int) int { return max(50, min(mpipSamples, mpipWork/max(p, 1))) }

// mpipGrid is the number of P values of the by-P charts (log-spaced, plus the measured P).
const mpipGrid = 40

type mpipModel struct {
	name    string
	inputs  []htmlreport.Input
	runs    []mpip.Inputs // sorted by P; Lat and BW are the base network
	perRun  bool          // CSV: each run has its own network and the sliders scale it
	netNote string
	predict bool // runs at ≥ 3 distinct P > 1: mpip.Predict's power laws give any P
	maxP    int
	// backtest is the mpip command's leave-one-out backtest of the runs and its forecast
	// choice (mpip.BacktestRuns, mpip.ChooseForecast), made once when predict is set: the
	// error estimate of a prediction without an interval. nil when it could not be made,
	// with the reason in noBacktest.
	backtest   *mpip.ForecastChoice
	noBacktest string
	// reps and csvFile are what the mpip command reads (mpipapp.Request): the parsed
	// reports, or the CSV file of collected values.
	reps    []*mpip.Report
	csvFile string
	paths   []string
}

// isMpip reports whether a file is an mpiP report (its first line "@ mpiP") or a CSV of 004's
// collected values (the name ends in .csv and the header names App_Time).
func isMpip(path string, data []byte) bool {
	head := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if bytes.HasPrefix(head, []byte("@ mpiP")) {
		return true
	}
	if !strings.EqualFold(filepath.Ext(path), ".csv") {
		return false
	}
	return bytes.Contains(bytes.ToLower(head[:min(len(head), 4096)]), []byte("app_time"))
}

// LoadMpip reads mpiP reports (of one program: mpip.CheckSameProgram) or one CSV of 004's
// collected values (mpip.ReadInputs) into the 004 queueing model (Elliott): N = P messages, a
// switch delay D_0 = L/BW + Lat, P CPU queues, a computation delay. Reports carry no network:
// with o's latency and bandwidth they are used; a bandwidth alone fixes it and the latency is
// fitted to the runs' wall times (mpip.Calibrate); with neither, Calibrate fits both when the
// runs' message sizes allow it, else the latency with defaultBandwidth assumed. A CSV row
// carries its own network (004 measured one per P) and the page's sliders scale it.
func LoadMpip(paths []string, datas [][]byte, o MpipOptions) (Model, error) {
	if len(paths) == 0 || len(paths) != len(datas) {
		return nil, fmt.Errorf("%w: mpip: give mpiP reports or one CSV of collected values", fault.ErrInput)
	}
	m := &mpipModel{}
	var reps []*mpip.Report
	for i, path := range paths {
		m.inputs = append(m.inputs, htmlreport.InputFile(path, datas[i]))
		if strings.EqualFold(filepath.Ext(path), ".csv") {
			if len(paths) > 1 {
				return nil, &spec.Error{File: path, Msg: "explore takes mpiP reports or one CSV of collected values, not both or several CSV files"}
			}
			ins, err := mpip.ReadInputs(path, bytes.NewReader(datas[i]))
			if err != nil {
				return nil, err
			}
			m.runs, m.perRun, m.csvFile = ins, true, path
			m.name = base(path)
			m.netNote = "each run's network from its BW and Lat columns (004 measured them per P), scaled by the sliders; a prediction interpolates them by P (held at the end rows beyond)"
			if o.LatencyS != 0 || o.BandwidthBytesPerS != 0 {
				return nil, &spec.Error{File: path, Msg: "a CSV of collected values carries each run's network (BW, Lat columns): --latency/--bandwidth apply to mpiP reports"}
			}
			continue
		}
		rep, err := mpip.Parse(path, bytes.NewReader(datas[i]))
		if err != nil {
			return nil, err
		}
		reps = append(reps, rep)
	}
	m.reps, m.paths = reps, paths
	if len(reps) > 0 {
		if err := m.loadReports(reps, o); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(m.runs, func(i, j int) bool { return m.runs[i].P < m.runs[j].P })
	seen := map[int]bool{}
	for _, in := range m.runs {
		if err := in.Validate(); err != nil {
			return nil, err
		}
		if in.P > 1 {
			seen[in.P] = true
		}
		m.maxP = max(m.maxP, in.P)
	}
	m.predict = len(seen) >= 3
	if m.predict {
		m.backtestRuns(len(seen))
	}
	return m, nil
}

// backtestRuns makes the leave-one-out backtest of the runs (distinct: runs at different
// P > 1) as the mpip command does, the network calibrated on the other runs in each split.
func (m *mpipModel) backtestRuns(distinct int) {
	bt, err := mpip.BacktestRuns(m.runs, mpip.CalibrateOptions{})
	if err != nil {
		m.noBacktest = err.Error()
		return
	}
	ch := mpip.ChooseForecast(bt, distinct)
	m.backtest = &ch
}

// backtestEstimate is the error estimate of a prediction without an interval (runs at
// fewer than mpip.MinRunsForInterval P): the largest |rel_error| of the 004 model route
// over the leave-one-out backtest of the measured runs, with every kind's errors in a note;
// or, without a backtest, a note that there is no error estimate and what it needs.
func (m *mpipModel) backtestEstimate(r *Result) {
	if m.backtest == nil {
		r.Notes = append(r.Notes, fmt.Sprintf("no error estimate: a prediction interval needs runs at ≥ %d different P, and the leave-one-out backtest could not be made (%s)", mpip.MinRunsForInterval, m.noBacktest))
		return
	}
	ch := m.backtest
	var kinds []string
	for _, k := range ch.Kinds {
		if !k.Forecast || k.BacktestMaxAbsRelError == nil {
			continue // calibrated_profile needs the held-out run's own profile: no forecast
		}
		errs := make([]string, len(k.BacktestRelErrors))
		for i, e := range k.BacktestRelErrors {
			errs[i] = fmt.Sprintf("%+.0f %%", 100*e)
		}
		kinds = append(kinds, fmt.Sprintf("%s %s", k.Kind, strings.Join(errs, ", ")))
		if k.Kind == mpip.KindModel004 {
			r.ErrorEstimate = map[string]any{"rel_error": *k.BacktestMaxAbsRelError, "backtest_rel_errors": k.BacktestRelErrors,
				"against": fmt.Sprintf("the measured runs: largest |rel_error| of the 004 model route over the leave-one-out backtest (mpip.BacktestRuns: each of %d runs predicted from the others, network calibrated on them), as the mpip command computes it; no prediction interval: it needs runs at ≥ %d different P (have %d)", ch.Splits, mpip.MinRunsForInterval, ch.Runs)}
		}
	}
	r.Notes = append(r.Notes, fmt.Sprintf("backtest (leave-one-out over the measured runs, held-out P in increasing order; rel_error = (forecast − observed)/observed): %s; the mpip command would size with %s: %s", strings.Join(kinds, "; "), ch.Used, ch.Reason))
}

func (m *mpipModel) loadReports(reps []*mpip.Report, o MpipOptions) error {
	if _, err := mpip.CheckSameProgram(reps, false); err != nil {
		return err
	}
	for _, rep := range reps {
		s, err := rep.Summarize(mpip.Options{})
		if err != nil {
			return err
		}
		in := mpip.ProfileInputs(s)
		in.Label = filepath.Base(s.File)
		m.runs = append(m.runs, in)
	}
	m.name = strings.TrimSuffix(m.runs[0].Label, ".mpiP")
	if i := strings.IndexByte(m.name, '.'); i > 0 {
		m.name = m.name[:i] // exe.nprocs.pid.index
	}
	lat, bw := o.LatencyS, o.BandwidthBytesPerS
	switch {
	case lat < 0 || bw < 0 || math.IsNaN(lat+bw) || math.IsInf(lat+bw, 0):
		return fmt.Errorf("%w: latency %v s and bandwidth %v bytes/s must be finite and ≥ 0", fault.ErrInput, lat, bw)
	case lat > 0 && bw > 0:
		m.netNote = "network as given"
	case lat > 0:
		return fmt.Errorf("%w: --latency needs --bandwidth (or give neither: the network is then fitted to the runs' wall times)", fault.ErrInput)
	default:
		c, err := mpip.Calibrate(m.runs, mpip.CalibrateOptions{BandwidthBytesPerS: bw})
		if err == nil && c.BandwidthBytesPerS == nil {
			bw = defaultBandwidth
			c, err = mpip.Calibrate(m.runs, mpip.CalibrateOptions{BandwidthBytesPerS: bw})
			m.netNote = fmt.Sprintf("the reports carry no network: bandwidth %s bytes/s assumed (10 Gb/s; the runs' message sizes cannot separate it from the latency; give --bandwidth) and the latency fitted to the runs' wall times (mpip.Calibrate)", htmlreport.Num(bw))
		} else if err == nil {
			if o.BandwidthBytesPerS > 0 {
				m.netNote = "the reports carry no network: the bandwidth as given, the latency fitted to the runs' wall times (mpip.Calibrate)"
			} else {
				m.netNote = "the reports carry no network: latency and bandwidth fitted to the runs' wall times (mpip.Calibrate)"
			}
		}
		if err != nil {
			return err
		}
		lat, bw = c.LatencyS, *c.BandwidthBytesPerS
	}
	for i := range m.runs {
		m.runs[i].Lat, m.runs[i].BW = lat, bw
	}
	return nil
}

func (m *mpipModel) Kind() string               { return "mpip" }
func (m *mpipModel) Name() string               { return m.name }
func (m *mpipModel) Inputs() []htmlreport.Input { return m.inputs }

// pLimit is the largest P of the slider and the charts.
func (m *mpipModel) pLimit() int { return max(1024, 8*m.maxP) }

// Params: the network (reports: latency 0 … 4× and bandwidth 1/16 … 8× the model's; a CSV:
// factors on each run's own), and P: any P from 2 when the runs allow a prediction (with the
// charts' range), else the measured run to show.
func (m *mpipModel) Params() []Param {
	var ps []Param
	if m.perRun {
		ps = append(ps,
			Param{ID: "latency", Label: "latency × (each run's Lat)", Group: "network", Min: 0, Max: 4, Step: 0.01, Value: 1, Unit: "factor"},
			Param{ID: "bandwidth", Label: "bandwidth × (each run's BW)", Group: "network", Min: 0.125, Max: 8, Step: 0.005, Value: 1, Unit: "factor"})
	} else {
		lat, bw := m.runs[0].Lat, m.runs[0].BW
		_, hi, st := span(lat)
		if lat == 0 {
			hi, st = 1e-4, 1e-4/400
		}
		ps = append(ps,
			Param{ID: "latency", Label: "network latency Lat", Group: "network", Min: 0, Max: hi, Step: st, Value: lat, Unit: "s"},
			Param{ID: "bandwidth", Label: "network bandwidth BW", Group: "network", Min: bw / 16, Max: 8 * bw, Step: bw / 160, Value: bw, Unit: "bytes/s"})
	}
	switch {
	case m.predict:
		lim := m.pLimit()
		ps = append(ps,
			Param{ID: "p", Label: "processes P", Group: "configuration", Min: 2, Max: float64(lim), Step: 1, Value: float64(m.maxP), Integer: true, Unit: "processes"},
			Param{ID: "p_max", Label: "charts: P up to", Group: "sweep", Min: 4, Max: float64(lim), Step: 1, Value: float64(min(lim, 4*m.maxP)), Integer: true, Unit: "processes"})
	case len(m.runs) > 1:
		ps = append(ps, Param{ID: "run", Label: "measured run (by P)", Group: "configuration", Min: 1, Max: float64(len(m.runs)), Step: 1, Value: float64(len(m.runs)), Integer: true})
	}
	return ps
}

// network returns the runs with the point's network, and the network of mpip.Predict.
func (m *mpipModel) network(v Values) ([]mpip.Inputs, mpip.Network) {
	runs := append([]mpip.Inputs(nil), m.runs...)
	if !m.perRun {
		for i := range runs {
			runs[i].Lat, runs[i].BW = v["latency"], v["bandwidth"]
		}
		return runs, mpip.ConstNetwork(v["latency"], v["bandwidth"])
	}
	net := mpip.Network{By: "p"}
	for i := range runs {
		runs[i].Lat *= v["latency"]
		runs[i].BW *= v["bandwidth"]
		if i == 0 || runs[i].P != runs[i-1].P {
			net.Points = append(net.Points, mpip.NetPoint{Key: float64(runs[i].P), Latency: runs[i].Lat, Bandwidth: runs[i].BW})
		}
	}
	return runs, net
}

// mpipPoint is the model at one P: the measured run's inputs solved (exact MVA), or
// mpip.Predict's extrapolated inputs.
type mpipPoint struct {
	P         int
	Res       *mpip.Result
	Measured  bool
	Predicted *mpip.Prediction
}

// at solves the model at P: a measured run's inputs when P was measured (the first run at P),
// else the power-law extrapolation (mpip.Predict, samples Monte Carlo samples of the interval).
func (m *mpipModel) at(runs []mpip.Inputs, net mpip.Network, p, samples int) (mpipPoint, error) {
	for _, in := range runs {
		if in.P == p {
			r, err := mpip.Solve(in)
			return mpipPoint{P: p, Res: r, Measured: true}, err
		}
	}
	if !m.predict {
		return mpipPoint{}, fmt.Errorf("%w: P = %d was not measured, and a prediction needs runs at three or more P > 1", fault.ErrInput, p)
	}
	pr, err := mpip.Predict(runs, net, []int{p}, samples, 1)
	if err != nil {
		return mpipPoint{}, err
	}
	return mpipPoint{P: p, Res: pr[0].Result, Predicted: &pr[0]}, nil
}

// grid is the by-P charts' P values: mpipGrid log-spaced whole numbers 2 … pmax, the
// measured P and the current one.
func (m *mpipModel) grid(pmax, cur int) []int {
	set := map[int]bool{cur: cur <= pmax}
	for i := 0; i < mpipGrid; i++ {
		set[int(math.Round(2*math.Pow(float64(pmax)/2, float64(i)/(mpipGrid-1))))] = true
	}
	for _, in := range m.runs {
		if in.P > 1 && in.P <= pmax {
			set[in.P] = true
		}
	}
	out := make([]int, 0, len(set))
	for p, in := range set {
		if in {
			out = append(out, p)
		}
	}
	sort.Ints(out)
	return out
}

// perProcess is the 004 components divided by P: the wall time AT = R·M/P split into switch,
// MPI contention, MPI active and computation (s per process; they add up to AT).
func perProcess(r *mpip.Result) [4]float64 {
	P := float64(r.Inputs.P)
	c := r.Model
	return [4]float64{c.SwitchDelay / P, c.MPIContention / P, c.MPIActive / P, c.Compute / P}
}

var componentNames = [4]string{"switch delay", "MPI contention", "MPI active", "computation"}

// Eval solves the 004 model (exact MVA of the closed network, mpip.Solve) at the point's P
// and network: a measured run's profile, or with runs at three or more P the inputs
// extrapolated as power laws in P (mpip.Predict: not exact, with a Monte Carlo interval from
// five runs on). Charts: wall time and its components by P, wall time against bandwidth and
// latency. The bottleneck is the largest component; the best configuration is the mpip
// command's recommendation at the same point (recommend: mpipapp.Run), with its refusals.
func (m *mpipModel) Eval(v Values) (*Result, error) { return m.EvalContext(context.Background(), v) }

// EvalContext is Eval stopping when ctx is done (ContextModel): between its solves (the
// point, the runs, the by-P grid, the sizing, each sensitivity point).
func (m *mpipModel) EvalContext(ctx context.Context, v Values) (*Result, error) {
	runs, net := m.network(v)
	p := m.runs[len(m.runs)-1].P
	switch {
	case m.predict:
		p = int(v["p"])
	case len(m.runs) > 1:
		p = m.runs[int(v["run"])-1].P
	}
	cur, err := m.at(runs, net, p, samplesAt(p))
	if err != nil {
		return nil, err
	}
	r := &Result{Kind: "mpip", Model: m.name, Values: map[string]float64{"p": float64(p), "wall_time_s": cur.Res.AppTime.Model}}
	m.describe(r, cur)
	comp := perProcess(cur.Res)
	ct := htmlreport.Table{Title: fmt.Sprintf("Wall time at P = %d (004 components, per process)", p), Header: []string{"component", "time (s)", "share"}}
	big := 0
	for i, c := range comp {
		ct.Rows = append(ct.Rows, []string{componentNames[i], htmlreport.Num(c), fmt.Sprintf("%.1f %%", 100*c/cur.Res.AppTime.Model)})
		r.Values[strings.ToLower(strings.ReplaceAll(componentNames[i], " ", "_"))+"_s"] = c
		if c > comp[big] {
			big = i
		}
	}
	ct.Highlight = []int{big}
	ct.Rows = append(ct.Rows, []string{"wall time AT = R·M/P", htmlreport.Num(cur.Res.AppTime.Model), "100 %"})
	r.Bottleneck = fmt.Sprintf("%s: %.1f %% of the modelled wall time at P = %d (each CPU centre %.0f %% busy)", componentNames[big], 100*comp[big]/cur.Res.AppTime.Model, p, 100*cur.Res.Uk)
	rt, err := m.runsTable(runs, p)
	if err != nil {
		return nil, err
	}
	r.Tables = append(r.Tables, ct, rt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := m.byP(ctx, r, runs, net, v, cur); err != nil {
		return nil, err
	}
	if err := m.sensitivity(ctx, r, cur, v); err != nil {
		return nil, err
	}
	return r, nil
}

// describe sets the method, exactness, error estimate and notes of the point.
func (m *mpipModel) describe(r *Result, cur mpipPoint) {
	r.Notes = append(r.Notes, m.netNote)
	if cur.Measured {
		r.Method = "004 queueing model (Elliott) of the measured run: exact MVA of the closed network, N = P messages (mpip.Solve)"
		r.Exact = true
		if e := cur.Res.AppTime.RelError; e != nil {
			r.Values["rel_error"] = *e
			r.Notes = append(r.Notes, fmt.Sprintf("at P = %d the model gives %.4g s against the measured %.4g s (rel_error %+.3f)", cur.P, cur.Res.AppTime.Model, cur.Res.AppTime.Observed, *e))
		}
		return
	}
	pr := cur.Predicted
	r.Method = "004 queueing model (Elliott) with the inputs extrapolated as power laws in P from the measured runs (mpip.Predict), solved by exact MVA"
	r.Exact = false
	r.Values["wall_time_low_s"], r.Values["wall_time_high_s"] = pr.ATLow, pr.ATHigh
	if pr.Interval {
		half := (pr.ATHigh - pr.ATLow) / 2 / pr.ATMedian
		r.ErrorEstimate = map[string]any{"rel_error": half, "wall_time_low_s": pr.ATLow, "wall_time_high_s": pr.ATHigh,
			"against": fmt.Sprintf("half-width of the 95 %% prediction interval of the power-law fits, relative to the median (Monte Carlo, %d samples)", pr.Samples)}
	} else {
		m.backtestEstimate(r)
	}
	if pr.Note != "" {
		r.Notes = append(r.Notes, pr.Note)
	}
}

// runsTable compares each measured run's model with its measurement (004's application-time
// view); the current P highlighted.
func (m *mpipModel) runsTable(runs []mpip.Inputs, p int) (htmlreport.Table, error) {
	t := htmlreport.Table{Title: "Measured runs: model against measurement", Header: []string{"P", "run", "wall time measured (s)", "wall time model (s)", "rel_error", "switch delay D_0 (s)"}}
	for _, in := range runs {
		res, err := mpip.Solve(in)
		if err != nil {
			return t, err
		}
		rel := "-"
		if e := res.AppTime.RelError; e != nil {
			rel = fmt.Sprintf("%+.3f", *e)
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(in.P), in.Label, htmlreport.Num(res.AppTime.Observed), htmlreport.Num(res.AppTime.Model), rel, htmlreport.Num(res.Demands.D0)})
		if in.P == p {
			t.Highlight = append(t.Highlight, len(t.Rows)-1)
		}
	}
	return t, nil
}

// byP adds the by-P table and charts: with a prediction, the extrapolated model over the grid;
// else the measured runs. The best configuration marked is the mpip command's (recommend).
func (m *mpipModel) byP(ctx context.Context, r *Result, runs []mpip.Inputs, net mpip.Network, v Values, cur mpipPoint) error {
	var pts []mpipPoint
	if m.predict {
		grid := m.grid(max(int(v["p_max"]), 4), cur.P)
		prs, err := mpip.Predict(runs, net, grid, 1, 1)
		if err != nil {
			return err
		}
		for i := range prs {
			pts = append(pts, mpipPoint{P: prs[i].P, Res: prs[i].Result, Predicted: &prs[i]})
		}
	} else {
		for _, in := range runs {
			res, err := mpip.Solve(in)
			if err != nil {
				return err
			}
			pts = append(pts, mpipPoint{P: in.P, Res: res, Measured: true})
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	best, err := m.recommend(ctx, r, v, cur)
	if err != nil {
		return err
	}
	title := "Wall time by P (model of the measured runs)"
	if m.predict {
		title = "Wall time by P (extrapolated inputs, mpip.Predict)"
	}
	t := htmlreport.Table{Title: title, Header: []string{"P", "wall time (s)", "switch delay (s)", "MPI contention (s)", "MPI active (s)", "computation (s)"}}
	wall := Series{Name: "model wall time"}
	comps := make([]Series, 4)
	for i := range comps {
		comps[i].Name = componentNames[i]
	}
	for i, pt := range pts {
		c := perProcess(pt.Res)
		t.Rows = append(t.Rows, []string{strconv.Itoa(pt.P), htmlreport.Num(pt.Res.AppTime.Model), htmlreport.Num(c[0]), htmlreport.Num(c[1]), htmlreport.Num(c[2]), htmlreport.Num(c[3])})
		if pt.P == best || pt.P == cur.P {
			t.Highlight = append(t.Highlight, i)
		}
		x := float64(pt.P)
		wall.X, wall.Y = append(wall.X, x), append(wall.Y, pt.Res.AppTime.Model)
		for k := range comps {
			comps[k].X, comps[k].Y = append(comps[k].X, x), append(comps[k].Y, c[k])
		}
	}
	r.Tables = append(r.Tables, t)
	meas := Series{Name: "measured wall time", Dashed: true}
	for _, in := range runs {
		meas.X, meas.Y = append(meas.X, float64(in.P)), append(meas.Y, in.AppTime/float64(in.P))
	}
	if len(pts) < 2 { // one run: a by-P chart would be a single point
		return nil
	}
	curX := float64(cur.P)
	var bestX *float64
	if best > 0 {
		x := float64(best)
		bestX = &x
	}
	r.Charts = append(r.Charts,
		chart("wall", report.Panel{Title: "Wall time by P", XLabel: "processes P", YLabel: "s", Series: []Series{wall, meas}}, &curX, bestX),
		chart("components", report.Panel{Title: "Components of the wall time by P (per process)", XLabel: "processes P", YLabel: "s", Series: comps}, &curX, bestX))
	return nil
}

// mpipFactors are the network values of the sensitivity charts, relative to the point's.
var mpipFactors = []float64{0.125, 0.25, 0.5, 1, 2, 4, 8}

// sensitivity adds the charts of the wall time at the current P against bandwidth and latency.
func (m *mpipModel) sensitivity(ctx context.Context, r *Result, cur mpipPoint, v Values) error {
	for _, which := range []string{"bandwidth", "latency"} {
		s := Series{Name: fmt.Sprintf("wall time at P = %d", cur.P)}
		x0 := cur.Res.Inputs.BW
		unit := "bytes/s"
		if which == "latency" {
			x0, unit = cur.Res.Inputs.Lat, "s"
		}
		for _, f := range mpipFactors {
			if err := ctx.Err(); err != nil {
				return err
			}
			vv := Values{}
			for k, x := range v {
				vv[k] = x
			}
			vv[which] *= f
			runs, net := m.network(vv)
			pt, err := m.at(runs, net, cur.P, 1)
			if err != nil {
				return err
			}
			x := pt.Res.Inputs.BW
			if which == "latency" {
				x = pt.Res.Inputs.Lat
			}
			s.X, s.Y = append(s.X, x), append(s.Y, pt.Res.AppTime.Model)
		}
		mark := x0
		r.Charts = append(r.Charts, chart(which, report.Panel{Title: "Wall time against network " + which, XLabel: which + " (" + unit + ")", YLabel: "s", Series: []Series{s}}, &mark, nil))
	}
	return nil
}

// File writes the point as a CSV of 004's collected values (label,P,App_Time,MPI_Time,
// MPI_Wait,M,L,BW,Lat; mpip.ReadInputs reads it): the measured runs with the point's network.
// `clusterperf mpip FILE.csv` solves it and `clusterperf explore FILE.csv` reopens it.
func (m *mpipModel) File(v Values) ([]byte, string, error) {
	runs, _ := m.network(v)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var b bytes.Buffer
	fmt.Fprintf(&b, "# written by clusterperf explore from %s: 004's collected values with the explored network\n", m.name)
	w := csv.NewWriter(&b)
	w.Write([]string{"label", "P", "App_Time", "MPI_Time", "MPI_Wait", "M", "L", "BW", "Lat"})
	for _, in := range runs {
		w.Write([]string{in.Label, strconv.Itoa(in.P), f(in.AppTime), f(in.MPITime), f(in.MPIWait), f(in.M), f(in.L), f(in.BW), f(in.Lat)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, "", err
	}
	return b.Bytes(), m.name + "-whatif.csv", nil
}
