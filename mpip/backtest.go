package mpip

import (
	"fmt"
	"math"
	"sort"
)

// Forecast is the wall time at an unmeasured P, by two routes, each with the spread of its
// plausible scaling models (not a confidence interval: see Extrapolation).
type Forecast struct {
	Kind   string `json:"kind"` // always "extrapolation"
	Method string `json:"method"`
	Exact  bool   `json:"exact"`
	P      int    `json:"p"`
	// WallTime extrapolates the observed AT* = App_Time/P directly (no model of the machine).
	WallTime Extrapolation `json:"wall_time_s"`
	// The 004 route: M, L, D_k and D_{P+1} extrapolated (value = selected model or family
	// median), the calibrated network's D_0 at the extrapolated L, the model solved at P.
	// The spread is one-at-a-time: AT with each quantity (and D_0) in turn at its spread's
	// ends, the others at their values (all at their ends together would combine the
	// least likely corners).
	ModelAppTimeS     float64            `json:"model_app_time_s"`
	ModelAppTimeLowS  float64            `json:"model_app_time_low_s"`
	ModelAppTimeHighS float64            `json:"model_app_time_high_s"`
	Quantities        ForecastQuantities `json:"quantities"`
	Notes             []string           `json:"notes,omitempty"`
}

// ForecastQuantities are the extrapolated inputs of the 004 route, each key carrying the unit
// of its value and spread.
type ForecastQuantities struct {
	Messages              Extrapolation `json:"messages"`                  // M
	MeanSize              Extrapolation `json:"mean_size_bytes"`           // L
	CPUDemand             Extrapolation `json:"cpu_demand_s"`              // D_k
	ComputationPerMessage Extrapolation `json:"computation_per_message_s"` // D_{P+1}
}

// Forecast extrapolates runs (two or more different P > 1) to target with the calibrated
// network c (from Calibrate on the same or other runs).
func (c *Calibration) Forecast(runs []Inputs, target int) (*Forecast, error) {
	if err := predictBudget([]int{target}, 2); err != nil {
		return nil, err
	}
	var use []Inputs
	for _, r := range runs {
		if r.P > 1 {
			use = append(use, r)
		}
	}
	sort.SliceStable(use, func(i, j int) bool { return use[i].P < use[j].P })
	ps := make([]float64, len(use))
	at, m, l, dk, dc := make([]float64, len(use)), make([]float64, len(use)), make([]float64, len(use)), make([]float64, len(use)), make([]float64, len(use))
	for i, r := range use {
		d := r.Demands()
		ps[i], at[i], m[i], l[i], dk[i], dc[i] = float64(r.P), r.AppTime/float64(r.P), r.M, math.Max(r.L, 1e-9), math.Max(d.Dk, 1e-30), math.Max(d.Compute, 1e-30)
	}
	f := &Forecast{Kind: "extrapolation", P: target,
		Method: "wall time: package scaling on AT*; 004 route: package scaling on M, L, D_k, D_{P+1}, calibrated D_0, exact MVA at P; spreads one at a time over the plausible models"}
	var err error
	if f.WallTime, err = Extrapolate("wall time AT* = App_Time/P", "s", ps, at, target); err != nil {
		return nil, err
	}
	names := []struct {
		q, unit string
		ys      []float64
	}{{"messages M", "messages", m}, {"mean size L", "bytes", l}, {"CPU demand D_k", "s", dk}, {"computation per message D_{P+1}", "s", dc}}
	ends := [3][4]float64{} // value, low, high × quantity
	for k, nm := range names {
		e, err := Extrapolate(nm.q, nm.unit, ps, nm.ys, target)
		if err != nil {
			return nil, err
		}
		*[]*Extrapolation{&f.Quantities.Messages, &f.Quantities.MeanSize, &f.Quantities.CPUDemand, &f.Quantities.ComputationPerMessage}[k] = e
		ends[0][k], ends[1][k], ends[2][k] = e.Value, e.SpreadLow, e.SpreadHigh
	}
	solve := func(v [4]float64, which int) (float64, error) {
		d0, lo, hi := c.SwitchDelay(v[1])
		switch which {
		case 1:
			d0 = lo
		case 2:
			d0 = hi
		}
		pf := float64(target)
		mm := math.Max(v[0], 1)
		in := Inputs{Label: fmt.Sprintf("extrapolated P=%d", target), P: target, M: mm, L: v[1], BW: 1, Lat: 0}
		in.MPITime = v[2] * pf * mm
		in.AppTime = in.MPITime + v[3]*mm
		return ModelAppTime(in, d0)
	}
	if f.ModelAppTimeS, err = solve(ends[0], 0); err != nil {
		return nil, err
	}
	// One at a time: each quantity (and D_0) at its spread's ends, the others at their values.
	f.ModelAppTimeLowS, f.ModelAppTimeHighS = f.ModelAppTimeS, f.ModelAppTimeS
	for k := 0; k <= 4; k++ {
		for end := 1; end <= 2; end++ {
			v, which := ends[0], 0
			if k < 4 {
				v[k] = ends[end][k]
			} else {
				which = end
			}
			at, err := solve(v, which)
			if err != nil {
				return nil, err
			}
			f.ModelAppTimeLowS, f.ModelAppTimeHighS = math.Min(f.ModelAppTimeLowS, at), math.Max(f.ModelAppTimeHighS, at)
		}
	}
	f.Notes = append(f.Notes, fmt.Sprintf("extrapolation from %d run(s) at P = %v; the spreads are ranges of plausible scaling models, not confidence intervals", len(use), ps))
	return f, nil
}

