package scaling

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/fit"
	"github.com/clusterperf/clusterperf/sizing"
)

// MinPointsForInterval is the fewest distinct p for which Predict gives a 95 % interval
// (the conformal interval of the learned prior, see Bases); below it only the spread of
// the plausible models is reported.
const MinPointsForInterval = 3

// stackedMethod is Prediction.Method.
const stackedMethod = "stacked: weighted geometric mean of the selected model, Amdahl, USL, a local power law and the last time, weights learned leave-one-set-out on the corpus (docs/extrapolation.md); 95 % interval split-conformal on the corpus's held-out log errors"

// lloFolds is how many of the largest distinct p forward-chaining cross-validation predicts.
const lloFolds = 3

// MaxCoefficients bounds the coefficients a candidate may have by the number of distinct p,
// d: 1 + ⌊(d−1)/2⌋, at least 2 — two distinct p per coefficient beyond the constant, so that
// with 3–4 distinct p only two-coefficient laws are fitted (issue 30: with 3–5 distinct p
// the three-coefficient forms chased the last training points) and the third term needs 5.
func MaxCoefficients(d int) int {
	return max(2, 1+(d-1)/2)
}

// Param is a fitted parameter with its standard error (absent when not determined, e.g. held
// at a bound).
type Param struct {
	Name   string   `json:"name"`
	Value  float64  `json:"value"`
	StdErr *float64 `json:"std_err,omitempty"`
	Low95  *float64 `json:"low95,omitempty"`
	High95 *float64 `json:"high95,omitempty"`
	AtZero bool     `json:"at_bound"`
}

// Model is a fitted candidate as reported.
type Model struct {
	Name       string  `json:"name"`
	Formula    string  `json:"formula"`
	Terms      []Term  `json:"terms,omitempty"`
	Parameters []Param `json:"parameters"`
	// SerialFraction is Amdahl's f = c₀/(c₀+c₁) = c₀/T(1) (amdahl only).
	SerialFraction *float64 `json:"serial_fraction,omitempty"`
	// NMax is USL's p of maximum speedup sqrt((1−σ)/κ) (usl with κ > 0 only).
	NMax *float64 `json:"n_max,omitempty"`
	// RMSRelError: sqrt(mean(((T_model − T)/T)²)) on the fitted points.
	RMSRelError float64 `json:"rms_rel_error"`
	// LOO and LLO: RMS of log(T_pred/T) in leave-one-out and forward-chaining
	// (leave-last-out) cross-validation; absent when the points cannot support the folds.
	LOO   *float64 `json:"loo_rms_log_error,omitempty"`
	LLO   *float64 `json:"llo_rms_log_error,omitempty"`
	Score *float64 `json:"cv_score,omitempty"` // absent when no fold could be fitted
	AICc  *float64 `json:"aicc,omitempty"`
	// K counts the coefficients fitted away from zero (AICc's k); Coefficients counts all
	// the formula's coefficients, those held at zero (their bound) included.
	K            int `json:"free_parameters"`
	Coefficients int `json:"coefficients"`
}

// Result is a fitted scaling data set: the chosen model and the plausible alternatives.
type Result struct {
	Method          string   `json:"method"`
	Exact           bool     `json:"exact"`
	Scaling         string   `json:"scaling"`
	ScalingInferred bool     `json:"scaling_inferred"`
	Residuals       string   `json:"residuals"`
	Points          int      `json:"points"`
	DistinctP       int      `json:"distinct_p"`
	MaxP            int      `json:"max_measured_p"`
	NoiseRelSD      *float64 `json:"noise_rel_sd,omitempty"`
	PureErrorRelSD  *float64 `json:"pure_error_rel_sd,omitempty"`
	ReplicateDOF    int      `json:"replicate_dof"`
	Chosen          Model    `json:"chosen"`
	// Plausible lists the best MaxPlausibleListed of the PlausibleCount plausible models
	// (cross-validation score within 1.5× the best + 0.02, distinct predictions): the count
	// every output states (a corpus set has 174).
	Plausible       []Model  `json:"plausible"`
	PlausibleCount  int      `json:"plausible_count"`
	CandidatesTried int      `json:"candidates_tried"`
	Notes           []string `json:"notes,omitempty"`
	// Validated: the chosen model won on held-out prediction error (cross-validation).
	// False with two distinct p: no model of two or more coefficients can be validated, the
	// models are ranked by their fit, and those fitting equally are ordered by rule (a note
	// says so) — an exact fit to two points says nothing about extrapolation.
	Validated bool `json:"validated"`
	// IntervalsNotMeaningful: at most one residual degree of freedom or zero noise — the
	// 95 % intervals rest on no measured scatter (see weakIntervals; a note says so).
	IntervalsNotMeaningful bool `json:"intervals_not_meaningful,omitempty"`

	chosen    *fitted
	aiccBest  *fitted // the model AICc would have chosen (for the corpus comparison)
	lloChosen float64 // NaN when unavailable
	lloN      int     // number of forward-chaining errors behind lloChosen
	plausible []*fitted
	bases     *baseSet // the stacked prediction's base predictors (see Bases)
	prior     *Prior
	s2        float64 // relative noise variance used for intervals (NaN: none)
	dof       int
}

