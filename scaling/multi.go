package scaling

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/input"
)

// PNPoint is one run in two parameters: p processes, problem size N, time TimeS.
type PNPoint struct {
	P     int     `json:"p"`
	N     float64 `json:"n"`
	TimeS float64 `json:"time_s"`
}

// PNModel is a fitted model in (p, n) of Extra-P's multi-parameter normal form restricted to
// one term per parameter (Calotoiu et al., "Fast multi-parameter performance modeling",
// CLUSTER 2016): with f(p) = p^i·log₂^j(p) and g(n) = n^k·log₂^l(n),
//
//	additive        c0 + c1·f(p) + c2·g(n)
//	multiplicative  c0 + c1·f(p)·g(n)
//	mixed p         c0 + c1·f(p) + c2·f(p)·g(n)
//	mixed n         c0 + c1·g(n) + c2·f(p)·g(n)
//
// every coefficient ≥ 0, fitted by relative least squares (exact NNLS over supports). The
// SPMD form T = a·n/p + b (computation shared by p, a constant) is the multiplicative shape
// with f = p^−1, g = n.
type PNModel struct {
	Formula string    `json:"formula"`
	Coef    []float64 `json:"coefficients"`
	// LOO is the RMS log error of leave-one-(p, n)-out predictions.
	LOO float64 `json:"loo_rms_log_error"`
	// HalfWidth95 is the 95 % interval's half-width in log time: the ⌈0.95(n+1)⌉-th smallest
	// |log error| of the leave-one-(p, n)-out predictions (the jackknife interval, Barber,
	// Candès, Ramdas & Tibshirani 2021, "Predictive inference with the jackknife+", Ann.
	// Statist. 49(1), with the conformal quantile); the interval is T̂·exp(±HalfWidth95). It
	// measures interpolation errors: BacktestPN reports how often it held extrapolated runs.
	HalfWidth95 float64 `json:"interval95_log_half_width"`

	f, g  Term
	shape int
}

// value is the model's time at (p, n).
func (m *PNModel) value(p, n float64) float64 {
	c := pnColumns(m.f, m.g, m.shape, p, n)
	v := m.Coef[0]
	for k, x := range c {
		v += m.Coef[k+1] * x
	}
	return v
}

// Interval is the 95 % interval at (p, n) (see HalfWidth95).
func (m *PNModel) Interval(p, n float64) (lo, hi float64, err error) {
	v, err := m.Predict(p, n)
	if err != nil {
		return 0, 0, err
	}
	return v * math.Exp(-m.HalfWidth95), v * math.Exp(m.HalfWidth95), nil
}

// Predict is the model's time at (p, n).
func (m *PNModel) Predict(p, n float64) (float64, error) {
	v := m.value(p, n)
	if !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%w: %s gives a non-finite time at p = %g, n = %g", fault.ErrNotConverged, m.Formula, p, n)
	}
	return v, nil
}

var shapeNames = []string{"c0 + c1·%s + c2·%s", "c0 + c1·%s·%s", "c0 + c1·%s + c2·%s·%s", "c0 + c1·%s + c2·%s·%s"}

func pnColumns(f, g Term, shape int, p, n float64) []float64 {
	fp, gn := f.eval(p), nTerm(g, n)
	switch shape {
	case 0:
		return []float64{fp, gn}
	case 1:
		return []float64{fp * gn}
	case 2:
		return []float64{fp, fp * gn}
	}
	return []float64{gn, fp * gn}
}

// nTerm is g at n (its printed variable is n).
func nTerm(g Term, n float64) float64 { return g.eval(n) }

func pnFormula(f, g Term, shape int) string {
	fs := f.String()
	gs := renameP(g.String())
	switch shape {
	case 0:
		return fmt.Sprintf(shapeNames[0], fs, gs)
	case 1:
		return fmt.Sprintf(shapeNames[1], fs, gs)
	case 2:
		return fmt.Sprintf(shapeNames[2], fs, fs, gs)
	}
	return fmt.Sprintf(shapeNames[3], gs, fs, gs)
}

