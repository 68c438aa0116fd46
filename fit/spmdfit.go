package fit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/spmd"
)

// ParamNames returns (a fresh slice of) the SPMD phase parameters a fit can fix or free
// (seconds form of 000 Table 1; with a speedup target and reference_time 1 they are in
// units of T1, as 000 Table 4).
func ParamNames() []string { return slices.Clone(paramNames) }

var paramNames = []string{"s_par", "s_ser", "n_io", "s0_com", "s0_com_exponent", "sr_com", "g_exponent", "w", "s0_io", "sr_io"}

// Param is one parameter: fixed at Value, or free from the start Value within [Min, Max].
type Param struct {
	Name     string
	Value    float64
	Min, Max float64
	Free     bool
}

// Spec describes a fit of an SPMD model family.
type Spec struct {
	Name      string
	Arch      string // an spmd architecture name, or "auto"
	C         int
	Sync      spmd.SyncCost
	Params    []Param
	Reference float64 // T_ref for a speedup target: s = T_ref/T(p,d) (default 1: parameters in units of T1)
	Starts    int     // multi-start count (default 20)
	Seed      uint64
	Bootstrap int // bootstrap replicates for percentile intervals (0: none)
	// NoCommAtOne: 000's g(1) = 0 (no communication on one processor).
	NoCommAtOne bool
	// Objective is what the least squares minimise: "relative" (default), Σ((m − o)/o)², or
	// "absolute", the thesis's ε = Σ_{p,d} [s(p, d) − s_{p,d}]² (001 §6.2), which weighs the
	// large speedups (or long times) most. AIC/BIC are computed from the chosen objective.
	Objective string
	// Progress, if set, is called with (done, B) as the bootstrap replicates of one
	// candidate finish (from one goroutine at a time).
	Progress func(done, total int)
	// Context, if set, stops the bootstrap when it is cancelled (Ctrl-C): the replicates
	// started finish, and the intervals rest on those (SPMDResult.BootstrapPartial).
	Context context.Context
}

// Objectives returns (a fresh slice of) the values Spec.Objective accepts.
func Objectives() []string { return []string{"relative", "absolute"} }

// ParamEstimate is a fitted parameter; CI fields are nil when not identifiable or fixed.
type ParamEstimate struct {
	Name    string   `json:"name"`
	Value   float64  `json:"value"`
	CILow   *float64 `json:"ci_low"` // nil: fixed, or not identifiable from the data
	CIHigh  *float64 `json:"ci_high"`
	StdErr  *float64 `json:"std_err,omitempty"`
	BootLow *float64 `json:"boot_low,omitempty"`
	BootHi  *float64 `json:"boot_high,omitempty"`
	Fixed   bool     `json:"fixed,omitempty"`
	AtBound bool     `json:"at_bound,omitempty"`
	// Bound is the bound (min or max of the model file) the value ended at, or within
	// BoundTolerance × the largest fitted free parameter of it: a value like 1.3e-8 against
	// a lower bound 0 among parameters of order 1 is the bound at the data's precision,
	// not a finding.
	Bound *float64 `json:"bound,omitempty"`
}

// BoundTolerance: a fitted value within this fraction of the largest free parameter's
// magnitude from a bound is reported at that bound (ParamEstimate.Bound).
const BoundTolerance = 1e-6

// markBounds sets Bound (and AtBound) of the free parameters near their min or max.
func markBounds(ps []ParamEstimate, params []Param) {
	scale := 0.0
	for i, p := range ps {
		if params[i].Free {
			scale = math.Max(scale, math.Abs(p.Value))
		}
	}
	for i := range ps {
		if !params[i].Free {
			continue
		}
		for _, b := range []float64{params[i].Min, params[i].Max} {
			if !math.IsInf(b, 0) && math.Abs(ps[i].Value-b) <= BoundTolerance*scale {
				v := b
				ps[i].Bound, ps[i].AtBound = &v, true
				break
			}
		}
	}
}

