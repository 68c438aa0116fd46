package mpip

import "testing"

// BenchmarkBacktestAMG: the leave-one-out backtest of the three AMG reports (three
// calibrations, each a bisection of ≈ 40 MVA solves per run, and three forecasts over the
// 52-member scaling family).
func BenchmarkBacktestAMG(b *testing.B) {
	var runs []Inputs
	for _, f := range amgFiles {
		r := parseSample(b, f)
		s, err := r.Summarize(Options{})
		if err != nil {
			b.Fatal(err)
		}
		runs = append(runs, ProfileInputs(s))
	}
	for b.Loop() {
		if _, err := BacktestRuns(runs, CalibrateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
