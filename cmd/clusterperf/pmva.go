package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/pmva"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

type pmvaOptions struct {
	workers    string
	algorithms string
	repeats    int
	scale      float64
	calScale   float64
	classOrder string
	q, k       string
	maxPoints  float64
	out        outOptions
}

func newPmvaCmd(stdout, stderr io.Writer) *cobra.Command {
	var o pmvaOptions
	cmd := &cobra.Command{
		Use:   "pmva MODEL.yaml",
		Short: "Time the parallel exact MVA on a model and check Gennaro (001) chapter 6's performance model",
		Long: `Run qn's pipelined (and interleaved) parallel exact MVA on a closed multi-class model
and check the performance model of Gennaro (001) §6.1: the per-point cost q(p), the
per-message communication/wait cost k(p) (eqs. 6.6–6.7, 6.4), the predicted time T(p)
(eq. 6.5) and speedup and efficiency (eq. 6.8), α = q/k with eqs. (6.9)–(6.11), and the
BUS-AIO c = 2 model of §6.1.7 beside eq. (6.10) (Fig. 6.9: the same form with h(2) = 1.5
on 1/p).

The check is honest: q(p) and k(p) are measured on a CALIBRATION network (the model with its
populations divided by --calibrate-scale, default 2: about 1/8 of the points for 3 classes)
and the times are predicted for the model (divided by --scale, default 1) and compared with
runs of it: rel_error = (predicted − measured median)/measured median. Every network is run
--repeats times; min, median and max are printed, and spread = (max − min)/median is the
machine's speed spread. The thesis network (pmva/testdata/thesis-network.yaml, 9.3e7 points)
takes seconds to tens of seconds per run on a loaded machine: --scale 4 runs a stand-in of
the same shape.

--q and --k give q and k (seconds, with units: 16us) instead of measuring: no runs, only the
formulas (e.g. --q 16us, the thesis's q(1) after the erratum of eqs. 6.12–6.13).

--class-order B,A,C walks the classes in that order, B as class 1 (the Fig. 6.8 experiment):
the timed runs and the formulas both use it. The answer of exact MVA is the same in every
order; the time is not (eq. 6.11: class 1 should be the largest). Without it the class with
the largest population is class 1 (001 §6.1.6). class_order in the output is the order used.

CSV tables (--csv-table): points (default), calibration, fig69.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPmva(cmd.Context(), o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.workers, "workers", "1,2", "worker counts p (lists, FROM:TO, FROM:TO:STEP, FROM:TO:xK)")
	f.StringVar(&o.algorithms, "algorithm", "pipelined,interleaved", "solvers: pipelined, interleaved (comma-separated)")
	f.IntVar(&o.repeats, "repeats", 3, "runs per network and p (min, median, max)")
	f.Float64Var(&o.scale, "scale", 1, "divide every population by this (a stand-in of the same shape)")
	f.Float64Var(&o.calScale, "calibrate-scale", 2, "calibration network: the predicted network's populations divided by this (> 1)")
	f.StringVar(&o.classOrder, "class-order", "", "class names in the wanted order (comma-separated)")
	f.StringVar(&o.q, "q", "", "per-point cost q (no runs; needs --k)")
	f.StringVar(&o.k, "k", "", "per-message cost k (no runs; needs --q)")
	f.Float64Var(&o.maxPoints, "max-points", pmva.MaxPoints, "refuse runs above this many population vectors")
	addOutFlags(cmd, &o.out)
	return cmd
}

// check validates the flags before any work and returns the p values and algorithms.
func (o pmvaOptions) check() (ps []int, algs []pmva.Algorithm, q, k float64, err error) {
	var c flagCheck
	o.out.check(&c)
	ps, perr := ranges.Parse("--workers", o.workers, ranges.Limits{Min: 1, Max: 4096, MaxCount: 64})
	if perr != nil {
		c.add("%v", perr)
	}
	for _, a := range strings.Split(o.algorithms, ",") {
		alg, aerr := pmva.ParseAlgorithm(strings.TrimSpace(a))
		if aerr != nil {
			c.add("--algorithm: %v", aerr)
		}
		algs = append(algs, alg)
	}
	c.atLeast("repeats", int64(o.repeats), 1)
	if o.repeats > 100 {
		c.add("--repeats %d: want at most 100", o.repeats)
	}
	if !(o.scale >= 1 && o.scale <= 1e6) {
		c.add("--scale %v: want 1 ≤ f ≤ 1e6", o.scale)
	}
	if !(o.calScale > 1 && o.calScale <= 1e6) {
		c.add("--calibrate-scale %v: want 1 < f ≤ 1e6 (calibrating on the predicted network itself is not a check)", o.calScale)
	}
	if !(o.maxPoints >= 1 && o.maxPoints <= 1e10) {
		c.add("--max-points %v: want 1 … 1e10", o.maxPoints)
	}
	q, k = o.costs(&c)
	return ps, algs, q, k, c.err()
}

func (o pmvaOptions) costs(c *flagCheck) (q, k float64) {
	if (o.q == "") != (o.k == "") {
		c.add("--q and --k go together")
		return 0, 0
	}
	if o.q == "" {
		return 0, 0
	}
	var err error
	if q, err = units.Duration(o.q); err != nil || !(q > 0) {
		c.add("--q %q: want a time > 0 (e.g. 16us): %v", o.q, err)
	}
	if k, err = units.Duration(o.k); err != nil || !(k >= 0) {
		c.add("--k %q: want a time ≥ 0 (e.g. 100us): %v", o.k, err)
	}
	return q, k
}

// pmvaResult is pmva's one result value.
type pmvaResult struct {
	report.Answered
	Model       string       `json:"model"`
	Method      string       `json:"method"`
	Exact       bool         `json:"exact"`
	ClassOrder  []string     `json:"class_order"`
	Populations []int        `json:"populations"`
	Points      float64      `json:"points"`
	Scale       float64      `json:"scale"`
	Calibration *pmvaCal     `json:"calibration,omitempty"`
	Results     []pmva.Point `json:"results"`
	// ErrorEstimate: the predicted times against the runs of the predicted network.
	ErrorEstimate pmva.ErrorEstimate `json:"error_estimate"`
	Notes         []string           `json:"notes"`
}

// pmvaCal is the calibration network and its runs.
type pmvaCal struct {
	Populations []int         `json:"populations"`
	Scale       float64       `json:"scale"`
	Samples     []pmva.Sample `json:"samples"`
}

func runPmva(ctx context.Context, o pmvaOptions, path string, stdout, stderr io.Writer) error {
	ps, algs, q, k, err := o.check()
	if err != nil {
		return err
	}
	target, name, err := pmvaModel(o, path)
	if err != nil {
		return err
	}
	names, N := pmva.Order(target, o.classOrder != "")
	r := &pmvaResult{Model: name, ClassOrder: names, Populations: N, Points: pmva.Points(N), Scale: o.scale,
		Method: "001 §6.1 performance model (eqs. 6.1–6.11)", Exact: false}
	if o.q != "" {
		r.Results, err = pmvaGiven(algs, r.Populations, ps, q, k)
		r.Notes = append(r.Notes, "q and k given (--q, --k), the same at every p: no runs, formulas only")
	} else {
		err = pmvaMeasure(ctx, o, r, target, algs, ps, stderr)
	}
	if err != nil {
		return pmvaErr(err)
	}
	r.ErrorEstimate = pmva.Estimate(r.Results)
	r.Notes = append(r.Notes, pmvaNotes(o, r, target)...)
	return render(stdout, r, o.out)
}

func pmvaModel(o pmvaOptions, path string) (*qn.Model, string, error) {
	data, err := readInput(path)
	if err != nil {
		return nil, "", err
	}
	m, name, err := qn.ParseModel(path, data)
	if err != nil {
		return nil, "", libError(err)
	}
	if name == "" {
		name = path
	}
	if o.classOrder != "" {
		if m, err = pmva.Reordered(m, strings.Split(o.classOrder, ",")); err != nil {
			return nil, "", badInputf("--class-order: %w", err)
		}
	}
	if m, err = pmva.Scaled(m, o.scale); err != nil {
		return nil, "", badInput(err)
	}
	return m, name, nil
}

func pmvaGiven(algs []pmva.Algorithm, N, ps []int, q, k float64) ([]pmva.Point, error) {
	c := pmva.Costs{Q: map[int]float64{}, K: map[int]float64{}}
	for _, p := range append([]int{1}, ps...) {
		c.Q[p], c.K[p] = q, k
	}
	var out []pmva.Point
	for _, a := range algs {
		pts, err := pmva.Predict(a, N, ps, c)
		if err != nil {
			return nil, err
		}
		out = append(out, pts...)
	}
	return out, nil
}

func pmvaMeasure(ctx context.Context, o pmvaOptions, r *pmvaResult, target *qn.Model, algs []pmva.Algorithm, ps []int, stderr io.Writer) error {
	calib, err := pmva.Scaled(target, o.calScale)
	if err != nil {
		return err
	}
	_, cN := pmva.Order(calib, o.classOrder != "")
	if ctx == nil {
		ctx = context.Background()
	}
	st, err := pmva.Run(ctx, target, calib, pmva.Config{Algorithms: algs, Workers: ps, Repeats: o.repeats, MaxPoints: o.maxPoints, ModelOrder: o.classOrder != "",
		Progress: func(network string, alg pmva.Algorithm, p, n int) {
			fmt.Fprintf(stderr, "pmva: %s network, %s, p = %d, %d runs\n", network, alg, p, n)
		}})
	if err != nil {
		return err
	}
	r.Calibration = &pmvaCal{Populations: cN, Scale: o.calScale, Samples: st.Calibration}
	r.Results = st.Points
	return nil
}

// pmvaErr classifies a library error: pmva's and qn's errors wrap fault classes or are
// qn.ErrUnsupported / spec.Error (libError).
func pmvaErr(err error) error { return libError(err) }

func pmvaNotes(o pmvaOptions, r *pmvaResult, target *qn.Model) []string {
	var n []string
	if big, _ := pmva.Order(target, false); o.classOrder != "" && big[0] != r.ClassOrder[0] {
		n = append(n, fmt.Sprintf("--class-order %s: class 1 is not the class with the largest population (%s); 001 eq. 6.11 and Fig. 6.8 expect a longer time, and exact MVA gives the same answer in every order", o.classOrder, big[0]))
	}
	if o.scale != 1 {
		n = append(n, fmt.Sprintf("a stand-in: the model's populations divided by %g (same shape), N = %v", o.scale, r.Populations))
	}
	if r.Calibration != nil {
		n = append(n, fmt.Sprintf("q(p), k(p) calibrated on N = %v (populations / %g), predicted for N = %v and compared with runs of it; loaded shared machine: see spread", r.Calibration.Populations, o.calScale, r.Populations))
	}
	var cal []pmva.Sample
	if r.Calibration != nil {
		cal = r.Calibration.Samples
	}
	n = append(n, pmva.SuperlinearNotes(r.Results, cal)...)
	if e := r.ErrorEstimate.MaxAbsRelError; e != nil {
		n = append(n, fmt.Sprintf("error_estimate: the predicted times are within %.3g %% of the measured medians of the predicted network (the runs' own spread up to %.3g %%)", 100**e, 100**r.ErrorEstimate.MaxSpread))
	}
	n = append(n, "eqs. (6.3)–(6.5) describe the pipelined partition; for the interleaved solver (n₁ ≡ j mod p, progress counters instead of messages) they are an approximation",
		"fig69: the BUS-AIO c = 2, w = 0 model (001 §6.1.7) with σ_r0 + σ_r = k(p)/(q(1)(N_1+1)) is eq. (6.10) with 1/p replaced by h(2)/p = 1.5/p")
	return n
}

func (r *pmvaResult) NoteLines() []string { return r.Notes }

// Tables: points (the model and the runs per algorithm and p), calibration, fig69.
func (r *pmvaResult) Tables() []*report.Table {
	t := &report.Table{Name: "points", Title: fmt.Sprintf("%s, N = %v (%s)", r.Model, r.Populations, strings.Join(r.ClassOrder, ",")),
		Header: []string{"algorithm", "p", "q_s", "k_s", "predicted_time_s", "measured_median_s", "min_s", "max_s", "rel_error", "speedup", "efficiency", "alpha", "efficiency_6_11"}}
	for _, p := range r.Results {
		row := []any{string(p.Algorithm), p.P, p.Q, p.K, p.Time, "-", "-", "-", "-", p.Speedup, p.Eff, "-", "-"}
		if m := p.Measured; m != nil {
			row[5], row[6], row[7] = m.MedianS, m.MinS, m.MaxS
		}
		if p.RelError != nil {
			row[8] = report.Percent(*p.RelError)
		}
		if p.Alpha != nil {
			row[11], row[12] = *p.Alpha, *p.EffLimit
		}
		t.Add(row...)
	}
	return []*report.Table{t, r.calTable(), r.fig69()}
}

func (r *pmvaResult) calTable() *report.Table {
	t := &report.Table{Name: "calibration", Header: []string{"algorithm", "p", "runs", "min_s", "median_s", "max_s", "spread", "q_s", "k_s"}}
	if r.Calibration != nil {
		t.Title = fmt.Sprintf("calibration network N = %v", r.Calibration.Populations)
		for _, s := range r.Calibration.Samples {
			t.Add(string(s.Algorithm), s.P, len(s.Runs), s.MinS, s.MedianS, s.MaxS, report.Magnitude(s.Spread), s.Q, s.K)
		}
	}
	return t
}

func (r *pmvaResult) fig69() *report.Table {
	t := &report.Table{Name: "fig69", Title: "Fig. 6.9: eq. (6.8), eq. (6.10) and the BUS-AIO c = 2 model",
		Header: []string{"algorithm", "p", "speedup_6_8", "speedup_6_9", "speedup_6_10", "sigma_comm", "bus_aio_speedup"}}
	for _, p := range r.Results {
		if p.BusAIO != nil {
			t.Add(string(p.Algorithm), p.P, p.Speedup, *p.SpeedupAlpha, *p.SpeedupLimit, *p.SigmaComm, *p.BusAIO)
		}
	}
	return t
}