// Residual is one observation against the fit.
type Residual struct {
	P        int     `json:"p"`
	D        int     `json:"d"`
	Observed float64 `json:"observed"`
	Fitted   float64 `json:"fitted"`
	RelError float64 `json:"relative_error"`
}

// SPMDResult is a fitted SPMD model.
type SPMDResult struct {
	Architecture    string          `json:"architecture"`
	Target          string          `json:"target"`
	Parameters      []ParamEstimate `json:"parameters"`
	Metrics         Metrics         `json:"metrics"`
	AIC             float64         `json:"aic"`
	AICc            *float64        `json:"aicc"` // nil when undefined: n ≤ k + 1
	BIC             float64         `json:"bic"`
	K               int             `json:"free_parameters"`
	Status          string          `json:"status"`
	Converged       bool            `json:"converged"`
	Iterations      int             `json:"iterations"`
	Evals           int             `json:"evaluations"`
	Starts          int             `json:"starts"`
	StartsConverged int             `json:"starts_converged"`
	Residuals       []Residual      `json:"residuals"`
	// Unidentified lists, for each direction of parameter space the data do not determine,
	// the parameters moving along it with their relative weights (e.g. "+1 s_ser −1 s_par").
	Unidentified []string `json:"unidentified,omitempty"`
	// BootstrapReplicates and BootstrapFailed count the residual-bootstrap replicates run
	// and those whose refit failed (SetBootstrap).
	BootstrapReplicates int `json:"bootstrap_replicates,omitempty"`
	BootstrapFailed     int `json:"bootstrap_failed,omitempty"`
	// BootstrapPartial: the bootstrap was interrupted (Spec.Context cancelled) after
	// BootstrapReplicates of Spec.Bootstrap replicates.
	BootstrapPartial bool `json:"bootstrap_partial,omitempty"`

	problem func() Problem // the least-squares problem of the fit (fresh buffers per call)
	data    *Data
	idxOf   map[point]int // observation (p, d) → index of its unique point
	fittedU []float64     // the fitted values at the unique points
	nulls   [][]float64   // the undetermined directions over the free parameters (Unidentified)
	spec    Spec
	arch    spmd.Architecture
	x       []float64 // free parameters
	cov     *mat.SymDense
	s2      float64
	dof     int
	model   *spmd.Model
}

// Model returns the fitted SPMD model.
func (r *SPMDResult) Model() *spmd.Model { return r.model }

func (sp Spec) freeIdx() []int {
	var idx []int
	for i, p := range sp.Params {
		if p.Free {
			idx = append(idx, i)
		}
	}
	return idx
}

// phase builds the phase with the free parameters set to x.
func (sp Spec) phase(x []float64) spmd.Phase {
	v := map[string]float64{"n_io": 1}
	for _, p := range sp.Params {
		v[p.Name] = p.Value
	}
	for j, i := range sp.freeIdx() {
		v[sp.Params[i].Name] = x[j]
	}
	c := sp.C
	if c < 1 {
		c = 1
	}
	for _, k := range []string{"s_par", "s_ser", "s0_com", "sr_com", "s0_io", "sr_io"} {
		if v[k] < spmd.MinTime {
			v[k] = 0 // below a picosecond (or 1e-12 T_ref): zero within rounding of any fit
		}
	}
	return spmd.Phase{SPar: v["s_par"], SSer: v["s_ser"], NIO: math.Max(v["n_io"], 1), S0Com: v["s0_com"], S0Exp: v["s0_com_exponent"],
		SRCom: v["sr_com"], GExp: v["g_exponent"], W: v["w"], C: c, Sync: sp.Sync, S0IO: v["s0_io"], SRIO: v["sr_io"], Ref: sp.Reference,
		NoCommAtOne: sp.NoCommAtOne}
}

type point struct{ p, d int }

