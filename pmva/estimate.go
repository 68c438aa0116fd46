package pmva

import (
	"fmt"
	"math"
	"strings"
)

// ErrorEstimate is how far the performance model's predicted times (eq. 6.5) are from the
// measured times of the network they predict: the approximation's measured error.
type ErrorEstimate struct {
	// MaxAbsRelError is the largest |predicted − measured median|/measured median over every
	// algorithm and p (Point.RelError); absent when nothing was run (--q, --k).
	MaxAbsRelError *float64 `json:"max_abs_rel_error,omitempty"`
	// MaxSpread is the largest speed spread (max − min)/median of those runs: the machine's
	// own noise, below which no prediction can be judged.
	MaxSpread *float64 `json:"max_spread,omitempty"`
	Against   string   `json:"against"`
}

// Estimate is the error estimate of pts: measured against each point's runs of the
// predicted network (Run), or, when no point was run, a statement that it is unmeasured.
func Estimate(pts []Point) ErrorEstimate {
	worst, spread := -1.0, -1.0
	var at []string
	for _, p := range pts {
		if p.RelError == nil || p.Measured == nil {
			continue
		}
		worst = max(worst, math.Abs(*p.RelError))
		spread = max(spread, p.Measured.Spread)
		at = append(at, fmt.Sprintf("%s p = %d", p.Algorithm, p.P))
	}
	if worst < 0 {
		return ErrorEstimate{Against: "unmeasured: q and k given, no runs to compare the predicted times with (run without --q/--k to measure it)"}
	}
	return ErrorEstimate{MaxAbsRelError: &worst, MaxSpread: &spread,
		Against: fmt.Sprintf("the median measured times of the predicted network itself at %d points (%s), runs the calibration never saw", len(at), strings.Join(at, ", "))}
}

// SuperlinearNotes says, for every point whose predicted speedup (eq. 6.8) exceeds p, why:
// eq. (6.8) is T(1)/T(p) with T(1) from q(1) and T(p) from q(p), k(p); q(p) below q(1) can
// only come from the per-point costs timed on the calibration network (cal: their runs,
// with spread = (max − min)/median), i.e. timing noise or cache effects of the machine the
// calibration ran on, not from the algorithm (001 §6.1: p workers share the work, speedup
// ≤ p when q(p) ≥ q(1)). The figures are run-dependent.
func SuperlinearNotes(pts []Point, cal []Sample) []string {
	var out []string
	for _, p := range pts {
		out = append(out, superlinearForms(p)...)
		if p.P < 2 || !(p.Speedup > float64(p.P)*(1+1e-9)) {
			continue
		}
		spread := -1.0
		for _, s := range cal {
			if s.Algorithm == p.Algorithm && (s.P == 1 || s.P == p.P) {
				spread = max(spread, s.Spread)
			}
		}
		src := "given"
		if spread >= 0 {
			src = fmt.Sprintf("timed on the calibration network, whose runs at p = 1 and %d spread up to %.0f %%", p.P, 100*spread)
		}
		rel := "against"
		if p.Q < p.Q1 {
			rel = "below"
		}
		out = append(out, fmt.Sprintf("%s p = %d: predicted speedup %.3g is superlinear (above p): eq. (6.8) with q(%d) = %.3g s %s q(1) = %.3g s per point (%s); a per-point cost that falls with more workers is timing noise or cache effects of this loaded, shared machine, not the algorithm, and another run will give another figure",
			p.Algorithm, p.P, p.Speedup, p.P, p.Q, rel, p.Q1, src))
	}
	return out
}

// superlinearForms notes the α forms of a point (eq. 6.9, eq. 6.10, the BUS-AIO c = 2 model)
// whose speedup exceeds its p: SuperlinearNotes looked at eq. (6.8) alone, so any other
// speedup column above p went without a word (issue 33: a speedup of 8.24 on 2 workers).
// Eq. (6.10) a/(a/p + 1) and BUS-AIO 1/(1.5/p + σ) stay below p for α, σ ≥ 0; eq. (6.9) need
// not, with an α from noisy timings.
func superlinearForms(p Point) []string {
	if p.P < 2 {
		return nil
	}
	var out []string
	for _, f := range []struct {
		v    *float64
		name string
	}{{p.SpeedupAlpha, "eq. (6.9)"}, {p.SpeedupLimit, "eq. (6.10)"}, {p.BusAIO, "the BUS-AIO c = 2 model (Fig. 6.9)"}} {
		if f.v != nil && *f.v > float64(p.P)*(1+1e-9) {
			alpha := "-"
			if p.Alpha != nil {
				alpha = fmt.Sprintf("%.3g", *p.Alpha)
			}
			out = append(out, fmt.Sprintf("%s p = %d: %s gives a speedup of %.3g on %d workers, above p: implausible (no partition of the work is faster than p times one worker); α = q(p)/k(p) = %s from q(%d) = %.3g s, k(%d) = %.3g s is not a plausible calibration — check the timings and their spread",
				p.Algorithm, p.P, f.name, *f.v, p.P, alpha, p.P, p.Q, p.P, p.K))
		}
	}
	return out
}
