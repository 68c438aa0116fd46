package history

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/scaling"
)

// Run is one job as the fit sees it: a run time (observed) or a lower bound (censored).
type Run struct {
	JobID string `json:"job_id"`
	P     int    `json:"p"`
	Nodes int    `json:"nodes"`
	// ElapsedS is sacct's Elapsed (whole seconds); for a censored run it includes the
	// time between the limit and the kill (SIGTERM, KillWait, SIGKILL).
	ElapsedS float64 `json:"elapsed_s"`
	Censored bool    `json:"censored"`
	// LowerBoundS (censored only) is what the job says: the run takes longer than this,
	// its time limit (or its elapsed time when the limit is unknown).
	LowerBoundS *float64 `json:"lower_bound_s,omitempty"`
	QueueWaitS  *int64   `json:"queue_wait_s,omitempty"`
	// FittedS is the fitted model at P; UsedS what the last refit used: the elapsed time,
	// or for a censored run max(LowerBoundS, FittedS of the previous fit).
	FittedS float64 `json:"fitted_s"`
	UsedS   float64 `json:"used_in_fit_s"`
	// RelError (observed only) is (fitted − observed)/observed. BoundMet (censored only):
	// the model predicts at least the bound, so the run contributes no penalty.
	RelError *float64 `json:"rel_error,omitempty"`
	BoundMet *bool    `json:"bound_met,omitempty"`
	// BoundShortfall (censored, bound not met) is (bound − fitted)/bound > 0.
	BoundShortfall *float64 `json:"bound_shortfall,omitempty"`
}

// CensoredFit is the scaling fit of a study with its timed-out runs as lower bounds.
type CensoredFit struct {
	Method string `json:"method"`
	Exact  bool   `json:"exact"`
	// Iterations of the alternation (see FitCensored); Converged when the imputed values
	// and the chosen model stopped changing (relative change below Tolerance).
	Iterations int     `json:"iterations"`
	Converged  bool    `json:"converged"`
	Tolerance  float64 `json:"tolerance"`
	// Observed and CensoredRuns count the runs; BoundsMissed the censored runs whose bound
	// the final model predicts below (each penalised in the fit).
	Observed     int             `json:"observed"`
	CensoredRuns int             `json:"censored"`
	BoundsMissed int             `json:"bounds_missed"`
	Scaling      *scaling.Result `json:"scaling"`
	Runs         []Run           `json:"runs"`
}

// Censoring parameters of FitCensored.
const (
	censorTol     = 1e-6
	censorMaxIter = 100
)

