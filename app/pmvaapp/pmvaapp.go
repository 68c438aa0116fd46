// Package pmvaapp answers "how fast is the parallel exact MVA on this model, and does
// Gennaro (001) chapter 6's performance model predict it?": q(p) and k(p) measured on a
// calibration network (or given), the times predicted for the model by eqs. 6.1–6.11 and
// compared with runs of it (package pmva). The pmva command renders the Result.
package pmvaapp

import (
	"context"
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/pmva"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
)

// Request is everything one pmva run needs: the parsed model and its name, the solvers
// and worker counts, the runs per network, the stand-in and calibration scales, the class
// order (nil: the largest population first, 001 §6.1.6), and either the costs q and k
// (Given: no runs) or the run budget MaxPoints.
type Request struct {
	Model          *qn.Model
	Name           string
	Algorithms     []pmva.Algorithm
	Workers        []int
	Repeats        int
	Scale          float64 // every population divided by this (≥ 1)
	CalibrateScale float64 // the calibration network: the predicted one's populations / this (> 1)
	ClassOrder     []string
	Given          bool    // q and k given: formulas only
	Q, K           float64 // seconds, when Given
	MaxPoints      float64
	// Progress is told each network, solver and p before its runs (nil: silent).
	Progress func(network string, alg pmva.Algorithm, p, n int)
}

// Run reorders and scales the model, then predicts from the given costs or measures the
// calibration and predicted networks (pmva.Run), and states the error estimate and notes.
// Errors are classified (package app): a wrong class order or scale is input.
func Run(ctx context.Context, q Request) (*Result, error) {
	target := q.Model
	var err error
	if q.ClassOrder != nil {
		if target, err = pmva.Reordered(target, q.ClassOrder); err != nil {
			return nil, app.Inputf("--class-order: %w", err)
		}
	}
	if target, err = pmva.Scaled(target, q.Scale); err != nil {
		return nil, app.Input(err)
	}
	names, N := pmva.Order(target, q.ClassOrder != nil)
	r := &Result{Model: q.Name, ClassOrder: names, Populations: N, Points: pmva.Points(N), Scale: q.Scale,
		Method: "001 §6.1 performance model (eqs. 6.1–6.11)", Exact: false}
	if q.Given {
		if err := CheckCosts(q.Q, q.K); err != nil {
			return nil, err
		}
		r.Results, err = given(q.Algorithms, r.Populations, q.Workers, q.Q, q.K)
		r.Notes = append(r.Notes, "q and k given (--q, --k), the same at every p: no runs, formulas only")
	} else {
		err = measure(ctx, q, r, target)
	}
	if err != nil {
		return nil, app.Lib(err) // pmva's and qn's errors wrap fault classes or are qn.ErrUnsupported / spec.Error
	}
	r.ErrorEstimate = pmva.Estimate(r.Results)
	r.Notes = append(r.Notes, notes(q, r, target)...)
	r.Answer = answer.PMVA(r.Model, r.Results)
	return r, nil
}

// MinCostS and MaxCostS bound the given q and k (seconds): a per-point cost below a
// picosecond is no machine's, and MaxCostS is tpn.MaxSeconds (146 years); within them the
// ratio α = k/q ≤ 4.6e21 and every formula of 001 §6.1 stays finite.
const (
	MinCostS = 1e-12
	MaxCostS = 4.6e9
)

// CheckCosts refuses a given q outside [MinCostS, MaxCostS] or k outside {0} ∪ [MinCostS,
// MaxCostS], naming the flag (an input error).
func CheckCosts(q, k float64) error {
	if !(q >= MinCostS && q <= MaxCostS) {
		return app.Inputf("--q %g s: want %g … %g s", q, MinCostS, MaxCostS)
	}
	if !(k == 0 || k >= MinCostS && k <= MaxCostS) {
		return app.Inputf("--k %g s: want 0 or %g … %g s", k, MinCostS, MaxCostS)
	}
	return nil
}

// measure times the calibration network and the predicted one (pmva.Run).
func measure(ctx context.Context, q Request, r *Result, target *qn.Model) error {
	calib, err := pmva.Scaled(target, q.CalibrateScale)
	if err != nil {
		return err
	}
	_, cN := pmva.Order(calib, q.ClassOrder != nil)
	st, err := pmva.Run(ctx, target, calib, pmva.Config{Algorithms: q.Algorithms, Workers: q.Workers, Repeats: q.Repeats,
		MaxPoints: q.MaxPoints, ModelOrder: q.ClassOrder != nil, Progress: q.Progress})
	if err != nil {
		return err
	}
	r.Calibration = &Calibration{Populations: cN, Scale: q.CalibrateScale, Samples: st.Calibration}
	r.Results = st.Points
	return nil
}

