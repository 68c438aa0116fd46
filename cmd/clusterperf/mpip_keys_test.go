package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/report"
)

// numericCell reports whether a CSV cell is a number, or several numbers separated by
// spaces (report.List cells, e.g. from_p "16 32").
func numericCell(s string) bool {
	for _, f := range strings.Fields(s) {
		if _, err := strconv.ParseFloat(f, 64); err != nil {
			return false
		}
	}
	return s != ""
}

// unitColumn reports whether a column's name says it holds numbers (a unit or an error).
func unitColumn(name string) bool {
	for _, suf := range []string{"_s", "_bytes", "_per_s", "rel_error", "_error", "_errors"} {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

// TestMpipCSVNumericColumns (new-user review P2-1): keck_cg_a's P = 1 row had "-" in
// wt_rel_error (observed wait 0, the rel_error undefined), the predicted row "none" in
// at_low_s/at_high_s and forecast_kinds percentages ("+123% -41.1%") in backtest_rel_errors; ARCHITECTURE's contract is that a CSV numeric column holds a number
// or is empty, so pandas and R read it as numbers. Every column of these mpip CSV tables
// named with a unit, or with a numeric cell, must have only numeric or empty cells.
func TestMpipCSVNumericColumns(t *testing.T) {
	keck := "../../examples/mpip/keck_cg_a.csv"
	amg := append([]string{"--latency", "5us", "--bandwidth", "1GB/s", "--predict", "128"}, amgReports()...)
	cases := [][]string{
		{keck}, {keck, "--csv-table", "views"}, {keck, "--csv-table", "analysis"},
		append([]string{"--csv-table", "across_p"}, amg...),
		append([]string{"--csv-table", "views"}, amg...),
		append([]string{"--csv-table", "forecasts"}, amg...),
		append([]string{"--csv-table", "forecast_kinds"}, amg...),
		append([]string{"--csv-table", "backtest"}, amg...),
	}
	for _, c := range cases {
		args := append([]string{"mpip", "--format", "csv"}, c...)
		rows, err := csv.NewReader(strings.NewReader(runOut(t, args...))).ReadAll()
		if err != nil || len(rows) < 2 {
			t.Fatalf("%v: %v (%d rows)", c, err, len(rows))
		}
		for j, name := range rows[0] {
			numeric := name != "divided_by" && unitColumn(name) // divided_by: 1, P, M or P·M
			for _, r := range rows[1:] {
				numeric = numeric || (name != "divided_by" && numericCell(r[j]))
			}
			for i, r := range rows[1:] {
				if numeric && r[j] != "" && !numericCell(r[j]) {
					t.Errorf("%v: column %s row %d = %q: a numeric column holds a number or nothing", c, name, i+1, r[j])
				}
			}
		}
	}
}

// unitlessLeaves returns the paths of numeric values under keys that name no unit
// (observed, model, value, spread_low, spread_high, mpi_active) whose enclosing key names
// none either: the contract puts the unit in the key (_s, _per_s, _bytes; messages count).
// A scaling model's parameters (package scaling: value next to name) are not mpip's keys.
func unitlessLeaves(path, parent string, v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			if _, num := c.(float64); num && slices.Contains([]string{"observed", "model", "value", "spread_low", "spread_high", "mpi_active"}, k) &&
				!unitColumn(parent) && parent != "messages" && parent != "parameters" {
				out = append(out, path+"."+k)
			}
			out = append(out, unitlessLeaves(path+"."+k, k, c)...)
		}
	case []any:
		for i, c := range x {
			out = append(out, unitlessLeaves(fmt.Sprintf("%s[%d]", path, i), parent, c)...)
		}
	}
	return out
}

