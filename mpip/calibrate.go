package mpip

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// MinDOFForInterval is the fewest residual degrees of freedom for which Calibrate gives a
// Student-t interval (t_{0.975,3} = 3.18; with 1, t = 12.7).
const MinDOFForInterval = 3

// CalibrateOptions choose what Calibrate fits.
type CalibrateOptions struct {
	// BandwidthBytesPerS > 0 fixes the bandwidth (e.g. from osu_bw through package netbench)
	// and fits the latency alone; 0 fits both when the runs' message sizes allow it.
	BandwidthBytesPerS float64
	// MinSizeRatio is the spread max L / min L the runs need before a bandwidth is fitted
	// (default 2): with sizes within a factor 2 the term L/BW cannot be told from Lat.
	MinSizeRatio float64
}

// RunCalibration is what one run says about the network: the switch delay D_0 at which the
// 004 model reproduces its observed wall time AT* = App_Time/P.
type RunCalibration struct {
	Label               string   `json:"label"`
	P                   int      `json:"p"`
	MeanSizeBytes       float64  `json:"mean_size_bytes"`
	ImpliedSwitchDelayS float64  `json:"implied_switch_delay_s"`
	ObservedAppTimeS    float64  `json:"observed_app_time_s"`  // AT*
	ModelAppTimeS       float64  `json:"model_app_time_s"`     // AT with the calibrated network
	ModelAppTimeLowS    float64  `json:"model_app_time_low_s"` // with D_0 at its interval's ends
	ModelAppTimeHighS   float64  `json:"model_app_time_high_s"`
	RelError            float64  `json:"rel_error"` // (AT − AT*)/AT* with the calibrated network
	ZeroNetworkAppTimeS float64  `json:"zero_network_app_time_s"`
	Notes               []string `json:"notes,omitempty"`
}

// Calibration is the network (latency, bandwidth) fitted to the observed wall times of given
// runs. It is an explanation of those runs, not a prediction: Kind says so.
type Calibration struct {
	Kind     string  `json:"kind"` // always "calibration"
	Method   string  `json:"method"`
	Exact    bool    `json:"exact"`
	LatencyS float64 `json:"latency_s"`
	// 95 % interval of the latency; equal to it when no degree of freedom is left (see Notes).
	LatencyLowS  float64 `json:"latency_low_s"`
	LatencyHighS float64 `json:"latency_high_s"`
	// BandwidthBytesPerS is nil when the bandwidth was neither given nor identifiable: the
	// switch delay is then Lat alone (L/BW absorbed in it).
	BandwidthBytesPerS *float64         `json:"bandwidth_bytes_per_s"`
	BandwidthFitted    bool             `json:"bandwidth_fitted"`
	DegreesOfFreedom   int              `json:"degrees_of_freedom"`
	Runs               []RunCalibration `json:"runs"`
	Notes              []string         `json:"notes,omitempty"`

	// IntervalKind says what LatencyLowS…LatencyHighS and the runs' low/high times are:
	// "student_t_95" (≥ MinDOFForInterval degrees of freedom), "range_of_runs" (fewer: the
	// range of the runs' residuals around the fit, a spread and not a confidence interval),
	// or "none" (an exact fit).
	IntervalKind string `json:"interval_kind"`

	invBW    float64 // fitted 1/BW (0: none)
	rlo, rhi float64 // range of the residuals of the implied delays around the fit
	cov      [2][2]float64
	q        float64 // Student-t quantile for the intervals (0: none)
	fitBW    bool
}

// SwitchDelay is the calibrated D_0 = Lat + L/BW for mean message size l, with its 95 %
// interval (the mean response's interval of the fitted line, clipped at 0).
func (c *Calibration) SwitchDelay(l float64) (d0, lo, hi float64) {
	d0 = c.LatencyS + l*c.invBW
	if c.q == 0 {
		return d0, math.Max(d0+c.rlo, 0), math.Max(d0+c.rhi, 0)
	}
	v := c.cov[0][0]
	if c.fitBW {
		v += 2*l*c.cov[0][1] + l*l*c.cov[1][1]
	}
	h := c.q * math.Sqrt(math.Max(v, 0))
	return d0, math.Max(d0-h, 0), d0 + h
}