// BacktestSplit predicts one measured run from the others.
type BacktestSplit struct {
	HeldOutP int    `json:"held_out_p"`
	Label    string `json:"label"`
	FromP    []int  `json:"from_p"`
	// Calibrated: the held-out run's measured profile with the network calibrated on the
	// others (how well the calibration transfers to another P).
	Calibration *Calibration   `json:"calibration"`
	Calibrated  RunCalibration `json:"calibrated_model"`
	// Forecast from the others alone (profile extrapolated too) and its errors.
	Forecast                 *Forecast `json:"forecast"`
	ObservedAppTimeS         float64   `json:"observed_app_time_s"`
	WallTimeRelError         float64   `json:"wall_time_rel_error"` // direct AT* extrapolation
	ModelRelError            float64   `json:"model_rel_error"`     // the 004 route
	ObservedInWallTimeSpread bool      `json:"observed_in_wall_time_spread"`
	ObservedInModelSpread    bool      `json:"observed_in_model_spread"`
	Notes                    []string  `json:"notes,omitempty"`
}

// Backtest is every leave-one-out split of the runs.
type Backtest struct {
	Method string          `json:"method"`
	Exact  bool            `json:"exact"`
	Splits []BacktestSplit `json:"splits"`
	// MaxAbsRelError is the largest |rel_error| of the calibrated model over the splits: how
	// far predictions of this application can be trusted at best.
	MaxAbsRelError float64  `json:"max_abs_rel_error"`
	Notes          []string `json:"notes,omitempty"`
}

// BacktestRuns predicts each measured run (P > 1, three or more different P) from the others:
// calibrate the network on the others and solve the held-out run's profile with it, and
// forecast it from the others alone; errors are signed fractions (model − observed)/observed.
func BacktestRuns(runs []Inputs, o CalibrateOptions) (*Backtest, error) {
	var use []Inputs
	seen := map[int]bool{}
	for _, r := range runs {
		if r.P > 1 {
			if seen[r.P] {
				return nil, inputErrorf("backtest: two runs at P = %d (%s): give one run per P", r.P, r.Label)
			}
			seen[r.P] = true
			use = append(use, r)
		}
	}
	if len(use) < 3 {
		return nil, inputErrorf("a backtest needs runs at three or more different P > 1 (have %d): each split predicts one run from at least two others", len(use))
	}
	sort.SliceStable(use, func(i, j int) bool { return use[i].P < use[j].P })
	bt := &Backtest{Method: "leave-one-out over the runs: calibrate on the others, predict the held-out P"}
	for h := range use {
		var rest []Inputs
		var from []int
		for k := range use {
			if k != h {
				rest = append(rest, use[k])
				from = append(from, use[k].P)
			}
		}
		c, err := Calibrate(rest, o)
		if err != nil {
			return nil, err
		}
		sp := BacktestSplit{HeldOutP: use[h].P, Label: use[h].Label, FromP: from, Calibration: c}
		if sp.Calibrated, err = c.Apply(use[h]); err != nil {
			return nil, err
		}
		if sp.Forecast, err = c.Forecast(rest, use[h].P); err != nil {
			return nil, err
		}
		obs := use[h].AppTime / float64(use[h].P)
		sp.ObservedAppTimeS = obs
		sp.WallTimeRelError = (sp.Forecast.WallTime.Value - obs) / obs
		sp.ModelRelError = (sp.Forecast.ModelAppTimeS - obs) / obs
		sp.ObservedInWallTimeSpread = sp.Forecast.WallTime.SpreadLow <= obs && obs <= sp.Forecast.WallTime.SpreadHigh
		sp.ObservedInModelSpread = sp.Forecast.ModelAppTimeLowS <= obs && obs <= sp.Forecast.ModelAppTimeHighS
		if h == 0 || h == len(use)-1 {
			sp.Notes = append(sp.Notes, "held-out P outside the others' range: an extrapolation")
		} else {
			sp.Notes = append(sp.Notes, "held-out P inside the others' range: an interpolation, easier than a real extrapolation")
		}
		bt.MaxAbsRelError = math.Max(bt.MaxAbsRelError, math.Abs(sp.Calibrated.RelError))
		bt.Splits = append(bt.Splits, sp)
	}
	return bt, nil
}

