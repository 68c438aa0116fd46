package spmd

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// MaxSurfacePoints bounds the points of one Surface (4 million points, about 600 MB of results).
const MaxSurfacePoints = 4_000_000

// Skipped is a (p, d) of a surface the model cannot be evaluated at, and why.
type Skipped struct {
	P, D   int
	Reason string
}

// Surface evaluates the model over p ∈ ps and d ∈ ds (row-major in p), skipping invalid
// combinations (reported). progress, if not nil, is called after each p.
// The whole surface's estimated work (Σ Work(p, d)) and its number of points are checked
// before any evaluation: more than MaxWork steps or MaxSurfacePoints points are refused with
// fault.ErrTooLarge.
func (e *Evaluator) Surface(ps, ds []int, progress func(done, total int)) ([]Point, []Skipped, error) {
	return e.SurfaceContext(context.Background(), ps, ds, progress)
}

// SurfaceContext is Surface stopped by ctx between two values of p, or within one (an SIO
// model's fork/join sum at a large p: see EvaluateContext): when ctx is cancelled it
// returns the points of the p values finished (the first ones of ps) with an error
// wrapping fault.ErrInterrupted and ctx's error.
func (e *Evaluator) SurfaceContext(ctx context.Context, ps, ds []int, progress func(done, total int)) ([]Point, []Skipped, error) {
	if n := float64(len(ps)) * float64(len(ds)); n > MaxSurfacePoints {
		return nil, nil, fmt.Errorf("%w: %d p values × %d d values = %.3g points; the limit is %g", fault.ErrTooLarge, len(ps), len(ds), n, float64(MaxSurfacePoints))
	}
	w := 0.0
	for _, p := range ps {
		// SIO models cache the fork/join network per p: count it once per p
		if e.m.Arch == BusSIO || e.m.Arch == CluSIO {
			w += e.Work(p, 1)
			continue
		}
		for _, d := range ds {
			if e.m.CheckConfig(p, d) == nil { // skipped configurations cost nothing
				w += e.Work(p, d)
			}
		}
	}
	if w > e.maxWork() {
		return nil, nil, e.tooLarge(fmt.Sprintf("the surface of %d × %d points", len(ps), len(ds)), w)
	}
	// allocated once at its largest (every point valid): appending would copy the growing
	// slice, holding up to twice the surface while it grows
	pts := make([]Point, 0, len(ps)*len(ds))
	var skipped []Skipped
	for i, p := range ps {
		if ctx.Err() != nil {
			return pts, skipped, fmt.Errorf("%w after %d of %d values of p: %w", fault.ErrInterrupted, i, len(ps), ctx.Err())
		}
		done, doneSkipped := len(pts), len(skipped)
		for _, d := range ds {
			pt, err := e.EvaluateContext(ctx, p, d)
			if errors.Is(err, fault.ErrInterrupted) {
				return pts[:done], skipped[:doneSkipped], fmt.Errorf("%w after %d of %d values of p: %w", fault.ErrInterrupted, i, len(ps), ctx.Err())
			}
			var ce *ConfigError
			if errors.As(err, &ce) {
				skipped = append(skipped, Skipped{p, d, ce.Reason})
				continue
			}
			if err != nil {
				return nil, nil, err
			}
			pts = append(pts, pt)
		}
		if progress != nil {
			progress(i+1, len(ps))
		}
	}
	return pts, skipped, nil
}

// Best returns the point of least time among pts (ties: fewer processors, then disks).
func Best(pts []Point) (Point, bool) {
	if len(pts) == 0 {
		return Point{}, false
	}
	b := pts[0]
	for _, pt := range pts[1:] {
		if pt.Time < b.Time*(1-1e-12) || (math.Abs(pt.Time-b.Time) <= 1e-12*b.Time && (pt.P < b.P || (pt.P == b.P && pt.D < b.D))) {
			b = pt
		}
	}
	return b, true
}