// ModelAppTime solves the 004 model of a run with switch delay d0: AT = R·M/P, s.
func ModelAppTime(in Inputs, d0 float64) (float64, error) {
	d := in.Demands()
	d.D0 = d0
	r, err := SolveDemands(in, d)
	if err != nil {
		return 0, err
	}
	return r.AppTime.Model, nil
}

// ImpliedSwitchDelay is the D_0 at which the 004 model's wall time AT = R·M/P equals the
// observed AT* = App_Time/P. AT grows with D_0 (a larger demand lowers the closed network's
// throughput X, and R = N/X), so bisection on [0, hi] finds it; 0 (with the model's AT at 0)
// when even a network without delay gives more than AT*.
func ImpliedSwitchDelay(in Inputs) (d0, atZero float64, err error) {
	target := in.AppTime / float64(in.P)
	if d := in.Demands(); d.Dk+d.Compute > 0 {
		if atZero, err = ModelAppTime(in, 0); err != nil {
			return 0, 0, err
		}
	} // else: no demand but the switch's: AT = D_0·M/P → 0 with D_0
	if err := in.Validate(); err != nil {
		return 0, 0, err
	}
	if atZero >= target {
		return 0, atZero, nil
	}
	// AT ≥ D_0·M/P (every cycle crosses the switch), so D_0 = AT*·P/M bounds the root.
	lo, hi := 0.0, target*float64(in.P)/in.M
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := (lo + hi) / 2
		at, err := ModelAppTime(in, mid)
		if err != nil {
			return 0, 0, err
		}
		if at < target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2, atZero, nil
}

