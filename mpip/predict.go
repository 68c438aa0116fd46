package mpip

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Budgets of Predict (issue 12: `--predict 1e8` or `--samples 1e8` exhausted the machine).
// Each Monte Carlo sample solves the 004 model by exact MVA with N = P customers, O(P) steps
// (the P CPU centres are one station group), so the work is (samples + 1) × Σ P.
const (
	DefaultSamples = 2000
	MaxSamples     = 1_000_000
	MaxPredictP    = 1 << 20     // largest target P (MVA population)
	MaxPredictWork = 400_000_000 // (samples + 1) × Σ P, about 10 s on one core
)

func predictBudget(targets []int, samples int) error {
	if samples > MaxSamples {
		return fmt.Errorf("%w: --samples %d exceeds the limit %d", fault.ErrTooLarge, samples, MaxSamples)
	}
	sum := 0.0
	for _, p := range targets {
		if p < 1 {
			return inputErrorf("--predict P = %d must be ≥ 1", p)
		}
		if p > MaxPredictP {
			return fmt.Errorf("%w: --predict P = %d exceeds the limit %d (the model solves an MVA with N = P customers)", fault.ErrTooLarge, p, MaxPredictP)
		}
		sum += float64(p)
	}
	if w := float64(samples+1) * sum; w > MaxPredictWork {
		return fmt.Errorf("%w: prediction needs about %.3g MVA steps ((samples %d + 1) × Σ P %.0f), limit %.3g: lower --samples or the --predict values", fault.ErrTooLarge, w, samples, sum, float64(MaxPredictWork))
	}
	return nil
}

// PredictedResult is the 004 model solved at an unmeasured P from extrapolated inputs.
type PredictedResult struct {
	Solution
	// ExtrapolatedAppTimeS is App_Time/P of the extrapolated inputs (each rank's share of the
	// extrapolated Σ App_Time), s: an extrapolation, not an observation.
	ExtrapolatedAppTimeS float64 `json:"extrapolated_app_time_s"`
	ModelAppTimeS        float64 `json:"model_app_time_s"` // AT = R·M/P, s
	// ModelVsExtrapolatedRelError is (model − extrapolated)/extrapolated: how far the model
	// departs from the inputs' own wall time, not an error against a measurement.
	ModelVsExtrapolatedRelError *float64 `json:"model_vs_extrapolated_rel_error"`
}

func predicted(r *Result) *PredictedResult {
	return &PredictedResult{Solution: r.Solution, ExtrapolatedAppTimeS: r.AppTime.Observed, ModelAppTimeS: r.AppTime.Model, ModelVsExtrapolatedRelError: r.AppTime.RelError}
}

// Prediction is the model at a P not measured.
type Prediction struct {
	P      int    `json:"p"`
	Inputs Inputs `json:"inputs"` // extrapolated (point estimate)
	// Quantities: M, L, D_k, D_{P+1} at P by package scaling, each with its model, spread and
	// 95 % interval (what the per-input power-law "trends" were before issue 28).
	Quantities PredictedQuantities `json:"quantities"`
	Result     *Result             `json:"-"` // solved at the point estimate; its "observed" views are the extrapolated inputs
	// Model is Result as written: nothing was observed at P, so the model's wall time stands
	// next to the wall time of the extrapolated inputs, not against an observation.
	Model    *PredictedResult `json:"result"`
	ATMedian float64          `json:"app_time_median_s"` // wall time AT = R·M/P over the sampled inputs, s
	ATLow    float64          `json:"app_time_low_s"`    // 2.5 % quantile
	ATHigh   float64          `json:"app_time_high_s"`   // 97.5 % quantile
	Samples  int              `json:"samples"`
	// Interval is false when some input has no 95 % interval (fewer than MinRunsForInterval
	// runs at different P, or scaling gives none): then
	// ATLow = ATHigh = ATMedian and Note says so; the wall-time forecast gives the spread of
	// plausible scaling models instead.
	Interval bool   `json:"interval"`
	Note     string `json:"note,omitempty"`
}

