package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

const mpipSamples = "../../mpip/testdata/samples/"

// mpipJSON runs clusterperf mpip … --format json and decodes the result.
func mpipJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), append(append([]string{"mpip"}, args...), "--format", "json"), &out, &errb); code != 0 {
		t.Fatalf("mpip %v: exit %d: %s", args, code, errb.String())
	}
	var v map[string]any
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Three real AMG2013 reports (P = 16, 32, 64; one program, process grids differ): the
// calibration, the forecast, the backtest and the sizing. Invariants checked: every backtest
// split holds out one P and predicts it from the other two; its rel_error is
// (model − observed)/observed of its own figures; the calibrated view of each run equals the
// calibration's rel_error for that run (both are AT with the calibrated D_0 against AT*).
func TestMpipCalibrateAMG(t *testing.T) {
	files, _ := filepath.Glob(mpipSamples + "mpiP_cm__amg2013.*.mpiP")
	if len(files) != 3 {
		t.Fatalf("want the three AMG reports, have %v", files)
	}
	v := mpipJSON(t, append([]string{"--calibrate", "--predict", "128"}, files...)...)
	cal := v["calibration"].(map[string]any)
	if cal["kind"] != "calibration" || cal["interval_kind"] == "" {
		t.Errorf("calibration kind %v interval_kind %v", cal["kind"], cal["interval_kind"])
	}
	byP := map[float64]float64{}
	for _, r := range cal["runs"].([]any) {
		m := r.(map[string]any)
		byP[m["p"].(float64)] = m["rel_error"].(float64)
	}
	for _, r := range v["runs"].([]any) {
		run := r.(map[string]any)
		c := run["calibrated_model"].(map[string]any)["app_time"].(map[string]any)
		if want := byP[run["p"].(float64)]; math.Abs(c["rel_error"].(float64)-want) > 1e-9 {
			t.Errorf("P = %v: calibrated view rel_error %v, calibration says %v", run["p"], c["rel_error"], want)
		}
	}
	splits := v["backtest"].(map[string]any)["splits"].([]any)
	if len(splits) != 3 {
		t.Fatalf("backtest has %d splits, want 3", len(splits))
	}
	for _, s := range splits {
		m := s.(map[string]any)
		obs := m["observed_app_time_s"].(float64)
		f := m["forecast"].(map[string]any)
		want := (f["model_app_time_s"].(float64) - obs) / obs
		if math.Abs(m["model_rel_error"].(float64)-want) > 1e-12 || len(m["from_p"].([]any)) != 2 {
			t.Errorf("split %v: model_rel_error %v, want %v from 2 runs", m["held_out_p"], m["model_rel_error"], want)
		}
	}
	if fc := v["forecasts"].([]any); len(fc) != 1 || fc[0].(map[string]any)["kind"] != "extrapolation" {
		t.Errorf("forecasts %v", fc)
	}
	// AMG's -P grid grows with P (weak scaling): no strong-scaling sizing (issue 21)
	if v["sizing"] != nil || v["program"].(map[string]any)["arguments_differ"] != true {
		t.Errorf("weak-scaling AMG runs: sizing %v, program %v; want no sizing and arguments_differ", v["sizing"], v["program"])
	}
}

// Reports of different programs are refused (exit 2) unless --allow-mixed, which notes it.
func TestMpipMixedPrograms(t *testing.T) {
	a, b := mpipSamples+"mpiP_cm__amg2013.16.5362.1.mpiP", mpipSamples+"armhack2021__nwchem.32.57998.1.mpiP"
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"mpip", a, b}, &out, &errb); code != 2 || !bytes.Contains(errb.Bytes(), []byte("reports of different programs")) {
		t.Fatalf("mixed programs: exit %d, %s", code, errb.String())
	}
	v := mpipJSON(t, "--allow-mixed", a, b)
	if !v["program"].(map[string]any)["mixed"].(bool) {
		t.Error("--allow-mixed: program.mixed is false")
	}
	// mixed programs are compared, never sized as one program's scaling
	c := mpipSamples + "hpc-mpip__driver.8.253.1.mpiP"
	v = mpipJSON(t, "--allow-mixed", "--calibrate", "--predict", "64", c, b)
	if v["sizing"] != nil || !strings.Contains(strings.Join(toStrings(v["notes"]), "\n"), "no sizing: the runs are of different programs") {
		t.Errorf("--allow-mixed --predict: sizing %v, notes %v", v["sizing"], v["notes"])
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