// LargestEfficient returns, for each d, the largest p among pts whose efficiency s/p is at
// least threshold.
func LargestEfficient(pts []Point, threshold float64) map[int]Point {
	out := map[int]Point{}
	for _, pt := range pts {
		if pt.Efficiency >= threshold {
			if cur, ok := out[pt.D]; !ok || pt.P > cur.P {
				out[pt.D] = pt
			}
		}
	}
	return out
}

// Limit is an asymptotic speedup.
type Limit struct {
	Speedup   float64 `json:"speedup"`      // the limit (0 when the speedup vanishes)
	Converged bool    `json:"converged"`    // the sequence settled (relative change < 1e-4) before the cap, or a closed form
	AtValue   int     `json:"evaluated_at"` // the largest p or d evaluated (0 for a closed form)
	Note      string  `json:"note"`         // the thesis's statement for this case
	// ClosedForm: Speedup is the documents' closed-form limit (exact), not a value at a
	// large finite p. Unbounded: the speedup grows without limit (Speedup is then NaN, which
	// the CLI prints as n/a and JSON as null).
	ClosedForm bool `json:"closed_form"`
	Unbounded  bool `json:"unbounded,omitempty"`
}

// LimitD returns s(p, d → ∞): the I/O transfer vanishes, I/O startup remains
// (001 §5.2.1, §5.3.1: "the speedup tends to 1/(τ_comp + σ_n)"). Evaluated at d = 2^30
// (CLU models need p ≥ d, so there d grows with p: see LimitP).
func (e *Evaluator) LimitD(p int) (Limit, error) {
	if e.m.Arch == CluAIO || e.m.Arch == CluSIO {
		return Limit{Note: "CLU models need p ≥ d: d → ∞ only with p → ∞ (001 §5.5.1)", Speedup: math.NaN()}, nil
	}
	pt, err := e.Evaluate(p, 1<<30)
	if err != nil {
		return Limit{}, err
	}
	return Limit{Speedup: pt.Speedup, Converged: true, AtValue: 1 << 30, Note: "I/O transfer SR_IO/d → 0; the I/O startup (σ_n) stays (001 §5.2.1, §5.3.1)"}, nil
}

// LimitP returns s(p → ∞, d), evaluated along p = step·2^k (step the smallest valid p) until
// the speedup settles or p reaches maxP (default 2^20; 2^12 for CLU-AIO). The thesis's
// conclusions (001 §5.2.1, 5.3.1, 5.5.1) are given in Note.
//
// When the documents give the limit in closed form (closedLimitP: 001 eq. 5.9, the BUS-AIO
// and CLU-AIO limits, the optimistic bounds) that value is returned with ClosedForm set;
// the numerical sequence is only for the other cases, and its note never states "s → 0"
// beside a finite limit.
func (e *Evaluator) LimitP(d, maxP int) (Limit, error) {
	if d < 1 || d > MaxP {
		return Limit{}, &ConfigError{1, d, fmt.Sprintf("d must be in 1 … %d", MaxP)}
	}
	if s, unb, note, ok := e.closedLimitP(d); ok {
		return Limit{Speedup: s, Converged: true, ClosedForm: true, Unbounded: unb, Note: note}, nil
	}
	if maxP <= 0 {
		maxP = 1 << 20
		if e.m.Arch == CluAIO {
			maxP = 1 << 12
		}
	}
	step := 1
	for _, ph := range e.m.Phases {
		step = lcm(step, ph.C)
	}
	if e.m.Arch == CluAIO {
		step = lcm(step, step*d)
	}
	for step < d {
		step *= 2
	}
	var prev, last Point
	lim := Limit{Note: "numerical: no closed form covers this case; " + e.limitNote()}
	for p := step; p <= maxP; p *= 2 {
		pt, err := e.Evaluate(p, d)
		if err != nil {
			return Limit{}, err
		}
		prev, last = last, pt
		lim.AtValue = p
		if prev.P > 0 && math.Abs(last.Speedup-prev.Speedup) <= 1e-4*last.Speedup {
			lim.Converged = true
			break
		}
	}
	lim.Speedup = last.Speedup
	switch {
	case lim.Converged:
		lim.Note = fmt.Sprintf("numerical: s settled at p = %d (relative change < 1e-4); no closed form covers this case", lim.AtValue)
	case prev.P > 0 && last.Speedup < prev.Speedup:
		lim.Note += fmt.Sprintf("; still falling at p = %d (s = %.4g): the limit is taken as 0", last.P, last.Speedup)
		lim.Speedup = 0
	default:
		lim.Note = fmt.Sprintf("numerical: still rising at p = %d (s = %.4g); the limit is at least this", last.P, last.Speedup)
	}
	return lim, nil
}

