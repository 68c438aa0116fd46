package scaling

import (
	"context"
	"math"
	"sort"
)

// The stacked prediction (Wolpert 1992, "Stacked generalization"; Breiman 1996, "Stacked
// regressions": non-negative weights on the base predictors' outputs, learned on held-out
// predictions) combines five base predictors of log T at the target p:
//
//	selected  the model Fit chooses by cross-validation (the Extra-P family, Amdahl, USL …)
//	amdahl    Amdahl c0 + c1/p, relative least squares (the simplest adequate law)
//	usl       USL, relative least squares
//	power     a power law T = a·p^b through the largest three distinct p (local trend)
//	last      the time at the largest measured p (persistence)
//
// log T̂ = Σ wₖ·log T̂ₖ with w ≥ 0, Σ w = 1 (a weighted geometric mean: positive by
// construction). Strong scaling takes equal weights on the selected model, Amdahl and USL
// (equalStrong, not learned); weak scaling's weights are the Prior: learned on the corpus
// (testdata/scaling) by minimising the mean absolute log error
// of the held-out predictions (largest p held out, and the two largest held out) over a grid
// on the simplex. The corpus evaluation learns them leave-one-set-out (the set scored is
// never in its own prior); DefaultPrior, used by Fit for users' data, is learned on all
// sets. Where a base cannot be computed its weight is shared out among the others.
//
// The 95 % interval is a normalised split-conformal interval (Lei, G'Sell, Rinaldo,
// Tibshirani & Wasserman 2018, "Distribution-free predictive inference for regression",
// JASA 113, §5.2 locally weighted conformal): T̂·exp(±q·ŝ), with the scale
// ŝ = sqrt(σ₀² + spread² + β·e_self² + γ²·log²(p/p_max) + δ²·(log T̂ − log T̂_power)²), spread the
// standard deviation of the base predictors' log predictions (their disagreement), the δ term
// the combination's disagreement with the local power law (the trend of the last three p,
// outside the strong-scaling combination: a set whose trend has turned gets a wider
// interval), e_self the stacked predictor's own
// backtest on the training points (the largest training p predicted from the points below
// it: a set whose own backtest fails gets a wide interval), and q the ⌈0.95·(n+1)⌉-th
// smallest |log error|/ŝ of the n held-out predictions the prior was learned on; σ₀, β, γ
// and δ are chosen on the same predictions for the narrowest mean width. The interval is never
// of zero width (σ₀ > 0), with three distinct p too.

// Bases names the base predictors in the order of Prior's weights.
var Bases = []string{"selected", "amdahl", "usl", "power", "last"}

const nBase = 5

// Prior is what the stacked prediction learned on the corpus.
type Prior struct {
	Strong [nBase]float64 `json:"weights_strong"`
	Weak   [nBase]float64 `json:"weights_weak"`
	// StrongFew and WeakFew apply to fits on at most fewP distinct p.
	StrongFew [nBase]float64 `json:"weights_strong_few_p"`
	WeakFew   [nBase]float64 `json:"weights_weak_few_p"`
	Sigma0    float64        `json:"sigma0"`
	Beta      float64        `json:"beta"`
	Gamma     float64        `json:"gamma"` // per unit of log(p/p_max): wider the further out
	// Delta weighs the combination's disagreement with the local power law (the trend of
	// the largest three p), a base not in the strong-scaling combination.
	Delta float64 `json:"delta"`
	Q     float64 `json:"q95"`
	Cases int     `json:"cases"` // held-out predictions it was learned on
}

// weights returns the weights for a scaling kind.
func (pr *Prior) weights(scaling string, distinct int) [nBase]float64 {
	switch {
	case scaling == "weak" && distinct <= fewP:
		return pr.WeakFew
	case scaling == "weak":
		return pr.Weak
	case distinct <= fewP:
		return pr.StrongFew
	}
	return pr.Strong
}

// fewP: fits on at most this many distinct p have their own weights (with 2–3 points the
// selected model is nearly always a two-coefficient law and USL is not identified, so the
// bases' merits differ from those on longer series).
const fewP = 3