func renameP(s string) string {
	out := []rune{}
	for _, r := range s {
		if r == 'p' {
			r = 'n'
		}
		out = append(out, r)
	}
	return string(out)
}

// pnFit fits one (f, g, shape) to rows of pts by relative NNLS; nil when infeasible.
func pnFit(f, g Term, shape int, pts []PNPoint, rows []int) (coef []float64, cost float64) {
	m := 1 + len(pnColumns(f, g, shape, 2, 2))
	cols := make([][]float64, m)
	t := make([]float64, len(rows))
	for k := range cols {
		cols[k] = make([]float64, len(rows))
	}
	for a, i := range rows {
		pt := pts[i]
		c := pnColumns(f, g, shape, float64(pt.P), pt.N)
		cols[0][a] = 1 / pt.TimeS
		for k, x := range c {
			cols[k+1][a] = x / pt.TimeS
		}
		t[a] = 1
	}
	x, sup, cost := bestSupport(cols, t, m, len(rows), len(rows))
	if x == nil {
		return nil, math.Inf(1)
	}
	coef = make([]float64, m)
	for a, k := range sup {
		coef[k] = x[a]
	}
	if !finiteAll(coef) {
		return nil, math.Inf(1)
	}
	return coef, cost
}

// pnShortlist is how many of the best-fitting (f, g, shape) FitPN cross-validates.
const pnShortlist = 30

// FitPN fits the (p, n) family to pts: every (f, g, shape) is fitted, the pnShortlist with
// the smallest relative residual are cross-validated leave-one-(p, n)-out, and the smallest
// RMS log error wins (ties: fewer coefficients). f ranges over the strong-scaling decay terms
// and the growth terms of the one-parameter family, g over the growth terms.
func FitPN(pts []PNPoint) (*PNModel, error) {
	if len(pts) < 4 || len(pts) > MaxRows {
		return nil, fmt.Errorf("%w: %d runs: a (p, n) model needs 4 … %d", fault.ErrInput, len(pts), MaxRows)
	}
	for i, pt := range pts {
		if pt.P < 1 || !(pt.N > 0) || math.IsInf(pt.N, 0) || !(pt.TimeS > 0) || math.IsInf(pt.TimeS, 0) {
			return nil, fmt.Errorf("%w: point %d: p = %d, n = %g, time %g: want positive finite values", fault.ErrInput, i+1, pt.P, pt.N, pt.TimeS)
		}
	}
	if err := pnSpread(pts); err != nil {
		return nil, err
	}
	var fs, gs []Term
	for _, e := range decayExponents {
		for j := 0; j <= 1; j++ {
			fs = append(fs, Term{I: e.v, IText: e.text, J: j})
		}
	}
	for _, e := range growthExponents {
		for j := 0; j <= 2; j++ {
			if e.v == 0 && j == 0 {
				continue
			}
			fs = append(fs, Term{I: e.v, IText: e.text, J: j})
			gs = append(gs, Term{I: e.v, IText: e.text, J: j})
		}
	}
	all := make([]int, len(pts))
	for i := range all {
		all[i] = i
	}
	type cand struct {
		f, g  Term
		shape int
		cost  float64
	}
	var cs []cand
	for _, f := range fs {
		for _, g := range gs {
			for shape := 0; shape < 4; shape++ {
				if _, cost := pnFit(f, g, shape, pts, all); !math.IsInf(cost, 1) {
					cs = append(cs, cand{f, g, shape, cost})
				}
			}
		}
	}
	if len(cs) == 0 {
		return nil, fmt.Errorf("%w: no (p, n) model could be fitted", fault.ErrNotConverged)
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].cost < cs[b].cost })
	var best *PNModel
	for _, c := range cs[:min(pnShortlist, len(cs))] {
		errs := pnLOOErrors(c.f, c.g, c.shape, pts)
		loo := rmsOrInf(errs)
		if best == nil || loo < best.LOO-1e-9 {
			coef, _ := pnFit(c.f, c.g, c.shape, pts, all)
			best = &PNModel{Formula: pnFormula(c.f, c.g, c.shape), Coef: coef, LOO: loo, f: c.f, g: c.g, shape: c.shape}
			// At least pnMinHalfWidth: an exact fit's zero-width interval would exclude its own
			// prediction after rounding.
			best.HalfWidth95 = math.Max(conformalQuantile(errs), pnMinHalfWidth)
		}
	}
	return best, nil
}

