package extrap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/scaling"
)

// RegionModel is one (region, metric) series modelled by scaling.Fit: the parameter is the
// process count p, the repetitions are replicates.
type RegionModel struct {
	Region   string            `json:"region"`
	Metric   string            `json:"metric"`
	Fit      *scaling.Result   `json:"fit,omitempty"` // one-parameter experiments
	Backtest *scaling.Backtest `json:"backtest,omitempty"`
	// PN and PNBacktests: a two-parameter experiment's joint model in (p, n)
	// (scaling.FitPN) and its backtests (scaling.BacktestPN).
	PN          *scaling.PNModel     `json:"pn_model,omitempty"`
	PNBacktests []scaling.PNBacktest `json:"pn_backtests,omitempty"`
	// LimitP is where the region stops scaling: the smallest p, doubling from the smallest
	// measured p up to MaxLimitP, at which doubling p no longer cuts the predicted time by
	// StopGain (for a region whose time grows with p, the smallest measured p); 0 when it
	// still scales at MaxLimitP.
	LimitP int `json:"stops_scaling_at_p,omitempty"`
}

// StopGain: a doubling of p that cuts the time by less than 10 % counts as no longer scaling.
const StopGain = 0.10

// MaxLimitP bounds the search for LimitP.
const MaxLimitP = 1 << 20

// Models is the per-region result and the region that stops scaling first.
type Models struct {
	Parameter string `json:"parameter"`
	// SecondParameter is a two-parameter experiment's problem-size parameter n.
	SecondParameter string        `json:"second_parameter,omitempty"`
	Models          []RegionModel `json:"models"`
	// FirstToStop is the region (of the metric with the most series, ties: the first) with the
	// smallest LimitP; "" when every region still scales at MaxLimitP.
	FirstToStop       string   `json:"first_to_stop_scaling,omitempty"`
	FirstToStopMetric string   `json:"first_to_stop_metric,omitempty"`
	FirstToStopP      int      `json:"first_to_stop_p,omitempty"`
	Notes             []string `json:"notes,omitempty"`
}

// Model fits one model per (region, metric) of an experiment whose (first, or named p,
// procs, processes, ranks or np) parameter values are process counts (positive integers ≤
// 2^30): with one parameter scaling.Fit, with two a joint model in (p, n) by
// scaling.FitPN, the other parameter the problem size n. Series that cannot be modelled
// (a value ≤ 0, too few points) are skipped with a note; when no series can be modelled,
// or there are more than two parameters, the experiment is refused (fault.ErrInput,
// file:line).
func Model(ctx context.Context, e *Experiment) (*Models, error) {
	if len(e.Parameters) > 2 {
		return nil, fmt.Errorf("%w: %s:1: %d parameters %v: models are built in one parameter (p) or two (p and a problem size n)", fault.ErrInput, e.File, len(e.Parameters), e.Parameters)
	}
	pi := procParam(e.Parameters)
	ps := make([]int, len(e.Points))
	for i, pt := range e.Points {
		v := pt[pi]
		if v != math.Trunc(v) || v < 1 || v > 1<<30 {
			return nil, fmt.Errorf("%w: %s:%d: %s = %g: the parameter must be a process count (an integer 1 … 2^30)", fault.ErrInput, e.File, pointLine(e, i), e.Parameters[pi], v)
		}
		ps[i] = int(v)
	}
	if len(e.Parameters) == 2 {
		ni := 1 - pi
		for i, pt := range e.Points {
			if v := pt[ni]; !(v > 0) {
				return nil, fmt.Errorf("%w: %s:%d: %s = %g: the problem size must be positive", fault.ErrInput, e.File, pointLine(e, i), e.Parameters[ni], v)
			}
		}
	}
	out := &Models{Parameter: e.Parameters[pi]}
	var err error
	if len(e.Parameters) == 2 {
		err = modelPN(ctx, e, pi, ps, out)
	} else {
		err = modelP(ctx, e, ps, out)
	}
	if err != nil {
		return nil, err
	}
	if len(out.Models) == 0 {
		return nil, fmt.Errorf("%w: %s:%d: no region and metric could be modelled: %s", fault.ErrInput, e.File, e.Series[0].Line, strings.Join(out.Notes, "; "))
	}
	firstToStop(out)
	return out, nil
}

