package history

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/scaling"
	"github.com/clusterperf/clusterperf/sizing"
)

// Options of Analyze.
type Options struct {
	// Scaling is "strong" (default: one program with one input at several sizes) or "weak".
	Scaling string
	Predict []int // task counts to predict
	// PMax bounds the sizing (0: twice the largest task count run).
	PMax   int
	Sizing sizing.Options
}

// Backtest is the largest completed task count predicted from the jobs below it.
type Backtest struct {
	HeldOutP      int     `json:"held_out_p"`
	ObservedS     float64 `json:"observed_s"` // mean of the completed runs there
	PredictedS    float64 `json:"predicted_s"`
	RelError      float64 `json:"rel_error"`
	Model         string  `json:"model"`
	TrainingRuns  int     `json:"training_runs"`
	TrainingBound int     `json:"training_censored"`
	// Baselines at HeldOutP from the largest p below it (mean time t_ref at p_ref): ideal
	// scaling t_ref·p_ref/p and no scaling t_ref; their relative errors.
	IdealRelError    float64 `json:"ideal_scaling_rel_error"`
	ConstantRelError float64 `json:"no_scaling_rel_error"`
}

// Cost is a configuration's price in node-hours: nodes = ⌈p / tasks per node⌉ with the
// densest packing the study's jobs used, node_hours = nodes · time_s / 3600.
type Cost struct {
	P            int     `json:"p"`
	TimeS        float64 `json:"time_s"`
	Nodes        int     `json:"nodes"`
	TasksPerNode int     `json:"tasks_per_node"`
	NodeHours    float64 `json:"node_hours"`
}

// Analysis is one study fitted, backtested, predicted and sized.
type Analysis struct {
	Study       int                   `json:"study"`
	Fit         *CensoredFit          `json:"fit"`
	Predictions []*scaling.Prediction `json:"predictions"`
	Backtest    *Backtest             `json:"backtest,omitempty"`
	// Sizing is nil for weak scaling (a note says why).
	Sizing *sizing.Advice `json:"sizing,omitempty"`
	// Recommended is the sizing's pick with its node-hours; TradeOff every trade-off row's.
	Recommended *Cost  `json:"recommended_cost,omitempty"`
	TradeOff    []Cost `json:"trade_off_cost,omitempty"`
	PMax        int    `json:"recommend_pmax"`
	// TasksPerNode is the densest packing among the study's jobs (0: no NNodes column).
	TasksPerNode int      `json:"tasks_per_node"`
	Notes        []string `json:"notes"`
}

// Runs are the study's jobs as the fit sees them: completed runs (elapsed > 0) observed,
// timed-out runs censored at their time limit; the rest left out. The note says what was
// dropped beyond the excluded states (zero elapsed times).
func (s *Study) Runs() ([]Run, []string) {
	var runs []Run
	var notes []string
	zero := 0
	for _, j := range s.Jobs {
		r := Run{JobID: j.JobID, P: j.Tasks, Nodes: j.Nodes, ElapsedS: float64(j.ElapsedS), QueueWaitS: j.QueueWaitS}
		switch j.Outcome {
		case Observed:
			if j.ElapsedS == 0 {
				zero++
				continue
			}
		case Censored:
			b := float64(j.ElapsedS)
			if j.TimeLimitS != nil && *j.TimeLimitS > 0 {
				b = math.Min(b, float64(*j.TimeLimitS))
			}
			if b <= 0 {
				zero++
				continue
			}
			r.Censored, r.LowerBoundS = true, &b
		default:
			continue
		}
		runs = append(runs, r)
	}
	if zero > 0 {
		notes = append(notes, fmt.Sprintf("%d job(s) left out with an elapsed time of 0 s (below sacct's 1 s resolution)", zero))
	}
	return runs, notes
}

// Analyze fits the study with its timed-out runs censored (FitCensored), backtests the
// largest completed task count, predicts opt.Predict and sizes the run (strong scaling),
// with the recommendation's cost in node-hours. A censored fit that does not settle is
// returned with fault.ErrNotConverged, the analysis still filled in.
func Analyze(ctx context.Context, s *Study, opt Options) (*Analysis, error) {
	scal := cmp.Or(opt.Scaling, "strong")
	if scal != "strong" && scal != "weak" {
		return nil, fmt.Errorf("%w: scaling %q: allowed strong or weak", fault.ErrInput, scal)
	}
	a := &Analysis{Study: s.ID, Notes: []string{}}
	runs, notes := s.Runs()
	a.Notes = append(a.Notes, notes...)
	name := fmt.Sprintf("study %d", s.ID)
	cf, ferr := FitCensored(ctx, name, scal, runs)
	if cf == nil {
		return nil, ferr
	}
	a.Fit = cf
	if opt.Scaling == "" {
		a.Notes = append(a.Notes, "strong scaling assumed: one program with one input at several task counts (--scaling weak when the program grows its problem with p)")
	}
	if cf.BoundsMissed > 0 {
		a.Notes = append(a.Notes, fmt.Sprintf("%d timed-out run(s) ran longer than the fitted model predicts: the model misses their bound (bound_shortfall), so the data disagree with it there", cf.BoundsMissed))
	}
	for _, p := range opt.Predict {
		pr, err := cf.Scaling.Predict(p)
		if err != nil {
			return nil, err
		}
		a.Predictions = append(a.Predictions, pr)
	}
	if cf.CensoredRuns > 0 && len(opt.Predict) > 0 {
		a.Notes = append(a.Notes, "the 95 % intervals treat the imputed values of the timed-out runs (max(bound, fitted)) as measurements: they are too narrow where those runs matter")
	}
	bt, err := backtest(ctx, name, scal, runs)
	switch {
	case err == nil:
		a.Backtest = bt
	case errors.Is(err, fault.ErrInput) || errors.Is(err, fault.ErrFinding):
		a.Notes = append(a.Notes, "no backtest: "+fault.Detail(err))
	default:
		return nil, err
	}
	a.TasksPerNode = tasksPerNode(s)
	if scal == "weak" {
		a.Notes = append(a.Notes, "no sizing: weak scaling (the problem grows with p); the sizing rules compare the times of one problem")
		return a, ferr
	}
	if err := a.size(s, cf, opt); err != nil {
		return nil, err
	}
	return a, ferr
}