// MaxPlausibleListed bounds Result.Plausible (the count is PlausibleCount).
const MaxPlausibleListed = 10

// scored is a candidate with its fit on all points and its cross-validation errors.
type scored struct {
	f        *fitted
	loo, llo float64 // RMS log errors, NaN when unavailable
	score    float64
	se       float64 // standard error of score, from the spread of the fold errors
	lloN     int     // forward-chaining errors
	lloMax   float64 // largest |forward-chaining log error| (NaN: none)
	vetoed   bool    // lloMax beyond vetoLog: its own backtest vetoes it
	// rank is score, except that a score within tieTol of the best is the best's: models
	// the data cannot tell apart rank equal, and ruleBefore orders them, not rounding.
	rank float64
}

// evaluate fits c to the groups g (distinct p ascending, see group) and cross-validates it.
func evaluate(c *candidate, g []group) (scored, bool) {
	if len(g) < 1 || c.nParams() > len(g) && c.kind == kindUSL {
		return scored{}, false
	}
	var B [][]float64
	if c.kind == kindLinear {
		B = basis(c, g)
	}
	fitRows := func(rows []int, withCov bool) *fitted {
		runs := 0
		for _, i := range rows {
			runs += g[i].N
		}
		if runs < c.nParams() {
			return nil
		}
		if c.kind == kindUSL {
			return fitUSL(g, rows)
		}
		return fitLinear(c, B, g, rows, withCov)
	}
	all := make([]int, len(g))
	for i := range all {
		all[i] = i
	}
	f := fitRows(all, true)
	if f == nil {
		return scored{}, false
	}
	le, fe := looErrors(c, g, fitRows), lloErrors(c, g, fitRows)
	s := scored{f: f, loo: rms(le), llo: rms(fe), lloN: len(fe), lloMax: maxAbs(fe)}
	s.score, s.se = combine(le, fe)
	return s, true
}

func maxAbs(e []float64) float64 {
	if len(e) == 0 {
		return math.NaN()
	}
	m := 0.0
	for _, v := range e {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

func rms(e []float64) float64 {
	if len(e) == 0 {
		return math.NaN()
	}
	ss := 0.0
	for _, v := range e {
		ss += v * v
	}
	return math.Sqrt(ss / float64(len(e)))
}

// Fit fits the candidate family to d and chooses the model with the smallest held-out
// prediction error (see the package comment). Errors: fault.ErrInput for invalid data or
// fewer than 2 distinct p; fault.ErrNotConverged when no candidate could be fitted.
func Fit(ctx context.Context, d *Data) (*Result, error) {
	return FitWithPrior(ctx, d, &DefaultPrior)
}

// FitWithPrior is Fit with the stacking weights and interval calibration of prior (Fit uses
// DefaultPrior, learned on the whole corpus; the corpus evaluation passes one learned
// without the set it scores).
func FitWithPrior(ctx context.Context, d *Data, prior *Prior) (*Result, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	ps := distinctP(d.Points)
	if len(ps) < 2 {
		return nil, fmt.Errorf("%w: %s: %d distinct p: at least 2 are needed to fit a scaling model", fault.ErrInput, d.Name, len(ps))
	}
	r := &Result{Method: "relative least squares (non-negative; USL by bounded Levenberg–Marquardt), selection by forward-chaining and leave-one-out cross-validation",
		Residuals: "relative", Points: len(d.Points), DistinctP: len(ps), MaxP: ps[len(ps)-1], Scaling: d.Scaling}
	if r.Scaling == "" {
		r.Scaling, r.ScalingInferred = inferScaling(d.Points), true
		r.Notes = append(r.Notes, fmt.Sprintf("scaling not given: %s inferred from the trend of the times", r.Scaling))
	}
	unit, pts := rescale(d.Points)
	g := groupPoints(pts)
	all, validated, tried := scoreCandidatesN(ctx, r.Scaling, g)
	if err := interrupted(ctx, d.Name); err != nil {
		return nil, err
	}
	r.CandidatesTried = tried
	if len(all) == 0 {
		return nil, fmt.Errorf("%w: %s: no candidate model could be fitted", fault.ErrNotConverged, d.Name)
	}
	for _, s := range all {
		s.f.scale = unit
	}
	r.Validated = validated
	if !r.Validated {
		r.Method = "relative least squares (non-negative; USL by bounded Levenberg–Marquardt), ranked by the fit's RMS relative error (too few distinct p to cross-validate), equal fits ordered by the tie rule"
		r.Notes = append(r.Notes, fmt.Sprintf("too few points for cross-validation (%d distinct p): models ranked by their fit, which says nothing about extrapolation — the choice is not validated", len(ps)))
	}
	minAICc := math.Inf(1)
	for _, s := range all {
		if _, aicc, _ := fit.InformationCriteria(s.f.ssr, s.f.n, freeParams(s.f)); aicc < minAICc {
			minAICc, r.aiccBest = aicc, s.f
		}
	}
	bestAt := pickBest(all, len(g))
	band := all[0].rank + all[0].se + tieTol
	if all[bestAt].vetoed {
		r.Notes = append(r.Notes, "every model's own forward-chaining backtest missed by more than a factor 2: none could be vetoed")
	} else if all[0].vetoed {
		r.Notes = append(r.Notes, fmt.Sprintf("the best-scoring model %s was vetoed by its own backtest (a forward-chaining miss beyond a factor 2)", all[0].f.c.formula()))
	}
	if n := tiedWith(all, bestAt, band, ps); n > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("a tie broken by rule, not by the data: %d other model(s) with as many free parameters (%d) fit equally well (score within %g) but predict differently; the rule takes the fewest free parameters, then a named law (constant, Amdahl, Gustafson, USL), then the Extra-P form listed first (the mildest exponent): %s", n, freeParams(all[bestAt].f), tieTol, all[bestAt].f.c.formula()))
	}
	all[0], all[bestAt] = all[bestAt], all[0]
	best := all[0]
	r.chosen, r.lloChosen, r.lloN = best.f, best.llo, best.lloN
	r.Chosen = report(best, len(d.Points))
	r.bases = fitBases(ctx, r.Scaling, best.f, g, true)
	if err := interrupted(ctx, d.Name); err != nil {
		return nil, err
	}
	r.bases.setUnit(unit)
	r.prior = prior
	r.setPlausible(all, best, ps, len(d.Points))
	r.setNoise(best, d.Points)
	if n := r.weakIntervals(); n != "" {
		r.IntervalsNotMeaningful = true
		r.Notes = append(r.Notes, n)
	}
	r.intervalNotes(best, len(ps))
	return r, nil
}

