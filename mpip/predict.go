package mpip

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

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

// Trend is a power law y = exp(A)·P^B fitted by least squares to ln y against ln P, with what
// its prediction interval needs (004 names extrapolation in P as future work).
type Trend struct {
	Name string  `json:"name"`
	A    float64 `json:"a"`
	B    float64 `json:"exponent"`
	S    float64 `json:"residual_sd"` // residual standard deviation of ln y
	N    int     `json:"runs"`
	xbar float64
	sxx  float64
}

// At is the fitted value at P.
func (t Trend) At(p float64) float64 { return math.Exp(t.A + t.B*math.Log(p)) }

// sd is the standard deviation of a new observation of ln y at P.
func (t Trend) sd(p float64) float64 {
	x := math.Log(p)
	return t.S * math.Sqrt(1+1/float64(t.N)+(x-t.xbar)*(x-t.xbar)/t.sxx)
}

func fitTrend(name string, ps, ys []float64) (Trend, error) {
	n := len(ps)
	t := Trend{Name: name, N: n}
	var xs, ls []float64
	for i := range ps {
		if !(ys[i] > 0) {
			return t, fmt.Errorf("%s at P = %g is %g: a power law needs values > 0", name, ps[i], ys[i])
		}
		xs = append(xs, math.Log(ps[i]))
		ls = append(ls, math.Log(ys[i]))
	}
	for _, x := range xs {
		t.xbar += x / float64(n)
	}
	ybar := 0.0
	for _, l := range ls {
		ybar += l / float64(n)
	}
	sxy := 0.0
	for i := range xs {
		t.sxx += (xs[i] - t.xbar) * (xs[i] - t.xbar)
		sxy += (xs[i] - t.xbar) * (ls[i] - ybar)
	}
	if t.sxx == 0 {
		return t, fmt.Errorf("%w: runs need at least two different P", fault.ErrInput)
	}
	t.B = sxy / t.sxx
	t.A = ybar - t.B*t.xbar
	ss := 0.0
	for i := range xs {
		r := ls[i] - (t.A + t.B*xs[i])
		ss += r * r
	}
	if n > 2 {
		t.S = math.Sqrt(ss / float64(n-2))
	}
	return t, nil
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
	P      int     `json:"p"`
	Inputs Inputs  `json:"inputs"` // extrapolated (point estimate)
	Result *Result `json:"-"`      // solved at the point estimate; its "observed" views are the extrapolated inputs
	// Model is Result as written: nothing was observed at P, so the model's wall time stands
	// next to the wall time of the extrapolated inputs, not against an observation.
	Model    *PredictedResult `json:"result"`
	ATMedian float64          `json:"app_time_median_s"` // wall time AT = R·M/P over the sampled inputs, s
	ATLow    float64          `json:"app_time_low_s"`    // 2.5 % quantile
	ATHigh   float64          `json:"app_time_high_s"`   // 97.5 % quantile
	Samples  int              `json:"samples"`
	// Interval is false when too few runs were given for an honest interval (fewer than
	// MinRunsForInterval at different P): then ATLow = ATHigh = ATMedian and Note says so;
	// Calibration.Forecast gives the spread of plausible scaling models instead.
	Interval bool   `json:"interval"`
	Note     string `json:"note,omitempty"`
}

