package pmva

import (
	"context"
	"fmt"
	"slices"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// Point is the model at one (algorithm, p) on the predicted network, with the measured run
// when there is one.
type Point struct {
	Algorithm Algorithm `json:"algorithm"`
	P         int       `json:"p"`
	Q         float64   `json:"q_s"`              // q(p) used: calibrated or given
	K         float64   `json:"k_s"`              // k(p) used (0 at p = 1)
	Q1        float64   `json:"q1_s"`             // q(1) of eq. (6.8)'s numerator
	Time      float64   `json:"predicted_time_s"` // eq. (6.5); (6.1) at p = 1
	Speedup   float64   `json:"speedup"`          // eq. (6.8)
	Eff       float64   `json:"efficiency"`       // eq. (6.8)/p
	// α = q(p)/k(p) and eqs. (6.9)–(6.11) (p ≥ 2 with k > 0)
	Alpha        *float64 `json:"alpha,omitempty"`
	SpeedupAlpha *float64 `json:"speedup_alpha,omitempty"`    // eq. (6.9)
	SpeedupLimit *float64 `json:"speedup_limit,omitempty"`    // eq. (6.10)
	EffLimit     *float64 `json:"efficiency_limit,omitempty"` // eq. (6.11)
	// the BUS-AIO c = 2 model with σ_r0 + σ_r = k(p)/(q(1)(N_1+1)) (Fig. 6.9)
	SigmaComm *float64 `json:"sigma_comm,omitempty"`
	BusAIO    *float64 `json:"bus_aio_speedup,omitempty"`
	Measured  *Sample  `json:"measured,omitempty"`  // runs on the predicted network
	RelError  *float64 `json:"rel_error,omitempty"` // (predicted − measured median)/measured median
}

// Costs are q(p) and k(p) per p for one algorithm (q(1) at p = 1).
type Costs struct {
	Q, K map[int]float64
}

// Predict evaluates the model on populations N (pipeline order) for each p from costs c.
func Predict(alg Algorithm, N []int, ps []int, c Costs) ([]Point, error) {
	q1, ok := c.Q[1]
	if !ok {
		return nil, fmt.Errorf("%w: pmva: no q(1) to predict with", fault.ErrInput)
	}
	var out []Point
	for _, p := range ps {
		q, k := c.Q[p], c.K[p]
		t, err := Time(q, k, p, N)
		if err != nil {
			return nil, err
		}
		s, err := Speedup(q1, q, k, p, N)
		if err != nil {
			return nil, err
		}
		pt := Point{Algorithm: alg, P: p, Q: q, K: k, Q1: q1, Time: t, Speedup: s, Eff: s / float64(p)}
		if p >= 2 && k > 0 {
			a, _ := Alpha(q, k)
			s9, err := SpeedupAlpha(a, p, N)
			if err != nil {
				return nil, err
			}
			s10, e11 := SpeedupLimit(a, p, N[0]), Efficiency(a, p, N[0])
			sig := k / (q1 * float64(N[0]+1))
			bus := BusAIOSpeedup(sig, 0, p)
			pt.Alpha, pt.SpeedupAlpha, pt.SpeedupLimit, pt.EffLimit, pt.SigmaComm, pt.BusAIO = &a, &s9, &s10, &e11, &sig, &bus
		}
		out = append(out, pt)
	}
	return out, nil
}

// Config is a timing study: calibrate q(p), k(p) on one network, predict another.
type Config struct {
	Algorithms []Algorithm
	Workers    []int // p values to predict
	Repeats    int
	MaxPoints  float64
	// ModelOrder walks the classes in the models' own order (see Order) instead of the
	// largest population first.
	ModelOrder bool
	// Progress, if not nil, is told before each measurement (network "calibration" or
	// "target").
	Progress func(network string, alg Algorithm, p, repeats int)
}

// Study is the result of Run: the calibration samples and the predicted points.
type Study struct {
	Calibration []Sample `json:"calibration"`
	Points      []Point  `json:"points"`
}

// Run measures q(p) and k(p) on calib (p = 1 always, for q(1), and every p of cfg.Workers),
// predicts target's time with them (eq. 6.5) and measures target at the same p: the
// prediction never sees the runs it is compared with.
func Run(ctx context.Context, target, calib *qn.Model, cfg Config) (*Study, error) {
	_, N := Order(target, cfg.ModelOrder)
	ps := slices.Clone(cfg.Workers)
	calPs := ps
	if !slices.Contains(calPs, 1) {
		calPs = append([]int{1}, calPs...)
	}
	st := &Study{}
	for _, alg := range cfg.Algorithms {
		c := Costs{Q: map[int]float64{}, K: map[int]float64{}}
		for _, p := range calPs {
			if cfg.Progress != nil {
				cfg.Progress("calibration", alg, p, cfg.Repeats)
			}
			s, err := Measure(ctx, calib, alg, p, cfg.Repeats, cfg.MaxPoints, cfg.ModelOrder)
			if err != nil {
				return nil, err
			}
			st.Calibration = append(st.Calibration, *s)
			c.Q[p], c.K[p] = s.Q, s.K
		}
		pts, err := Predict(alg, N, ps, c)
		if err != nil {
			return nil, err
		}
		for i := range pts {
			if cfg.Progress != nil {
				cfg.Progress("target", alg, pts[i].P, cfg.Repeats)
			}
			s, err := Measure(ctx, target, alg, pts[i].P, cfg.Repeats, cfg.MaxPoints, cfg.ModelOrder)
			if err != nil {
				return nil, err
			}
			pts[i].Measured = s
			if s.MedianS > 0 {
				e := (pts[i].Time - s.MedianS) / s.MedianS
				pts[i].RelError = &e
			}
		}
		st.Points = append(st.Points, pts...)
	}
	return st, nil
}
