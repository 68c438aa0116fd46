package fit

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/clusterperf/clusterperf/spmd"
)

// Ranked is one candidate of a model selection.
type Ranked struct {
	Name      string  `json:"name"`
	AICc      float64 `json:"aicc"`
	BIC       float64 `json:"bic"`
	DeltaAICc float64 `json:"delta_aicc"` // AICc − best AICc
	Weight    float64 `json:"akaike_weight"`
	AvgError  float64 `json:"average_error"`
	K         int     `json:"free_parameters"`
	Note      string  `json:"note,omitempty"`
}

// Report is the outcome of a fit: the chosen SPMD model, every candidate, the baselines.
type Report struct {
	Best       *SPMDResult       `json:"best"`
	Candidates []*SPMDResult     `json:"-"`
	Baselines  []*BaselineResult `json:"baselines"`
	Ranking    []Ranked          `json:"ranking"`
	Skipped    []string          `json:"skipped,omitempty"`
}

// AutoArchitectures are the families tried by "auto": CLU-SIO has BUS-SIO's formulas (001
// §5.4), so it is not a separate candidate.
var AutoArchitectures = []spmd.Architecture{spmd.BusSIO, spmd.BusAIO, spmd.CluAIO}

// Run fits the spec's architecture (or every one for "auto") and the baselines, and ranks
// everything by AICc (small samples), with Akaike weights.
func Run(sp Spec, data *Data) (*Report, error) {
	var archs []spmd.Architecture
	if sp.Arch == "auto" {
		archs = AutoArchitectures
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
		r, err := FitSPMD(sp, a, data)
		if err != nil {
			if errors.Is(err, ErrTooFewObservations) {
				return nil, err
			}
			if firstErr == nil {
				firstErr = err
			}
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%v: %v", a, err))
			continue
		}
		rep.Candidates = append(rep.Candidates, r)
	}
	if len(rep.Candidates) == 0 {
		return nil, firstErr
	}
	bl, err := FitBaselinesObjective(data, sp.Objective)
	if err != nil {
		return nil, err
	}
	rep.Baselines = bl
	for _, c := range rep.Candidates {
		rep.Ranking = append(rep.Ranking, Ranked{Name: c.Architecture, AICc: c.AICc, BIC: c.BIC, AvgError: c.Metrics.AverageError, K: c.K})
	}
	for _, b := range bl {
		rep.Ranking = append(rep.Ranking, Ranked{Name: b.Name, AICc: b.AICc, BIC: b.BIC, AvgError: b.Metrics.AverageError, K: b.K, Note: b.Note})
	}
	sort.SliceStable(rep.Ranking, func(i, j int) bool { return rep.Ranking[i].AICc < rep.Ranking[j].AICc })
	best := rep.Ranking[0].AICc
	sum := 0.0
	for i := range rep.Ranking {
		rep.Ranking[i].DeltaAICc = rep.Ranking[i].AICc - best
		rep.Ranking[i].Weight = math.Exp(-rep.Ranking[i].DeltaAICc / 2)
		sum += rep.Ranking[i].Weight
	}
	for i := range rep.Ranking {
		rep.Ranking[i].Weight /= sum
	}
	for _, c := range rep.Candidates { // the best queueing model, even if a baseline ranks above it
		if rep.Best == nil || c.AICc < rep.Best.AICc {
			rep.Best = c
		}
	}
	return rep, nil
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
		r, err := FitSPMD(sp, full.arch, sub)
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
