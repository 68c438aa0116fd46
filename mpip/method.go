package mpip

import (
	"fmt"
	"math"
	"strings"
)

// Steps are what one `clusterperf mpip` run computed, for its top-level method label.
type Steps struct {
	Model       bool // 004's model solved with a given network (exact MVA of the model)
	Calibrated  bool // network fitted to the observed wall times
	Predictions bool // power-law regressions of the model inputs in P
	Forecasts   bool // extrapolation in P (package scaling) with the calibrated network
	Choice      *ForecastChoice
}

// ErrorEstimate is the measured error of an approximate mpip result: the largest
// |rel_error| of the forecast kind used for sizing over the leave-one-out backtest of the
// given runs, or of the calibrated model over the runs it was fitted to. RelError is nil
// when nothing measured it (Against then says why and what would).
type ErrorEstimate struct {
	RelError *float64 `json:"rel_error"`
	Against  string   `json:"against"`
	Kind     string   `json:"kind,omitempty"` // the forecast kind measured
	Splits   int      `json:"splits,omitempty"`
}

// Method labels a run's result: which methods produced its numbers and whether they are
// exact. The mpiP profile, the analysis views and 004's model solved by exact MVA are exact
// (measured values and an exact solution of the model; the model's distance from the
// measurement is in its views' rel_error); a calibration, a regression or an extrapolation
// is not, and carries an error estimate.
func (s Steps) Method(c *Calibration) (method string, exact bool, est *ErrorEstimate) {
	parts := []string{"mpiP profile / collected values summarised (measured)"}
	if s.Model || s.Calibrated {
		parts = append(parts, "Elliott's (004) queueing model (exact single-class MVA, N = P)")
	}
	if s.Calibrated {
		parts = append(parts, "network calibrated to the observed wall times (least squares)")
	}
	if s.Predictions {
		parts = append(parts, "power-law regression of the model inputs in P")
	}
	if s.Predictions || s.Forecasts {
		parts = append(parts, "direct wall-time regression in P (package scaling)")
	}
	if s.Forecasts {
		parts = append(parts, "004 model inputs extrapolated in P (package scaling)")
	}
	method = strings.Join(parts, " + ")
	if !s.Calibrated && !s.Predictions && !s.Forecasts {
		return method, true, nil
	}
	if ch := s.Choice; ch != nil {
		est = &ErrorEstimate{Kind: ch.Used, Splits: ch.Splits}
		for _, k := range ch.Kinds {
			if k.Kind == ch.Used && k.BacktestMaxAbsRelError != nil {
				e := *k.BacktestMaxAbsRelError
				est.RelError = &e
			}
		}
		if est.RelError != nil {
			est.Against = fmt.Sprintf("largest |rel_error| of the %s forecast in the leave-one-out backtest of the given runs (%d splits: each measured P forecast from the others)", ch.Used, ch.Splits)
		} else {
			est.Against = fmt.Sprintf("not measured: the backtest needs runs at three or more different P > 1 (have %d); see forecast_choice for the error on Elliott's (004) CG runs", ch.Runs)
		}
		return method, false, est
	}
	if c != nil {
		m := 0.0
		for _, r := range c.Runs {
			m = math.Max(m, math.Abs(r.RelError))
		}
		return method, false, &ErrorEstimate{RelError: &m, Against: "largest |rel_error| of the calibrated model's wall time over the runs it was fitted to (in-sample; --predict adds the leave-one-out backtest)"}
	}
	return method, false, &ErrorEstimate{Against: "not measured"}
}