// setPlausible keeps the plausible models: cross-validation score within 1.5× the best +
// 0.02, distinct predictions (keepDistinct); all of them for the spread, the best
// MaxPlausibleListed listed, PlausibleCount counting them all.
func (r *Result) setPlausible(all []scored, best scored, ps []int, points int) {
	threshold := 1.5*best.score + 0.02
	var kept []scored
	for _, s := range all {
		if s.score <= threshold {
			kept = keepDistinct(kept, s, ps)
		}
	}
	for _, s := range kept {
		r.plausible = append(r.plausible, s.f)
		if len(r.Plausible) < MaxPlausibleListed {
			r.Plausible = append(r.Plausible, report(s, points))
		}
	}
	r.PlausibleCount = len(kept)
}

// setNoise sets the relative noise: the chosen model's relative residual variance s², or
// the replicates' pure error when larger (then the residuals underestimate the run-to-run
// scatter), with the degrees of freedom of both.
func (r *Result) setNoise(best scored, points []Point) {
	r.s2, r.dof = best.f.s2, best.f.dof
	if pe, pdof := pureError(points); pdof > 0 {
		v := math.Sqrt(pe)
		r.PureErrorRelSD, r.ReplicateDOF = &v, pdof
		if math.IsNaN(r.s2) || pe > r.s2 {
			r.s2 = pe
		}
		r.dof += pdof
	}
	if !math.IsNaN(r.s2) {
		v := math.Sqrt(r.s2)
		r.NoiseRelSD = &v
	}
}

// intervalNotes says where the prediction interval comes from (none below
// MinPointsForInterval distinct p, the corpus prior at exactly that many) or, with enough
// points, the named law that won and its parameters.
func (r *Result) intervalNotes(best scored, distinct int) {
	switch {
	case distinct < MinPointsForInterval:
		r.Notes = append(r.Notes, fmt.Sprintf("%d distinct p (fewer than %d): no prediction interval, only the spread of the plausible models", distinct, MinPointsForInterval))
	case distinct == MinPointsForInterval:
		r.Notes = append(r.Notes, fmt.Sprintf("%d distinct p: the 95 %% prediction interval comes from the prior learned on the corpus (docs/extrapolation.md), the data alone cannot support one", distinct))
	case best.f.c.name == "amdahl":
		r.Notes = append(r.Notes, fmt.Sprintf("Amdahl wins: serial fraction %.4g of T(1)", *r.Chosen.SerialFraction))
	case best.f.c.name == "usl" && r.Chosen.NMax != nil:
		r.Notes = append(r.Notes, fmt.Sprintf("USL wins: σ = %.4g, κ = %.4g, N_max = %.4g", best.f.x[1], best.f.x[2], *r.Chosen.NMax))
	}
}