// FitCensored fits package scaling's model family to observed run times with some runs
// censored from below (TIMEOUT: the run takes longer than its limit L).
//
// Objective (Tobit-style one-sided penalty on relative residuals, the same residuals as
// scaling.Fit): Σ_observed ((T(p)−t)/t)² + Σ_censored (min(0, T(p)−L)/L)²: a prediction
// below a bound is penalised as if the bound were observed, one at or above it is not. It is
// minimised by alternation (block coordinate descent on the imputed values y_c ≥ L_c):
// start with y_c = max(L_c, T₀(p_c)), T₀ the fit of the completed runs alone, fit scaling.Fit to the observed times and the y_c, then set
// y_c = max(L_c, T(p_c)) and refit, until nothing changes. For a fixed model,
// min over y ≥ L of ((T−y)/y)² is exactly the one-sided penalty (y = T when T ≥ L, y = L
// otherwise), so each step lowers the objective. scaling.Fit chooses the model anew at each
// step (its cross-validation sees the imputed values as data, which favours models that
// agree with their own imputations); the alternation stops when the choice and the values
// are stable. Not a maximum-likelihood Tobit: no noise model is assumed beyond
// scaling's relative least squares, and the intervals treat imputed values as measured.
func FitCensored(ctx context.Context, name, scal string, runs []Run) (*CensoredFit, error) {
	cf := &CensoredFit{Tolerance: censorTol,
		Method: "Tobit-style one-sided penalty: timed-out runs are lower bounds, a fitted time below a bound is penalised by its relative shortfall and one above it not at all; minimised by alternating scaling.Fit with the imputed values max(bound, fitted), starting from the fit of the completed runs alone"}
	ps := map[int]bool{}
	for _, r := range runs {
		if r.Censored {
			cf.CensoredRuns++
		} else {
			cf.Observed++
			ps[r.P] = true
		}
	}
	if len(ps) < 2 {
		return nil, fmt.Errorf("%w: %s: completed runs at %d distinct task counts: at least 2 are needed to fit (timed-out runs are bounds, not times)", fault.ErrInput, name, len(ps))
	}
	runs = append([]Run(nil), runs...)
	sort.SliceStable(runs, func(a, b int) bool { return runs[a].P < runs[b].P })
	if err := impute(ctx, name, scal, runs); err != nil {
		return nil, err
	}
	var res *scaling.Result
	for cf.Iterations < censorMaxIter {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%w: censored fit: %v", fault.ErrInterrupted, err)
		}
		d := &scaling.Data{Name: name, Scaling: scal}
		for _, r := range runs {
			d.Points = append(d.Points, scaling.Point{P: r.P, TimeS: r.UsedS})
		}
		next, err := scaling.Fit(ctx, d)
		if err != nil {
			return nil, err
		}
		cf.Iterations++
		change := 0.0
		for i := range runs {
			if !runs[i].Censored {
				continue
			}
			t, err := modelAt(next, runs[i].P)
			if err != nil {
				return nil, err
			}
			y := math.Max(*runs[i].LowerBoundS, t)
			change = math.Max(change, math.Abs(y-runs[i].UsedS)/runs[i].UsedS)
			runs[i].UsedS = y
		}
		same := res != nil && res.Chosen.Name == next.Chosen.Name
		res = next
		if cf.CensoredRuns == 0 || (same && change < censorTol) {
			cf.Converged = true
			break
		}
	}
	cf.Scaling = res
	if err := cf.finish(runs); err != nil {
		return nil, err
	}
	if !cf.Converged {
		return cf, fmt.Errorf("%w: %s: the censored fit did not settle in %d alternations (the chosen model or the imputed bounds still changed by more than %g)", fault.ErrNotConverged, name, censorMaxIter, censorTol)
	}
	return cf, nil
}

// impute sets each run's starting value: its elapsed time, or for a censored run
// max(L, T₀(p)) with T₀ the fit of the completed runs alone.
func impute(ctx context.Context, name, scal string, runs []Run) error {
	obs := &scaling.Data{Name: name, Scaling: scal}
	for _, r := range runs {
		if !r.Censored {
			obs.Points = append(obs.Points, scaling.Point{P: r.P, TimeS: r.ElapsedS})
		}
	}
	start, err := scaling.Fit(ctx, obs)
	if err != nil {
		return err
	}
	for i := range runs {
		runs[i].UsedS = runs[i].ElapsedS
		if runs[i].Censored {
			t, err := modelAt(start, runs[i].P)
			if err != nil {
				t = 0 // no finite time there: start at the bound
			}
			runs[i].UsedS = math.Max(*runs[i].LowerBoundS, t)
		}
	}
	return nil
}

// finish sets each run's fitted value and residual or bound check from the final model.
func (cf *CensoredFit) finish(runs []Run) error {
	for i := range runs {
		r := &runs[i]
		t, err := modelAt(cf.Scaling, r.P)
		if err != nil {
			return err
		}
		r.FittedS = t
		if !r.Censored {
			e := (t - r.ElapsedS) / r.ElapsedS
			r.RelError = &e
			continue
		}
		met := t >= *r.LowerBoundS*(1-1e-9)
		r.BoundMet = &met
		if !met {
			cf.BoundsMissed++
			s := (*r.LowerBoundS - t) / *r.LowerBoundS
			r.BoundShortfall = &s
		}
	}
	cf.Runs = runs
	return nil
}

// modelAt is the selected model's own value at p (scaling.Prediction.SelectedS: not the
// stacked prediction Predict gives beyond the measured range), what the fit's residuals and
// bounds are measured against.
func modelAt(r *scaling.Result, p int) (float64, error) {
	pr, err := r.Predict(p)
	if err != nil {
		return 0, err
	}
	return pr.SelectedS, nil
}