// Calibrate fits the network of 004's switch delay, D_0 = Lat + L/BW, to the observed wall
// times of the given runs (P > 1; 004's P = 1 rows send no messages): each run's implied D_0
// (ImpliedSwitchDelay) is regressed on its mean message size L by least squares — Lat alone
// when the bandwidth is given or not identifiable (sizes within MinSizeRatio, or a fit with
// negative Lat or BW), else Lat and 1/BW. Intervals are 95 % Student-t with n − k degrees of
// freedom; with none left the fit is exact and the notes say how many runs an interval needs.
func Calibrate(runs []Inputs, o CalibrateOptions) (*Calibration, error) {
	if o.MinSizeRatio <= 0 {
		o.MinSizeRatio = 2
	}
	if o.BandwidthBytesPerS < 0 || math.IsNaN(o.BandwidthBytesPerS) || math.IsInf(o.BandwidthBytesPerS, 0) {
		return nil, inputErrorf("calibration: bandwidth %v must be finite and > 0 (or 0 to fit it)", o.BandwidthBytesPerS)
	}
	c := &Calibration{Kind: "calibration", Notes: []string{"a calibrated network explains the given runs; it is not a prediction (see the backtest for how well it transfers)"}}
	use, minL, maxL, err := c.impliedDelays(runs)
	if err != nil {
		return nil, err
	}
	n := len(use)
	xs := make([]float64, n)
	ys := make([]float64, n)
	for i, r := range c.Runs {
		xs[i], ys[i] = r.MeanSizeBytes, r.ImpliedSwitchDelayS
	}
	const latOnly = "mean of the implied switch delays D_0 (latency only; L/BW absorbed)"
	switch {
	case o.BandwidthBytesPerS > 0:
		c.fitLatency(xs, ys, 1/o.BandwidthBytesPerS)
		bw := o.BandwidthBytesPerS
		c.BandwidthBytesPerS = &bw
		c.Method = "least squares of the implied switch delays D_0 = Lat + L/BW with BW given; Lat fitted"
	case n >= 2 && maxL >= o.MinSizeRatio*minL:
		if !c.fitLatencyBandwidth(xs, ys) {
			c.fitLatency(xs, ys, 0)
			c.Method = latOnly
		}
	default:
		if n >= 2 {
			c.Notes = append(c.Notes, fmt.Sprintf("mean message sizes %.4g … %.4g bytes differ by less than a factor %g: the bandwidth cannot be told from the latency; latency alone fitted (give a bandwidth, e.g. from osu_bw)", minL, maxL, o.MinSizeRatio))
		}
		c.fitLatency(xs, ys, 0)
		c.Method = latOnly
	}
	c.intervals(xs, ys)
	// Spread of the implied delays: a network property should not depend on P.
	lo, hi := math.Inf(1), 0.0
	for _, r := range c.Runs {
		lo, hi = math.Min(lo, r.ImpliedSwitchDelayS), math.Max(hi, r.ImpliedSwitchDelayS)
	}
	if n >= 2 && lo > 0 && hi > 2*lo && !c.fitBW {
		c.Notes = append(c.Notes, fmt.Sprintf("the implied switch delays range over %.3g … %.3g s (×%.2g): no single network explains all runs; what the delay absorbs (wait, imbalance) changes with P", lo, hi, hi/lo))
	}
	for i := range c.Runs {
		if err := c.fillView(&c.Runs[i], use[i]); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// impliedDelays validates the runs, keeps those with P > 1 (in order of P) and adds each
// one's implied switch delay D_0 to c.Runs; it returns the runs kept and the range of their
// mean message sizes.
func (c *Calibration) impliedDelays(runs []Inputs) (use []Inputs, minL, maxL float64, err error) {
	for _, r := range runs {
		if err := r.Validate(); err != nil {
			return nil, 0, 0, err
		}
		if r.P > 1 {
			use = append(use, r)
		}
	}
	if len(use) == 0 {
		return nil, 0, 0, inputErrorf("calibration needs runs with P > 1 (messages between processes)")
	}
	sort.SliceStable(use, func(i, j int) bool { return use[i].P < use[j].P })
	minL, maxL = math.Inf(1), 0.0
	for _, r := range use {
		d0, at0, err := ImpliedSwitchDelay(r)
		if err != nil {
			return nil, 0, 0, err
		}
		rc := RunCalibration{Label: r.Label, P: r.P, MeanSizeBytes: r.L, ImpliedSwitchDelayS: d0, ObservedAppTimeS: r.AppTime / float64(r.P), ZeroNetworkAppTimeS: at0}
		if d0 == 0 {
			rc.Notes = append(rc.Notes, fmt.Sprintf("even with no switch delay the model gives %.4g s > observed %.4g s: the CPU and computation demands alone overestimate this run", at0, rc.ObservedAppTimeS))
		}
		c.Runs = append(c.Runs, rc)
		minL, maxL = math.Min(minL, r.L), math.Max(maxL, r.L)
	}
	return use, minL, maxL, nil
}

// fitLatency fits Lat alone with 1/BW fixed: Lat = max(mean(D_0 − L/BW), 0), its variance
// s²/n with n − 1 degrees of freedom.
func (c *Calibration) fitLatency(xs, ys []float64, invBW float64) {
	n := len(xs)
	c.fitBW, c.invBW = false, invBW
	mean := 0.0
	for i := range xs {
		mean += (ys[i] - invBW*xs[i]) / float64(n)
	}
	c.LatencyS = math.Max(mean, 0)
	c.DegreesOfFreedom = n - 1
	if n >= 2 {
		ss := 0.0
		for i := range xs {
			r := ys[i] - invBW*xs[i] - mean
			ss += r * r
		}
		c.cov[0][0] = ss / float64(n-1) / float64(n)
	}
}

// fitLatencyBandwidth fits D_0 = Lat + L/BW by ordinary least squares (covariance
// s²·[[1/n + x̄²/Sxx, −x̄/Sxx], [−x̄/Sxx, 1/Sxx]] with n − 2 degrees of freedom); false, with a
// note, when the fit is not a network (1/BW ≤ 0 or Lat < 0).
func (c *Calibration) fitLatencyBandwidth(xs, ys []float64) bool {
	n := len(xs)
	var mx, my float64
	for i := range xs {
		mx += xs[i] / float64(n)
		my += ys[i] / float64(n)
	}
	var sxx, sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	b := sxy / sxx
	a := my - b*mx
	if !(b > 0 && a >= 0) {
		c.Notes = append(c.Notes, fmt.Sprintf("a fit of Lat and BW gives Lat = %.3g s, 1/BW = %.3g s/B: not a network (negative); latency alone fitted", a, b))
		return false
	}
	c.fitBW, c.invBW, c.LatencyS = true, b, a
	bw := 1 / b
	c.BandwidthBytesPerS, c.BandwidthFitted = &bw, true
	c.DegreesOfFreedom = n - 2
	if n > 2 {
		ss := 0.0
		for i := range xs {
			r := ys[i] - a - b*xs[i]
			ss += r * r
		}
		s2 := ss / float64(n-2)
		c.cov = [2][2]float64{{s2 * (1/float64(n) + mx*mx/sxx), -s2 * mx / sxx}, {-s2 * mx / sxx, s2 / sxx}}
	}
	c.Method = "least squares of the implied switch delays D_0 = Lat + L/BW over the runs' mean sizes L; Lat and 1/BW fitted"
	return true
}

// intervals sets the range of the residuals around the fit and the latency's interval:
// a 95 % Student-t interval with ≥ MinDOFForInterval degrees of freedom, the range of the
// runs with fewer, none for an exact fit (each saying so in the notes).
func (c *Calibration) intervals(xs, ys []float64) {
	n := len(xs)
	k := 1
	if c.fitBW {
		k = 2
	}
	for i := range xs {
		r := ys[i] - c.LatencyS - c.invBW*xs[i]
		if i == 0 || r < c.rlo {
			c.rlo = r
		}
		if i == 0 || r > c.rhi {
			c.rhi = r
		}
	}
	switch {
	case c.DegreesOfFreedom >= MinDOFForInterval:
		c.IntervalKind = "student_t_95"
		c.q = distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(c.DegreesOfFreedom)}.Quantile(0.975)
		h := c.q * math.Sqrt(c.cov[0][0])
		c.LatencyLowS, c.LatencyHighS = math.Max(c.LatencyS-h, 0), c.LatencyS+h
		c.Method += fmt.Sprintf("; 95 %% Student-t intervals with %d degrees of freedom", c.DegreesOfFreedom)
	case c.DegreesOfFreedom >= 1:
		c.IntervalKind = "range_of_runs"
		c.LatencyLowS, c.LatencyHighS = math.Max(c.LatencyS+c.rlo, 0), math.Max(c.LatencyS+c.rhi, 0)
		c.Notes = append(c.Notes, fmt.Sprintf("%d runs for %d parameter(s) leave %d degree(s) of freedom: a 95 %% interval needs ≥ %d runs (t_{0.975,1} = 12.7 would give a meaningless interval); the range of the runs' implied delays around the fit is shown instead", n, k, c.DegreesOfFreedom, k+MinDOFForInterval))
	default:
		c.IntervalKind = "none"
		c.LatencyLowS, c.LatencyHighS = c.LatencyS, c.LatencyS
		c.Notes = append(c.Notes, fmt.Sprintf("%d run(s) for %d parameter(s): exact fit, no interval (a range needs ≥ %d runs, a 95 %% interval ≥ %d)", n, k, k+1, k+MinDOFForInterval))
	}
}

// fillView solves a run with the calibrated network and the ends of its interval.
func (c *Calibration) fillView(rc *RunCalibration, in Inputs) error {
	d0, lo, hi := c.SwitchDelay(in.L)
	var err error
	if rc.ModelAppTimeS, err = ModelAppTime(in, d0); err != nil {
		return err
	}
	if rc.ModelAppTimeLowS, err = ModelAppTime(in, lo); err != nil {
		return err
	}
	if rc.ModelAppTimeHighS, err = ModelAppTime(in, hi); err != nil {
		return err
	}
	rc.ObservedAppTimeS = in.AppTime / float64(in.P)
	rc.RelError = (rc.ModelAppTimeS - rc.ObservedAppTimeS) / rc.ObservedAppTimeS
	return nil
}

// Apply solves a run not used in the calibration with the calibrated network: its measured
// profile (App_Time, MPI_Time, MPI_Wait, M, L) and the fitted D_0, with the interval of D_0
// carried through the model (AT is monotone in D_0).
func (c *Calibration) Apply(in Inputs) (RunCalibration, error) {
	if err := in.Validate(); err != nil {
		return RunCalibration{}, err
	}
	rc := RunCalibration{Label: in.Label, P: in.P, MeanSizeBytes: in.L}
	rc.ImpliedSwitchDelayS, rc.ZeroNetworkAppTimeS, _ = ImpliedSwitchDelay(in)
	return rc, c.fillView(&rc, in)
}

// ProfileInputs are a report's collected values without network figures, for Calibrate,
// BacktestRuns and Forecast, which replace the switch delay D_0 with the calibrated one
// (Lat = 0, BW = 1 B/s are placeholders that no result of those functions uses).
func ProfileInputs(s Summary) Inputs { return InputsFrom(s, 0, 1) }