// vetoLog is the forward-chaining miss, |log(T_pred/T)|, beyond which a model's own backtest
// vetoes it (a factor 2): a model that already failed to predict its own next p is not
// trusted one step further (issue 30: a √p term kept after its own backtest showed +229 %).
var vetoLog = math.Log(2)

// scoreCandidatesN fits and cross-validates every candidate for the scaling kind whose
// coefficients MaxCoefficients allows on the groups g, and returns them ranked (best
// first), whether they were validated (more than 2 distinct p and some fold scored) and how
// many candidates were fitted. Unvalidated, the models are ranked by their fit's RMS
// relative error (see Fit).
func scoreCandidatesN(ctx context.Context, scaling string, g []group) ([]scored, bool, int) {
	kmax := MaxCoefficients(len(g))
	var all []scored
	tried := 0
	for _, c := range candidates(scaling) {
		if ctx.Err() != nil {
			break // the caller reports the interruption
		}
		if c.nParams() > kmax {
			continue
		}
		s, ok := evaluate(c, g)
		if !ok {
			continue
		}
		tried++
		s.vetoed = !math.IsNaN(s.lloMax) && s.lloMax > vetoLog
		all = append(all, s)
	}
	finite := false
	for _, s := range all {
		if !math.IsInf(s.score, 1) {
			finite = true
		}
	}
	validated := finite && len(g) > 2
	if !validated {
		for i := range all {
			all[i].score, all[i].se = math.Sqrt(all[i].f.ssr/float64(all[i].f.n)), 0
		}
	}
	rankTies(all)
	sort.SliceStable(all, func(a, b int) bool {
		if all[a].rank != all[b].rank {
			return all[a].rank < all[b].rank
		}
		if na, nb := all[a].f.c.nParams(), all[b].f.c.nParams(); na != nb {
			return na < nb
		}
		return all[a].f.c.order < all[b].f.c.order
	})
	return all, validated, tried
}

// scoreCandidates is scoreCandidatesN's ranking alone.
func scoreCandidates(ctx context.Context, scaling string, g []group) []scored {
	all, _, _ := scoreCandidatesN(ctx, scaling, g)
	return all
}

// pickBest applies the one-standard-error rule (Hastie, Tibshirani & Friedman, ESL §7.10)
// to the ranked models: of those scoring within one standard error of the best, the one
// with the fewest free parameters wins, a named law (Amdahl, USL, Gustafson, constant:
// parameters with a meaning) before an Extra-P form — shrinkage towards the simplest
// adequate model. Models vetoed by their own backtest (vetoLog) are passed over unless
// every model is vetoed.
func pickBest(all []scored, d int) int {
	start := -1
	for i, s := range all {
		if !s.vetoed {
			start = i
			break
		}
	}
	if start < 0 {
		start = 0
	}
	band := all[start].rank + all[start].se + tieTol
	bestAt := start
	for i := start; i < len(all); i++ {
		s := all[i]
		if s.rank > band {
			break
		}
		if s.vetoed && !all[start].vetoed {
			continue
		}
		if simpler(s, all[bestAt]) {
			bestAt = i
		}
	}
	_ = d
	return bestAt
}

func freeParams(f *fitted) int {
	n := 0
	for _, b := range f.free {
		if b {
			n++
		}
	}
	return n
}

// tieTol is the score difference (RMS log error, or RMS relative error when ranked by fit)
// below which two models count as equally good: rounding, not the data, would order them.
// With two points every two-coefficient form through both fits them to about 1e-16.
const tieTol = 1e-9

// rankTies sets each model's rank: its score, or the best score when within tieTol of it.
func rankTies(all []scored) {
	best := math.Inf(1)
	for _, s := range all {
		best = math.Min(best, s.score)
	}
	for i := range all {
		all[i].rank = all[i].score
		if all[i].score <= best+tieTol {
			all[i].rank = best
		}
	}
}

// lawOrder is the fixed order of the named laws in a tie (ruleBefore); Extra-P forms follow.
var lawOrder = map[string]int{"constant": 0, "amdahl": 1, "gustafson": 2, "usl": 3, "extrap": 4}

// ruleBefore is the documented order of models the data rank equally: a named law before an
// Extra-P form, the named laws in lawOrder, the Extra-P forms in candidate list order (the
// mildest exponent first, see candidates).
func ruleBefore(a, b *candidate) bool {
	if la, lb := lawOrder[a.name], lawOrder[b.name]; la != lb {
		return la < lb
	}
	return a.order < b.order
}

// simpler orders models within the one-standard-error band: fewer free parameters, then a
// named law, then the smaller score (when the scores differ by more than tieTol), then
// ruleBefore.
func simpler(a, b scored) bool {
	if fa, fb := freeParams(a.f), freeParams(b.f); fa != fb {
		return fa < fb
	}
	if na, nb := a.f.c.name != "extrap", b.f.c.name != "extrap"; na != nb {
		return na
	}
	if math.Abs(a.rank-b.rank) > tieTol {
		return a.rank < b.rank
	}
	return ruleBefore(a.f.c, b.f.c)
}