func (e *Evaluator) limitNote() string {
	switch e.m.Arch {
	case BusSIO, CluSIO:
		return "001 §5.2.1: with w = 0, r > 1 and no startup τ_comp → 0 and s → 1/τ_IO; otherwise s → 0"
	case BusAIO:
		return "001 §5.3.1: the I/O queue's constant part c·σ_n (or the network queue when w > 0) grows with p/c jobs: s → 0"
	case CluAIO:
		return "001 §5.5.1: with w = 0, s → d/σ_d; with w > 0, s → 0"
	case OptimisticAIO:
		return "001 §5.1: an upper bound, linear in p"
	}
	return "001 §5.1: an upper bound; h(p) grows as ln p"
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }

// ErrorEstimate is how far a model's answer is believed to be from the program it models,
// measured: the range of (model − simulated)/simulated over a grid, and against what.
type ErrorEstimate struct {
	RelError    float64 `json:"rel_error"` // the larger of |MinRelError| and |MaxRelError|
	MinRelError float64 `json:"min_rel_error"`
	MaxRelError float64 `json:"max_rel_error"`
	Against     string  `json:"against"`
	Grid        string  `json:"grid"`
}

// ForkJoinErrorEstimate is the measured error of 000 eq. 16's fork/join approximation, the
// BUS-SIO and CLU-SIO models' T_comp = n_IO·Σ R(i)/i: (eq. 16 − simulated)/simulated per
// cycle ranged from −0.4 % to +12.3 % (eq. 16 is pessimistic; larger where the exact I/O
// term is small beside the computation, i.e. at large d, and with c > 1 and heavy
// communication). Measured by sim's TestEq16Error (which checks every point stays in this
// range within its 95 % half-width) on the 2-vCPU machine, 8 replications of 2000 cycles
// per point. Programs that break the model's assumptions differ far more (fixed burst
// counts, less variable bursts: +35 … +157 %, docs/studies.md §2).
var ForkJoinErrorEstimate = ErrorEstimate{
	RelError: 0.123, MinRelError: -0.004, MaxRelError: 0.123,
	Against: "direct simulation of the program (sim.SimulateSPMD) under the model's own assumptions: exponential CPU bursts, a geometric number of bursts per I/O burst (000 §3.4)",
	Grid:    "two programs (σ_p = 0.8, w = 0.3, n_IO = 5; σ_p = 0.5, w = 0.6, n_IO = 2), c ∈ {1, 4}, p ∈ {4, 8, 16, 32, 64}, d ∈ {1, 4, 16} (p ≥ d): sim TestEq16Error",
}

// Method says how Evaluate computes the model's times and whether they are the exact
// solution of the model the documents define: BUS-SIO and CLU-SIO use 000 eq. 16's fork/join
// approximation (not exact; est is ForkJoinErrorEstimate), BUS-AIO exact MVA, CLU-AIO an
// exact convolution, the optimistic architectures closed-form bounds (exact for the bound).
func (m *Model) Method() (method string, exact bool, est *ErrorEstimate) {
	switch m.Arch {
	case BusSIO, CluSIO:
		e := ForkJoinErrorEstimate
		return "fork/join approximation (000 eq. 16) over exact MVA of {delay, network queue}", false, &e
	case BusAIO:
		return "exact MVA of {delay, network queue, I/O queue} (001 eq. 5.11)", true, nil
	case CluAIO:
		return "exact convolution over the product form of d symmetric classes (000 §4.3)", true, nil
	default:
		return "optimistic bound, closed form (001 §5.1)", true, nil
	}
}
