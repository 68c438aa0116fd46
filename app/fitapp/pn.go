package fitapp

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/extrap"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
)

// IsPNCSV reports whether data is a two-parameter "p,n,time" CSV (first non-comment line).
func IsPNCSV(b []byte) bool {
	for _, line := range strings.SplitN(string(b[:min(len(b), 4096)]), "\n", 64) {
		s := strings.TrimSpace(line)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		return strings.ReplaceAll(s, " ", "") == "p,n,time"
	}
	return false
}

// PNResult is `fit DATA.csv` on p,n,time data: scaling.FitPN, predictions at pairs, the
// weak-scaling diagonal and the two backtests.
type PNResult struct {
	report.Answered
	Command     string               `json:"command"`
	Method      string               `json:"method"`
	Data        string               `json:"data"`
	Points      int                  `json:"points"`
	Model       *scaling.PNModel     `json:"model"`
	Predictions []PNPrediction       `json:"predictions"`
	Diagonal    []PNPrediction       `json:"weak_scaling_diagonal"`
	Backtests   []scaling.PNBacktest `json:"backtests"`
	// Trend and StopsScalingAt: the model walked along p at n = TrendAtN (the largest n
	// measured at the largest p), as fit says of Extra-P experiments' regions and cube of
	// call paths (extrap.StopsScaling).
	TrendAtN       float64 `json:"trend_at_n"`
	Trend          string  `json:"trend"`
	StopsScalingAt int     `json:"stops_scaling_at,omitempty"`
	// Notes are NoteLines (the output contract's notes array).
	Notes []string `json:"notes"`
}

// SetAnswer sets the result's answer block (answer.PN): the first prediction asked, the model.
func (r *PNResult) SetAnswer() {
	var q PNPrediction
	if len(r.Predictions) > 0 {
		q = r.Predictions[0]
	}
	r.Answer = answer.PN(r.Model.Formula, r.Points, q.P, q.N, q.TimeS, q.Low95S, q.High95S, len(r.Predictions) > 0)
}

type PNPrediction struct {
	P     int     `json:"p"`
	N     float64 `json:"n"`
	TimeS float64 `json:"time_s"`
	// The 95 % interval (scaling.PNModel.Interval: from leave-one-out errors).
	Low95S  float64 `json:"interval95_low_s"`
	High95S float64 `json:"interval95_high_s"`
}

// pnPredict is m's prediction with its interval at (p, n).
func pnPredict(m *scaling.PNModel, p int, n float64) (PNPrediction, error) {
	v, err := m.Predict(float64(p), n)
	if err != nil {
		return PNPrediction{}, err
	}
	lo, hi, err := m.Interval(float64(p), n)
	return PNPrediction{P: p, N: n, TimeS: v, Low95S: lo, High95S: hi}, err
}

// ParsePairs parses --predict "PxN[,PxN…]" for p,n,time data.
func ParsePairs(s string) ([][2]float64, error) {
	var out [][2]float64
	if s == "" {
		return nil, nil
	}
	for _, item := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(strings.TrimSpace(item), "x")
		p, err1 := strconv.Atoi(a)
		n, err2 := strconv.ParseFloat(b, 64)
		if !ok || err1 != nil || err2 != nil || p < 1 || p > scaling.MaxPredictP || !(n > 0) || n > 1e300 {
			return nil, fmt.Errorf("--predict %q: for p,n,time data want PxN pairs such as 1024x2e9 (p 1 … 2^30, n > 0)", item)
		}
		if len(out) >= MaxPredictions {
			return nil, fmt.Errorf("--predict: more than %d pairs", MaxPredictions)
		}
		out = append(out, [2]float64{float64(p), n})
	}
	return out, nil
}

// MaxPredictions bounds the predictions of one run (--predict).
const MaxPredictions = 4096

// PNRequest is `fit DATA.csv` on p,n,time data.
type PNRequest struct {
	Path  string
	Input []byte
	Pairs [][2]float64 // (p, n) to predict (ParsePairs)
}

