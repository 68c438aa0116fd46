package solveapp

import (
	"fmt"
	"github.com/clusterperf/clusterperf/qn"
	"math"
	"strings"
)

// Observed is an independent measurement of one class quantity: a mean and its 95 %
// confidence half-width (e.g. from simulation replications).
type Observed struct {
	Mean, Half float64
}

// SetObservedEstimate gives an approximate result without an ErrorEstimate (ForkJoinMVA's:
// no exact solver exists to compare with) one measured against observations of the same
// model, x[c] and rt[c] of every class (throughput, response time), by method (e.g.
// "simulation, 10 replications"). With d = |r − mean|/|mean| the difference and
// h = half/|mean| the relative half-width, Spread = max d and RelError = max (d + h) over
// classes and both quantities: with 95 % confidence the exact answer lies within h of the
// mean, so RelError bounds the error relative to the observed mean. Solve's note that the
// result has no estimate is dropped. Observations with a non-finite or zero mean or an
// infinite half-width give an error (the result is left as it was).
func SetObservedEstimate(r *qn.Result, method string, x, rt []Observed) error {
	if r.Exact || r.ErrorEstimate != nil {
		return nil
	}
	if len(x) != len(r.Throughput) || len(rt) != len(r.ResponseTime) {
		return fmt.Errorf("observations of %d and %d classes for a result of %d", len(x), len(rt), len(r.Throughput))
	}
	spread, rel := 0.0, 0.0
	for _, q := range []struct {
		model []float64
		obs   []Observed
	}{{r.Throughput, x}, {r.ResponseTime, rt}} {
		for c, o := range q.obs {
			m := math.Abs(o.Mean)
			if !(m > 0) || math.IsInf(m, 0) || !(o.Half >= 0) || math.IsInf(o.Half, 0) {
				return fmt.Errorf("observation %d: mean %g ± %g cannot measure a relative error", c, o.Mean, o.Half)
			}
			d := math.Abs(q.model[c]-o.Mean) / m
			spread, rel = math.Max(spread, d), math.Max(rel, d+o.Half/m)
		}
	}
	r.ErrorEstimate = &qn.ErrorEstimate{RelError: rel, Spread: spread, SpreadMethod: method}
	notes := r.Notes[:0:0]
	for _, n := range r.Notes {
		if !strings.HasPrefix(n, qn.NoEstimateNote) {
			notes = append(notes, n)
		}
	}
	r.Notes = notes
	return nil
}