// baseSet is the base predictors fitted to one training set.
type baseSet struct {
	scaling string
	sel     *fitted
	amdahl  *fitted
	usl     *fitted
	powA    float64 // log T = powA + powB·log p; NaN when unavailable
	powB    float64
	lastY   float64
	// self: the base predictions of the largest training p from the points below it, and
	// its observed time (NaN when fewer than 3 distinct training p).
	selfLog [nBase]float64
	selfObs float64
}

// logPreds returns the base predictors' log T at p (NaN where unavailable).
func (b *baseSet) logPreds(p float64) [nBase]float64 {
	var out [nBase]float64
	for k, f := range []*fitted{b.sel, b.amdahl, b.usl} {
		out[k] = math.NaN()
		if f != nil {
			if v := f.value(p); v > 0 && !math.IsInf(v, 0) {
				out[k] = math.Log(v)
			}
		}
	}
	out[3] = math.NaN()
	if !math.IsNaN(b.powA) {
		out[3] = b.powA + b.powB*math.Log(p)
	}
	out[4] = math.Log(b.lastY)
	return out
}

// combineLog is Σ wₖ·lₖ over the available bases, the weights renormalised over them; NaN
// when no base with weight is available (then the selected model's prediction is used).
func combineLog(w [nBase]float64, l [nBase]float64) float64 {
	s, sw := 0.0, 0.0
	for k := range w {
		if w[k] > 0 && !math.IsNaN(l[k]) && !math.IsInf(l[k], 0) {
			s += w[k] * l[k]
			sw += w[k]
		}
	}
	if sw == 0 {
		if !math.IsNaN(l[0]) {
			return l[0]
		}
		return math.NaN()
	}
	return s / sw
}

// spreadLog is the standard deviation of the available base log predictions about their
// mean (w is ignored: weighting by the stacking weights gave wider intervals on the corpus,
// as the bases with weight 0 then stopped signalling a hard set).
func spreadLog(w, l [nBase]float64) float64 {
	for k := range w {
		w[k] = 1
	}
	m := combineLog(w, l)
	if math.IsNaN(m) {
		return 0
	}
	ss, sw := 0.0, 0.0
	for k := range w {
		if w[k] > 0 && !math.IsNaN(l[k]) && !math.IsInf(l[k], 0) {
			ss += w[k] * (l[k] - m) * (l[k] - m)
			sw += w[k]
		}
	}
	if sw == 0 {
		return 0
	}
	return math.Sqrt(ss / sw)
}

// fitBases fits the base predictors to the groups g (times in the units of the rescale
// unit) with the selected model sel; withSelf adds the self backtest (largest training p
// from the points below it), which calls selectModel on the smaller set.
func fitBases(ctx context.Context, scaling string, sel *fitted, g []group, withSelf bool) *baseSet {
	b := &baseSet{scaling: scaling, sel: sel, powA: math.NaN(), selfObs: math.NaN()}
	if f := fitLinear(amdahlCandidate, basis(amdahlCandidate, g), g, nil, false); f != nil {
		b.amdahl = f
	}
	if len(g) >= 3 {
		b.usl = fitUSL(g, nil)
	}
	b.lastY = g[len(g)-1].Y
	b.powA, b.powB = powerLaw(g)
	for k := range b.selfLog {
		b.selfLog[k] = math.NaN()
	}
	if withSelf && len(g) >= 3 {
		sub := g[:len(g)-1]
		if s := selectModel(ctx, scaling, sub); s != nil {
			bs := fitBases(ctx, scaling, s, sub, false)
			b.selfLog = bs.logPreds(float64(g[len(g)-1].P))
			b.selfObs = math.Log(g[len(g)-1].Y)
		}
	}
	return b
}