// pnMinHalfWidth is the smallest interval half-width in log time (one part in a million).
const pnMinHalfWidth = 1e-6

// rmsOrInf is the RMS of e, +Inf when e is nil (a fold could not be fitted).
func rmsOrInf(e []float64) float64 {
	if e == nil {
		return math.Inf(1)
	}
	return rms(e)
}

// pnLOOErrors are the |log error|s of leaving out each distinct (p, n) with its
// replicates, one per run; nil when a fold cannot be fitted or predicts no positive time.
func pnLOOErrors(f, g Term, shape int, pts []PNPoint) []float64 {
	type key struct {
		p int
		n float64
	}
	idx := map[key][]int{}
	var keys []key
	for i, pt := range pts {
		k := key{pt.P, pt.N}
		if idx[k] == nil {
			keys = append(keys, k)
		}
		idx[k] = append(idx[k], i)
	}
	var out []float64
	for _, k := range keys {
		var train []int
		for i, pt := range pts {
			if pt.P != k.p || pt.N != k.n {
				train = append(train, i)
			}
		}
		coef, _ := pnFit(f, g, shape, pts, train)
		if coef == nil {
			return nil
		}
		m := PNModel{Coef: coef, f: f, g: g, shape: shape}
		v := m.value(float64(k.p), k.n)
		if !(v > 0) {
			return nil
		}
		for _, i := range idx[k] {
			out = append(out, math.Abs(math.Log(v/pts[i].TimeS)))
		}
	}
	return out
}

// pnSpread refuses a set in which p or n takes a single value: a joint (p, n) model has a
// term in each parameter, and a parameter held constant leaves its term undetermined.
func pnSpread(pts []PNPoint) error {
	ps, ns := map[int]bool{}, map[float64]bool{}
	for _, pt := range pts {
		ps[pt.P], ns[pt.N] = true, true
	}
	if len(ns) < 2 {
		return fmt.Errorf("%w: n takes one value (%g): a (p, n) model needs at least 2 (for one problem size use a p,time file)", fault.ErrInput, pts[0].N)
	}
	if len(ps) < 2 {
		return fmt.Errorf("%w: p takes one value (%d): a (p, n) model needs at least 2", fault.ErrInput, pts[0].P)
	}
	return nil
}

// PNBacktest is a (p, n) backtest: the largest p (every n) or the largest n (every p) held
// out, FitPN on the rest, the held-out runs predicted.
type PNBacktest struct {
	HeldOut     string  `json:"held_out"` // "largest p" or "largest n"
	Formula     string  `json:"formula"`
	Points      int     `json:"held_out_points"`
	MedianAbsRE float64 `json:"median_abs_rel_error"`
	MaxAbsRE    float64 `json:"max_abs_rel_error"`
	// Inside95: held-out runs inside the 95 % interval of the model fitted on the rest.
	Inside95 int `json:"inside_interval95"`
	// Skipped says why this backtest could not run (the rest cannot be fitted: too few
	// runs, or p or n takes one value); the other fields are then zero apart from Points.
	Skipped string `json:"skipped,omitempty"`
}

