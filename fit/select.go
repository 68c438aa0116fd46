package fit

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/spmd"
)

// Ranked is one candidate of a model selection. AICc, DeltaAICc and Weight are nil for a
// candidate that cannot be ranked: AICc is undefined when n ≤ k + 1 (its correction term
// 2k(k+1)/(n−k−1) has no finite value), and Note says so; such candidates come last.
type Ranked struct {
	Name      string   `json:"name"`
	AICc      *float64 `json:"aicc"`
	BIC       float64  `json:"bic"`
	DeltaAICc *float64 `json:"delta_aicc"`    // AICc − best AICc
	Weight    *float64 `json:"akaike_weight"` // exp(−Δ/2) / Σ exp(−Δ/2) over the ranked candidates
	AvgError  float64  `json:"average_error"`
	K         int      `json:"free_parameters"`
	Note      string   `json:"note,omitempty"`
}

// ErrTooFewToRank is returned by Run when no SPMD candidate has an AICc: every one has
// n ≤ k + 1 observations for its k free parameters. It is wrapped with fault.ErrInput.
var ErrTooFewToRank = errors.New("too few observations to rank the models by AICc")

// Report is the outcome of a fit: the chosen SPMD model, every candidate, the baselines.
type Report struct {
	Best       *SPMDResult       `json:"best"`
	Candidates []*SPMDResult     `json:"-"`
	Baselines  []*BaselineResult `json:"baselines"`
	Ranking    []Ranked          `json:"ranking"`
	Skipped    []string          `json:"skipped,omitempty"`
}

// AutoArchitectures returns (a fresh slice of) the families tried by "auto": CLU-SIO has
// BUS-SIO's formulas (001 §5.4), so it is not a separate candidate.
func AutoArchitectures() []spmd.Architecture {
	return []spmd.Architecture{spmd.BusSIO, spmd.BusAIO, spmd.CluAIO}
}

// Run fits the spec's architecture (or every one for "auto") and the baselines, and ranks
// everything by AICc (small samples), with Akaike weights.
func Run(sp Spec, data *Data) (*Report, error) {
	var archs []spmd.Architecture
	if sp.Arch == "auto" {
		archs = AutoArchitectures()
	} else {
		a, err := spmd.ParseArchitecture(sp.Arch)
		if err != nil {
			return nil, err
		}
		archs = []spmd.Architecture{a}
	}
	rep := &Report{}
	var firstErr error
	for _, a := range archs {
		r, err := SPMD(sp, a, data)
		if err != nil {
			if errors.Is(err, ErrTooFewObservations) {
				return nil, err
			}
			if firstErr == nil {
				firstErr = err
			}
			rep.Skipped = append(rep.Skipped, skipReason(a, err))
			continue
		}
		rep.Candidates = append(rep.Candidates, r)
	}
	if len(rep.Candidates) == 0 {
		return nil, firstErr
	}
	n := len(data.Obs)
	for _, c := range rep.Candidates { // the best queueing model, even if a baseline ranks above it
		if c.AICc != nil && (rep.Best == nil || *c.AICc < *rep.Best.AICc) {
			rep.Best = c
		}
	}
	if rep.Best == nil {
		k := rep.Candidates[0].K
		return nil, fmt.Errorf("fit: %w: %w: %d observations for k = %d free parameter(s); AICc needs n ≥ k + 2 = %d (give more points, or fix a parameter)", fault.ErrInput, ErrTooFewToRank, n, k, k+2)
	}
	bl, err := BaselinesObjective(data, sp.Objective)
	if err != nil {
		return nil, err
	}
	rep.Baselines = bl
	for _, c := range rep.Candidates {
		rep.Ranking = append(rep.Ranking, ranked(Ranked{Name: c.Architecture, AICc: c.AICc, BIC: c.BIC, AvgError: c.Metrics.AverageError, K: c.K}, n))
	}
	for _, b := range bl {
		rep.Ranking = append(rep.Ranking, ranked(Ranked{Name: b.Name, AICc: b.AICc, BIC: b.BIC, AvgError: b.Metrics.AverageError, K: b.K, Note: b.Note}, n))
	}
	rankByAICc(rep.Ranking)
	return rep, nil
}

// ranked adds the reason to the note of a candidate without an AICc.
func ranked(r Ranked, n int) Ranked {
	if r.AICc == nil {
		why := fmt.Sprintf("not ranked: AICc is undefined with n = %d observations for k = %d free parameters (needs n ≥ k + 2 = %d)", n, r.K, r.K+2)
		r.Note = strings.TrimPrefix(r.Note+"; "+why, "; ")
	}
	return r
}

// rankByAICc sorts the candidates by AICc (those without one last, in their order) and
// sets ΔAICc and the Akaike weights w_i = exp(−Δ_i/2) / Σ_j exp(−Δ_j/2) (Burnham &
// Anderson 2002, §2.9) over the candidates that have an AICc. At least the first must.
func rankByAICc(rk []Ranked) {
	sort.SliceStable(rk, func(i, j int) bool {
		a, b := rk[i].AICc, rk[j].AICc
		return a != nil && (b == nil || *a < *b)
	})
	best := *rk[0].AICc
	sum := 0.0
	for i := range rk {
		if rk[i].AICc == nil {
			break
		}
		d := *rk[i].AICc - best
		w := math.Exp(-d / 2)
		rk[i].DeltaAICc, rk[i].Weight = &d, &w
		sum += w
	}
	for i := range rk {
		if rk[i].Weight != nil {
			*rk[i].Weight /= sum
		}
	}
}

// LeaveOneOut returns the leave-one-out cross-validated root-mean-square relative error of
// an architecture: each observation predicted by a fit (single start, from the full fit's
// optimum) to all the others.
func LeaveOneOut(full *SPMDResult, data *Data) (float64, error) {
	sp := full.spec
	j := 0
	for i := range sp.Params {
		if sp.Params[i].Free {
			sp.Params[i].Value = full.x[j]
			j++
		}
	}
	sp.Starts, sp.Bootstrap = 1, 0
	s := 0.0
	for i := range data.Obs {
		sub := &Data{Target: data.Target}
		sub.Obs = append(append(sub.Obs, data.Obs[:i]...), data.Obs[i+1:]...)
		r, err := SPMD(sp, full.arch, sub)
		if err != nil {
			return math.NaN(), err
		}
		v, _, _, err := r.Predict(data.Obs[i].P, data.Obs[i].D)
		if err != nil {
			return math.NaN(), err
		}
		e := (v - data.Obs[i].Value) / data.Obs[i].Value
		s += e * e
	}
	return math.Sqrt(s / float64(len(data.Obs))), nil
}

// skipReason is why architecture a was not fitted, as a sentence for the report's skipped
// list: an unfitError names a itself; other errors are prefixed with a, without the fault
// class words (fault.Detail).
func skipReason(a spmd.Architecture, err error) string {
	var ue *unfitError
	if errors.As(err, &ue) {
		return ue.Error()
	}
	return fmt.Sprintf("%v: %s", a, fault.Detail(err))
}