// TestMpipJSONUnitsAndPredictions (new-user review P2-2): predictions[0].result.app_time
// was {"observed": 0.145, "model": 0.279, "rel_error": 0.92} although nothing was observed
// at P = 128 (the "observed" figure is App_Time/P of the extrapolated inputs), and the keys
// carried no unit. Now the predicted result names the extrapolation and the model, and
// every such number sits under a key with its unit.
func TestMpipJSONUnitsAndPredictions(t *testing.T) {
	for _, extra := range [][]string{{"--latency", "5us", "--bandwidth", "1GB/s"}, {"--calibrate"}} {
		args := append(append([]string{"mpip", "--predict", "128", "--format", "json"}, extra...), amgReports()...)
		var v map[string]any
		if err := json.Unmarshal([]byte(runOut(t, args...)), &v); err != nil {
			t.Fatal(err)
		}
		if bad := unitlessLeaves("", "", v); len(bad) > 0 {
			sort.Strings(bad)
			t.Errorf("%v: numbers under keys without a unit: %v", extra, bad)
		}
		preds, _ := v["predictions"].([]any)
		if len(preds) == 0 {
			continue // --calibrate forecasts instead
		}
		res := preds[0].(map[string]any)["result"].(map[string]any)
		ext, _ := res["extrapolated_app_time_s"].(float64)
		mod, _ := res["model_app_time_s"].(float64)
		rel, _ := res["model_vs_extrapolated_rel_error"].(float64)
		if _, ok := res["app_time"]; ok || !(ext > 0) || !(mod > 0) || math.Abs(rel-(mod-ext)/ext) > 1e-12 {
			t.Errorf("%v: predicted result %v: want extrapolated_app_time_s, model_app_time_s and their rel_error, no observed view", extra, res)
		}
		// the extrapolated inputs' own wall time: Σ App_Time / P (model.go's AT*)
		in := preds[0].(map[string]any)["inputs"].(map[string]any)
		if want := in["app_time_s"].(float64) / 128; math.Abs(ext-want) > 1e-12*want {
			t.Errorf("extrapolated_app_time_s %v, want app_time_s/P = %v", ext, want)
		}
		// the table tells one story: the note names the three figures, which is which
		direct := v["wall_time_forecasts_s"].([]any)[0].(map[string]any)["value"].(float64)
		text := runOut(t, append(append([]string{"mpip", "--predict", "128"}, extra...), amgReports()...)...)
		want := fmt.Sprintf("i.e. %s s per process) and at_model_s %s s, Elliott's (004) model solved with them; the forecasts table's wall_time_s %s s extrapolates the measured AT* directly",
			report.Num(ext), report.Num(mod), report.Num(direct))
		if !strings.Contains(text, want) || !strings.Contains(text, "(extrapolated inputs)") {
			t.Errorf("text lacks the prediction's story %q:\n%s", want, text)
		}
	}
}

// TestMpipNoSizingNoKindUsed (new-user review P3-3): AMG's runs have different arguments,
// so no sizing is made (a note says so), yet forecast_kinds said used_for_sizing true and
// its title "used: wall_time". With no sizing no kind is used for sizing, in the table and
// in the JSON.
func TestMpipNoSizingNoKindUsed(t *testing.T) {
	amg := append([]string{"mpip", "--latency", "5us", "--bandwidth", "1GB/s", "--predict", "128"}, amgReports()...)
	kinds := runOut(t, append(amg, "--format", "csv", "--csv-table", "forecast_kinds")...)
	fc := runOut(t, append(amg, "--format", "csv", "--csv-table", "forecasts")...)
	if usedForSizing(t, kinds) != 0 || !strings.Contains(fc, ",none (no sizing),") {
		t.Errorf("no sizing, yet a kind is used for sizing:\n%s\n%s", kinds, fc)
	}
	// runs of one problem are sized, with exactly one kind
	one := runOut(t, "mpip", "../../examples/mpip/keck_cg_a.csv", "--calibrate", "--predict", "128", "--format", "csv", "--csv-table", "forecast_kinds")
	if n := usedForSizing(t, one); n != 1 {
		t.Errorf("keck_cg_a: %d kinds used for sizing, want 1:\n%s", n, one)
	}
	text := runOut(t, amg...)
	if !strings.Contains(text, "no sizing") || strings.Contains(text, "used: wall_time") {
		t.Errorf("text contradicts the no-sizing note:\n%s", text)
	}
	var v struct {
		ForecastChoice struct {
			NoSizing string `json:"no_sizing"`
			Kinds    []struct {
				UsedForSizing bool `json:"used_for_sizing"`
			} `json:"kinds"`
		} `json:"forecast_choice"`
	}
	if err := json.Unmarshal([]byte(runOut(t, append(amg, "--format", "json")...)), &v); err != nil {
		t.Fatal(err)
	}
	if v.ForecastChoice.NoSizing == "" || len(v.ForecastChoice.Kinds) != 3 {
		t.Errorf("forecast_choice %+v: want no_sizing saying why", v.ForecastChoice)
	}
	for _, k := range v.ForecastChoice.Kinds {
		if k.UsedForSizing {
			t.Errorf("forecast_choice %+v: a kind used for sizing with no sizing", v.ForecastChoice)
		}
	}
}

// usedForSizing counts the forecast_kinds CSV rows with used_for_sizing true.
func usedForSizing(t *testing.T, table string) int {
	rows, err := csv.NewReader(strings.NewReader(table)).ReadAll()
	if err != nil || len(rows) != 4 || rows[0][5] != "used_for_sizing" {
		t.Fatalf("forecast_kinds: %v\n%s", err, table)
	}
	n := 0
	for _, r := range rows[1:] {
		if r[5] == "true" {
			n++
		}
	}
	return n
}