// predictor evaluates the model quantity (time or speedup) at unique points.
func predictor(sp Spec, arch spmd.Architecture, target string, pts []point) func(x []float64, out []float64) error {
	return func(x []float64, out []float64) error {
		ph := sp.phase(x)
		m := &spmd.Model{Arch: arch, Phases: []spmd.Phase{ph}}
		e, err := spmd.NewEvaluator(m)
		if err != nil {
			return err
		}
		for i, q := range pts {
			pt, err := e.Evaluate(q.p, q.d)
			if err != nil {
				return err
			}
			if target == "time" {
				out[i] = pt.Time
			} else {
				out[i] = pt.Speedup
			}
		}
		return nil
	}
}

// ErrTooFewObservations is returned when there are fewer observations than free parameters.
var ErrTooFewObservations = errors.New("fewer observations than free parameters")

// SPMD fits one architecture to the data: relative residuals (model − observed)/observed,
// bounded Levenberg–Marquardt from Spec.Starts starting points (the given starts first, then
// seeded draws within the bounds, alternately uniform and log-uniform; run on all cores),
// the best kept.
func SPMD(sp Spec, arch spmd.Architecture, data *Data) (*SPMDResult, error) {
	if sp.Reference <= 0 {
		sp.Reference = 1
	}
	if data.Target == "time" {
		sp.Reference = 0 // speedups are not fitted; T_ref plays no role
	}
	free, err := checkSPMDSpec(sp, data)
	if err != nil {
		return nil, err
	}
	k := len(free)
	idxOf, pts, err := uniquePoints(sp, arch, data)
	if err != nil {
		return nil, err
	}
	pred := predictor(sp, arch, data.Target, pts)
	lo, hi := make([]float64, k), make([]float64, k)
	for j, i := range free {
		lo[j], hi[j] = sp.Params[i].Min, sp.Params[i].Max
	}
	makeProblem := func() Problem {
		buf := make([]float64, len(pts))
		return Problem{M: len(data.Obs), Lower: lo, Upper: hi, Residuals: func(x, r []float64) error {
			if err := pred(x, buf); err != nil {
				return err
			}
			for i, o := range data.Obs {
				if sp.Objective == "absolute" {
					r[i] = buf[idxOf[point{o.P, o.D}]] - o.Value
				} else {
					r[i] = (buf[idxOf[point{o.P, o.D}]] - o.Value) / o.Value
				}
			}
			return nil
		}}
	}
	x0s := multiStarts(sp, lo, hi)
	results := runStarts(makeProblem, x0s)
	var best *Result
	res := &SPMDResult{Architecture: arch.String(), Target: data.Target, Starts: len(x0s), spec: sp, arch: arch, K: k}
	for _, r := range results {
		if r == nil {
			continue
		}
		res.Evals += r.Evals
		if r.Status.Converged() {
			res.StartsConverged++
		}
		if best == nil || r.Cost < best.Cost {
			best = r
		}
	}
	if best == nil {
		return nil, fmt.Errorf("fit: %v could not be evaluated from any starting point", arch)
	}
	res.x = best.X
	res.Status, res.Converged, res.Iterations = string(best.Status), best.Status.Converged(), best.Iterations
	res.uncertainty(best, free, len(data.Obs))
	fitted := make([]float64, len(pts))
	if err := pred(best.X, fitted); err != nil {
		return nil, err
	}
	var f, a []float64
	for _, o := range data.Obs {
		v := fitted[idxOf[point{o.P, o.D}]]
		res.Residuals = append(res.Residuals, Residual{P: o.P, D: o.D, Observed: o.Value, Fitted: v, RelError: (v - o.Value) / o.Value})
		f, a = append(f, v), append(a, o.Value)
	}
	res.Metrics = Compare(f, a)
	res.AIC, _, res.BIC = InformationCriteria(best.Cost, len(data.Obs), k)
	res.AICc = AICcOf(best.Cost, len(data.Obs), k)
	res.model = &spmd.Model{Name: sp.Name, Arch: arch, Phases: []spmd.Phase{sp.phase(best.X)}}
	res.problem, res.data, res.idxOf, res.fittedU = makeProblem, data, idxOf, fitted
	if sp.Bootstrap > 0 {
		res.bootstrap(sp.Bootstrap)
	}
	return res, nil
}

