package scaling

import (
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
	// AICcRelError: the candidate of smallest AICc on the training points (selection by fit
	// quality instead of held-out error), for comparison.
	AICcRelError *float64 `json:"aicc_choice_rel_error,omitempty"`
	Notes        []string `json:"notes,omitempty"`
}

// BacktestLargest holds out every run at the largest p, fits the rest with Fit and predicts
// it. It needs at least 3 distinct p (fault.ErrInput otherwise).
func BacktestLargest(d *Data) (*Backtest, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	ps := distinctP(d.Points)
	if len(ps) < 3 {
		return nil, fmt.Errorf("%w: %s: %d distinct p: a backtest needs at least 3 (2 to fit, 1 to predict)", fault.ErrInput, d.Name, len(ps))
	}
	top := ps[len(ps)-1]
	train := &Data{Name: d.Name + " without p=" + fmt.Sprint(top), Scaling: d.Scaling}
	for _, pt := range d.Points {
		if pt.P != top {
			train.Points = append(train.Points, pt)
		}
	}
	if train.Scaling == "" {
		// Infer from all the data, as Fit on the whole set would.
		train.Scaling = inferScaling(d.Points)
	}
	r, err := Fit(train)
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

// CorpusRow is one data set's backtest in the corpus table.
type CorpusRow struct {
	Name     string    `json:"name"`
	Scaling  string    `json:"scaling"`
	Points   int       `json:"points"`
	MaxP     int       `json:"max_p"`
	Source   string    `json:"source"`   // "# source:" header
	Measured string    `json:"measured"` // "# measured:" header
	Units    string    `json:"units"`    // "# units:" header
	Backtest *Backtest `json:"backtest"`
}

// CorpusSummary is the corpus backtest of docs/extrapolation.md.
type CorpusSummary struct {
	Sets int `json:"sets"`
	// Medians of |rel_error| over the sets, chosen model and the baselines (strong-scaling
	// sets only for the baselines, which model strong scaling).
	MedianAbsRelError       float64     `json:"median_abs_rel_error"`
	MedianAbsRelErrorStrong float64     `json:"median_abs_rel_error_strong"`
	MedianAmdahlStrong      float64     `json:"median_abs_rel_error_amdahl_strong"`
	MedianUSLStrong         float64     `json:"median_abs_rel_error_usl_strong"`
	MedianAICc              float64     `json:"median_abs_rel_error_aicc_choice"`
	MedianAICcStrong        float64     `json:"median_abs_rel_error_aicc_choice_strong"`
	WithInterval            int         `json:"sets_with_interval"`
	Coverage95              float64     `json:"coverage95"` // share of held-out points inside the interval
	SpreadCoverage          float64     `json:"plausible_spread_coverage"`
	NonFinite               int         `json:"non_finite_or_negative_predictions"`
	Rows                    []CorpusRow `json:"rows"`
}

// MaxCorpusFiles bounds how many files RunCorpus reads.
const MaxCorpusFiles = 1000

// RunCorpus backtests every *.csv in dir.
func RunCorpus(dir string) (*CorpusSummary, error) {
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
	s := &CorpusSummary{}
	var all, strong, am, us, ai, ais []float64
	covered, spread := 0, 0
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
		b, err := BacktestLargest(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		sc := d.Scaling
		if sc == "" {
			sc = inferScaling(d.Points)
		}
		s.Rows = append(s.Rows, CorpusRow{Name: d.Name, Scaling: sc, Points: len(d.Points), MaxP: b.HeldOutP,
			Source: d.Meta["source"], Measured: d.Meta["measured"], Units: d.Meta["units"], Backtest: b})
		s.Sets++
		pred := b.Prediction.TimeS
		if !(pred > 0) || math.IsInf(pred, 0) || math.IsNaN(b.RelError) {
			s.NonFinite++
		}
		all = append(all, math.Abs(b.RelError))
		if b.AICcRelError != nil {
			ai = append(ai, math.Abs(*b.AICcRelError))
		}
		if b.InsideInterval != nil {
			s.WithInterval++
			if *b.InsideInterval {
				covered++
			}
		}
		if b.InsideSpread {
			spread++
		}
		if sc == "strong" {
			strong = append(strong, math.Abs(b.RelError))
			if b.AICcRelError != nil {
				ais = append(ais, math.Abs(*b.AICcRelError))
			}
			if b.AmdahlRelError != nil {
				am = append(am, math.Abs(*b.AmdahlRelError))
			} else {
				s.NonFinite++
			}
			if b.USLRelError != nil {
				us = append(us, math.Abs(*b.USLRelError))
			} else {
				s.NonFinite++
			}
		}
	}
	s.MedianAbsRelError = median(all)
	s.MedianAbsRelErrorStrong = median(strong)
	s.MedianAmdahlStrong = median(am)
	s.MedianUSLStrong = median(us)
	s.MedianAICc = median(ai)
	s.MedianAICcStrong = median(ais)
	if s.WithInterval > 0 {
		s.Coverage95 = float64(covered) / float64(s.WithInterval)
	}
	s.SpreadCoverage = float64(spread) / float64(s.Sets)
	return s, nil
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