// Forecast kinds (ForecastKind.Kind).
const (
	KindWallTime   = "wall_time"          // AT* = App_Time/P extrapolated directly
	KindModel004   = "model_004"          // 004's model solved with extrapolated M, L, D_k, D_{P+1}
	KindCalibrated = "calibrated_profile" // 004's model of the run's own profile, calibrated network
)

// ForecastKind is one way to forecast the wall time at an unmeasured P and how it did in the
// leave-one-out backtest on the user's runs.
type ForecastKind struct {
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Forecast is false for calibrated_profile: it needs the held-out run's own profile (M,
	// L, D_k), which an unmeasured P does not have; shown for comparison, never used to size.
	Forecast bool `json:"forecast"`
	// BacktestRelErrors: (forecast − observed)/observed per split, in held-out P order; empty
	// without a backtest.
	BacktestRelErrors      []float64 `json:"backtest_rel_errors"`
	BacktestMaxAbsRelError *float64  `json:"backtest_max_abs_rel_error"`
	// BacktestInSpread: splits whose observed wall time lay inside the kind's spread of
	// plausible models (nil for calibrated_profile, which has none).
	BacktestInSpread *int `json:"backtest_in_spread,omitempty"`
	UsedForSizing    bool `json:"used_for_sizing"`
}

// ForecastChoice says which forecast sizes the run at unmeasured P and why, with every kind's
// backtest error, and how many runs an interval needs.
type ForecastChoice struct {
	Used   string         `json:"used"`
	Reason string         `json:"reason"`
	Splits int            `json:"backtest_splits"`
	Kinds  []ForecastKind `json:"kinds"`
	// Runs at different P > 1, and how many a prediction interval needs (MinRunsForInterval):
	// below it the forecasts carry spreads of plausible models, which are not intervals.
	Runs            int      `json:"runs"`
	RunsForInterval int      `json:"runs_for_interval"`
	Notes           []string `json:"notes,omitempty"`
	// NoSizing says why no sizing was made (empty when one was): then Used is the preferred
	// forecast kind (its backtest is the error estimate) and no kind is used for sizing.
	NoSizing string `json:"no_sizing,omitempty"`
}

// NotSized records that the run was not sized, and why: no kind is then used for sizing.
func (ch *ForecastChoice) NotSized(why string) {
	ch.NoSizing = why
	for k := range ch.Kinds {
		ch.Kinds[k].UsedForSizing = false
	}
}

// cgBacktestMaxAbs is the largest |rel_error| of each forecast kind over the leave-one-out
// splits of 004's CG A, B and C collected values (examples/mpip/keck_cg_{a,b,c}.csv, P = 4,
// 16, 64; the P = 1 rows have no messages), measured by TestChooseForecastCG: quoted when the
// user's runs allow no backtest. Each split forecasts from two runs, where package scaling
// ranks the models by fit and breaks the tie among exact fits by its rule; before that rule
// (session 5) a growing M was extrapolated as a constant (the only model with a finite
// cross-validation score) and the 004 route erred 389, 562, 686 %.
var cgBacktestMaxAbs = map[string][3]float64{KindWallTime: {0.26, 0.24, 0.84}, KindModel004: {0.18, 0.18, 0.37}}