// checkSPMDSpec refuses (ErrInput) an unknown objective, a spec with no free parameter,
// or fewer observations than free parameters; it returns the free parameters' indices.
func checkSPMDSpec(sp Spec, data *Data) ([]int, error) {
	switch sp.Objective {
	case "", "relative", "absolute":
	default:
		return nil, fmt.Errorf("%w: fit: objective %q (allowed: relative, absolute)", fault.ErrInput, sp.Objective)
	}
	free := sp.freeIdx()
	k := len(free)
	if k == 0 {
		return nil, fmt.Errorf("%w: fit: no free parameters (give at least one as {start, min, max})", fault.ErrInput)
	}
	if len(data.Obs) < k {
		return nil, fmt.Errorf("fit: %w: %w: %d observations for %d free parameters", fault.ErrInput, ErrTooFewObservations, len(data.Obs), k)
	}
	return free, nil
}

// uniquePoints returns the distinct (P, D) of the observations, in order of first
// appearance, with their indices; a point where the architecture cannot be evaluated is
// refused (ErrInput) with the observation's line.
func uniquePoints(sp Spec, arch spmd.Architecture, data *Data) (map[point]int, []point, error) {
	idxOf := map[point]int{}
	var pts []point
	probe := &spmd.Model{Arch: arch, Phases: []spmd.Phase{sp.phase(startVector(sp))}}
	var bad []error
	for _, o := range data.Obs {
		q := point{o.P, o.D}
		if _, ok := idxOf[q]; ok {
			continue
		}
		if err := probe.CheckConfig(o.P, o.D); err != nil {
			bad = append(bad, fmt.Errorf("line %d: %v", o.Line, err))
			continue
		}
		idxOf[q] = len(pts)
		pts = append(pts, q)
	}
	if len(bad) > 0 {
		return nil, nil, fmt.Errorf("%w: fit: %w", fault.ErrInput, &unfitError{arch, bad})
	}
	return idxOf, pts, nil
}

// multiStarts returns sp.Starts (0: 20) starting vectors, seeded by sp.Seed: the spec's
// start, then draws within [lo, hi] — every other one log-uniform over the four decades
// below a positive upper bound (the documents' parameters span 1e-3 … 1 and a uniform draw
// rarely lands small), the start × 10^U(−1, 1) for an unbounded parameter.
func multiStarts(sp Spec, lo, hi []float64) [][]float64 {
	starts := sp.Starts
	if starts <= 0 {
		starts = 20
	}
	rng := rand.New(rand.NewPCG(sp.Seed, 0x5eed))
	x0s := [][]float64{startVector(sp)}
	for s := 1; s < starts; s++ {
		x := make([]float64, len(lo))
		for j := range x {
			a, b := lo[j], hi[j]
			switch {
			case math.IsInf(a, -1) || math.IsInf(b, 1):
				x[j] = x0s[0][j] * math.Pow(10, rng.Float64()*2-1)
			case s%2 == 1 && a >= 0 && b > 0:
				la := math.Log10(math.Max(a, b*1e-4))
				x[j] = math.Pow(10, la+(math.Log10(b)-la)*rng.Float64())
			default:
				x[j] = a + (b-a)*rng.Float64()
			}
		}
		x0s = append(x0s, x)
	}
	return x0s
}

// runStarts runs Levenberg–Marquardt from each start on GOMAXPROCS goroutines (each with
// a problem of its own); a start that cannot be evaluated leaves nil.
func runStarts(makeProblem func() Problem, x0s [][]float64) []*Result {
	results := make([]*Result, len(x0s))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				r, err := LevenbergMarquardt(makeProblem(), x0s[s], Settings{MaxIter: 300, FTol: 1e-10})
				if err == nil {
					results[s] = r
				}
			}
		}()
	}
	for s := range x0s {
		next <- s
	}
	close(next)
	wg.Wait()
	return results
}