// PredictedInput is one input of the 004 model extrapolated to the target P by package scaling
// (Extrapolate: the selected model's value), with scaling's 95 % prediction interval (from the
// prior learned on the corpus, docs/extrapolation.md) when there are MinRunsForInterval or more
// runs at different P and scaling gives one; nil otherwise.
type PredictedInput struct {
	Extrapolation
	Interval95Low  *float64 `json:"interval95_low,omitempty"`
	Interval95High *float64 `json:"interval95_high,omitempty"`
}

// PredictedQuantities are Prediction's extrapolated inputs, each key carrying the unit of its
// value and interval (as ForecastQuantities).
type PredictedQuantities struct {
	Messages              PredictedInput `json:"messages"`                  // M
	MeanSize              PredictedInput `json:"mean_size_bytes"`           // L
	CPUDemand             PredictedInput `json:"cpu_demand_s"`              // D_k
	ComputationPerMessage PredictedInput `json:"computation_per_message_s"` // D_{P+1}
}

// List is the four inputs in the order M, L, D_k, D_{P+1}.
func (q PredictedQuantities) List() [4]PredictedInput {
	return [4]PredictedInput{q.Messages, q.MeanSize, q.CPUDemand, q.ComputationPerMessage}
}

// extrapolateInput is Extrapolate with scaling's 95 % interval, moved onto the selected
// model's value (scaling centres it on its stacked prediction; the relative width is kept).
func extrapolateInput(quantity, unit string, ps, ys []float64, target int) (PredictedInput, error) {
	e, pr, err := extrapolate(quantity, unit, ps, ys, target)
	if err != nil {
		return PredictedInput{Extrapolation: e}, err
	}
	in := PredictedInput{Extrapolation: e}
	distinct := map[float64]bool{}
	for _, p := range ps {
		distinct[p] = true
	}
	// mpip's rule (issue 16, Extrapolation.RunsForInterval): no interval from fewer than
	// MinRunsForInterval runs at different P, even where scaling's corpus prior gives one.
	if len(distinct) >= MinRunsForInterval && pr.Interval && pr.Low95S != nil && pr.High95S != nil && pr.TimeS > 0 {
		lo, hi := e.Value**pr.Low95S/pr.TimeS, e.Value**pr.High95S/pr.TimeS
		in.Interval95Low, in.Interval95High = &lo, &hi
	}
	return in, nil
}

// logSD is the standard deviation of ln y that a lognormal with this 95 % interval has:
// ln(high/low) / (2 · 1.96); 0 without an interval.
func (in PredictedInput) logSD() float64 {
	if in.Interval95Low == nil || in.Interval95High == nil {
		return 0
	}
	return math.Log(*in.Interval95High / *in.Interval95Low) / (2 * 1.959963984540054)
}

// predictInputs extrapolates messages M, mean size L, CPU demand D_k and computation per
// message D_{P+1} of use (sorted by P, all P > 1) to target.
func predictInputs(use []Inputs, target int) (PredictedQuantities, error) {
	ps := make([]float64, len(use))
	ys := [4][]float64{}
	for i, r := range use {
		d := r.Demands()
		ps[i] = float64(r.P)
		for k, v := range [4]float64{r.M, math.Max(r.L, 1e-9), math.Max(d.Dk, 1e-30), math.Max(d.Compute, 1e-30)} {
			ys[k] = append(ys[k], v)
		}
	}
	names := [4][2]string{{"messages M", "messages"}, {"mean size L", "bytes"}, {"CPU demand D_k", "s"}, {"computation per message D_{P+1}", "s"}}
	var out PredictedQuantities
	for k, nm := range names {
		in, err := extrapolateInput(nm[0], nm[1], ps, ys[k], target)
		if err != nil {
			return out, err
		}
		*[]*PredictedInput{&out.Messages, &out.MeanSize, &out.CPUDemand, &out.ComputationPerMessage}[k] = in
	}
	return out, nil
}

