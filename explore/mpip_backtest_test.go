package explore

import (
	"bytes"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/mpip"
)

// TestMpipPredictionBacktestEstimate (review leftover): below mpip.MinRunsForInterval runs a
// prediction has no interval; its error estimate is then the mpip command's leave-one-out
// backtest of the measured runs — the largest |rel_error| of the 004 model route, the
// figure mpip.ChooseForecast reports for KindModel004, computed here by the library directly —
// with every kind's errors in a note. Cases: three AMG reports (network given) and 004's CG A
// collected values (P = 1, 4, 16, 64: three P > 1).
func TestMpipPredictionBacktestEstimate(t *testing.T) {
	csv := "../examples/mpip/keck_cg_a.csv"
	for _, tc := range []struct {
		name  string
		model func() Model
		runs  func() []mpip.Inputs
		p     float64
	}{
		{"amg", func() Model {
			return loadMpipFiles(t, MpipOptions{LatencyS: 2e-5, BandwidthBytesPerS: 1e9}, amgReports...)
		},
			func() []mpip.Inputs {
				var runs []mpip.Inputs
				for _, p := range amgReports {
					runs = append(runs, summaryInputs(t, p, 2e-5, 1e9))
				}
				return runs
			}, 100},
		{"cg-a", func() Model { return loadMpipFiles(t, MpipOptions{}, csv) },
			func() []mpip.Inputs {
				ins, err := mpip.ReadInputs(csv, bytes.NewReader(read(t, csv)))
				if err != nil {
					t.Fatal(err)
				}
				return ins
			}, 128},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bt, err := mpip.BacktestRuns(tc.runs(), mpip.CalibrateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var want *float64
			for _, k := range mpip.ChooseForecast(bt, len(bt.Splits)).Kinds {
				if k.Kind == mpip.KindModel004 {
					want = k.BacktestMaxAbsRelError
				}
			}
			m := tc.model()
			v, err := Check(m.Params(), Values{"p": tc.p})
			if err != nil {
				t.Fatal(err)
			}
			r, err := m.Eval(v)
			if err != nil {
				t.Fatal(err)
			}
			est, ok := r.ErrorEstimate.(map[string]any)
			if r.Exact || !ok || want == nil || est["rel_error"] != *want || !strings.Contains(est["against"].(string), "leave-one-out backtest") {
				t.Fatalf("P = %v: exact %v, error estimate %v; want the backtest's largest |rel_error| %v", tc.p, r.Exact, r.ErrorEstimate, want)
			}
			t.Logf("error estimate %v\nnotes %q", r.ErrorEstimate, r.Notes)
			if notes := strings.Join(r.Notes, "\n"); !strings.Contains(notes, "backtest (leave-one-out") || !strings.Contains(notes, "model_004 ") {
				t.Errorf("notes lack the backtest errors:\n%s", notes)
			}
		})
	}
}