// tiedWith counts the models in the band (rank ≤ band) that only the rule set below the
// one at bestAt: as many free parameters, a rank within tieTol, different predictions.
func tiedWith(all []scored, bestAt int, band float64, ps []int) int {
	b, n := all[bestAt], 0
	for i, s := range all {
		if s.rank > band {
			break
		}
		if i != bestAt && freeParams(s.f) == freeParams(b.f) && math.Abs(s.rank-b.rank) <= tieTol && !samePredictions(s.f, b.f, ps) {
			n++
		}
	}
	return n
}

// sameModelTol is the relative difference below which two fitted models' predictions count
// as the same (rounding of the least-squares solve).
const sameModelTol = 1e-9

// samePredictions reports whether a and b predict the same time, to sameModelTol, at every
// measured p and at 2, 4, 16 and 64 times the largest: e.g. a model whose extra term is held
// at its bound (coefficient 0) is the simpler model it extends.
func samePredictions(a, b *fitted, ps []int) bool {
	at := make([]float64, 0, len(ps)+4)
	for _, p := range ps {
		at = append(at, float64(p))
	}
	top := float64(ps[len(ps)-1])
	at = append(at, 2*top, 4*top, 16*top, 64*top)
	for _, p := range at {
		va, vb := a.scaled(p), b.scaled(p) // both in the units of Fit's rescale
		if !(math.Abs(va-vb) <= sameModelTol*math.Max(math.Abs(va), math.Abs(vb))) {
			return false
		}
	}
	return true
}

// keepDistinct adds s to kept (plausible models in rank order, the chosen model first)
// unless a kept model makes the same predictions; of two such the simplest stays (fewer
// terms, then simpler), except that the chosen model (kept[0]) is never replaced.
func keepDistinct(kept []scored, s scored, ps []int) []scored {
	for i, k := range kept {
		if !samePredictions(k.f, s.f, ps) {
			continue
		}
		if i > 0 {
			if ns, nk := s.f.c.nParams(), k.f.c.nParams(); ns < nk || (ns == nk && simpler(s, k)) {
				kept[i] = s
			}
		}
		return kept
	}
	return append(kept, s)
}

// combine is the selection score and its standard error: the root of the weighted mean
// squared log error of the forward-chaining folds (weight 2: they are the extrapolations)
// and the leave-one-out folds (weight 1); +Inf when there are no folds. The standard error
// of the weighted mean of e² is carried to its root by the delta method.
func combine(loo, llo []float64) (score, se float64) {
	var w, e2 []float64
	for _, v := range llo {
		w, e2 = append(w, 2), append(e2, v*v)
	}
	for _, v := range loo {
		w, e2 = append(w, 1), append(e2, v*v)
	}
	if len(e2) == 0 {
		return math.Inf(1), 0
	}
	sw, m := 0.0, 0.0
	for i := range e2 {
		sw += w[i]
		m += w[i] * e2[i]
	}
	m /= sw
	v := 0.0
	for i := range e2 {
		v += w[i] * w[i] * (e2[i] - m) * (e2[i] - m)
	}
	seM := math.Sqrt(v) / sw
	score = math.Sqrt(m)
	if score > 0 {
		se = seM / (2 * score)
	}
	return score, se
}

// looErrors are the log errors log(T_pred/Y) of leave-one-p-out predictions (all the runs
// at one p left out together: a replicate left out beside its twins tests nothing); nil
// when a fold cannot be fitted.
func looErrors(c *candidate, g []group, fitRows func([]int, bool) *fitted) []float64 {
	if len(g)-1 < c.nParams() || len(g) < 3 {
		return nil
	}
	train := make([]int, 0, len(g)-1)
	errs := make([]float64, 0, len(g))
	for i := range g {
		train = train[:0]
		for j := range g {
			if j != i {
				train = append(train, j)
			}
		}
		f := fitRows(train, false)
		if f == nil {
			return nil
		}
		v := f.value(float64(g[i].P))
		if !(v > 0) || math.IsInf(v, 0) {
			return nil
		}
		errs = append(errs, math.Log(v/g[i].Y))
	}
	return errs
}

// lloErrors are the log errors of forward-chaining predictions: for each of the largest
// lloFolds distinct p (as long as the points below it can determine the model), fit on the
// points below it and predict it. nil when no fold is possible or one fails.
func lloErrors(c *candidate, g []group, fitRows func([]int, bool) *fitted) []float64 {
	var errs []float64
	for q := len(g) - 1; q >= 1 && q >= len(g)-lloFolds; q-- {
		if q < c.nParams() {
			break
		}
		train := make([]int, q)
		for i := range train {
			train[i] = i
		}
		f := fitRows(train, false)
		if f == nil {
			return nil
		}
		v := f.value(float64(g[q].P))
		if !(v > 0) || math.IsInf(v, 0) {
			return nil
		}
		errs = append(errs, math.Log(v/g[q].Y))
	}
	return errs
}

