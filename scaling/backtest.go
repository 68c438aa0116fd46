package scaling

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Backtest is the evidence of how far to trust an extrapolation from these data: the largest
// measured p predicted from the other points by the same procedure as Fit + Predict.
type Backtest struct {
	HeldOutP       int         `json:"held_out_p"`
	TrainingPoints int         `json:"training_points"`
	ObservedS      float64     `json:"observed_time_s"` // mean of the replicates at HeldOutP
	Prediction     *Prediction `json:"prediction"`
	// RelError is (predicted − observed)/observed.
	RelError float64 `json:"rel_error"`
	// InsideInterval: the observation lies in the 95 % interval (absent without interval).
	InsideInterval *bool `json:"inside_interval95,omitempty"`
	InsideSpread   bool  `json:"inside_plausible_spread"`
	// Amdahl and USL fitted to the same training points by the same relative least squares.
	AmdahlRelError *float64 `json:"amdahl_rel_error,omitempty"`
	USLRelError    *float64 `json:"usl_rel_error,omitempty"`
	// SelectedRelError: the selected model's own prediction (without stacking).
	SelectedRelError *float64 `json:"selected_model_rel_error,omitempty"`
	// AICcRelError: the candidate of smallest AICc on the training points (selection by fit
	// quality instead of held-out error), for comparison.
	AICcRelError *float64 `json:"aicc_choice_rel_error,omitempty"`
	Notes        []string `json:"notes,omitempty"`
}

// BacktestLargest holds out every run at the largest p, fits the rest with Fit and predicts
// it. It needs at least 3 distinct p (fault.ErrInput otherwise).
func BacktestLargest(ctx context.Context, d *Data) (*Backtest, error) {
	return backtestHoldout(ctx, d, 1, &DefaultPrior)
}

// splitHoldout returns the training data without the k largest distinct p and the largest
// p (the one predicted); fault.ErrInput when fewer than k+2 distinct p.
func splitHoldout(d *Data, k int) (*Data, int, error) {
	if err := d.Validate(); err != nil {
		return nil, 0, err
	}
	ps := distinctP(d.Points)
	if len(ps) < k+2 {
		return nil, 0, fmt.Errorf("%w: %s: %d distinct p: a backtest holding out %d needs at least %d (2 to fit)", fault.ErrInput, d.Name, len(ps), k, k+2)
	}
	top, cut := ps[len(ps)-1], ps[len(ps)-k]
	train := &Data{Name: d.Name + " without p ≥ " + fmt.Sprint(cut), Scaling: d.Scaling}
	for _, pt := range d.Points {
		if pt.P < cut {
			train.Points = append(train.Points, pt)
		}
	}
	if train.Scaling == "" {
		// Infer from all the data, as Fit on the whole set would.
		train.Scaling = inferScaling(d.Points)
	}
	return train, top, nil
}

// backtestHoldout holds out the k largest distinct p, fits the rest with prior and predicts
// the largest p.
func backtestHoldout(ctx context.Context, d *Data, k int, prior *Prior) (*Backtest, error) {
	train, top, err := splitHoldout(d, k)
	if err != nil {
		return nil, err
	}
	r, err := FitWithPrior(ctx, train, prior)
	if err != nil {
		return nil, err
	}
	pr, err := r.Predict(top)
	if err != nil {
		return nil, err
	}
	obs := meanAt(d.Points, top)
	b := &Backtest{HeldOutP: top, TrainingPoints: len(train.Points), ObservedS: obs, Prediction: pr,
		RelError: (pr.TimeS - obs) / obs, Notes: r.Notes}
	sel := (pr.SelectedS - obs) / obs
	b.SelectedRelError = &sel
	if pr.Interval {
		in := *pr.Low95S <= obs && obs <= *pr.High95S
		b.InsideInterval = &in
	}
	b.InsideSpread = pr.PlausibleLowS <= obs && obs <= pr.PlausibleHighS
	if r.aiccBest != nil {
		if v := r.aiccBest.value(float64(top)); v > 0 && !math.IsInf(v, 0) {
			e := (v - obs) / obs
			b.AICcRelError = &e
		}
	}
	for _, base := range []struct {
		c   *candidate
		dst **float64
	}{{amdahlCandidate, &b.AmdahlRelError}, {uslCandidate, &b.USLRelError}} {
		if f := fitCandidate(base.c, train.Points); f != nil {
			v := f.value(float64(top))
			if v > 0 && !math.IsInf(v, 0) {
				e := (v - obs) / obs
				*base.dst = &e
			}
		}
	}
	return b, nil
}