// powerLaw fits log Y = a + b·log p by least squares through the largest three distinct
// p, b clipped to [−1.5, 2] (no observed strong scaling is faster than p^−1.5, no weak
// scaling growth steeper than p²) and a refitted for the clipped b; NaN with one p.
func powerLaw(g []group) (a, b float64) {
	lo := max(0, len(g)-3)
	h := g[lo:]
	if len(h) < 2 {
		return math.NaN(), math.NaN()
	}
	mx, my := 0.0, 0.0
	for _, x := range h {
		mx += math.Log(float64(x.P)) / float64(len(h))
		my += math.Log(x.Y) / float64(len(h))
	}
	sxx, sxy := 0.0, 0.0
	for _, x := range h {
		dx := math.Log(float64(x.P)) - mx
		sxx += dx * dx
		sxy += dx * (math.Log(x.Y) - my)
	}
	b = math.Min(2, math.Max(-1.5, sxy/sxx))
	return my - b*mx, b
}

// selectModel is Fit's selection on groups (nil when no candidate fits): the candidate of
// smallest cross-validation score under the one-standard-error rule.
func selectModel(ctx context.Context, scaling string, g []group) *fitted {
	all := scoreCandidates(ctx, scaling, g)
	if len(all) == 0 {
		return nil
	}
	return all[pickBest(all, len(g))].f
}

// stackCase is one held-out prediction of the corpus: base log predictions at the target,
// the observed log time, the spread and the self backtest.
type stackCase struct {
	scaling string
	set     int
	base    [nBase]float64
	obs     float64
	self    [nBase]float64
	selfObs float64
	// logFactor is log(p/p_max) of the extrapolation (0 inside the data).
	logFactor float64
	distinct  int // distinct training p
}

// LearnPrior learns the stacking weights and the conformal interval on the cases (see the
// comment above Bases).
func learnPrior(cases []stackCase) Prior {
	var pr Prior
	pr.Cases = len(cases)
	for _, sc := range []string{"strong", "weak"} {
		var many, few []stackCase
		for _, c := range cases {
			if c.scaling != sc {
				continue
			}
			if c.distinct <= fewP {
				few = append(few, c)
			} else {
				many = append(many, c)
			}
		}
		if sc == "weak" {
			pr.Weak, pr.WeakFew = bestWeights(many), bestWeights(few)
		} else {
			pr.Strong, pr.StrongFew = equalStrong, equalStrong
		}
	}
	// One calibration for all cases: calibrating fits on ≤ fewP distinct p separately gave
	// no narrower intervals on the corpus (median ratio 2.49 against 2.38, largest p held out).
	pr.Sigma0, pr.Beta, pr.Gamma, pr.Delta, pr.Q = calibrate(cases, &pr)
	return pr
}

// equalStrong is the strong-scaling combination: equal weights on the selected model, Amdahl
// and USL, not learned. Estimated combination weights often forecast worse out of sample than
// equal ones, because the weights' estimation error outweighs their gain (the "forecast
// combination puzzle": Smith & Wallis 2009, Oxford Bull. Econ. Stat. 71(3); Claeskens,
// Magnus, Vasnev & Wang 2016, Int. J. Forecasting 32). On the corpus of 87 sets
// (docs/extrapolation.md) the learned strong-scaling weights gave 14.7 / 17.9 % median
// error leave-one-set-out and 15.7 / 19.5 % with source groups held out; these equal weights
// 13.3 / 15.8 % and 14.0 / 16.2 %. Weak scaling keeps learned weights (Amdahl and USL are
// strong-scaling laws).
var equalStrong = [nBase]float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0, 0}

// weightStep is the simplex grid's step: weights are multiples of 1/10.
const weightSteps = 10

