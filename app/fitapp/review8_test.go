package fitapp

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

func runCSV(t *testing.T, csv string, predict []int) *ScalingResult {
	t.Helper()
	res, err := RunScaling(context.Background(), ScalingRequest{Path: "d.csv", Input: []byte(csv), Predict: predict, Sizing: sizing.Options{}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func answerText(res *ScalingResult) string {
	return res.Answer.Summary + "\n" + strings.Join(res.Answer.Details, "\n")
}

// TestStackedForecastNamed: new-user review 8, P1-1 — on exact data T(p) = 90 + 10p at p = 1,
// 2, 4, 8 (built by hand) the chosen model gustafson gives 250 s at p = 16 and its backtest
// error is 0, while the answer printed "time 232 s" and "predicted within 11.2 %" (the
// stacked combination's) without saying so. The answer must name the stacked forecast in
// both places and give the chosen model's own numbers beside them.
func TestStackedForecastNamed(t *testing.T) {
	res := runCSV(t, "p,time\n1,100\n2,110\n4,130\n8,170\n", []int{16})
	txt := answerText(res)
	for _, want := range []string{"stacked time", "the chosen model gustafson alone gives 250 s at p = 16", "by the stacked forecast (by the chosen model alone:"} {
		if !strings.Contains(txt, want) {
			t.Errorf("answer lacks %q:\n%s", want, txt)
		}
	}
	if !slices.ContainsFunc(res.Answer.Facts, func(f report.Fact) bool { return f.Name == "backtest_selected_model_rel_error" }) {
		t.Errorf("no fact backtest_selected_model_rel_error: %v", res.Answer.Facts)
	}
}

// TestFlatTimesInferenceWorded: review 8, P2-11 — flat times (100 s at p = 1 … 8) were
// called weak scaling with certainty ("the problem grows with p"); a strong-scaling code that
// does not speed up looks the same. The answer and the note must say it is inferred, name
// the alternative and the CSV comment that overrides it (fit has no --scaling flag).
func TestFlatTimesInferenceWorded(t *testing.T) {
	res := runCSV(t, "p,time\n1,100\n2,100\n4,100\n8,100\n", nil)
	txt := answerText(res)
	for _, want := range []string{"read as weak scaling", "inferred, not given", "does not speed up", "# scaling: strong"} {
		if !strings.Contains(strings.ToLower(txt), strings.ToLower(want)) {
			t.Errorf("answer lacks %q:\n%s", want, txt)
		}
	}
	notes := strings.Join(res.Notes, "\n")
	if strings.Contains(notes, "rising times") || strings.Contains(notes, "--scaling") || !strings.Contains(notes, "does not speed up") {
		t.Errorf("notes:\n%s", notes)
	}
	// Given, not inferred: the certain wording stays.
	res = runCSV(t, "# scaling: weak\np,time\n1,100\n2,100\n4,100\n8,100\n", nil)
	if txt := answerText(res); strings.Contains(txt, "inferred") {
		t.Errorf("given weak scaling called inferred:\n%s", txt)
	}
}

// TestExtrapTableChosenModelBacktest: review 8, P1-1 — experiment2.txt's met2 and met4 are
// exact p² data (chosen model exact, selected_model_rel_error ≈ 0) but the table showed only
// the stacked backtest, −41.3 %. The table must carry the chosen model's own error beside it.
func TestExtrapTableChosenModelBacktest(t *testing.T) {
	const path = "../../extrap/testdata/experiment2.txt"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := RunExtrap(context.Background(), path, b)
	if err != nil {
		t.Fatal(err)
	}
	tb := r.Tables()[0]
	col := -1
	for i, h := range tb.Header {
		if h == "chosen_model_rel_error" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("header %q lacks chosen_model_rel_error", tb.Header)
	}
	for _, row := range tb.Rows {
		if row[0] == "met2" || row[0] == "met4" {
			if s := row[col]; s != "+0.0%" && s != "-0.0%" {
				t.Errorf("%v: chosen_model_rel_error %v, want ±0.0%% (exact p² data)", row[0], row[col])
			}
		}
	}
}
