package mpip

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestChooseForecastCG measures cgBacktestMaxAbs: the leave-one-out backtest of 004's CG A, B
// and C collected values (examples/mpip/keck_cg_{a,b,c}.csv; P = 4, 16, 64 — the P = 1 rows
// have no messages and are left out by BacktestRuns). The constant is what the tool quotes
// when the user's runs allow no backtest, so it must equal the measurement (to the rounding
// it is quoted with, 0.5 %). Each split forecasts from two runs (package scaling's tie rule
// picks among the exact two-point fits). On every class the 004 route wins (largest error
// 18, 18, 37 % against 26, 24, 84 %: with M extrapolated by an exact two-point growth fit, e.g.
// 2.09e5 messages at P = 64 from P = 4, 16 against 004's 269376); the spreads hold the
// held-out run in the counts below (measured), and the choice's notes name every spread
// that missed one.
func TestChooseForecastCG(t *testing.T) {
	inSpread := map[string][2]int{"a": {3, 2}, "b": {2, 3}, "c": {2, 2}} // wall_time, model_004, of 3
	for i, class := range []string{"a", "b", "c"} {
		bt, err := BacktestRuns(keckRuns(t, class), CalibrateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ch := ChooseForecast(bt, 3)
		if ch.Used != KindModel004 || ch.Splits != 3 || len(ch.Kinds) != 3 {
			t.Errorf("CG %s: used %s, %d splits, %d kinds", class, ch.Used, ch.Splits, len(ch.Kinds))
		}
		for j, k := range ch.Kinds[:2] {
			want := cgBacktestMaxAbs[k.Kind][i]
			if math.Abs(*k.BacktestMaxAbsRelError-want) > 0.005 {
				t.Errorf("CG %s %s: largest |rel_error| %.4f, cgBacktestMaxAbs says %.2f", class, k.Kind, *k.BacktestMaxAbsRelError, want)
			}
			if k.UsedForSizing != (k.Kind == KindModel004) {
				t.Errorf("CG %s %s: used_for_sizing %v", class, k.Kind, k.UsedForSizing)
			}
			n := inSpread[class][j]
			if *k.BacktestInSpread != n {
				t.Errorf("CG %s %s: the spread held %d held-out runs, want %d", class, k.Kind, *k.BacktestInSpread, n)
			}
			note := fmt.Sprintf("%s: the spread of plausible models held the observed wall time in %d of 3", k.Kind, n)
			if has := strings.Contains(strings.Join(ch.Notes, "\n"), note); has != (n < 3) {
				t.Errorf("CG %s: notes %q (want %q: %v)", class, ch.Notes, note, n < 3)
			}
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
	for _, s := range []string{"three or more different P", "have 2", "26, 24, 84 %", "18, 18, 37 %"} {
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
