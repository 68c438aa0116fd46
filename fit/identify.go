package fit

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/spmd"
)

// Direction is one direction of parameter space the data do not determine (an eigenvector
// of JᵀJ with eigenvalue below 1e-12 of the largest; SPMDResult.Unidentified), followed as
// far as the data allow, and the runs that would determine it (issue 21: reconcile "not
// identifiable" with the narrow prediction and bootstrap intervals).
//
// From the optimum x̂ the line x̂ + t·v is followed both ways until a free parameter reaches
// its bound or the cost Σr² exceeds its minimum by χ²₁(0.95)·s² = 3.84·s² (the likelihood-ratio
// limit of one parameter; s² = cost/(n − k)). The other parameters are not re-optimised along
// the line, so the segment is the least the data allow (a profile would be at least as long).
type Direction struct {
	Terms      string       `json:"direction"`  // as in SPMDResult.Unidentified
	Parameters []ParamRange `json:"parameters"` // the parameters that move, at the segment's ends
	LimitedBy  string       `json:"limited_by"` // "bounds" or "data" (which stops the segment, at its nearer end)
	// MeasuredRelChange is the largest relative change of the fitted value at any measured
	// configuration along the segment: small means the predictions at the measurements, and
	// their intervals, do not depend on the undetermined direction.
	MeasuredRelChange float64 `json:"measured_rel_change"`
	// Identify lists unmeasured configurations (best first, at most 3, one per p) whose value changes
	// most along the segment, with that relative change and the relative noise of one run
	// there; Identifies is true when the change exceeds twice the noise (and 1e-6).
	Identify []Probe `json:"identify"`
	// Structural: no candidate configuration changes by more than twice the noise — no run
	// of the program at another p or d determines the direction; one of its parameters must
	// come from elsewhere (fixed in the model file from a separate measurement).
	Structural bool `json:"structural"`

	v      []float64 // over the free parameters, largest component ±1
	lo, hi float64   // the segment is t ∈ [lo, hi]
}

