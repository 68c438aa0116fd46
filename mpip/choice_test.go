package mpip

import (
	"math"
	"strings"
	"testing"
)

// TestChooseForecastCG measures cgBacktestMaxAbs: the leave-one-out backtest of 004's CG A, B
// and C collected values (examples/mpip/keck_cg_{a,b,c}.csv; P = 4, 16, 64 — the P = 1 rows
// have no messages and are left out by BacktestRuns). The constant is what the tool quotes
// when the user's runs allow no backtest, so it must equal the measurement (to the rounding
// it is quoted with, 0.5 %). On every class the direct extrapolation wins, and the 004
// route's spread never holds the held-out run (0 of 3), which the choice's notes say.
func TestChooseForecastCG(t *testing.T) {
	for i, class := range []string{"a", "b", "c"} {
		bt, err := BacktestRuns(keckRuns(t, class), CalibrateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ch := ChooseForecast(bt, 3)
		if ch.Used != KindWallTime || ch.Splits != 3 || len(ch.Kinds) != 3 {
			t.Errorf("CG %s: used %s, %d splits, %d kinds", class, ch.Used, ch.Splits, len(ch.Kinds))
		}
		for _, k := range ch.Kinds[:2] {
			want := cgBacktestMaxAbs[k.Kind][i]
			if math.Abs(*k.BacktestMaxAbsRelError-want) > 0.005 {
				t.Errorf("CG %s %s: largest |rel_error| %.4f, cgBacktestMaxAbs says %.2f", class, k.Kind, *k.BacktestMaxAbsRelError, want)
			}
			if k.UsedForSizing != (k.Kind == KindWallTime) {
				t.Errorf("CG %s %s: used_for_sizing %v", class, k.Kind, k.UsedForSizing)
			}
		}
		if *ch.Kinds[1].BacktestInSpread != 0 {
			t.Errorf("CG %s: the 004 route's spread held %d held-out runs", class, *ch.Kinds[1].BacktestInSpread)
		}
		if !strings.Contains(strings.Join(ch.Notes, "\n"), "model_004: the spread of plausible models held the observed wall time in 0 of 3") {
			t.Errorf("CG %s: notes %q", class, ch.Notes)
		}
		if ch.Kinds[2].Forecast || ch.Kinds[2].UsedForSizing {
			t.Errorf("the calibrated profile is no forecast: %+v", ch.Kinds[2])
		}
	}
}

// TestChooseForecastNoBacktest: without a backtest the choice is the direct extrapolation,
// and the reason quotes the CG measurement and how many runs a backtest and an interval need.
func TestChooseForecastNoBacktest(t *testing.T) {
	ch := ChooseForecast(nil, 2)
	if ch.Used != KindWallTime || ch.Kinds[0].BacktestMaxAbsRelError != nil || ch.RunsForInterval != MinRunsForInterval {
		t.Fatalf("%+v", ch)
	}
	for _, s := range []string{"three or more different P", "have 2", "26, 24, 84 %", "389, 562, 686 %"} {
		if !strings.Contains(ch.Reason, s) {
			t.Errorf("reason %q lacks %q", ch.Reason, s)
		}
	}
	if !strings.Contains(strings.Join(ch.Notes, "\n"), "needs runs at ≥ 5 different P (have 2)") {
		t.Errorf("notes %q", ch.Notes)
	}
}

// TestChooseForecastModelWins: a backtest whose 004 route errs less picks it.
func TestChooseForecastModelWins(t *testing.T) {
	bt := &Backtest{Splits: []BacktestSplit{{WallTimeRelError: 0.3, ModelRelError: -0.1}, {WallTimeRelError: -0.2, ModelRelError: 0.05}, {WallTimeRelError: 0.1, ModelRelError: 0.12}}}
	ch := ChooseForecast(bt, 3)
	if ch.Used != KindModel004 || !ch.Kinds[1].UsedForSizing || ch.Kinds[0].UsedForSizing {
		t.Fatalf("%+v", ch)
	}
	if !strings.Contains(ch.Reason, "12 % against 30 %") {
		t.Errorf("reason %q", ch.Reason)
	}
}