// Predict fits the per-message inputs — messages M, mean size L, CPU demand D_k and
// computation per message D_{P+1} — as power laws in P over three or more measured runs
// (P > 1: 004's single-process rows have no messages), extrapolates them to each target P,
// and solves the 004 model there. The uncertainty comes from the regressions' prediction
// intervals (Student's t with n − 2 degrees of freedom on ln y), propagated through the
// model by seeded Monte Carlo with the given number of samples — only from MinRunsForInterval
// runs on (three degrees of freedom): with three runs (one) the t quantile is 12.7 and the
// interval spanned orders of magnitude (issue 16), so none is given and Note says how many
// runs it needs. Work is bounded (predictBudget): (samples + 1) × Σ target P MVA steps.
func Predict(runs []Inputs, net Network, targets []int, samples int, seed uint64) ([]Prediction, []Trend, error) {
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
		return nil, nil, fmt.Errorf("%w: prediction needs runs at three or more different P > 1 (have %d)", fault.ErrInput, len(seenP))
	}
	if samples < 0 {
		return nil, nil, inputErrorf("--samples %d must be ≥ 1 (0 takes the default %d)", samples, DefaultSamples)
	}
	if samples == 0 {
		samples = DefaultSamples
	}
	if err := predictBudget(targets, samples); err != nil {
		return nil, nil, err
	}
	sort.Slice(use, func(i, j int) bool { return use[i].P < use[j].P })
	ps := make([]float64, len(use))
	get := map[string][]float64{}
	for i, r := range use {
		ps[i] = float64(r.P)
		d := r.Demands()
		get["messages"] = append(get["messages"], r.M)
		get["avg_size"] = append(get["avg_size"], math.Max(r.L, 1e-300))
		get["cpu_demand"] = append(get["cpu_demand"], d.Dk)
		get["computation_per_message"] = append(get["computation_per_message"], d.Compute)
	}
	names := []string{"messages", "avg_size", "cpu_demand", "computation_per_message"}
	trends := make([]Trend, len(names))
	for i, n := range names {
		t, err := fitTrend(n, ps, get[n])
		if err != nil {
			return nil, nil, err
		}
		trends[i] = t
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	dof := float64(len(use) - 2)
	tdist := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: dof, Src: rng}
	var out []Prediction
	for _, P := range targets {
		solveAt := func(m, l, dk, dc float64) (*Result, error) {
			lat, bw, _ := net.At(P, l)
			in := Inputs{Label: fmt.Sprintf("predicted P=%d", P), P: P, M: math.Max(m, 1), L: l, BW: bw, Lat: lat}
			// Rebuild times that give the fitted demands: MPI_active = Dk·P·M, compute = Dc·M.
			in.MPIWait = 0
			in.MPITime = dk * float64(P) * in.M
			in.AppTime = in.MPITime + dc*in.M
			return Solve(in)
		}
		pf := float64(P)
		best, err := solveAt(trends[0].At(pf), trends[1].At(pf), trends[2].At(pf), trends[3].At(pf))
		if err != nil {
			return nil, nil, err
		}
		_, _, note := net.At(P, trends[1].At(pf))
		pr := Prediction{P: P, Inputs: best.Inputs, Result: best, Model: predicted(best), Samples: samples, Note: note}
		ats := make([]float64, 0, samples)
		for s := 0; s < samples && len(seenP) >= MinRunsForInterval; s++ {
			v := make([]float64, 4)
			for i, t := range trends {
				v[i] = math.Exp(t.A + t.B*math.Log(pf) + tdist.Rand()*t.sd(pf))
			}
			r, err := solveAt(v[0], v[1], v[2], v[3])
			if err != nil {
				continue
			}
			ats = append(ats, r.AppTime.Model)
		}
		sort.Float64s(ats)
		if len(seenP) < MinRunsForInterval {
			// With n − 2 < 3 degrees of freedom the t quantile (12.7 for one) on a log scale gives
			// intervals over orders of magnitude (issue 16: 0.0012 … 6.03e7 s): none is given.
			pr.ATMedian, pr.ATLow, pr.ATHigh = best.AppTime.Model, best.AppTime.Model, best.AppTime.Model
			pr.Note = strings.TrimPrefix(pr.Note+fmt.Sprintf("; no interval: it needs ≥ %d runs at different P (have %d); the forecasts table gives the direct wall-time extrapolation with the spread of its plausible scaling models", MinRunsForInterval, len(seenP)), "; ")
			out = append(out, pr)
			continue
		}
		pr.Interval = true
		if len(ats) > 0 {
			q := func(f float64) float64 {
				return ats[int(math.Min(float64(len(ats)-1), math.Floor(f*float64(len(ats)))))]
			}
			pr.ATMedian, pr.ATLow, pr.ATHigh = q(0.5), q(0.025), q(0.975)
		}
		out = append(out, pr)
	}
	return out, trends, nil
}
