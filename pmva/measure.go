package pmva

import (
	"context"
	"fmt"
	"slices"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// Algorithm names a parallel exact solver of package qn.
type Algorithm string

const (
	// Pipelined is qn.MVAMultiParallel: contiguous class-1 ranges per worker (001 §6.1.2),
	// the algorithm eqs. (6.3)–(6.5) describe.
	Pipelined Algorithm = "pipelined"
	// Interleaved is qn.MVAMultiInterleaved: class-1 slices n₁ ≡ j (mod p) per worker, a
	// wavefront; eqs. (6.3)–(6.5) describe it only approximately (its messages are progress
	// counters, not queue-length vectors).
	Interleaved Algorithm = "interleaved"
)

// ParseAlgorithm reads "pipelined" or "interleaved".
func ParseAlgorithm(s string) (Algorithm, error) {
	switch a := Algorithm(s); a {
	case Pipelined, Interleaved:
		return a, nil
	}
	return "", fmt.Errorf("%w: algorithm %q: want pipelined or interleaved", fault.ErrInput, s)
}

// MaxPoints is the default budget of population vectors per run (the thesis network has
// 9.3e7; 1e9 would take minutes per run on a loaded host).
const MaxPoints = 4e8

// Sample is the repeated timing of one solver at one p on one network.
type Sample struct {
	Algorithm  Algorithm `json:"algorithm"`
	P          int       `json:"p"`
	Runs       []float64 `json:"runs_s"`       // wall time of each run
	MinS       float64   `json:"min_s"`        // fastest run
	MedianS    float64   `json:"median_s"`     // the figure used
	MaxS       float64   `json:"max_s"`        // slowest run
	Spread     float64   `json:"spread"`       // (max − min)/median: the machine's speed spread
	WaitS      float64   `json:"wait_s"`       // K_p(p) of the median run: the last worker's wait
	Q          float64   `json:"q_s"`          // q(p), eqs. 6.6–6.7, of the median run
	K          float64   `json:"k_s"`          // k(p), eq. 6.4, of the median run (0 at p = 1)
	Points     float64   `json:"points"`       // Π(N_c+1)
	Order      []string  `json:"class_order"`  // the order the solver walked the classes in
	Throughput float64   `json:"points_per_s"` // points / median
}

// Order is the class order of qn's exact lattice walk, with populations: by default
// qn.LargestFirst (the class with the largest population first, the others in the model's
// order: the pipeline order of eqs. (6.3)–(6.5)); with modelOrder the model's own class
// order (after Reordered, the order a user asked for: the Fig. 6.8 experiment).
func Order(m *qn.Model, modelOrder bool) (names []string, N []int) {
	idx := qn.LargestFirst(m)
	if modelOrder {
		idx = idx[:0]
		for c := range m.Classes {
			idx = append(idx, c)
		}
	}
	for _, c := range idx {
		names = append(names, m.Classes[c].Name)
		N = append(N, m.Classes[c].Population)
	}
	return names, N
}

// walkOption is the qn option for Order(m, modelOrder).
func walkOption(m *qn.Model, modelOrder bool) []qn.ExactOption {
	if !modelOrder {
		return nil
	}
	idx := make([]int, len(m.Classes))
	for c := range idx {
		idx[c] = c
	}
	return []qn.ExactOption{qn.WithClassOrder(idx)}
}

// Measure runs alg with p workers repeats times on m (closed, queue and delay stations) and
// returns the wall times with q(p) and k(p) of the median run. The lattice is walked in
// Order(m, modelOrder): the answer is the same in every order, the time is not (Fig. 6.8).
// The runs are sequential; ctx is checked between runs. The work is refused above
// maxPoints population vectors per run (fault.ErrTooLarge).
func Measure(ctx context.Context, m *qn.Model, alg Algorithm, p, repeats int, maxPoints float64, modelOrder bool) (*Sample, error) {
	names, N := Order(m, modelOrder)
	opts := walkOption(m, modelOrder)
	if err := checkShape(N, p); err != nil {
		return nil, err
	}
	if repeats < 1 {
		return nil, fmt.Errorf("%w: pmva: repeats = %d, want ≥ 1", fault.ErrInput, repeats)
	}
	if pts := Points(N); pts > maxPoints {
		return nil, fmt.Errorf("%w: pmva: %.3g population vectors per run, limit %.3g (populations %v)", fault.ErrTooLarge, pts, maxPoints, N)
	}
	type run struct{ wall, wait float64 }
	runs := make([]run, 0, repeats)
	for range repeats {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var st *qn.ParallelStats
		var err error
		if alg == Interleaved {
			_, st, err = qn.MVAMultiInterleaved(m, p, opts...)
		} else {
			_, st, err = qn.MVAMultiParallel(m, p, opts...)
		}
		if err != nil {
			return nil, err
		}
		if st.Workers != p {
			return nil, fmt.Errorf("%w: pmva: the solver ran %d workers, not %d (class 1 has %d populations)", fault.ErrInput, st.Workers, p, N[0]+1)
		}
		runs = append(runs, run{st.Wall.Seconds(), st.Wait[len(st.Wait)-1].Seconds()})
	}
	slices.SortFunc(runs, func(a, b run) int {
		switch {
		case a.wall < b.wall:
			return -1
		case a.wall > b.wall:
			return 1
		}
		return 0
	})
	med := runs[(len(runs)-1)/2] // lower median: an actual run
	s := &Sample{Algorithm: alg, P: p, MinS: runs[0].wall, MedianS: med.wall, MaxS: runs[len(runs)-1].wall, WaitS: med.wait, Points: Points(N), Order: names}
	for _, r := range runs {
		s.Runs = append(s.Runs, r.wall)
	}
	if s.MedianS > 0 {
		s.Spread = (s.MaxS - s.MinS) / s.MedianS
		s.Throughput = s.Points / s.MedianS
	}
	q, k, err := Measured(med.wall, med.wait, p, N)
	if err != nil {
		return nil, err
	}
	s.Q, s.K = q, k
	return s, nil
}

// Scaled returns a copy of m with every closed population divided by f (rounded, at least
// 1): a network of the same shape with about Π(N_c/f) points. f = 1 returns a copy.
func Scaled(m *qn.Model, f float64) (*qn.Model, error) {
	if !(f >= 1) || f > 1e9 {
		return nil, fmt.Errorf("%w: pmva: scale %v, want 1 ≤ f ≤ 1e9", fault.ErrInput, f)
	}
	c := m.Clone()
	for i := range c.Classes {
		if c.Classes[i].Open {
			continue
		}
		n := int(float64(c.Classes[i].Population)/f + 0.5)
		c.Classes[i].Population = max(1, n)
	}
	return c, nil
}

// Reordered returns a copy of m with its classes in the order of names (every class once).
func Reordered(m *qn.Model, names []string) (*qn.Model, error) {
	if len(names) != len(m.Classes) {
		return nil, fmt.Errorf("%w: class order %v: want each of the %d classes once", fault.ErrInput, names, len(m.Classes))
	}
	if m.Routing != nil || len(m.ForkJoins) > 0 {
		return nil, fmt.Errorf("%w: class order: a model with routing matrices or fork/join nodes cannot be reordered here (give the classes in the wanted order in the file)", fault.ErrInput)
	}
	c := m.Clone()
	seen := map[string]bool{}
	for i, name := range names {
		j := slices.IndexFunc(m.Classes, func(cl qn.Class) bool { return cl.Name == name })
		if j < 0 || seen[name] {
			return nil, fmt.Errorf("%w: class order: %q is not a class of the model or repeated (classes: %v)", fault.ErrInput, name, classNames(m))
		}
		seen[name] = true
		c.Classes[i] = m.Classes[j]
		c.Demand[i] = append([]float64(nil), m.Demand[j]...)
		if m.Visits != nil {
			c.Visits[i] = append([]float64(nil), m.Visits[j]...)
		}
	}
	return c, nil
}

func classNames(m *qn.Model) []string {
	var s []string
	for _, c := range m.Classes {
		s = append(s, c.Name)
	}
	return s
}