// procParam is the index of the process-count parameter: the first named p, procs,
// processes, ranks, np or nprocs (any case), else the first.
func procParam(names []string) int {
	for i, n := range names {
		switch strings.ToLower(n) {
		case "p", "procs", "processes", "ranks", "np", "nprocs":
			return i
		}
	}
	return 0
}

// pointLine is the line where point i was given (1 when unknown).
func pointLine(e *Experiment, i int) int {
	if i < len(e.PointLine) {
		return e.PointLine[i]
	}
	return 1
}

// modelPN fits every series of a two-parameter experiment jointly in (p, n).
func modelPN(ctx context.Context, e *Experiment, pi int, ps []int, out *Models) error {
	ni := 1 - pi
	out.SecondParameter = e.Parameters[ni]
	for _, s := range e.Series {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", fault.ErrInterrupted, err)
		}
		name := s.Region + " / " + s.Metric
		var pts []scaling.PNPoint
		for i, vs := range s.Values {
			for _, v := range vs {
				pts = append(pts, scaling.PNPoint{P: ps[i], N: e.Points[i][ni], TimeS: v})
			}
		}
		m, err := scaling.FitPN(pts)
		if err != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("%s (line %d): not modelled: %v", name, s.Line, err))
			continue
		}
		rm := RegionModel{Region: s.Region, Metric: s.Metric, PN: m}
		if bs, err := scaling.BacktestPN(pts); err == nil {
			rm.PNBacktests = bs
		}
		out.Models = append(out.Models, rm)
	}
	return nil
}

// modelP fits every series of a one-parameter experiment with scaling.Fit.
func modelP(ctx context.Context, e *Experiment, ps []int, out *Models) error {
	for _, s := range e.Series {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: %w", fault.ErrInterrupted, err)
		}
		d := &scaling.Data{Name: s.Region + " / " + s.Metric}
		ok := true
		for i, vs := range s.Values {
			for _, v := range vs {
				if !(v > 0) {
					ok = false
				}
				d.Points = append(d.Points, scaling.Point{P: ps[i], TimeS: v})
			}
		}
		if !ok {
			out.Notes = append(out.Notes, fmt.Sprintf("%s (line %d): a value ≤ 0: not modelled (times are positive)", d.Name, s.Line))
			continue
		}
		r, err := scaling.Fit(ctx, d)
		if errors.Is(err, fault.ErrInterrupted) {
			return err
		}
		if err != nil {
			out.Notes = append(out.Notes, fmt.Sprintf("%s (line %d): not modelled: %v", d.Name, s.Line, err))
			continue
		}
		m := RegionModel{Region: s.Region, Metric: s.Metric, Fit: r}
		if bt, err := scaling.BacktestLargest(ctx, d); err == nil {
			m.Backtest = bt
		}
		m.LimitP = limitP(r, d)
		out.Models = append(out.Models, m)
	}
	return nil
}

// limitP is RegionModel.LimitP for the fitted r.
func limitP(r *scaling.Result, d *scaling.Data) int {
	lo := d.Points[0].P
	for _, pt := range d.Points {
		lo = min(lo, pt.P)
	}
	for p := lo; p <= MaxLimitP/2; p *= 2 {
		a, err1 := r.Predict(p)
		b, err2 := r.Predict(2 * p)
		if err1 != nil || err2 != nil {
			return 0
		}
		if b.TimeS > (1-StopGain)*a.TimeS {
			return p
		}
	}
	return 0
}

// firstToStop sets the region that stops scaling first, within the metric with the most
// modelled regions.
func firstToStop(out *Models) {
	count := map[string]int{}
	for _, m := range out.Models {
		count[m.Metric]++
	}
	metrics := make([]string, 0, len(count))
	for k := range count {
		metrics = append(metrics, k)
	}
	sort.Slice(metrics, func(a, b int) bool {
		if count[metrics[a]] != count[metrics[b]] {
			return count[metrics[a]] > count[metrics[b]]
		}
		return metrics[a] < metrics[b]
	})
	if len(metrics) == 0 {
		return
	}
	for _, m := range out.Models {
		if m.Metric != metrics[0] || m.LimitP == 0 {
			continue
		}
		if out.FirstToStop == "" || m.LimitP < out.FirstToStopP {
			out.FirstToStop, out.FirstToStopMetric, out.FirstToStopP = m.Region, m.Metric, m.LimitP
		}
	}
}