// uncertainty sets the covariance at the best fit, the directions it cannot determine
// (Unidentified, those pointing into an active bound separated out), and each parameter's
// estimate with its standard error and 95 % interval value ± t(0.975, m − k)·se clipped to
// its bounds.
func (res *SPMDResult) uncertainty(best *Result, free []int, m int) {
	sp, k := res.spec, len(free)
	freeMask := make([]bool, k)
	for j := range freeMask {
		freeMask[j] = true
	}
	var nulls [][]float64
	res.cov, res.s2, _, nulls = covariance(best, freeMask)
	nulls = separateAtBound(nulls, nearBound(best.X, best.AtBound, sp.Params, free))
	res.nulls = nulls
	freeNames := make([]string, 0, k)
	for _, i := range free {
		freeNames = append(freeNames, sp.Params[i].Name)
	}
	for _, v := range nulls {
		var terms []string
		for j, w := range v {
			if math.Abs(w) > 1e-3 {
				terms = append(terms, fmt.Sprintf("%+.3g·%s", w, freeNames[j]))
			}
		}
		res.Unidentified = append(res.Unidentified, strings.Join(terms, " "))
	}
	res.dof = m - k
	t := TQuantile(0.975, res.dof)
	j := 0
	for _, p := range sp.Params {
		pe := ParamEstimate{Name: p.Name, Value: p.Value, Fixed: !p.Free}
		if p.Free {
			pe.Value = best.X[j]
			pe.AtBound = best.AtBound[j]
			if v := res.cov.At(j, j); v >= 0 && !math.IsNaN(v) && !math.IsNaN(t) {
				se := math.Sqrt(v)
				l, h := math.Max(pe.Value-t*se, p.Min), math.Min(pe.Value+t*se, p.Max)
				pe.StdErr, pe.CILow, pe.CIHigh = &se, &l, &h
			}
			j++
		}
		res.Parameters = append(res.Parameters, pe)
	}
	markBounds(res.Parameters, sp.Params)
}

func startVector(sp Spec) []float64 {
	var x []float64
	for _, i := range sp.freeIdx() {
		x = append(x, sp.Params[i].Value)
	}
	return x
}

// Replicate is replicate b of the residual bootstrap: a data set of the fitted values
// divided by (1 + e), e drawn with replacement from the fit's relative residuals, refitted by
// Levenberg–Marquardt from the optimum. It returns the refitted free parameters, or ok false
// when the refit fails. The draws come from a generator seeded by (Spec.Seed, b) alone, so
// replicate b is the same numbers on any machine, in any order and in any shard (issue 18:
// a sharded bootstrap merges to exactly the one-machine result).
func (r *SPMDResult) Replicate(b int) (x []float64, ok bool) {
	rng := rand.New(rand.NewPCG(r.spec.Seed, bootstrapStream+uint64(b)))
	obs := r.data.Obs
	rel := make([]float64, len(obs))
	for i, res := range r.Residuals {
		rel[i] = res.RelError
	}
	resampled := make([]float64, len(obs))
	for i, o := range obs {
		f := r.fittedU[r.idxOf[point{o.P, o.D}]]
		v := f / (1 + rel[rng.IntN(len(rel))])
		if !(v > 0) || math.IsInf(v, 0) {
			v = f
		}
		resampled[i] = v
	}
	pr := r.problem()
	base := pr.Residuals
	absolute := r.spec.Objective == "absolute"
	pr.Residuals = func(x, rr []float64) error {
		if err := base(x, rr); err != nil {
			return err
		}
		for i, o := range obs { // re-target: base measured against the observed values
			if absolute {
				rr[i] = rr[i] + o.Value - resampled[i]
			} else {
				rr[i] = (rr[i]*o.Value + o.Value - resampled[i]) / resampled[i]
			}
		}
		return nil
	}
	br, err := LevenbergMarquardt(pr, r.x, Settings{MaxIter: 100, FTol: 1e-10})
	if err != nil {
		return nil, false
	}
	return br.X, true
}