// RunPN models p,n,time data (scaling.FitPN), predicts at the pairs and on the weak-scaling
// diagonal (n/p fixed at the largest run's) and backtests the largest p and the largest n.
func RunPN(ctx context.Context, q PNRequest) (*PNResult, error) {
	pts, _, err := scaling.ReadPNCSV(q.Path, bytes.NewReader(q.Input))
	if err != nil {
		return nil, app.Classify(err)
	}
	m, err := scaling.FitPN(pts)
	if err != nil {
		return nil, app.Classify(fmt.Errorf("%s: %w", q.Path, err))
	}
	res := &PNResult{Command: "fit", Method: "scaling.FitPN: Extra-P multi-parameter normal form (one term per parameter), relative NNLS, leave-one-(p,n)-out selection",
		Data: q.Path, Points: len(pts), Model: m, Predictions: []PNPrediction{}}
	for _, pr := range q.Pairs {
		x, err := pnPredict(m, int(pr[0]), pr[1])
		if err != nil {
			return nil, app.Classify(err)
		}
		res.Predictions = append(res.Predictions, x)
	}
	top := pts[0]
	for _, pt := range pts {
		if pt.P > top.P || (pt.P == top.P && pt.N > top.N) {
			top = pt
		}
	}
	res.TrendAtN = top.N
	lo := top.P
	for _, pt := range pts {
		lo = min(lo, pt.P)
	}
	res.Trend, res.StopsScalingAt = extrap.StopsScaling(lo, top.P, func(p int) (float64, error) { return m.Predict(float64(p), top.N) })
	for k := 1; k <= 3; k++ {
		p, n := top.P<<k, top.N*float64(int(1)<<k)
		if x, err := pnPredict(m, p, n); err == nil {
			res.Diagonal = append(res.Diagonal, x)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", fault.ErrInterrupted, err)
	}
	if res.Backtests, err = scaling.BacktestPN(pts); err != nil {
		return nil, app.Classify(fmt.Errorf("%s: %w", q.Path, err))
	}
	res.Notes = res.NoteLines()
	return res, nil
}

func (r *PNResult) Tables() []*report.Table {
	t := &report.Table{Name: "predictions", Title: fmt.Sprintf("%s: %d runs in (p, n); model T(p, n) = %s (LOO RMS log error %.3g)", r.Data, r.Points, r.Model.Formula, r.Model.LOO),
		Header: []string{"kind", "p", "n", "time_s", "low95_s", "high95_s"}}
	for _, p := range r.Predictions {
		t.Add("requested", p.P, p.N, p.TimeS, p.Low95S, p.High95S)
	}
	for _, p := range r.Diagonal {
		t.Add("weak-scaling diagonal (n/p fixed)", p.P, p.N, p.TimeS, p.Low95S, p.High95S)
	}
	bt := &report.Table{Name: "backtests", Title: "Backtests (held-out runs predicted from the rest)", Header: []string{"held_out", "model_on_rest", "runs", "median_abs_rel_error", "max_abs_rel_error", "inside_interval95"}}
	for _, b := range r.Backtests {
		if b.Skipped != "" {
			bt.Add(b.HeldOut, "skipped: "+b.Skipped, b.Points, "-", "-", "-")
			continue
		}
		bt.Add(b.HeldOut, b.Formula, b.Points, fmt.Sprintf("%.1f%%", 100*b.MedianAbsRE), fmt.Sprintf("%.1f%%", 100*b.MaxAbsRE), b.Inside95)
	}
	return []*report.Table{t, bt}
}

// stopSentence says where the modelled time stops scaling along p at n = TrendAtN.
func (r *PNResult) stopSentence() string {
	at := fmt.Sprintf("at n = %g (the largest n measured at the largest p)", r.TrendAtN)
	switch {
	case r.StopsScalingAt > 0:
		return fmt.Sprintf("%s the modelled time stops scaling at p = %d: from there doubling p no longer cuts it by %.0f %%", at, r.StopsScalingAt, 100*extrap.StopGain)
	case r.Trend == "falls":
		return fmt.Sprintf("%s the modelled time still falls by %.0f %% or more per doubling of p up to twice the largest measured p", at, 100*extrap.StopGain)
	case r.Trend == "":
		return at + " the model cannot be walked along p"
	}
	return fmt.Sprintf("%s the modelled time %s as p doubles, so it never scaled there: nothing to stop", at, map[string]string{"grows": "grows", "flat": "stays flat"}[r.Trend])
}

func (r *PNResult) NoteLines() []string {
	n := []string{r.stopSentence(), "the 95 % intervals come from this set's leave-one-(p, n)-out errors (interpolation): beyond the measured p or n they can be too narrow — the backtests say how many held-out runs they held"}
	for _, b := range r.Backtests {
		if b.Skipped != "" {
			n = append(n, fmt.Sprintf("no %s backtest: %s", b.HeldOut, b.Skipped))
			continue
		}
		if b.Inside95 < b.Points {
			n = append(n, fmt.Sprintf("backtest, %s held out: the interval held %d of %d runs", b.HeldOut, b.Inside95, b.Points))
		}
	}
	return n
}

// Figure (the --report page's picture): the model's predicted time along the weak-scaling
// diagonal and at the requested pairs, against p, with their 95 % intervals as dashed lines.
func (r *PNResult) Figure() ([]report.Panel, error) {
	pts := append(append([]PNPrediction{}, r.Predictions...), r.Diagonal...)
	if len(pts) == 0 {
		return nil, nil
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].P < pts[j].P })
	t := report.Series{Name: "predicted time T(p, n)"}
	lo := report.Series{Name: "95 % interval", Dashed: true}
	hi := report.Series{Name: "95 % interval (high)", Dashed: true}
	for _, q := range pts {
		x := float64(q.P)
		t.X, t.Y = append(t.X, x), append(t.Y, q.TimeS)
		lo.X, lo.Y = append(lo.X, x), append(lo.Y, q.Low95S)
		hi.X, hi.Y = append(hi.X, x), append(hi.Y, q.High95S)
	}
	return []report.Panel{{Title: "Predicted time at the requested (p, n) and along the weak-scaling diagonal", XLabel: "processes p", YLabel: "s", LogX: true, Series: []report.Series{t, lo, hi}}}, nil
}