// rescale divides the times by u, the power of two nearest their geometric mean
// (2^round(mean log₂ T)), so that the fit works on numbers near 1 whatever the time unit:
// relative least squares and the log errors of the cross-validation are invariant under
// T → T/u, but their arithmetic is not (squares of 1e-300 or 1e300 underflow or overflow —
// review: constant times of 1e-300 s exited 3 "not converged" where 10 s fitted). A power of
// two divides exactly, so times already near 1 give bit-identical fits. The fitted times are
// multiplied back by u (fitted.scale).
func rescale(pts []Point) (u float64, scaled []Point) {
	lsum := 0.0
	for _, pt := range pts {
		lsum += math.Log2(pt.TimeS)
	}
	u = math.Ldexp(1, int(math.Round(lsum/float64(len(pts)))))
	if !(u > 0) || math.IsInf(u, 0) {
		u = 1
	}
	scaled = make([]Point, len(pts))
	for i, pt := range pts {
		scaled[i] = pt
		scaled[i].TimeS = pt.TimeS / u
	}
	return u, scaled
}

func report(s scored, n int) Model {
	f := s.f
	m := Model{Name: f.c.name, Formula: f.c.formula(), Terms: f.c.terms, RMSRelError: math.Sqrt(f.ssr / float64(n)), Coefficients: len(f.x)}
	if !math.IsInf(s.score, 0) && !math.IsNaN(s.score) {
		v := s.score
		m.Score = &v
	}
	for _, b := range f.free {
		if b {
			m.K++
		}
	}
	if !math.IsNaN(s.loo) {
		v := s.loo
		m.LOO = &v
	}
	if !math.IsNaN(s.llo) {
		v := s.llo
		m.LLO = &v
	}
	if _, aicc, _ := fit.InformationCriteria(f.ssr, f.n, m.K); !math.IsInf(aicc, 0) && !math.IsNaN(aicc) {
		m.AICc = &aicc
	}
	names := []string{"c0", "c1", "c2"}
	if f.c.kind == kindUSL {
		names = []string{"T1", "sigma", "kappa"}
	}
	tq := math.NaN()
	if f.dof > 0 {
		tq = fit.TQuantile(0.975, f.dof)
	}
	for k, v := range f.x {
		u := 1.0
		if f.timeParam(k) {
			u = f.unit()
		}
		v *= u
		p := Param{Name: names[k], Value: v, AtZero: !f.free[k]}
		if f.cov != nil && f.free[k] && f.cov[k][k] > 0 {
			se := math.Sqrt(f.cov[k][k]) * u
			lo, hi := v-tq*se, v+tq*se
			p.StdErr, p.Low95, p.High95 = &se, &lo, &hi
		}
		m.Parameters = append(m.Parameters, p)
	}
	switch f.c.name {
	case "amdahl":
		sf := f.x[0] / (f.x[0] + f.x[1])
		m.SerialFraction = &sf
	case "usl":
		if f.x[2] > 0 {
			nm := math.Sqrt((1 - f.x[1]) / f.x[2])
			m.NMax = &nm
		}
	}
	return m
}

// Prediction is the extrapolated time at P with either a 95 % interval or, when the data
// cannot support one, only the spread of the plausible models.
type Prediction struct {
	P     int     `json:"p"`
	TimeS float64 `json:"time_s"` // the stacked prediction (Method)
	// SelectedS is the selected model's own prediction (Model, Formula): TimeS combines it
	// with the other base predictors.
	SelectedS float64  `json:"selected_model_time_s"`
	Method    string   `json:"method"`
	Model     string   `json:"model"`
	Formula   string   `json:"formula"`
	Interval  bool     `json:"has_interval"`
	Low95S    *float64 `json:"interval95_low_s,omitempty"`
	High95S   *float64 `json:"interval95_high_s,omitempty"`
	// The plausible models (cross-validation score within 1.5× the best + 0.02) predict
	// between ModelsLowS and ModelsHighS (a span that holds SelectedS);
	// PlausibleLowS … PlausibleHighS is that span widened to include TimeS when the stacked
	// prediction lies outside it (a note says so), so the printed time is inside it.
	PlausibleLowS   float64  `json:"plausible_low_s"`
	PlausibleHighS  float64  `json:"plausible_high_s"`
	ModelsLowS      float64  `json:"plausible_models_low_s"`
	ModelsHighS     float64  `json:"plausible_models_high_s"`
	PlausibleModels int      `json:"plausible_models"`
	Extrapolation   float64  `json:"extrapolation_factor"` // P / largest measured p
	Notes           []string `json:"notes,omitempty"`
}

// MaxPredictP bounds the p Predict accepts.
const MaxPredictP = 1 << 30