// stackCaseOf is the held-out prediction of d with the k largest distinct p held out, as a
// case for learning the prior (ok false when d has too few distinct p).
func stackCaseOf(d *Data, set, k int) (stackCase, bool) {
	train, top, err := splitHoldout(d, k)
	if err != nil {
		return stackCase{}, false
	}
	unit, pts := rescale(train.Points)
	g := groupPoints(pts)
	sel := selectModel(context.Background(), train.Scaling, g)
	if sel == nil {
		return stackCase{}, false
	}
	b := fitBases(context.Background(), train.Scaling, sel, g, true)
	return stackCase{scaling: train.Scaling, set: set, base: b.logPreds(float64(top)), obs: math.Log(meanAt(d.Points, top) / unit),
		self: b.selfLog, selfObs: b.selfObs, logFactor: math.Log(float64(top) / float64(g[len(g)-1].P)), distinct: len(g)}, true
}

// CorpusRow is one data set's backtests in the corpus table.
type CorpusRow struct {
	Name      string    `json:"name"`
	Scaling   string    `json:"scaling"`
	Points    int       `json:"points"`
	Distinct  int       `json:"distinct_p"`
	MaxP      int       `json:"max_p"`
	Source    string    `json:"source"`                         // "# source:" header
	Measured  string    `json:"measured"`                       // "# measured:" header
	Units     string    `json:"units"`                          // "# units:" header
	Backtest  *Backtest `json:"backtest"`                       // largest p held out
	Backtest2 *Backtest `json:"backtest_two_largest,omitempty"` // the two largest held out, the largest predicted
}

// HoldoutSummary is the corpus result of one held-out task.
type HoldoutSummary struct {
	Task         string  `json:"task"`
	Sets         int     `json:"sets"`
	MedianStack  float64 `json:"median_abs_rel_error"`
	MedianSelect float64 `json:"median_abs_rel_error_selected_model"`
	MedianAmdahl float64 `json:"median_abs_rel_error_amdahl"`
	MedianUSL    float64 `json:"median_abs_rel_error_usl"`
	// Strong-scaling sets only (Amdahl and USL model strong scaling).
	StrongSets         int     `json:"strong_sets"`
	MedianStackStrong  float64 `json:"median_abs_rel_error_strong"`
	MedianAmdahlStrong float64 `json:"median_abs_rel_error_amdahl_strong"`
	MedianUSLStrong    float64 `json:"median_abs_rel_error_usl_strong"`
	WithInterval       int     `json:"sets_with_interval"`
	Coverage95         float64 `json:"coverage95"`
	MedianWidth        float64 `json:"median_interval_ratio"` // median high/low
	MaxWidth           float64 `json:"max_interval_ratio"`
	// Three distinct training p: how many, how many with an interval, the narrowest ratio.
	ThreeP         int     `json:"three_p_training_sets"`
	ThreePInterval int     `json:"three_p_with_interval"`
	ThreePMinRatio float64 `json:"three_p_min_interval_ratio"`
	NonFinite      int     `json:"non_finite_or_negative_predictions"`
}

