package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMpipMethodLabels: every mpip result states its method and whether it is exact (the
// output contract); measured summaries and 004's model solved by exact MVA are exact, a
// calibration, regression or extrapolation is not and carries error_estimate — the largest
// |rel_error| of the forecast used for sizing over the leave-one-out backtest (checked against
// the backtest's own splits), in-sample for a calibration alone, unmeasured (null, with the
// reason) below three runs.
func TestMpipMethodLabels(t *testing.T) {
	const cgA = "../../examples/mpip/keck_cg_a.csv"
	amg, _ := filepath.Glob(mpipSamples + "mpiP_cm__amg2013.*.mpiP")
	for _, tc := range []struct {
		name    string
		args    []string
		exact   bool
		method  string
		against string
	}{
		{"profile", []string{mpipSamples + "hpc-mpip__driver.8.253.1.mpiP"}, true, "(measured)", ""},
		{"model", []string{cgA}, true, "exact single-class MVA", ""},
		{"calibrate", []string{cgA, "--calibrate"}, false, "network calibrated", "in-sample"},
		{"calibrate predict", []string{cgA, "--calibrate", "--predict", "128"}, false, "direct wall-time regression", "leave-one-out backtest"},
		{"power law predict", append([]string{"--latency", "50us", "--bandwidth", "1GB/s", "--predict", "128"}, amg...), false, "power-law regression", "leave-one-out backtest"},
		{"two runs", []string{amg[0], amg[1], "--calibrate", "--predict", "64"}, false, "extrapolated in P", "not measured"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := mpipJSON(t, tc.args...)
			m, _ := v["method"].(string)
			if !strings.Contains(m, tc.method) || v["exact"] != tc.exact {
				t.Fatalf("method %q exact %v; want %q, %v", m, v["exact"], tc.method, tc.exact)
			}
			est, _ := v["error_estimate"].(map[string]any)
			if tc.exact != (est == nil) {
				t.Fatalf("exact %v with error_estimate %v", tc.exact, est)
			}
			if tc.exact {
				return
			}
			if !strings.Contains(est["against"].(string), tc.against) {
				t.Errorf("against %q, want %q", est["against"], tc.against)
			}
			if tc.against != "leave-one-out backtest" {
				return
			}
			// the estimate is the used kind's largest |error| over the backtest's splits
			key := map[any]string{"wall_time": "wall_time_rel_error", "model_004": "model_rel_error"}[est["kind"]]
			want := 0.0
			for _, s := range v["backtest"].(map[string]any)["splits"].([]any) {
				want = math.Max(want, math.Abs(s.(map[string]any)[key].(float64)))
			}
			if got := est["rel_error"].(float64); math.Abs(got-want) > 1e-12 {
				t.Errorf("error_estimate %v, backtest's largest |%s| %v", got, key, want)
			}
		})
	}
}

// TestMpipForecastChoiceAMG: issue 16's AMG runs (16, 32, 64) — the forecast through the 004
// model erred +85 / +46 / −47 % in the backtest, the direct wall-time extrapolation −51 /
// +44 / −51 % (each split forecasts from two runs; before package scaling's two-point tie
// rule, +591 / −63 / −98 % and +123 / −41 / −84 %, the growing wall time and M extrapolated as
// constants): the output names the preferred forecast (wall_time) and why — no kind sizes
// these runs, whose arguments differ (weak scaling, issue 21; review P3-3) — lists
// each kind's backtest errors (equal to the backtest table's), and says how many runs an
// interval needs. The forecast table marks the interval as none with that count.
func TestMpipForecastChoiceAMG(t *testing.T) {
	amg, _ := filepath.Glob(mpipSamples + "mpiP_cm__amg2013.*.mpiP")
	v := mpipJSON(t, append([]string{"--calibrate", "--predict", "128"}, amg...)...)
	ch := v["forecast_choice"].(map[string]any)
	if ch["used"] != "wall_time" || !strings.Contains(ch["reason"].(string), "51 % against 85 %") {
		t.Errorf("used %v, reason %q", ch["used"], ch["reason"])
	}
	splits := v["backtest"].(map[string]any)["splits"].([]any)
	for _, k := range ch["kinds"].([]any) {
		km := k.(map[string]any)
		key := map[any]string{"wall_time": "wall_time_rel_error", "model_004": "model_rel_error"}[km["kind"]]
		if key == "" {
			continue
		}
		errs := km["backtest_rel_errors"].([]any)
		for i, s := range splits {
			if errs[i] != s.(map[string]any)[key] {
				t.Errorf("%s split %d: %v, backtest %v", km["kind"], i, errs[i], s.(map[string]any)[key])
			}
		}
		if km["used_for_sizing"] != false {
			t.Errorf("%v used_for_sizing %v", km["kind"], km["used_for_sizing"])
		}
	}
	if ch["runs"] != 3.0 || ch["runs_for_interval"] != 5.0 {
		t.Errorf("runs %v runs_for_interval %v", ch["runs"], ch["runs_for_interval"])
	}
	txt := runOut(t, append([]string{"mpip", "--calibrate", "--predict", "128", "--all-tables"}, amg...)...)
	for _, s := range []string{"the preferred kind is wall_time", "none: needs runs at ≥ 5 different P (have 3)", "+85.1%", "0 of 3"} {
		if !strings.Contains(flat(txt), s) {
			t.Errorf("text output lacks %q", s)
		}
	}
}

// TestMpipReportMethod: the HTML report page of an mpip run states the method and exactness
// (it said "method: not stated").
func TestMpipReportMethod(t *testing.T) {
	page := filepath.Join(t.TempDir(), "r.html")
	runOut(t, "mpip", "../../examples/mpip/keck_cg_a.csv", "--calibrate", "--predict", "128", "--report", page)
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); strings.Contains(s, "not stated") || !strings.Contains(s, "direct wall-time regression") || !strings.Contains(s, "approximate") {
		t.Errorf("report page: method not stated or not approximate")
	}
}