// size applies the sizing rule on the grid of the measured task counts and the powers of
// two from the smallest up to PMax, and prices each trade-off row in node-hours.
func (a *Analysis) size(s *Study, cf *CensoredFit, opt Options) error {
	r := cf.Scaling
	a.PMax = opt.PMax
	if a.PMax == 0 {
		a.PMax = min(2*r.MaxP, scaling.MaxPredictP)
	}
	minP := math.MaxInt
	seen := map[int]bool{a.PMax: true}
	for _, run := range cf.Runs {
		minP = min(minP, run.P)
		if run.P <= a.PMax {
			seen[run.P] = true
		}
	}
	for p := 1; p <= a.PMax; p *= 2 {
		if p >= minP {
			seen[p] = true
		}
	}
	var grid []int
	for p := range seen {
		grid = append(grid, p)
	}
	sort.Ints(grid)
	pts, err := r.Times(grid)
	if err != nil {
		return err
	}
	o := opt.Sizing
	o.T1 = r.T1(minP)
	if a.Sizing, err = sizing.Advise(pts, o); err != nil {
		return err
	}
	if minP > 1 {
		a.Sizing.Notes = append(a.Sizing.Notes, fmt.Sprintf("T_1 is not the model at p = 1: the jobs start at p = %d", minP))
	}
	if a.TasksPerNode == 0 {
		a.Notes = append(a.Notes, "no node-hours: the accounting has no NNodes column")
		return nil
	}
	price := func(c sizing.Config) Cost {
		n := (c.P + a.TasksPerNode - 1) / a.TasksPerNode
		return Cost{P: c.P, TimeS: c.TimeS, Nodes: n, TasksPerNode: a.TasksPerNode, NodeHours: float64(n) * c.TimeS / 3600}
	}
	rc := price(a.Sizing.Recommended.Config)
	a.Recommended = &rc
	for _, c := range a.Sizing.TradeOff {
		a.TradeOff = append(a.TradeOff, price(c))
	}
	return nil
}

// tasksPerNode is the densest packing ⌈tasks/nodes⌉ among the jobs that ran (0: no node counts).
func tasksPerNode(s *Study) int {
	best := 0
	for _, j := range s.Jobs {
		if j.Nodes > 0 && j.Tasks > 0 && (j.Outcome == Observed || j.Outcome == Censored) {
			best = max(best, (j.Tasks+j.Nodes-1)/j.Nodes)
		}
	}
	return best
}

// backtest predicts the largest completed p from the completed and timed-out runs below it
// (the censored fit, as Analyze's), beside ideal scaling and no scaling from the largest p
// below it.
func backtest(ctx context.Context, name, scal string, runs []Run) (*Backtest, error) {
	top := 0
	for _, r := range runs {
		if !r.Censored {
			top = max(top, r.P)
		}
	}
	var train []Run
	obs, n := 0.0, 0
	ref := 0
	for _, r := range runs {
		switch {
		case r.P < top:
			train = append(train, r)
			if !r.Censored {
				ref = max(ref, r.P)
			}
		case r.P == top && !r.Censored:
			obs += r.ElapsedS
			n++
		}
	}
	obs /= float64(n)
	cf, err := FitCensored(ctx, name+" without p = "+fmt.Sprint(top), scal, train)
	if err != nil {
		return nil, err
	}
	pr, err := cf.Scaling.Predict(top) // the prediction fit DATA.csv would give there
	if err != nil {
		return nil, err
	}
	t := pr.TimeS
	tr, k := 0.0, 0
	for _, r := range train {
		if r.P == ref && !r.Censored {
			tr += r.ElapsedS
			k++
		}
	}
	tr /= float64(k)
	ideal := tr * float64(ref) / float64(top)
	return &Backtest{HeldOutP: top, ObservedS: obs, PredictedS: t, RelError: (t - obs) / obs, Model: cf.Scaling.Chosen.Name,
		TrainingRuns: cf.Observed, TrainingBound: cf.CensoredRuns, IdealRelError: (ideal - obs) / obs, ConstantRelError: (tr - obs) / obs}, nil
}