// Predict extrapolates (or interpolates) the chosen model to p processes.
func (r *Result) Predict(p int) (*Prediction, error) {
	if p < 1 || p > MaxPredictP {
		return nil, fmt.Errorf("%w: predict p = %d: want 1 … 2^30", fault.ErrInput, p)
	}
	x := float64(p)
	sel := r.chosen.value(x)
	if !(sel > 0) || math.IsInf(sel, 0) {
		return nil, fmt.Errorf("%w: model %s gives a non-finite time at p = %d", fault.ErrNotConverged, r.chosen.c.formula(), p)
	}
	// Within the measured range the selected model (fitted to the points) answers; beyond
	// it the stacked prediction.
	v := sel
	w := r.prior.weights(r.Scaling, r.DistinctP)
	base := r.bases.logPreds(x)
	if lv := combineLog(w, base); p > r.MaxP && !math.IsNaN(lv) && !math.IsInf(math.Exp(lv), 0) && math.Exp(lv) > 0 {
		v = math.Exp(lv)
	}
	pr := &Prediction{P: p, TimeS: v, SelectedS: sel, Method: stackedMethod, Model: r.chosen.c.name, Formula: r.chosen.c.formula(), Extrapolation: x / float64(r.MaxP),
		PlausibleLowS: sel, PlausibleHighS: sel}
	for _, f := range r.plausible {
		w := f.value(x)
		if w > 0 && !math.IsInf(w, 0) {
			pr.PlausibleLowS = math.Min(pr.PlausibleLowS, w)
			pr.PlausibleHighS = math.Max(pr.PlausibleHighS, w)
			pr.PlausibleModels++
		}
	}
	pr.ModelsLowS, pr.ModelsHighS = pr.PlausibleLowS, pr.PlausibleHighS
	if v < pr.PlausibleLowS || v > pr.PlausibleHighS {
		// The stacked prediction is not one of the plausible models: the span is widened
		// to include it, so the printed time is never outside the printed span.
		pr.Notes = append(pr.Notes, fmt.Sprintf("the stacked time %.4g s lies outside the plausible models' span %.4g … %.4g s (the stacking also weighs the local power law and the last time): the span is widened to include it",
			v, pr.PlausibleLowS, pr.PlausibleHighS))
		pr.PlausibleLowS, pr.PlausibleHighS = math.Min(pr.PlausibleLowS, v), math.Max(pr.PlausibleHighS, v)
	}
	if r.DistinctP >= MinPointsForInterval {
		// Within the measured range the interval's relative width is the one at the largest
		// measured p, where the prior was calibrated: the base predictors (the last time, a
		// local power law) disagree more and more below it by construction, which says
		// nothing about the error of an interpolation (at p = 1 of a five-point set the
		// interval was 0.38–2.6 × the time).
		at := base
		if p < r.MaxP {
			at = r.bases.logPreds(float64(r.MaxP))
		}
		half := r.prior.Q * r.prior.scale(w, at, r.bases.selfLog, r.bases.selfObs, math.Max(0, math.Log(x/float64(r.MaxP))), r.prior.Sigma0, r.prior.Beta, r.prior.Gamma, r.prior.Delta)
		lo, hi := v*math.Exp(-half), v*math.Exp(half)
		if lo > 0 && hi > lo && !math.IsInf(hi, 0) {
			pr.Interval, pr.Low95S, pr.High95S = true, &lo, &hi
		}
	}
	// The prediction interval rests on the corpus's held-out errors (the learned prior), not
	// on this fit's residual degrees of freedom, so weakIntervals' note concerns only the
	// parameters' intervals here.
	if !pr.Interval {
		pr.Notes = append(pr.Notes, fmt.Sprintf("no 95 %% interval (%d distinct p, %d residual degrees of freedom): the plausible models span %.4g … %.4g",
			r.DistinctP, r.dof, pr.PlausibleLowS, pr.PlausibleHighS))
	}
	if pr.Extrapolation > 4 {
		pr.Notes = append(pr.Notes, fmt.Sprintf("extrapolating %.3g× beyond the largest measured p: the corpus backtest (docs/extrapolation.md) measures errors one step beyond", pr.Extrapolation))
	}
	return pr, nil
}

// logVariance is s² + se(p)² + e_LLO², the variance of log(T) at p assumed by the interval,
// with its effective degrees of freedom by Welch–Satterthwaite: (v₁ + v₂)²/(v₁²/ν₁ + v₂²/ν₂),
// v₁ = s² + se² on the residual (and replicate) degrees of freedom ν₁, v₂ = e_LLO² on the
// number of forward-chaining errors ν₂ — usually 3, so a prediction dominated by the
// extrapolation error gets Student's t on few degrees of freedom.
func (r *Result) logVariance(x float64) (h2 float64, dof int, ok bool) {
	if math.IsNaN(r.s2) || r.dof < 1 {
		return 0, 0, false
	}
	v1 := r.s2
	if se := r.chosen.relSE(x); !math.IsNaN(se) {
		v1 += se * se
	}
	v2 := 0.0
	if !math.IsNaN(r.lloChosen) && r.lloN > 0 {
		v2 = r.lloChosen * r.lloChosen
	}
	h2 = v1 + v2
	if math.IsNaN(h2) || math.IsInf(h2, 0) {
		return 0, 0, false
	}
	dof = r.dof
	if v2 > 0 {
		den := v1*v1/float64(r.dof) + v2*v2/float64(r.lloN)
		if den > 0 {
			dof = max(1, int(math.Floor(h2*h2/den)))
		}
	}
	return h2, dof, true
}