// ParamRange is a parameter's value at the two ends of a Direction's segment.
type ParamRange struct {
	Name   string  `json:"name"`
	Fitted float64 `json:"fitted"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
}

// Probe is a candidate run and how much the model's value there moves along a Direction.
type Probe struct {
	P          int     `json:"p"`
	D          int     `json:"d"`
	RelChange  float64 `json:"rel_change"` // (max − min)/fitted over the segment
	RelNoise   float64 `json:"rel_noise"`  // the fit's residual SD relative to the value there
	Identifies bool    `json:"identifies"`
}

// minMeasurable is the smallest relative change a run could show: below one part in a
// million it is the arithmetic's rounding (a fit with zero residuals has zero noise, and must
// not call a 1e-16 change a determination).
const minMeasurable = 1e-6

// chi2One95 is the 0.95 quantile of χ² with one degree of freedom.
const chi2One95 = 3.841458820694124

// Identifiability follows every undetermined direction of the fit (see Direction) and ranks
// the runs at p ≤ pmax, d ≤ dmax (measured values, powers of two and three times powers of
// two) that would determine it. It returns nil when every parameter is identified.
func (r *SPMDResult) Identifiability(pmax, dmax int) []Direction {
	if len(r.nulls) == 0 || r.problem == nil {
		return nil
	}
	measured := map[point]bool{}
	for _, o := range r.data.Obs {
		measured[point{o.P, o.D}] = true
	}
	cands := candidateGrid(r.data, pmax, dmax)
	var out []Direction
	for i, null := range r.nulls {
		// components below 1e-3 of the largest are the eigenvector's rounding, not part of
		// the direction (Unidentified leaves them out too): dropped, so that a parameter
		// sitting at its bound does not stop the segment through a 1e-10 component
		v := make([]float64, len(null))
		for j, c := range null {
			if math.Abs(c) > 1e-3 {
				v[j] = c
			}
		}
		d := Direction{Terms: r.Unidentified[i], v: v}
		d.lo, d.hi, d.LimitedBy = r.segment(v)
		free := r.spec.freeIdx()
		xlo, xhi := r.at(v, d.lo, make([]float64, len(r.x))), r.at(v, d.hi, make([]float64, len(r.x)))
		for j, pi := range free {
			if math.Abs(v[j]) > 1e-3 {
				d.Parameters = append(d.Parameters, ParamRange{Name: r.spec.Params[pi].Name, Fitted: r.x[j],
					Low: xlo[j], High: xhi[j]})
			}
		}
		for c := range measured {
			if ch, _, ok := r.change(d, c.p, c.d); ok {
				d.MeasuredRelChange = math.Max(d.MeasuredRelChange, ch)
			}
		}
		var probes []Probe
		for _, c := range cands {
			if measured[c] {
				continue
			}
			ch, val, ok := r.change(d, c.p, c.d)
			if !ok {
				continue
			}
			noise := math.Sqrt(r.s2)
			if r.spec.Objective == "absolute" {
				noise /= math.Abs(val)
			}
			probes = append(probes, Probe{P: c.p, D: c.d, RelChange: ch, RelNoise: noise, Identifies: ch > max(2*noise, minMeasurable)})
		}
		sort.SliceStable(probes, func(a, b int) bool { return probes[a].RelChange > probes[b].RelChange })
		seen := map[int]bool{} // one run per p (the d axis often does not matter)
		for _, pr := range probes {
			if !seen[pr.P] && len(d.Identify) < 3 {
				seen[pr.P] = true
				d.Identify = append(d.Identify, pr)
			}
		}
		d.Structural = len(probes) == 0 || !probes[0].Identifies
		out = append(out, d)
	}
	return out
}

// majorComponent is the smallest component (of a direction whose largest is ±1) whose
// parameter's bound ends the segment; a parameter with a smaller component is held at its
// bound once it reaches it (at), and the segment goes on (qcrd: s0_io = 1.3e-8, at its bound
// 0 within rounding, with component −0.0048, stopped the s_ser–s0_com direction at t ≈ 3e-6
// on one side, hiding the other end, where the absolute objective's optimum lies). The cost
// limit still applies to the bent path.
const majorComponent = 0.1

// at is x̂ + t·v with every free parameter clamped to its bounds (see majorComponent).
func (r *SPMDResult) at(v []float64, t float64, xt []float64) []float64 {
	free := r.spec.freeIdx()
	for j := range xt {
		xt[j] = r.x[j] + t*v[j]
		if j < len(free) {
			p := r.spec.Params[free[j]]
			xt[j] = math.Min(math.Max(xt[j], p.Min), p.Max)
		}
	}
	return xt
}

// segment is the interval [lo, hi] of t around 0 along v within the bounds of the free
// parameters with a major component (majorComponent; the others are clamped) and the
// data's limit (cost ≤ min + 3.84·s²), and what limits its nearer end.
func (r *SPMDResult) segment(v []float64) (lo, hi float64, limit string) {
	free := r.spec.freeIdx()
	lo, hi = math.Inf(-1), math.Inf(1)
	for j, pi := range free {
		p := r.spec.Params[pi]
		if math.Abs(v[j]) < majorComponent {
			continue
		}
		a, b := (p.Min-r.x[j])/v[j], (p.Max-r.x[j])/v[j]
		lo, hi = math.Max(lo, math.Min(a, b)), math.Min(hi, math.Max(a, b))
	}
	pr := r.problem()
	res := make([]float64, pr.M)
	xt := make([]float64, len(r.x))
	cost := func(t float64) float64 {
		r.at(v, t, xt)
		if err := pr.Residuals(xt, res); err != nil {
			return math.Inf(1)
		}
		s := 0.0
		for _, e := range res {
			s += e * e
		}
		return s
	}
	limitCost := cost(0) + chi2One95*r.s2
	byData := false
	shrink := func(edge float64) float64 {
		if edge == 0 || cost(edge) <= limitCost {
			return edge
		}
		byData = true
		good, bad := 0.0, edge
		for m := 1; m <= 40; m++ { // the largest t = edge·2^−m within the limit, then bisection
			if t := edge * math.Pow(2, -float64(m)); cost(t) <= limitCost {
				good, bad = t, 2*t
				break
			}
		}
		for it := 0; it < 30 && good != 0; it++ {
			if mid := (good + bad) / 2; cost(mid) <= limitCost {
				good = mid
			} else {
				bad = mid
			}
		}
		return good
	}
	lo, hi = shrink(lo), shrink(hi)
	limit = "bounds"
	if byData {
		limit = "data"
	}
	return lo, hi, limit
}

// change is the relative range (max − min)/value(0) of the model's value at (p, d) over five
// points of the direction's segment, and the value at the optimum.
func (r *SPMDResult) change(d Direction, p, dd int) (rel, val float64, ok bool) {
	lo, hi := math.Inf(1), math.Inf(-1)
	xt := make([]float64, len(r.x))
	for _, f := range []float64{0, d.lo, d.lo / 2, d.hi / 2, d.hi} {
		t := f
		r.at(d.v, t, xt)
		e, err := spmd.NewEvaluator(&spmd.Model{Arch: r.arch, Phases: []spmd.Phase{r.spec.phase(xt)}})
		if err != nil {
			return 0, 0, false
		}
		pt, err := e.Evaluate(p, dd)
		if err != nil {
			return 0, 0, false
		}
		y := pt.Time
		if r.Target != "time" {
			y = pt.Speedup
		}
		if t == 0 {
			val = y
		}
		lo, hi = math.Min(lo, y), math.Max(hi, y)
	}
	if !(val > 0) || math.IsInf(hi-lo, 0) {
		return 0, 0, false
	}
	return (hi - lo) / val, val, true
}

// RefTimeRange is the least and largest T_ref (000 eq. 1: n_IO(S_par + S_ser) + S0_IO +
// SR_IO, or the model file's reference_time) of the fitted model over five points of d's
// segment: T_ref is the T_1 of the fit's sizing (S = T_1/T), so a direction that moves it
// moves every speedup and efficiency there while the fitted times stay put.
func (r *SPMDResult) RefTimeRange(d Direction) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	xt := make([]float64, len(r.x))
	for _, t := range []float64{0, d.lo, d.lo / 2, d.hi / 2, d.hi} {
		m := spmd.Model{Arch: r.arch, Phases: []spmd.Phase{r.spec.phase(r.at(d.v, t, xt))}}
		lo, hi = math.Min(lo, m.RefTime()), math.Max(hi, m.RefTime())
	}
	return lo, hi
}

// DirectionChange is the relative change of the prediction at (p, d) along d's segment
// (false when the model cannot be evaluated there along the whole segment).
func (r *SPMDResult) DirectionChange(d Direction, p, dd int) (float64, bool) {
	ch, _, ok := r.change(d, p, dd)
	return ch, ok
}

// maxMeasuredAxis bounds the measured values candidateGrid takes per axis (evenly spaced
// among them): with the powers of two and their triples the grid stays within about
// (32 + 2·log2 pmax)·(32 + 2·log2 dmax) runs, each evaluated at 5 points per direction.
const maxMeasuredAxis = 32

// candidateGrid is every (p, d) with p among the measured values (at most
// maxMeasuredAxis of them), the powers of two and three times the powers of two up to pmax,
// and d likewise up to dmax.
func candidateGrid(data *Data, pmax, dmax int) []point {
	axis := func(measured map[int]bool, top int) []int {
		var ms []int
		for v := range measured {
			if v <= top {
				ms = append(ms, v)
			}
		}
		sort.Ints(ms)
		set := map[int]bool{}
		for i := 0; i < min(len(ms), maxMeasuredAxis); i++ { // evenly thinned to the budget
			set[ms[i*(len(ms)-1)/max(1, min(len(ms), maxMeasuredAxis)-1)]] = true
		}
		for v := 1; v <= top; v *= 2 {
			set[v] = true
			if 3*v <= top {
				set[3*v] = true
			}
		}
		var out []int
		for v := range set {
			out = append(out, v)
		}
		sort.Ints(out)
		return out
	}
	mp, md := map[int]bool{}, map[int]bool{}
	for _, o := range data.Obs {
		mp[o.P], md[o.D] = true, true
	}
	var out []point
	for _, p := range axis(mp, pmax) {
		for _, d := range axis(md, dmax) {
			out = append(out, point{p, d})
		}
	}
	return out
}

// Explain is d in words: which parameters move together and how far, whether the
// measured values move, and which runs would determine it.
func (d Direction) Explain(target string) string {
	var names, ranges []string
	for _, p := range d.Parameters {
		names = append(names, p.Name)
		ranges = append(ranges, fmt.Sprintf("%s %.3g … %.3g", p.Name, math.Min(p.Low, p.High), math.Max(p.Low, p.High)))
	}
	limit := "until a parameter reaches its bound"
	if d.LimitedBy == "data" {
		limit = "as far as the fit stays within its noise (cost + 3.84·s²)"
	}
	s := fmt.Sprintf("%s are not determined separately: along %s, %s, they span %s while the fitted %s at the measured configurations changes by at most %.2g %%",
		strings.Join(names, ", "), d.Terms, limit, strings.Join(ranges, ", "), target, 100*d.MeasuredRelChange)
	if d.Structural {
		best := ""
		if len(d.Identify) > 0 {
			best = fmt.Sprintf(" (the largest change, %.2g %% at p = %d, d = %d, is within twice the noise %.2g %%)", 100*d.Identify[0].RelChange, d.Identify[0].P, d.Identify[0].D, 100*d.Identify[0].RelNoise)
		}
		return s + "; no run at another p or d within the sizing range would tell them apart" + best + ": to pin them down, fix one of them in the model file from a separate measurement (e.g. a profile of the program's communication or serial time)"
	}
	var runs []string
	for _, p := range d.Identify {
		if p.Identifies {
			runs = append(runs, fmt.Sprintf("p = %d, d = %d (moves %.2g %%, noise %.2g %%)", p.P, p.D, 100*p.RelChange, 100*p.RelNoise))
		}
	}
	return s + "; runs that would determine them: " + strings.Join(runs, "; ")
}

// Share is the fraction of the time at one configuration spent in computation or in one
// overhead (spmd.Components over the time), at the optimum and its least and largest value
// over the undetermined directions' segments (P2-5: the bottleneck verdict may depend on a
// direction the data do not determine — qcrd's communication share at p = 64, d = 32 is
// 69 % at the relative objective's optimum and 23 % at the absolute objective's, with the
// same fitted speedups).
type Share struct {
	Component string  `json:"component"`
	Fraction  float64 `json:"fraction"`
	Low       float64 `json:"low_fraction"`
	High      float64 `json:"high_fraction"`
}

// ShareRanges is the share of each component of the time at (p, d) (computation,
// synchronisation, communication = startup + transfer + contention, I/O) at the optimum and
// over five points of every direction's segment; false when the model cannot be evaluated.
func (r *SPMDResult) ShareRanges(dirs []Direction, p, d int) ([]Share, bool) {
	names := []string{"computation", "synchronisation", "communication", "I/O"}
	shares := func(x []float64) ([]float64, bool) {
		e, err := spmd.NewEvaluator(&spmd.Model{Arch: r.arch, Phases: []spmd.Phase{r.spec.phase(x)}})
		if err != nil {
			return nil, false
		}
		pt, err := e.Evaluate(p, d)
		if err != nil || !(pt.Time > 0) || math.IsInf(pt.Time, 0) {
			return nil, false
		}
		c := pt.Components
		return []float64{c.CPU / pt.Time, c.Sync / pt.Time, (c.CommStartup + c.CommTransfer + c.Contention) / pt.Time, c.IO / pt.Time}, true
	}
	f0, ok := shares(r.x)
	if !ok {
		return nil, false
	}
	out := make([]Share, len(names))
	for i, n := range names {
		out[i] = Share{Component: n, Fraction: f0[i], Low: f0[i], High: f0[i]}
	}
	xt := make([]float64, len(r.x))
	for _, dir := range dirs {
		for _, t := range []float64{dir.lo, dir.lo / 2, dir.hi / 2, dir.hi} {
			f, ok := shares(r.at(dir.v, t, xt))
			if !ok {
				return nil, false
			}
			for i := range out {
				out[i].Low, out[i].High = math.Min(out[i].Low, f[i]), math.Max(out[i].High, f[i])
			}
		}
	}
	return out, true
}