// bootstrapStream is the PCG stream of bootstrap replicate 0; replicate b uses stream
// bootstrapStream + b.
const bootstrapStream = 0xb007 << 32

// CheckReplicate reports whether x can be a bootstrap replicate of r (what Replicate
// returns, e.g. read back from a shard file): one value per free parameter, each finite and
// within the parameter's [Min, Max] of the model file (the refit is bounded by them). nil
// (a failed refit) is allowed. The error wraps fault.ErrInput and says what was expected.
func (r *SPMDResult) CheckReplicate(x []float64) error {
	if x == nil {
		return nil
	}
	free := r.spec.freeIdx()
	if len(x) != len(free) {
		return fmt.Errorf("%w: a replicate of %s holds %d values; want one per free parameter (%d) or null for a failed refit", fault.ErrInput, r.Architecture, len(x), len(free))
	}
	for j, i := range free {
		p := r.spec.Params[i]
		if math.IsNaN(x[j]) || math.IsInf(x[j], 0) || x[j] < p.Min || x[j] > p.Max {
			return fmt.Errorf("%w: a replicate of %s gives %s = %g; want a finite value in [%g, %g]", fault.ErrInput, r.Architecture, p.Name, x[j], p.Min, p.Max)
		}
	}
	return nil
}

// SetBootstrap stores the 2.5/97.5 % percentile intervals of the replicates' free
// parameters (draws[b] from Replicate(b); nil for a failed refit) in Parameters' BootLow and
// BootHi. A parameter gets no interval from fewer than 10 successful replicates.
func (r *SPMDResult) SetBootstrap(draws [][]float64) {
	r.BootstrapReplicates, r.BootstrapFailed = len(draws), 0
	cols := make([][]float64, len(r.x))
	for _, x := range draws {
		if x == nil {
			r.BootstrapFailed++
			continue
		}
		for j := range cols {
			cols[j] = append(cols[j], x[j])
		}
	}
	j := 0
	for i := range r.Parameters {
		if r.Parameters[i].Fixed {
			continue
		}
		d := cols[j]
		j++
		r.Parameters[i].BootLow, r.Parameters[i].BootHi = nil, nil
		if len(d) < 10 {
			continue
		}
		sort.Float64s(d)
		l, h := d[int(0.025*float64(len(d)))], d[int(math.Min(float64(len(d)-1), 0.975*float64(len(d))))]
		r.Parameters[i].BootLow, r.Parameters[i].BootHi = &l, &h
	}
}