// FitNamed fits one named model — "amdahl", "usl" or "gustafson" — to d by relative least
// squares (no selection), for reporting a law's parameters (Amdahl's serial fraction, USL's
// σ, κ and N_max) whether or not it wins. Cross-validation errors are included.
func FitNamed(d *Data, name string) (*Model, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	var c *candidate
	switch name {
	case "amdahl":
		c = amdahlCandidate
	case "usl":
		c = uslCandidate
	case "gustafson":
		c = &candidate{name: "gustafson", kind: kindLinear, terms: []Term{{I: 1, IText: "1"}}}
	default:
		return nil, fmt.Errorf("%w: model %q: allowed amdahl, usl, gustafson", fault.ErrInput, name)
	}
	unit, pts := rescale(d.Points)
	s, ok := evaluate(c, groupPoints(pts))
	if ok {
		s.f.scale = unit
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s: %s cannot be fitted to %d points", fault.ErrNotConverged, d.Name, name, len(d.Points))
	}
	m := report(s, len(d.Points))
	return &m, nil
}

// Times returns the chosen model's time at each p, as sizing.Point values for
// sizing.Advise (fault.ErrInput for a p outside 1 … 2^30).
func (r *Result) Times(ps []int) ([]sizing.Point, error) {
	out := make([]sizing.Point, 0, len(ps))
	for _, p := range ps {
		pr, err := r.Predict(p)
		if err != nil {
			return nil, err
		}
		out = append(out, sizing.Point{P: p, TimeS: pr.TimeS})
	}
	return out, nil
}

// T1 is the chosen model's time at p = 1, the T_1 of sizing's speedups S(p) = T_1/T(p)
// (sizing.ModelT1: the same model as the sizing's times, so S(1) = 1), when the data include
// p = 1 (minP, the smallest measured p, is 1). Nil otherwise: a model fitted on p ≥ minP says
// nothing at p = 1 (c0 + c1·p^(-4/3)·log2(p) on wavetrisk_bbserv_2560, p ≥ 2, is c0 = 0 there;
// jacobi2d_prince_strong's, p ≥ 4, gives T(1) = 1.35·4·T(4), a superlinear speedup no run
// shows), so sizing estimates T_1 ≈ p_min·T(p_min) and says so. Nil too when the model gives
// no finite positive time at p = 1.
func (r *Result) T1(minP int) *sizing.Reference {
	if minP != 1 {
		return nil
	}
	pr, err := r.Predict(1)
	if err != nil {
		return nil
	}
	return sizing.ModelT1(pr.TimeS, fmt.Sprintf("the chosen model %s at p = 1 (a measured p)", r.chosen.c.name))
}

// zeroNoise is the relative noise SD below which the residuals are the arithmetic's rounding
// (an exact fit), not a measurement of the run-to-run scatter.
const zeroNoise = 1e-9

// weakIntervals is the note that the parameters' 95 % intervals are not meaningful (P3-19): with at
// most one residual degree of freedom the noise is estimated from one number (Student's t
// quantile 12.7), and with zero noise (the model passes through every point) the intervals
// have zero width — neither says how far a new run would fall. "" when neither holds.
func (r *Result) weakIntervals() string {
	var why []string
	if r.dof <= 1 {
		why = append(why, fmt.Sprintf("%d residual degrees of freedom (the noise is estimated from at most one residual)", r.dof))
	}
	if !math.IsNaN(r.s2) && math.Sqrt(r.s2) < zeroNoise {
		why = append(why, "zero noise (the chosen model passes through every point: its parameters' intervals have zero width)")
	}
	if len(why) == 0 {
		return ""
	}
	// The prediction intervals rest on the corpus's held-out errors (the learned prior), not
	// on these residuals (Predict), so this note names the parameters' intervals only
	// (new-user review 8, P2-5: "zero-width intervals" beside a printed 150–358 s).
	return "the parameters' 95 % intervals are not meaningful: " + strings.Join(why, " and ") +
		"; the prediction intervals rest on the corpus's held-out errors (docs/extrapolation.md), not on this fit's residuals; repeat runs or measure more p before trusting any parameter interval"
}

// interrupted is fault.ErrInterrupted when ctx is done (the fit of name stopped part way).
func interrupted(ctx context.Context, name string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%w: %s: fit stopped: %w", fault.ErrInterrupted, name, err)
	}
	return nil
}
