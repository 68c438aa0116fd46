package fitapp

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// runOpenFOAM is `fit examples/scaling/openfoam_motorbike_arc.csv --predict 96,192`, the
// new-user review's example (12 runs, largest p = 48).
func runOpenFOAM(t *testing.T) *ScalingResult {
	t.Helper()
	const path = "../../examples/scaling/openfoam_motorbike_arc.csv"
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := RunScaling(context.Background(), ScalingRequest{Path: path, Input: in, Predict: []int{96, 192}, Sizing: sizing.Options{}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func series(t *testing.T, ss []report.Series, prefix string) report.Series {
	t.Helper()
	for _, s := range ss {
		if strings.HasPrefix(s.Name, prefix) {
			return s
		}
	}
	t.Fatalf("no series %q", prefix)
	return report.Series{}
}

// TestFitPlotDrawsWhatItNames (new-user review 7 P2-1): the line named with the chosen
// formula is that formula everywhere (at p = 192: 274.166 s, the predictions' chosen_model_s),
// the stacked prediction the answer gives (195.12 s at p = 192) is a line of its own, the
// asked p are marked at the answer's times, the plausible band is the plausible models' own
// span (plausible_models_low_s … high_s), and the recommended p is marked.
func TestFitPlotDrawsWhatItNames(t *testing.T) {
	res := runOpenFOAM(t)
	panels, err := app.ScalingFigure("of", res.Data().Points, res.Fit, res.Predictions, res.Sizing, res.Backtest)
	if err != nil {
		t.Fatal(err)
	}
	ss := panels[0].Series
	at := func(s report.Series, x float64) (float64, bool) {
		for i := range s.X {
			if s.X[i] == x {
				return s.Y[i], true
			}
		}
		return 0, false
	}
	pr := res.Predictions[1] // p = 192
	model := series(t, ss, "chosen model: T(p) = "+res.Fit.Chosen.Formula)
	if y, ok := at(model, 192); !ok || y != pr.SelectedS {
		t.Errorf("chosen-model line at 192: %v, want the formula's %v", y, pr.SelectedS)
	}
	stacked := series(t, ss, "stacked prediction")
	if y, ok := at(stacked, 192); !ok || y != pr.TimeS || stacked.X[0] != float64(res.Fit.MaxP) {
		t.Errorf("stacked line at 192: %v (from p = %v), want %v from p = %d", y, stacked.X[0], pr.TimeS, res.Fit.MaxP)
	}
	asked := series(t, ss, "asked: p = 96, 192")
	if asked.Y[1] != pr.TimeS {
		t.Errorf("asked marker at 192: %v, want %v", asked.Y[1], pr.TimeS)
	}
	band := series(t, ss, "span of the")
	for i, x := range band.X {
		if x == 192 && (band.Y[i] != pr.ModelsLowS || band.Y2[i] != pr.ModelsHighS) {
			t.Errorf("band at 192: %v … %v, want the models' span %v … %v", band.Y[i], band.Y2[i], pr.ModelsLowS, pr.ModelsHighS)
		}
	}
	if m := panels[0].Marks; len(m) != 1 || m[0].X != float64(res.Sizing.Recommended.Config.P) {
		t.Errorf("marks %+v, want the recommended p = %d", m, res.Sizing.Recommended.Config.P)
	}
}

// TestPlausibleCountOneEverywhere (new-user review 7 P2-2): the table's title, the plot's
// legend, the JSON's fit.plausible_count and each prediction's plausible_models give one
// count (before: 5 rows, "(10)" and 18). openfoam has 18 plausible models, more than the 10
// fit.plausible lists (scaling.MaxPlausibleListed) and the 5 rows of the table.
func TestPlausibleCountOneEverywhere(t *testing.T) {
	res := runOpenFOAM(t)
	n := res.Fit.PlausibleCount
	if n <= len(res.Fit.Plausible) || n <= plausibleShown {
		t.Fatalf("%d plausible models, %d listed: the test needs more than are listed", n, len(res.Fit.Plausible))
	}
	for _, pr := range res.Predictions {
		if pr.PlausibleModels != n {
			t.Errorf("p = %d: plausible_models %d, fit.plausible lists %d", pr.P, pr.PlausibleModels, n)
		}
	}
	var title string
	for _, tb := range res.Tables() {
		if tb.Name == "plausible" {
			title = tb.Title
		}
	}
	if want := "Plausible models: " + itoa(n) + " "; !strings.HasPrefix(title, want) {
		t.Errorf("table title %q, want it to start %q", title, want)
	}
	panels, _ := app.ScalingFigure("of", res.Data().Points, res.Fit, res.Predictions, res.Sizing, res.Backtest)
	series(t, panels[0].Series, "span of the "+itoa(n)+" plausible models")
}

// TestTradeOffSaysItsTimes (new-user review 7 P2-4): the trade-off's times are the
// predictions' (chosen model up to the largest measured p, stacked beyond: the row at p = 96
// equals the prediction at 96), and its title says so instead of "model times".
func TestTradeOffSaysItsTimes(t *testing.T) {
	res := runOpenFOAM(t)
	for _, c := range res.Sizing.TradeOff {
		if c.P == 96 && c.TimeS != res.Predictions[0].TimeS {
			t.Errorf("trade-off at 96: %v, prediction %v", c.TimeS, res.Predictions[0].TimeS)
		}
	}
	for _, tb := range res.Tables() {
		if tb.Name == "trade_off" && (strings.Contains(tb.Title, "model times") || !strings.Contains(tb.Title, "the stacked prediction beyond it")) {
			t.Errorf("trade-off title %q does not say which times", tb.Title)
		}
	}
	if !strings.Contains(res.SizingTimes, "up to the largest measured p = 48") {
		t.Errorf("sizing_times %q", res.SizingTimes)
	}
}

func itoa(n int) string { return strings.TrimSpace(report.Num(float64(n))) }
