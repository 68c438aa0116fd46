package pipeline

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/clusterperf/clusterperf/fault"
)

// FitResult holds constants fitted to measurements.
type FitResult struct {
	Names  []string
	Values []float64
	Before float64 // root-mean-square relative error with the starting constants
	After  float64 // … with the fitted constants
	Used   int     // measurements used (those without memory overflow)
	Status string  // optimizer status
	Evals  int
	Params SortParams
}

// FitSort fits the named constants (a subset of SortParamNames) of a sort model to measured
// times by minimising the sum of squared relative errors Σ((t_model − t_meas)/t_meas)².
// The model has min() terms, so the objective is not smooth: Nelder–Mead on log-constants
// (which keeps them positive). Measurements whose data overflow node memory (mem) are left
// out, as 003 leaves out its paging runs.
func FitSort(start SortParams, mem Memory, names []string, meas []Measurement) (*FitResult, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: fit: name at least one constant to fit (allowed: c_q, c_m, b_io, l_n, b_n, b_gather)", fault.ErrInput)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("%w: fit: constant %s named twice: name each constant once", fault.ErrInput, n)
		}
		seen[n] = true
		if (&start).field(n) == nil {
			return nil, fmt.Errorf("%w: fit: unknown constant %q (allowed: c_q, c_m, b_io, l_n, b_n, b_gather)", fault.ErrInput, n)
		}
		if *(&start).field(n) <= 0 {
			return nil, fmt.Errorf("%w: fit: constant %s needs a starting value > 0", fault.ErrInput, n)
		}
	}
	var use []Measurement
	for _, mt := range meas {
		m := start.Model("")
		m.Memory = mem
		if !m.Predict(mt.P).MemoryExceeded {
			use = append(use, mt)
		}
	}
	if len(use) < len(names) {
		return nil, fmt.Errorf("%w: fit: %d usable measurements for %d constants; need at least as many", fault.ErrInput, len(use), len(names))
	}
	build := func(x []float64) SortParams {
		sp := start
		for i, n := range names {
			*(&sp).field(n) = math.Exp(x[i])
		}
		return sp
	}
	obj := func(x []float64) float64 {
		m := build(x).Model("")
		if m.Validate() != nil {
			return math.Inf(1)
		}
		s := 0.0
		for _, mt := range use {
			e := (m.Predict(mt.P).Time - mt.Time) / mt.Time
			s += e * e
		}
		return s
	}
	x0 := make([]float64, len(names))
	for i, n := range names {
		x0[i] = math.Log(*(&start).field(n))
	}
	rms := func(v float64) float64 { return math.Sqrt(v / float64(len(use))) }
	res := &FitResult{Names: names, Before: rms(obj(x0)), Used: len(use)}
	r, err := optimize.Minimize(optimize.Problem{Func: obj}, x0, &optimize.Settings{FuncEvaluations: 20000, Converger: &optimize.FunctionConverge{Absolute: 1e-14, Relative: 1e-12, Iterations: 200}}, &optimize.NelderMead{})
	if err != nil && r == nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	res.Status = r.Status.String()
	res.Evals = r.FuncEvaluations
	res.Params = build(r.X)
	res.After = rms(r.F)
	for _, n := range names {
		res.Values = append(res.Values, *(&res.Params).field(n))
	}
	return res, nil
}
