package fit

import (
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/spmd"
)

// Recommendation is the fitted model evaluated over p = 1 … PMax, d = 1 … DMax: the
// configuration of least time and, per d, the largest p whose efficiency s/p reaches the
// threshold.
type Recommendation struct {
	PMax      int                `json:"p_max"`
	DMax      int                `json:"d_max"`
	Points    []spmd.Point       `json:"points"`
	Best      spmd.Point         `json:"best"`
	Efficient map[int]spmd.Point `json:"largest_efficient_p"`
	Skipped   []spmd.Skipped     `json:"skipped,omitempty"`
}

// Recommend evaluates the fitted model r over p = 1 … pmax and d = 1 … dmax (the CLI's
// --pmax and --dmax) within the work budget maxWork (MVA steps; 0: spmd.DefaultMaxWork).
// pmax, dmax < 1 and efficiency outside (0, 1] are input errors (fault.ErrInput); a surface
// over the budget, or of more than spmd.MaxSurfacePoints points, is refused with
// fault.ErrTooLarge naming the estimate, before anything is allocated (issue 12: --pmax -1
// panicked in makeslice, --pmax 2e9 exhausted memory).
func Recommend(r *SPMDResult, pmax, dmax int, efficiency, maxWork float64) (*Recommendation, error) {
	if pmax < 1 || pmax > spmd.MaxP {
		return nil, fmt.Errorf("%w: --pmax %d: want a whole number 1 … %d", fault.ErrInput, pmax, spmd.MaxP)
	}
	if dmax < 1 || dmax > spmd.MaxP {
		return nil, fmt.Errorf("%w: --dmax %d: want a whole number 1 … %d", fault.ErrInput, dmax, spmd.MaxP)
	}
	if !(efficiency > 0 && efficiency <= 1) {
		return nil, fmt.Errorf("%w: --efficiency %v: want a value in (0, 1]", fault.ErrInput, efficiency)
	}
	if n := float64(pmax) * float64(dmax); n > spmd.MaxSurfacePoints {
		return nil, fmt.Errorf("%w: --pmax %d × --dmax %d = %.3g points; the limit is %d", fault.ErrTooLarge, pmax, dmax, n, spmd.MaxSurfacePoints)
	}
	e, err := spmd.NewEvaluator(r.Model())
	if err != nil {
		return nil, err
	}
	e.MaxWork = maxWork
	ps, ds := make([]int, pmax), make([]int, dmax)
	for i := range ps {
		ps[i] = i + 1
	}
	for i := range ds {
		ds[i] = i + 1
	}
	pts, skipped, err := e.Surface(ps, ds, nil)
	if err != nil {
		return nil, err
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("%w: no valid (p, d) with p ≤ %d, d ≤ %d for %s", fault.ErrInput, pmax, dmax, r.Architecture)
	}
	best, _ := spmd.Best(pts)
	return &Recommendation{PMax: pmax, DMax: dmax, Points: pts, Best: best, Efficient: spmd.LargestEfficient(pts, efficiency), Skipped: skipped}, nil
}

// BandPoint is the fitted model at (p, d) with its contention level replaced by w = 0 (the
// network a pure delay: optimistic) and w = 1 (a pure queue: pessimistic), issue 19's band;
// the value is a time (s) or a speedup as the data's target.
type BandPoint struct {
	P      int     `json:"p"`
	D      int     `json:"d"`
	Fitted float64 `json:"fitted"`
	W0     float64 `json:"w0"` // optimistic contention
	W1     float64 `json:"w1"` // pessimistic contention
}

// Band evaluates the fitted model at each (p, d) of pts with w as fitted, w = 0 and w = 1
// (001 §4: w = 0 the network is a delay, w = 1 a queue).
func Band(r *SPMDResult, pts [][2]int) ([]BandPoint, error) {
	eval := func(w float64) (*spmd.Evaluator, error) {
		m := *r.Model()
		m.Phases = append([]spmd.Phase(nil), m.Phases...)
		for i := range m.Phases {
			if w >= 0 {
				m.Phases[i].W = w
			}
		}
		return spmd.NewEvaluator(&m)
	}
	var es [3]*spmd.Evaluator
	for i, w := range []float64{-1, 0, 1} {
		e, err := eval(w)
		if err != nil {
			return nil, err
		}
		es[i] = e
	}
	out := make([]BandPoint, 0, len(pts))
	for _, pd := range pts {
		b := BandPoint{P: pd[0], D: pd[1]}
		for i, dst := range []*float64{&b.Fitted, &b.W0, &b.W1} {
			pt, err := es[i].Evaluate(pd[0], pd[1])
			if err != nil {
				return nil, err
			}
			*dst = pt.Speedup
			if r.Target == "time" {
				*dst = pt.Time
			}
		}
		out = append(out, b)
	}
	return out, nil
}
