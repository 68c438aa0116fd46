package explore

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clusterperf/clusterperf/htmlreport/browsertest"
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
			// the estimate is the backtest error of the kind the command forecasts with
			// (newuser7 P1-1: the page shows that kind's wall time)
			ch := mpip.ChooseForecast(bt, len(bt.Splits))
			for _, k := range ch.Kinds {
				if k.Kind == ch.Used {
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

// TestMpipErrorEstimateShown: the page's method line shows an approximate point's error
// estimate (rel_error as a percentage, what it was measured against on hover): three AMG
// reports predicted at P = 100, the backtest estimate of TestMpipPredictionBacktestEstimate.
func TestMpipErrorEstimateShown(t *testing.T) {
	b := browsertest.New(t)
	m := loadMpipFiles(t, MpipOptions{LatencyS: 2e-5, BandwidthBytesPerS: 1e9}, amgReports...)
	t.Cleanup(func() { b.Do(chromedp.Navigate("about:blank")) })
	if err := b.Do(chromedp.Navigate(serve(t, m))); err != nil {
		t.Fatal(err)
	}
	waitDone := func(n int) {
		t.Helper()
		expr := fmt.Sprintf(`window.cpExplore && window.cpExplore.done >= %d && !window.cpExplore.inflight && !window.cpExplore.pending`, n)
		if _, err := chromedp.Run(b.Ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
			t.Fatalf("waiting for update %d: %v", n, err)
		}
	}
	waitDone(1)
	if _, err := browsertest.Eval[bool](b, `(() => { const e = document.getElementById("num-p"); e.value = "100"; e.dispatchEvent(new Event("change")); return true; })()`); err != nil {
		t.Fatal(err)
	}
	waitDone(2)
	text, _ := browsertest.Eval[string](b, `document.getElementById("exact").textContent`)
	title, _ := browsertest.Eval[string](b, `document.getElementById("exact").title`)
	if !strings.HasPrefix(text, "approximate, error estimate ") || !strings.HasSuffix(text, " %") || !strings.Contains(title, "leave-one-out backtest") {
		t.Errorf("method line %q (title %q): want the error estimate and what it is against", text, title)
	}
	b.NoErrors(t, "explorer")
}