// CorpusSummary is the corpus evaluation of docs/extrapolation.md: every set's backtests,
// each with a prior learned leave-one-set-out, and the prior learned on all sets.
type CorpusSummary struct {
	Sets    int            `json:"sets"`
	Strong  int            `json:"strong_sets"`
	Weak    int            `json:"weak_sets"`
	Largest HoldoutSummary `json:"largest_held_out"`
	Two     HoldoutSummary `json:"two_largest_held_out"`
	// The same tasks with every set of the scored set's source group (SourceGroup) left out
	// of the prior.
	Groups       int            `json:"source_groups"`
	LargestGroup HoldoutSummary `json:"largest_held_out_group_out"`
	TwoGroup     HoldoutSummary `json:"two_largest_held_out_group_out"`
	Prior        Prior          `json:"prior_all_sets"`
	Rows         []CorpusRow    `json:"rows"`
}

// MaxCorpusFiles bounds how many files RunCorpus reads.
const MaxCorpusFiles = 1000

// RunCorpus reads every *.csv in dir and evaluates leave-one-set-out: for each set the prior
// is learned on the held-out predictions of the other sets only, then the set's largest p
// (and separately its two largest) are held out and predicted by FitWithPrior + Predict.
func RunCorpus(dir string) (*CorpusSummary, error) {
	sets, err := readCorpus(dir)
	if err != nil {
		return nil, err
	}
	var cases []stackCase
	for i, d := range sets {
		for k := 1; k <= 2; k++ {
			if c, ok := stackCaseOf(d, i, k); ok {
				cases = append(cases, c)
			}
		}
	}
	s := &CorpusSummary{Sets: len(sets), Prior: learnPrior(cases)}
	groups := map[string]bool{}
	for _, d := range sets {
		groups[SourceGroup(d.Name)] = true
	}
	s.Groups = len(groups)
	var groupRows []CorpusRow
	for i, d := range sets {
		row, err := corpusRow(d, learnPrior(casesExcept(cases, sets, func(j int) bool { return j == i })))
		if err != nil {
			return nil, err
		}
		if d.Scaling == "strong" {
			s.Strong++
		} else {
			s.Weak++
		}
		s.Rows = append(s.Rows, row)
		grp := SourceGroup(d.Name)
		row, err = corpusRow(d, learnPrior(casesExcept(cases, sets, func(j int) bool { return SourceGroup(sets[j].Name) == grp })))
		if err != nil {
			return nil, err
		}
		groupRows = append(groupRows, row)
	}
	s.Largest = summarise("largest p held out", s.Rows, func(r CorpusRow) *Backtest { return r.Backtest })
	s.Two = summarise("two largest p held out", s.Rows, func(r CorpusRow) *Backtest { return r.Backtest2 })
	s.LargestGroup = summarise("largest p held out, same-source group out", groupRows, func(r CorpusRow) *Backtest { return r.Backtest })
	s.TwoGroup = summarise("two largest p held out, same-source group out", groupRows, func(r CorpusRow) *Backtest { return r.Backtest2 })
	return s, nil
}

// SourceGroup is a corpus set's same-source group: its file name up to the first '_'
// (specfem_…, mpi_…, gromacs_…, kmeans_… share a code or a source and are held out together
// in the group-out evaluation).
func SourceGroup(name string) string {
	if i := strings.IndexByte(name, '_'); i > 0 {
		return name[:i]
	}
	return name
}

// casesExcept is the learning cases of the sets j for which out(j) is false.
func casesExcept(cases []stackCase, sets []*Data, out func(int) bool) []stackCase {
	var rest []stackCase
	for _, c := range cases {
		if !out(c.set) {
			rest = append(rest, c)
		}
	}
	return rest
}

// corpusRow backtests d with the largest p, then the two largest, held out under prior.
func corpusRow(d *Data, prior Prior) (CorpusRow, error) {
	row := CorpusRow{Name: d.Name, Scaling: d.Scaling, Points: len(d.Points), Distinct: len(distinctP(d.Points)),
		Source: d.Meta["source"], Measured: d.Meta["measured"], Units: d.Meta["units"]}
	b, err := backtestHoldout(context.Background(), d, 1, &prior)
	if err != nil {
		return row, fmt.Errorf("%s: %w", d.Name, err)
	}
	row.Backtest, row.MaxP = b, b.HeldOutP
	if b2, err := backtestHoldout(context.Background(), d, 2, &prior); err == nil {
		row.Backtest2 = b2
	}
	return row, nil
}

