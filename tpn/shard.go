package tpn

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// Sharded advice (package shard, issue 18): the exhaustive search of AdviseWith simulates
// every process-to-workstation mapping once, independently — a study whose item k is
// mapping k. AdviseStudy computes one mapping (Eval) wherever it runs and turns the times of
// all of them, in index order, into the Advice AdviseWith returns on one machine (Merge).

// AdviseStudy is the exhaustive search of AdviseWith(p, c, o) split into independent items.
type AdviseStudy struct {
	p     *Program
	c     *Cluster
	P, W  int
	items int
	adv   Advice // everything but the search's outcome: lower bound, given time, notes
}

// MappingTime is the outcome of one mapping: its predicted time in ticks (1 ns) if it
// completes.
type MappingTime struct {
	Completed bool  `json:"completed"`
	TimeNs    int64 `json:"time_ns"`
}

// NewAdviseStudy prepares the exhaustive search of AdviseWith(p, c, o). A search AdviseWith
// would not make exhaustively (more than MaxExhaustive mappings, or more firings than
// o.MaxFirings in all) is refused with fault.ErrInput: the heuristic search is sequential
// (each move depends on the best so far) and cannot be split.
func NewAdviseStudy(p *Program, c *Cluster, o AdviseOptions) (*AdviseStudy, error) {
	maxF := o.MaxFirings
	if maxF <= 0 {
		maxF = MaxAdviseFirings
	}
	budget := o.Budget
	if budget <= 0 {
		budget = 2000
	}
	if len(c.Workstations) == 0 {
		return nil, asInput(at(fileName(c.File, "cluster"), 0, "no workstations"))
	}
	z, err := CheckSize(p, BuildOptions{})
	if err != nil {
		return nil, err
	}
	s := &AdviseStudy{p: p, c: c, P: len(p.Processes), W: len(c.Workstations)}
	perSim := max(z.Firings, 1)
	if float64(budget)*perSim > maxF {
		nb := int(maxF / perSim)
		if nb < 1 {
			return nil, errTooLarge("%s: one simulation takes about %.4g firings and the limit is %.4g firings in all (AdviseOptions.MaxFirings)", fileName(p.File, "program"), perSim, maxF)
		}
		s.adv.Notes = append(s.adv.Notes, fmt.Sprintf("search budget cut from %d to %d simulations: each takes about %.4g firings and the limit is %.4g in all", budget, nb, perSim, maxF))
	}
	m := math.Pow(float64(s.W), float64(s.P))
	if !(m <= MaxExhaustive && m*perSim <= maxF) {
		return nil, fmt.Errorf("%w: %s: %.4g mappings of %d processes to %d workstations (about %.4g firings each): above the exhaustive search's limits (%d mappings, %.4g firings in all), so advice uses the heuristic search, whose every step depends on the last and cannot be split over machines; run it on one machine",
			fault.ErrInput, fileName(p.File, "program"), m, s.P, s.W, perSim, MaxExhaustive, maxF)
	}
	s.items = int(m)
	if s.adv.LowerBound, err = lowerBound(p, c); err != nil {
		return nil, err
	}
	if n, err := Build(p, c); err == nil {
		if r, err := n.Run(Options{}); err == nil && r.Outcome == Completed {
			s.adv.Given = Seconds(r.Time)
		}
	}
	return s, nil
}

// lowerBound is AdviseWith's bound: max(the largest process's work on the fastest effective
// workstation, all work over all effective power), effective power ρ·(1 − U)/ρ_ref.
func lowerBound(p *Program, c *Cluster) (float64, error) {
	ref := 1.0
	for _, w := range c.Workstations {
		if w.Name == c.Reference {
			ref = w.Power
		}
	}
	totalEff, maxEff := 0.0, 0.0
	for _, w := range c.Workstations {
		ef, err := w.ExpansionFactor()
		if err != nil {
			return 0, err
		}
		e := w.Power / ef / ref
		totalEff += e
		maxEff = math.Max(maxEff, e)
	}
	total, biggest := 0.0, 0.0
	for _, pr := range p.Processes {
		w := work(pr.Segments, 1)
		total += w
		biggest = math.Max(biggest, w)
	}
	return math.Max(biggest/maxEff, total/totalEff), nil
}

// Items is the number of mappings, W^P.
func (s *AdviseStudy) Items() int { return s.items }

// mapping is mapping k in AdviseWith's enumeration order: process i on workstation digit i
// of k in base W (process 0 the fastest-changing digit).
func (s *AdviseStudy) mapping(k int) []int {
	cur := make([]int, s.P)
	for i := range cur {
		cur[i] = k % s.W
		k /= s.W
	}
	return cur
}

// Eval simulates mapping k (0 ≤ k < Items()) as AdviseWith does.
func (s *AdviseStudy) Eval(k int) (MappingTime, error) {
	if k < 0 || k >= s.items {
		return MappingTime{}, fmt.Errorf("%w: mapping %d outside 0 … %d", fault.ErrInput, k, s.items-1)
	}
	q := *s.p
	q.Allocation = map[string]string{}
	for i, w := range s.mapping(k) {
		q.Allocation[s.p.Processes[i].Name] = s.c.Workstations[w].Name
	}
	n, err := Build(&q, s.c)
	if err != nil {
		return MappingTime{}, err
	}
	r, err := n.Run(Options{})
	if err != nil {
		return MappingTime{}, err
	}
	return MappingTime{Completed: r.Outcome == Completed, TimeNs: r.Time}, nil
}

// Merge is AdviseWith's answer from the outcomes of all mappings in index order: the first
// mapping of least time.
func (s *AdviseStudy) Merge(times []MappingTime) (*Advice, error) {
	if len(times) != s.items {
		return nil, fmt.Errorf("%w: %d mapping times for %d mappings", fault.ErrInput, len(times), s.items)
	}
	adv := s.adv
	adv.Notes = append([]string(nil), s.adv.Notes...)
	adv.Exhaustive, adv.Evaluated = true, s.items
	bestT, bestK := math.Inf(1), 0
	kb := newByK(s.W)
	for k, t := range times {
		if !t.Completed {
			continue
		}
		if t.TimeNs < 0 || t.TimeNs > MaxTicks {
			return nil, fmt.Errorf("%w: mapping %d: time %d ns outside 0 … 2^62", fault.ErrInput, k, t.TimeNs)
		}
		v := Seconds(t.TimeNs)
		if v < bestT {
			bestT, bestK = v, k
		}
		kb.add(s.mapping(k), v)
	}
	if math.IsInf(bestT, 1) { // never from AdviseWith's own runs: a program no mapping completes deadlocks
		return nil, fmt.Errorf("%w: none of the %d mappings completes", fault.ErrDeadlock, s.items)
	}
	adv.Time = bestT
	adv.Allocation = allocation(s.p, s.c, s.mapping(bestK))
	adv.ByWorkstations = kb.list(s.p, s.c)
	if adv.LowerBound > 0 {
		adv.Gap = (adv.Time - adv.LowerBound) / adv.LowerBound
	}
	return &adv, nil
}