// ChooseForecast picks the forecast kind that sizes the run: with a backtest (runs at three
// or more different P), the forecast kind with the smaller largest |rel_error| on these runs
// (wall_time on a tie); without one, wall_time by default, quoting the CG backtest
// (cgBacktestMaxAbs: there the 004 route erred less, 18, 18, 37 % against 26, 24, 84 %;
// on the three AMG runs the direct extrapolation did, 51 % against 85 %). runs is the number
// of runs at different P > 1.
func ChooseForecast(bt *Backtest, runs int) ForecastChoice {
	ch := ForecastChoice{Runs: runs, RunsForInterval: MinRunsForInterval}
	kinds := []ForecastKind{
		{Kind: KindWallTime, Forecast: true, Description: "the measured AT* = App_Time/P extrapolated in P (package scaling: Amdahl, USL, Gustafson, Extra-P; chosen by held-out error)"},
		{Kind: KindModel004, Forecast: true, Description: "004's model at P with M, L, D_k, D_{P+1} extrapolated in P (the backtest: network calibrated on the other runs)"},
		{Kind: KindCalibrated, Description: "004's model of the held-out run's own profile, network calibrated on the others: no forecast (an unmeasured P has no profile)"},
	}
	if bt != nil {
		ch.Splits = len(bt.Splits)
		in := [2]int{}
		for _, s := range bt.Splits {
			for k, e := range []float64{s.WallTimeRelError, s.ModelRelError, s.Calibrated.RelError} {
				kinds[k].BacktestRelErrors = append(kinds[k].BacktestRelErrors, e)
			}
			if s.ObservedInWallTimeSpread {
				in[0]++
			}
			if s.ObservedInModelSpread {
				in[1]++
			}
		}
		for k := range kinds {
			m := 0.0
			for _, e := range kinds[k].BacktestRelErrors {
				m = math.Max(m, math.Abs(e))
			}
			kinds[k].BacktestMaxAbsRelError = &m
			if k < 2 {
				n := in[k]
				kinds[k].BacktestInSpread = &n
				if n < ch.Splits {
					ch.Notes = append(ch.Notes, fmt.Sprintf("%s: the spread of plausible models held the observed wall time in %d of %d backtest splits: it is no interval and understates the uncertainty; read the backtest error (largest %.0f %%) instead", kinds[k].Kind, n, ch.Splits, 100*m))
				}
			}
		}
	}
	w, m := kinds[0].BacktestMaxAbsRelError, kinds[1].BacktestMaxAbsRelError
	switch {
	case w == nil:
		ch.Used = KindWallTime
		cg := cgBacktestMaxAbs
		ch.Reason = fmt.Sprintf("no backtest on these runs (it needs runs at three or more different P > 1, have %d), so the default, the direct extrapolation; for reference, on Elliott's (004) CG A, B, C runs its largest backtest error was %.0f, %.0f, %.0f %% against %.0f, %.0f, %.0f %% through the 004 model",
			runs, 100*cg[KindWallTime][0], 100*cg[KindWallTime][1], 100*cg[KindWallTime][2], 100*cg[KindModel004][0], 100*cg[KindModel004][1], 100*cg[KindModel004][2])
	case *m < *w:
		ch.Used = KindModel004
		ch.Reason = fmt.Sprintf("on these runs' leave-one-out backtest the 004 model route erred less: largest |rel_error| %.0f %% against %.0f %% for the direct extrapolation", 100**m, 100**w)
	default:
		ch.Used = KindWallTime
		ch.Reason = fmt.Sprintf("on these runs' leave-one-out backtest the direct extrapolation erred less: largest |rel_error| %.0f %% against %.0f %% through the 004 model", 100**w, 100**m)
	}
	for k := range kinds {
		kinds[k].UsedForSizing = kinds[k].Kind == ch.Used
	}
	ch.Kinds = kinds
	if runs < MinRunsForInterval {
		ch.Notes = append(ch.Notes, fmt.Sprintf("no prediction interval: it needs runs at ≥ %d different P (have %d); the forecasts' spreads are ranges of plausible scaling models, and the backtest error is the honest guide to their accuracy", MinRunsForInterval, runs))
	}
	return ch
}

// WallForecast extrapolates the measured wall time AT* = App_Time/P of the runs (P > 1) to
// target directly (the wall_time kind).
func WallForecast(runs []Inputs, target int) (Extrapolation, error) {
	var ps, at []float64
	for _, r := range runs {
		if r.P > 1 {
			ps, at = append(ps, float64(r.P)), append(at, r.AppTime/float64(r.P))
		}
	}
	return Extrapolate("wall time AT* = App_Time/P", "s", ps, at, target)
}