// readCorpus reads the *.csv of dir, sorted by name, the scaling kind inferred where absent.
func readCorpus(dir string) ([]*Data, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.csv"))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", fault.ErrInput, dir, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: %s: no *.csv files", fault.ErrInput, dir)
	}
	if len(files) > MaxCorpusFiles {
		return nil, fmt.Errorf("%w: %s: %d files, limit %d", fault.ErrTooLarge, dir, len(files), MaxCorpusFiles)
	}
	sort.Strings(files)
	var out []*Data
	for _, file := range files {
		fh, err := os.Open(file)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", fault.ErrInput, err)
		}
		d, err := ReadCSV(file, fh)
		fh.Close()
		if err != nil {
			return nil, err
		}
		d.Name = strings.TrimSuffix(filepath.Base(file), ".csv")
		if d.Scaling == "" {
			d.Scaling = inferScaling(d.Points)
		}
		out = append(out, d)
	}
	return out, nil
}

// summarise is one task's medians, coverage and widths over the rows that have it.
func summarise(task string, rows []CorpusRow, get func(CorpusRow) *Backtest) HoldoutSummary {
	h := HoldoutSummary{Task: task, ThreePMinRatio: math.Inf(1)}
	var st, se, am, us, sst, ams, uss, widths []float64
	covered := 0
	for _, r := range rows {
		b := get(r)
		if b == nil {
			continue
		}
		h.Sets++
		if pr := b.Prediction.TimeS; !(pr > 0) || math.IsInf(pr, 0) || math.IsNaN(b.RelError) {
			h.NonFinite++
		}
		st = append(st, math.Abs(b.RelError))
		if b.SelectedRelError != nil {
			se = append(se, math.Abs(*b.SelectedRelError))
		}
		if b.AmdahlRelError != nil {
			am = append(am, math.Abs(*b.AmdahlRelError))
		}
		if b.USLRelError != nil {
			us = append(us, math.Abs(*b.USLRelError))
		}
		if r.Scaling == "strong" {
			h.StrongSets++
			sst = append(sst, math.Abs(b.RelError))
			if b.AmdahlRelError != nil {
				ams = append(ams, math.Abs(*b.AmdahlRelError))
			}
			if b.USLRelError != nil {
				uss = append(uss, math.Abs(*b.USLRelError))
			}
		}
		three := len(distinctTrain(r, b)) == 3
		if three {
			h.ThreeP++
		}
		if b.InsideInterval != nil {
			h.WithInterval++
			if *b.InsideInterval {
				covered++
			}
			ratio := *b.Prediction.High95S / *b.Prediction.Low95S
			widths = append(widths, ratio)
			h.MaxWidth = math.Max(h.MaxWidth, ratio)
			if three {
				h.ThreePInterval++
				h.ThreePMinRatio = math.Min(h.ThreePMinRatio, ratio)
			}
		}
	}
	h.MedianStack, h.MedianSelect, h.MedianAmdahl, h.MedianUSL = median(st), median(se), median(am), median(us)
	h.MedianStackStrong, h.MedianAmdahlStrong, h.MedianUSLStrong = median(sst), median(ams), median(uss)
	if h.WithInterval > 0 {
		h.Coverage95 = float64(covered) / float64(h.WithInterval)
	}
	h.MedianWidth = median(widths)
	if math.IsInf(h.ThreePMinRatio, 1) {
		h.ThreePMinRatio = 0
	}
	return h
}

// distinctTrain is the number of distinct training p of a backtest, as a slice length
// (the row's distinct p less the held-out ones).
func distinctTrain(r CorpusRow, b *Backtest) []struct{} {
	held := 1
	if b == r.Backtest2 {
		held = 2
	}
	return make([]struct{}, max(0, r.Distinct-held))
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	w := append([]float64(nil), v...)
	sort.Float64s(w)
	n := len(w)
	if n%2 == 1 {
		return w[n/2]
	}
	return (w[n/2-1] + w[n/2]) / 2
}