// Predict extrapolates the per-message inputs — messages M, mean size L, CPU demand D_k and
// computation per message D_{P+1} — over three or more measured runs at different P > 1
// (004's single-process rows have no messages) to each target P through package scaling
// (Extrapolate: the model chosen by held-out error among Amdahl, USL, Gustafson and the
// Extra-P forms; the same engine as Calibration.Forecast and `extrapolate`), and solves the
// 004 model there with the given network. The uncertainty is scaling's 95 % prediction
// interval of each input (from the corpus-calibrated prior), read as a lognormal
// (ln y ~ N(ln value, (ln(high/low)/3.92)²)) and propagated through the model by seeded Monte
// Carlo with the given number of samples; the inputs are sampled independently. With fewer
// than MinRunsForInterval runs at different P no interval is given (issue 16: from three runs
// it spans orders of magnitude) and Note says how many it needs. Work is bounded (predictBudget):
// (samples + 1) × Σ target P MVA steps.
func Predict(runs []Inputs, net Network, targets []int, samples int, seed uint64) ([]Prediction, error) {
	var use []Inputs
	for _, r := range runs {
		if r.P > 1 {
			use = append(use, r)
		}
	}
	seenP := map[int]bool{}
	for _, r := range use {
		seenP[r.P] = true
	}
	if len(seenP) < 3 {
		return nil, fmt.Errorf("%w: prediction needs runs at three or more different P > 1 (have %d)", fault.ErrInput, len(seenP))
	}
	if samples < 0 {
		return nil, inputErrorf("--samples %d must be ≥ 1 (0 takes the default %d)", samples, DefaultSamples)
	}
	if samples == 0 {
		samples = DefaultSamples
	}
	if err := predictBudget(targets, samples); err != nil {
		return nil, err
	}
	sort.SliceStable(use, func(i, j int) bool { return use[i].P < use[j].P })
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var out []Prediction
	for _, P := range targets {
		pr, err := predictAt(use, net, P, samples, rng)
		if err != nil {
			return nil, err
		}
		out = append(out, pr)
	}
	return out, nil
}

// distinctP counts the different P of runs.
func distinctP(runs []Inputs) int {
	seen := map[int]bool{}
	for _, r := range runs {
		seen[r.P] = true
	}
	return len(seen)
}

// predictAt is Predict at one target P.
func predictAt(use []Inputs, net Network, P, samples int, rng *rand.Rand) (Prediction, error) {
	qs, err := predictInputs(use, P)
	if err != nil {
		return Prediction{}, err
	}
	solveAt := func(v [4]float64) (*Result, error) {
		lat, bw, _ := net.At(P, v[1])
		in := Inputs{Label: fmt.Sprintf("predicted P=%d", P), P: P, M: math.Max(v[0], 1), L: v[1], BW: bw, Lat: lat}
		// Rebuild times that give the extrapolated demands: MPI_active = Dk·P·M, compute = Dc·M.
		in.MPITime = v[2] * float64(P) * in.M
		in.AppTime = in.MPITime + v[3]*in.M
		return Solve(in)
	}
	var point [4]float64
	interval := true
	for k, q := range qs.List() {
		point[k] = q.Value
		interval = interval && q.Interval95Low != nil
	}
	best, err := solveAt(point)
	if err != nil {
		return Prediction{}, err
	}
	_, _, note := net.At(P, point[1])
	pr := Prediction{P: P, Inputs: best.Inputs, Quantities: qs, Result: best, Model: predicted(best), Samples: samples, Note: note}
	pr.ATMedian, pr.ATLow, pr.ATHigh = best.AppTime.Model, best.AppTime.Model, best.AppTime.Model
	if !interval {
		pr.Note = strings.TrimPrefix(pr.Note+fmt.Sprintf("; no interval: it needs ≥ %d runs at different P and a 95 %% interval from package scaling for every input (have %d runs at different P)", MinRunsForInterval, distinctP(use))+"; the forecasts table gives the direct wall-time extrapolation with the spread of its plausible scaling models", "; ")
		return pr, nil
	}
	pr.Interval = true
	ats := make([]float64, 0, samples)
	for s := 0; s < samples; s++ {
		var v [4]float64
		for k, q := range qs.List() {
			v[k] = q.Value * math.Exp(rng.NormFloat64()*q.logSD())
		}
		if r, err := solveAt(v); err == nil {
			ats = append(ats, r.AppTime.Model)
		}
	}
	sort.Float64s(ats)
	if len(ats) > 0 {
		q := func(f float64) float64 {
			return ats[int(math.Min(float64(len(ats)-1), math.Floor(f*float64(len(ats)))))]
		}
		pr.ATMedian, pr.ATLow, pr.ATHigh = q(0.5), q(0.025), q(0.975)
	}
	return pr, nil
}