// BacktestPN holds out the largest p, then separately the largest n. A backtest whose
// remaining runs cannot be fitted (an input error of FitPN on them) is returned with Skipped
// set rather than failing: the full set's model does not depend on it.
func BacktestPN(pts []PNPoint) ([]PNBacktest, error) {
	maxP, maxN := 0, 0.0
	for _, pt := range pts {
		maxP, maxN = max(maxP, pt.P), math.Max(maxN, pt.N)
	}
	var out []PNBacktest
	for _, which := range []string{"largest p", "largest n"} {
		var train, test []PNPoint
		for _, pt := range pts {
			if (which == "largest p" && pt.P == maxP) || (which == "largest n" && pt.N == maxN) {
				test = append(test, pt)
			} else {
				train = append(train, pt)
			}
		}
		m, err := FitPN(train)
		if errors.Is(err, fault.ErrInput) {
			out = append(out, PNBacktest{HeldOut: which, Points: len(test),
				Skipped: fmt.Sprintf("%d runs remain without the %s: %s", len(train), which, fault.Detail(err))})
			continue
		}
		if err != nil {
			return nil, err
		}
		var errs []float64
		inside := 0
		for _, pt := range test {
			v, err := m.Predict(float64(pt.P), pt.N)
			if err != nil {
				return nil, err
			}
			errs = append(errs, math.Abs(v-pt.TimeS)/pt.TimeS)
			if lo, hi, err := m.Interval(float64(pt.P), pt.N); err == nil && lo <= pt.TimeS && pt.TimeS <= hi {
				inside++
			}
		}
		b := PNBacktest{HeldOut: which, Formula: m.Formula, Points: len(test), MedianAbsRE: median(errs), Inside95: inside}
		for _, e := range errs {
			b.MaxAbsRE = math.Max(b.MaxAbsRE, e)
		}
		out = append(out, b)
	}
	return out, nil
}

// ReadPNCSV reads "p,n,time" rows (header required; '#' comment lines, "# key: value" kept
// in meta); errors name file:line.
func ReadPNCSV(file string, r io.Reader) ([]PNPoint, map[string]string, error) {
	meta := map[string]string{}
	sc := bufio.NewScanner(r)
	line, header := 0, false
	var pts []PNPoint
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		if strings.HasPrefix(s, "#") {
			if k, v, ok := strings.Cut(strings.TrimSpace(s[1:]), ":"); ok {
				meta[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
			}
			continue
		}
		f := strings.Split(s, ",")
		if !header {
			if len(f) != 3 || strings.TrimSpace(f[0]) != "p" || strings.TrimSpace(f[1]) != "n" || strings.TrimSpace(f[2]) != "time" {
				return nil, nil, fmt.Errorf("%w: %s:%d: header %s: want \"p,n,time\"", fault.ErrInput, file, line, input.Excerpt(s))
			}
			header = true
			continue
		}
		if len(f) != 3 {
			return nil, nil, fmt.Errorf("%w: %s:%d: %d fields: want 3 (p,n,time)", fault.ErrInput, file, line, len(f))
		}
		if len(pts) >= MaxRows {
			return nil, nil, fmt.Errorf("%w: %s:%d: more than %d rows", fault.ErrTooLarge, file, line, MaxRows)
		}
		p, err1 := strconv.Atoi(strings.TrimSpace(f[0]))
		n, err2 := strconv.ParseFloat(strings.TrimSpace(f[1]), 64)
		t, err3 := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
		if err1 != nil || err2 != nil || err3 != nil || p < 1 || p > 1<<30 || !(n > 0) || math.IsInf(n, 0) || !(t > 0) || math.IsInf(t, 0) {
			return nil, nil, fmt.Errorf("%w: %s:%d: %s: want p an integer 1 … 2^30, n and time positive finite", fault.ErrInput, file, line, input.Excerpt(s))
		}
		pts = append(pts, PNPoint{P: p, N: n, TimeS: t})
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%w: %s:%d: %v", fault.ErrInput, file, line+1, err)
	}
	if !header || len(pts) == 0 {
		return nil, nil, fmt.Errorf("%w: %s: no \"p,n,time\" rows", fault.ErrInput, file)
	}
	return pts, meta, nil
}