// bootstrap runs replicates 0 … B−1 on all cores and stores their intervals. When
// Spec.Context is cancelled no further replicate starts; those started (always 0 … n−1, as
// they are handed out in order) finish and the intervals rest on them (BootstrapPartial).
func (r *SPMDResult) bootstrap(B int) {
	ctx := r.spec.Context
	if ctx == nil {
		ctx = context.Background()
	}
	draws := make([][]float64, B)
	var wg sync.WaitGroup
	next, done := make(chan int), make(chan struct{})
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				draws[b], _ = r.Replicate(b)
				done <- struct{}{}
			}
		}()
	}
	go func() {
		defer close(next)
		for b := 0; b < B; b++ {
			if ctx.Err() != nil {
				return
			}
			select {
			case next <- b:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(done)
	}()
	n := 0
	for range done {
		n++
		if r.spec.Progress != nil {
			r.spec.Progress(n, B)
		}
	}
	r.SetBootstrap(draws[:n])
	r.BootstrapPartial = n < B
}

// Predict returns the fitted quantity (time or speedup) at (p, d) with a 95 % prediction
// interval: the delta method on the parameter covariance plus the residual variance
// (relative residuals: s²·value²), Student's t with n − k degrees of freedom.
func (r *SPMDResult) Predict(p, d int) (value, lo, hi float64, err error) {
	pred := predictor(r.spec, r.arch, r.Target, []point{{p, d}})
	out := make([]float64, 1)
	if err := pred(r.x, out); err != nil {
		return 0, 0, 0, err
	}
	value = out[0]
	k := len(r.x)
	g := make([]float64, k)
	xt := make([]float64, k)
	for j := 0; j < k; j++ {
		copy(xt, r.x)
		h := 1e-6 * math.Max(math.Abs(r.x[j]), 1e-6)
		xt[j] += h
		if err := pred(xt, out); err != nil {
			xt[j] -= 2 * h
			h = -h
			if err := pred(xt, out); err != nil {
				return value, math.NaN(), math.NaN(), nil
			}
		}
		g[j] = (out[0] - value) / h
	}
	v := r.s2 * value * value
	for a := 0; a < k; a++ {
		for b := 0; b < k; b++ {
			c := r.cov.At(a, b)
			if !math.IsNaN(c) {
				v += g[a] * c * g[b]
			}
		}
	}
	t := TQuantile(0.975, r.dof)
	if math.IsNaN(v) || math.IsNaN(t) {
		return value, math.NaN(), math.NaN(), nil
	}
	return value, value - t*math.Sqrt(v), value + t*math.Sqrt(v), nil
}

// nearBound marks the free parameters at a bound or within BoundTolerance of one (as
// markBounds reports them).
func nearBound(x []float64, at []bool, params []Param, free []int) []bool {
	scale := 0.0
	for _, v := range x {
		scale = math.Max(scale, math.Abs(v))
	}
	out := make([]bool, len(x))
	for j, i := range free {
		out[j] = j < len(at) && at[j]
		for _, b := range []float64{params[i].Min, params[i].Max} {
			if !math.IsInf(b, 0) && math.Abs(x[j]-b) <= BoundTolerance*scale {
				out[j] = true
			}
		}
	}
	return out
}

// separateAtBound rotates the basis of the null space (the undetermined directions, any
// basis of which is as valid) so that a parameter at its bound moves along one direction
// only: it is eliminated from the others (Gaussian elimination on the direction where its
// component is largest), each renormalised to largest component ±1. A parameter at its bound
// in every direction stops every segment at once (Identifiability follows one direction at
// a time from the optimum, and one side is closed at the bound): qcrd's absolute-objective
// fit mixed s0_io (at 0) into its s_ser–s0_com direction, whose segment then stayed within
// 0.1 % of the optimum and missed that the communication share can be 23–86 % (P2-5).
func separateAtBound(nulls [][]float64, at []bool) [][]float64 {
	used := make([]bool, len(nulls))
	for j := range at {
		if !at[j] {
			continue
		}
		piv := -1
		for e, v := range nulls {
			if !used[e] && math.Abs(v[j]) > 1e-3 && (piv < 0 || math.Abs(v[j]) > math.Abs(nulls[piv][j])) {
				piv = e
			}
		}
		if piv < 0 {
			continue
		}
		used[piv] = true
		for e, v := range nulls {
			if e == piv || v[j] == 0 {
				continue
			}
			f := v[j] / nulls[piv][j]
			big := 0.0
			for i := range v {
				v[i] -= f * nulls[piv][i]
				if math.Abs(v[i]) > math.Abs(big) {
					big = v[i]
				}
			}
			if big != 0 {
				for i := range v {
					v[i] /= big
				}
			}
			v[j] = 0
		}
	}
	return nulls
}

// unfitError is an architecture that cannot describe some measured configurations (one
// reason per data line): a sentence naming the architecture, which Select lists among the
// skipped models as it is.
type unfitError struct {
	arch spmd.Architecture
	bad  []error
}

func (e *unfitError) Error() string {
	lines := make([]string, len(e.bad))
	for i, b := range e.bad {
		lines[i] = b.Error()
	}
	return fmt.Sprintf("%v cannot describe every measured configuration: %s", e.arch, strings.Join(lines, "; "))
}

func (e *unfitError) Unwrap() []error { return e.bad }