// bestWeights minimises the mean |log error| of the combined prediction over a grid on the
// simplex; ties go to the first grid point in the enumeration order, which starts with all
// weight on the selected model. With no cases it returns all weight on the selected model.
func bestWeights(cases []stackCase) [nBase]float64 {
	var best [nBase]float64
	best[0] = 1
	if len(cases) == 0 {
		return best
	}
	bestLoss := math.Inf(1)
	var w [nBase]int
	var rec func(k, left int)
	rec = func(k, left int) {
		if k == nBase-1 {
			w[k] = left
			var wf [nBase]float64
			for i := range w {
				wf[i] = float64(w[i]) / weightSteps
			}
			loss := 0.0
			for _, c := range cases {
				v := combineLog(wf, c.base)
				if math.IsNaN(v) {
					loss += 10
					continue
				}
				loss += math.Abs(v - c.obs)
			}
			if loss < bestLoss-1e-12 {
				bestLoss, best = loss, wf
			}
			return
		}
		for v := left; v >= 0; v-- {
			w[k] = v
			rec(k+1, left-v)
		}
	}
	rec(0, weightSteps)
	return best
}

// scale is the conformal interval's ŝ for a case.
func (pr *Prior) scale(w [nBase]float64, base, self [nBase]float64, selfObs, lf float64, sigma0, beta, gamma, delta float64) float64 {
	s2 := sigma0*sigma0 + math.Pow(spreadLog(w, base), 2) + gamma*gamma*lf*lf
	if f := combineLog(w, base) - base[3]; delta > 0 && !math.IsNaN(f) && !math.IsInf(f, 0) {
		s2 += delta * delta * f * f
	}
	if !math.IsNaN(selfObs) {
		if v := combineLog(w, self); !math.IsNaN(v) {
			e := v - selfObs
			s2 += beta * e * e
		}
	}
	return math.Sqrt(s2)
}

// conformalLevel is the intervals' nominal coverage.
const conformalLevel = 0.95

// calibrate chooses σ₀, β, γ and δ from small grids and returns them with the conformal quantile
// q: for each (σ₀, β), q is the ⌈0.95·(n+1)⌉-th smallest |log error|/ŝ, and the pair of
// smallest mean log width 2·q·ŝ wins.
func calibrate(cases []stackCase, pr *Prior) (sigma0, beta, gamma, delta, q float64) {
	sigma0, beta, q = 0.1, 0, 2
	if len(cases) == 0 {
		return
	}
	bestWidth := math.Inf(1)
	for _, s0 := range []float64{0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2} {
		for _, be := range []float64{0, 0.25, 0.5, 1} {
			for _, ga := range []float64{0, 0.05, 0.1, 0.2, 0.3} {
				for _, de := range []float64{0, 0.1, 0.25, 0.5, 1} {
					r := make([]float64, 0, len(cases))
					sc := make([]float64, 0, len(cases))
					for _, c := range cases {
						w := pr.weights(c.scaling, c.distinct)
						v := combineLog(w, c.base)
						s := pr.scale(w, c.base, c.self, c.selfObs, c.logFactor, s0, be, ga, de)
						if math.IsNaN(v) {
							r = append(r, math.Inf(1))
						} else {
							r = append(r, math.Abs(v-c.obs)/s)
						}
						sc = append(sc, s)
					}
					qq := conformalQuantile(r)
					width := 0.0
					for _, s := range sc {
						width += 2 * qq * s / float64(len(sc))
					}
					if width < bestWidth {
						bestWidth, sigma0, beta, gamma, delta, q = width, s0, be, ga, de, qq
					}
				}
			}
		}
	}
	return
}

// conformalQuantile is the ⌈level·(n+1)⌉-th smallest of r (the largest when that exceeds n).
func conformalQuantile(r []float64) float64 {
	v := append([]float64(nil), r...)
	sort.Float64s(v)
	k := int(math.Ceil(conformalLevel*float64(len(v)+1))) - 1
	k = min(max(k, 0), len(v)-1)
	return v[k]
}

// setUnit puts the base predictors in seconds: the fits were made on times divided by u
// (see rescale). The self backtest stays in the rescaled units (only its log error is used).
func (b *baseSet) setUnit(u float64) {
	for _, f := range []*fitted{b.amdahl, b.usl} {
		if f != nil {
			f.scale = u
		}
	}
	if !math.IsNaN(b.powA) {
		b.powA += math.Log(u)
	}
	b.lastY *= u
}