// Result is the pmva question's one result value.
type Result struct {
	report.Answered
	Model       string       `json:"model"`
	Method      string       `json:"method"`
	Exact       bool         `json:"exact"`
	ClassOrder  []string     `json:"class_order"`
	Populations []int        `json:"populations"`
	Points      float64      `json:"points"`
	Scale       float64      `json:"scale"`
	Calibration *Calibration `json:"calibration,omitempty"`
	Results     []pmva.Point `json:"results"`
	// ErrorEstimate: the predicted times against the runs of the predicted network.
	ErrorEstimate pmva.ErrorEstimate `json:"error_estimate"`
	Notes         []string           `json:"notes"`
}

// Calibration is the calibration network and its runs.
type Calibration struct {
	Populations []int         `json:"populations"`
	Scale       float64       `json:"scale"`
	Samples     []pmva.Sample `json:"samples"`
}

func given(algs []pmva.Algorithm, N, ps []int, q, k float64) ([]pmva.Point, error) {
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

func notes(q Request, r *Result, target *qn.Model) []string {
	var n []string
	if big, _ := pmva.Order(target, false); q.ClassOrder != nil && big[0] != r.ClassOrder[0] {
		n = append(n, fmt.Sprintf("--class-order %s: class 1 is not the class with the largest population (%s); 001 eq. 6.11 and Fig. 6.8 expect a longer time, and exact MVA gives the same answer in every order", strings.Join(q.ClassOrder, ","), big[0]))
	}
	if q.Scale != 1 {
		n = append(n, fmt.Sprintf("a stand-in: the model's populations divided by %g (same shape), N = %v", q.Scale, r.Populations))
	}
	if r.Calibration != nil {
		n = append(n, fmt.Sprintf("q(p), k(p) calibrated on N = %v (populations / %g), predicted for N = %v and compared with runs of it; loaded shared machine: see spread", r.Calibration.Populations, q.CalibrateScale, r.Populations))
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

func (r *Result) NoteLines() []string { return r.Notes }

// Tables: points (the model and the runs per algorithm and p), calibration, fig69.
func (r *Result) Tables() []*report.Table {
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

func (r *Result) calTable() *report.Table {
	t := &report.Table{Name: "calibration", Header: []string{"algorithm", "p", "runs", "min_s", "median_s", "max_s", "spread", "q_s", "k_s"}}
	if r.Calibration != nil {
		t.Title = fmt.Sprintf("calibration network N = %v", r.Calibration.Populations)
		for _, s := range r.Calibration.Samples {
			t.Add(string(s.Algorithm), s.P, len(s.Runs), s.MinS, s.MedianS, s.MaxS, report.Magnitude(s.Spread), s.Q, s.K)
		}
	}
	return t
}

func (r *Result) fig69() *report.Table {
	t := &report.Table{Name: "fig69", Title: "Fig. 6.9: eq. (6.8), eq. (6.10) and the BUS-AIO c = 2 model",
		Header: []string{"algorithm", "p", "speedup_6_8", "speedup_6_9", "speedup_6_10", "sigma_comm", "bus_aio_speedup"}}
	for _, p := range r.Results {
		if p.BusAIO != nil {
			t.Add(string(p.Algorithm), p.P, p.Speedup, *p.SpeedupAlpha, *p.SpeedupLimit, *p.SigmaComm, *p.BusAIO)
		}
	}
	return t
}

// Figure: the predicted time and speedup against the number of workers.
func (r *Result) Figure() ([]report.Panel, error) {
	t := report.Series{Name: "predicted time"}
	s := report.Series{Name: "speedup (eq. 6.8)"}
	ideal := report.Series{Name: "ideal speedup p", Dashed: true}
	for _, pt := range r.Results {
		x := float64(pt.P)
		t.X, t.Y = append(t.X, x), append(t.Y, pt.Time)
		s.X, s.Y = append(s.X, x), append(s.Y, pt.Speedup)
		ideal.X, ideal.Y = append(ideal.X, x), append(ideal.Y, x)
	}
	if len(t.X) == 0 {
		return nil, nil
	}
	logx := len(t.X) > 1 && t.X[len(t.X)-1]/t.X[0] > 16
	return []report.Panel{
		{Title: "Predicted time against workers", XLabel: "workers p", YLabel: "s", LogX: logx, Series: []report.Series{t}},
		{Title: "Speedup against workers", XLabel: "workers p", YLabel: "speedup", LogX: logx, Series: []report.Series{s, ideal}},
	}, nil
}
