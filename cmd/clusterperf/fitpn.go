package main

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
)

// isPNCSV reports whether data is a two-parameter "p,n,time" CSV (first non-comment line).
func isPNCSV(b []byte) bool {
	for _, line := range strings.SplitN(string(b[:min(len(b), 4096)]), "\n", 64) {
		s := strings.TrimSpace(line)
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		return strings.ReplaceAll(s, " ", "") == "p,n,time"
	}
	return false
}

// pnResult is `fit DATA.csv` on p,n,time data: scaling.FitPN, predictions at pairs, the
// weak-scaling diagonal and the two backtests.
type pnResult struct {
	Command     string               `json:"command"`
	Method      string               `json:"method"`
	Data        string               `json:"data"`
	Points      int                  `json:"points"`
	Model       *scaling.PNModel     `json:"model"`
	Predictions []pnPrediction       `json:"predictions"`
	Diagonal    []pnPrediction       `json:"weak_scaling_diagonal"`
	Backtests   []scaling.PNBacktest `json:"backtests"`
}

type pnPrediction struct {
	P     int     `json:"p"`
	N     float64 `json:"n"`
	TimeS float64 `json:"time_s"`
}

// parsePairs parses --predict "PxN[,PxN…]" for p,n,time data.
func parsePairs(s string) ([][2]float64, error) {
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
		if len(out) >= maxPredictions {
			return nil, fmt.Errorf("--predict: more than %d pairs", maxPredictions)
		}
		out = append(out, [2]float64{float64(p), n})
	}
	return out, nil
}

// runFitPN is `fit DATA.csv` on p,n,time data.
func runFitPN(o scalingOptions, path string, b []byte, stdout io.Writer) error {
	pairs, err := parsePairs(o.predict)
	if err != nil {
		return badInput(err)
	}
	pts, _, err := scaling.ReadPNCSV(path, bytes.NewReader(b))
	if err != nil {
		return classify(err)
	}
	m, err := scaling.FitPN(pts)
	if err != nil {
		return classify(err)
	}
	res := &pnResult{Command: "fit", Method: "scaling.FitPN: Extra-P multi-parameter normal form (one term per parameter), relative NNLS, leave-one-(p,n)-out selection",
		Data: path, Points: len(pts), Model: m, Predictions: []pnPrediction{}}
	for _, pr := range pairs {
		v, err := m.Predict(pr[0], pr[1])
		if err != nil {
			return classify(err)
		}
		res.Predictions = append(res.Predictions, pnPrediction{P: int(pr[0]), N: pr[1], TimeS: v})
	}
	top := pts[0]
	for _, pt := range pts {
		if pt.P > top.P || (pt.P == top.P && pt.N > top.N) {
			top = pt
		}
	}
	for k := 1; k <= 3; k++ {
		p, n := top.P<<k, top.N*float64(int(1)<<k)
		if v, err := m.Predict(float64(p), n); err == nil {
			res.Diagonal = append(res.Diagonal, pnPrediction{P: p, N: n, TimeS: v})
		}
	}
	if res.Backtests, err = scaling.BacktestPN(pts); err != nil {
		return classify(err)
	}
	return render(stdout, res, o.out)
}

func (r *pnResult) Tables() []*report.Table {
	t := &report.Table{Name: "predictions", Title: fmt.Sprintf("%s: %d runs in (p, n); model T(p, n) = %s (LOO RMS log error %.3g)", r.Data, r.Points, r.Model.Formula, r.Model.LOO),
		Header: []string{"kind", "p", "n", "time_s"}}
	for _, p := range r.Predictions {
		t.Add("requested", p.P, p.N, p.TimeS)
	}
	for _, p := range r.Diagonal {
		t.Add("weak-scaling diagonal (n/p fixed)", p.P, p.N, p.TimeS)
	}
	bt := &report.Table{Name: "backtests", Title: "Backtests (held-out runs predicted from the rest)", Header: []string{"held_out", "model_on_rest", "runs", "median_abs_rel_error", "max_abs_rel_error"}}
	for _, b := range r.Backtests {
		bt.Add(b.HeldOut, b.Formula, b.Points, fmt.Sprintf("%.1f%%", 100*b.MedianAbsRE), fmt.Sprintf("%.1f%%", 100*b.MaxAbsRE))
	}
	return []*report.Table{t, bt}
}

func (r *pnResult) NoteLines() []string {
	return []string{"two-parameter models have no 95 % interval yet (the corpus prior is one-parameter)"}
}
