package tpn

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/clusterperf/clusterperf/sizing"
)

// Advice is the best allocation found for a program on a cluster.
type Advice struct {
	Allocation Allocation `json:"allocation"`
	Time       float64    `json:"time_s"`        // s, predicted
	Exhaustive bool       `json:"exhaustive"`    // every mapping was simulated
	Evaluated  int        `json:"evaluated"`     // simulations run
	LowerBound float64    `json:"lower_bound_s"` // s, no mapping can do better
	Gap        float64    `json:"gap"`           // (Time − LowerBound)/LowerBound
	Given      float64    `json:"given_time_s"`  // s, the program's own allocation (0 if it does not complete)
	// ByWorkstations is, for each number k of workstations used, the best mapping found that
	// uses exactly k of them (the points sizing rules choose from: how many workstations to
	// book). Exhaustive: over every mapping; heuristic: over the mappings simulated, which
	// include a greedy start on the k most effective workstations for each k.
	ByWorkstations []KBest  `json:"by_workstations"`
	Partial        bool     `json:"partial,omitempty"` // interrupted: the best of the mappings simulated so far
	Notes          []string `json:"notes,omitempty"`
}

// KBest is the best mapping found that uses exactly Workstations workstations.
type KBest struct {
	Workstations int        `json:"workstations"`
	TimeS        float64    `json:"time_s"`
	Allocation   Allocation `json:"allocation"`
}

// Placement is where one process runs: the process's name and its workstation's name.
type Placement struct {
	Process     string `json:"name"`
	Workstation string `json:"workstation"`
}

// Allocation is a mapping of a program's processes to workstations, one placement per
// process in the program's order. In JSON it is an array of {name, workstation} objects:
// the names are the user's, so they are values, never keys (the output contract).
type Allocation []Placement

// Map is the allocation as a map from process name to workstation name, the form of
// Program.Allocation.
func (a Allocation) Map() map[string]string {
	m := make(map[string]string, len(a))
	for _, pl := range a {
		m[pl.Process] = pl.Workstation
	}
	return m
}

// byK keeps the best mapping per number of distinct workstations (first found on ties).
type byK struct {
	t    []float64
	best [][]int
}

func newByK(W int) *byK {
	b := &byK{t: make([]float64, W+1), best: make([][]int, W+1)}
	for i := range b.t {
		b.t[i] = math.Inf(1)
	}
	return b
}

// add records mapping m (workstation per process) of time t.
func (b *byK) add(m []int, t float64) {
	seen := map[int]bool{}
	for _, w := range m {
		seen[w] = true
	}
	k := len(seen)
	if t < b.t[k] {
		b.t[k] = t
		b.best[k] = append(b.best[k][:0], m...)
	}
}

// list is the recorded bests in increasing k.
func (b *byK) list(p *Program, c *Cluster) []KBest {
	var out []KBest
	for k, t := range b.t {
		if math.IsInf(t, 1) {
			continue
		}
		out = append(out, KBest{Workstations: k, TimeS: t, Allocation: allocation(p, c, b.best[k])})
	}
	return out
}

// SizingT1 is the T_1 of sizing's speedups S(k) = T_1/T(k) over the number k of workstations
// used: the best mapping found on one workstation (every process on it), by the same model
// as every T(k). Nil when by has no one-workstation entry (a heuristic search that found
// none): sizing then estimates T_1 from the fewest workstations and says so.
func SizingT1(by []KBest) *sizing.Reference {
	for _, k := range by {
		if k.Workstations == 1 {
			return sizing.ModelT1(k.TimeS, "the best mapping found on one workstation (every process on it)")
		}
	}
	return nil
}

// allocation names mapping m, in the program's process order.
func allocation(p *Program, c *Cluster, m []int) Allocation {
	a := make(Allocation, len(p.Processes))
	for i, pr := range p.Processes {
		a[i] = Placement{Process: pr.Name, Workstation: c.Workstations[m[i]].Name}
	}
	return a
}

// MaxExhaustive is the largest number of mappings Advise simulates one by one.
const MaxExhaustive = 20000

// MaxAdviseFirings bounds the work of Advise: simulations × firings per simulation. Beyond
// it the exhaustive search gives way to the heuristic, and the heuristic's budget shrinks
// (said in Advice.Notes); 2e8 firings take about 100 s at BenchmarkFirings' rate.
const MaxAdviseFirings = 2e8

func work(segs []Segment, mult float64) float64 {
	w := 0.0
	for _, s := range segs {
		switch {
		case s.Loop != nil:
			w += work(s.Loop.Body, mult*float64(s.Loop.Count))
		case s.Send == nil && s.Recv == nil:
			w += mult * s.Compute
		}
	}
	return w
}

// Advise searches process-to-workstation mappings for the least predicted time (what 002
// says its predictions are for): every mapping when there are at most MaxExhaustive, else a
// greedy start (largest work first to the workstation that would finish it soonest) improved
// by moves and swaps until no single change helps or budget simulations are spent. The lower
// bound ignores communication: no mapping beats max(the largest process's work on the fastest
// effective workstation, all work spread over all effective power); the gap says how far the
// answer can be from optimal.
func Advise(p *Program, c *Cluster, budget int) (*Advice, error) {
	return AdviseWith(p, c, AdviseOptions{Budget: budget})
}

// AdviseOptions: Budget simulations for the heuristic (0: 2000); MaxFirings the total
// simulated firings allowed (0: MaxAdviseFirings); Progress, if set, is called after each
// simulation with the simulations done and the most the search will run (W^P, or the budget).
type AdviseOptions struct {
	Budget     int
	MaxFirings float64
	Progress   func(done, total int)
}

// AdviseWith is Advise with explicit budgets.
func AdviseWith(p *Program, c *Cluster, o AdviseOptions) (*Advice, error) {
	return AdviseContext(context.Background(), p, c, o)
}

// errStop ends a search whose context was cancelled.
type errStop struct{ err error }

func (e errStop) Error() string { return e.err.Error() }
func (e errStop) Unwrap() error { return e.err }

// AdviseContext is AdviseWith stopping when ctx is cancelled: it then returns the best of
// the mappings simulated so far, marked Partial, with ctx's error (nil advice if none
// completed).
func AdviseContext(ctx context.Context, p *Program, c *Cluster, o AdviseOptions) (*Advice, error) {
	budget := o.Budget
	maxF := o.MaxFirings
	if maxF <= 0 {
		maxF = MaxAdviseFirings
	}
	if len(c.Workstations) == 0 {
		return nil, asInput(at(fileName(c.File, "cluster"), 0, "no workstations"))
	}
	if budget <= 0 {
		budget = 2000
	}
	z, err := CheckSize(p, BuildOptions{})
	if err != nil {
		return nil, err
	}
	var notes []string
	perSim := max(z.Firings, 1)
	if float64(budget)*perSim > maxF {
		nb := int(maxF / perSim)
		if nb < 1 {
			return nil, errTooLarge("%s: one simulation takes about %.4g firings and the limit is %.4g firings in all (AdviseOptions.MaxFirings)", fileName(p.File, "program"), perSim, maxF)
		}
		notes = append(notes, fmt.Sprintf("search budget cut from %d to %d simulations: each takes about %.4g firings and the limit is %.4g in all", budget, nb, perSim, maxF))
		budget = nb
	}
	ref := 1.0
	for _, w := range c.Workstations {
		if w.Name == c.Reference {
			ref = w.Power
		}
	}
	eff := make([]float64, len(c.Workstations)) // effective power: ρ·(1 − U)/ρ_ref
	totalEff := 0.0
	for i, w := range c.Workstations {
		ef, err := w.ExpansionFactor()
		if err != nil {
			return nil, err
		}
		eff[i] = w.Power / ef / ref
		totalEff += eff[i]
	}
	maxEff := 0.0
	for _, e := range eff {
		maxEff = math.Max(maxEff, e)
	}
	works := make([]float64, len(p.Processes))
	total, biggest := 0.0, 0.0
	for i, pr := range p.Processes {
		works[i] = work(pr.Segments, 1)
		total += works[i]
		biggest = math.Max(biggest, works[i])
	}
	adv := &Advice{LowerBound: math.Max(biggest/maxEff, total/totalEff), Notes: notes}
	P, W := len(p.Processes), len(c.Workstations)
	kb := newByK(W)
	most := budget
	m := math.Pow(float64(W), float64(P))
	exhaustive := m <= MaxExhaustive && m*perSim <= maxF
	if exhaustive {
		most = int(m)
	}
	eval := func(assign []int) (t float64, err error) {
		if err := ctx.Err(); err != nil {
			return 0, errStop{err}
		}
		defer func() {
			if err == nil {
				kb.add(assign, t)
				if o.Progress != nil {
					o.Progress(adv.Evaluated, most)
				}
			}
		}()
		q := *p
		q.Allocation = map[string]string{}
		for i, pr := range p.Processes {
			q.Allocation[pr.Name] = c.Workstations[assign[i]].Name
		}
		n, err := Build(&q, c)
		if err != nil {
			return 0, err
		}
		r, err := n.Run(Options{})
		if err != nil {
			return 0, err
		}
		adv.Evaluated++
		if r.Outcome != Completed {
			return math.Inf(1), nil
		}
		return Seconds(r.Time), nil
	}
	if n, err := Build(p, c); err == nil {
		if r, err := n.Run(Options{}); err == nil && r.Outcome == Completed {
			adv.Given = Seconds(r.Time)
		}
	}
	best := make([]int, P)
	bestT := math.Inf(1)
	err = search(adv, eval, best, &bestT, works, eff, budget, exhaustive)
	var stop errStop
	if se, ok := err.(errStop); ok {
		if math.IsInf(bestT, 1) {
			return nil, se.err
		}
		stop = se
		adv.Partial = true
		adv.Notes = append(adv.Notes, fmt.Sprintf("interrupted after %d simulations: the best mapping simulated so far", adv.Evaluated))
	} else if err != nil {
		return nil, err
	}
	adv.Time = bestT
	adv.Allocation = allocation(p, c, best)
	adv.ByWorkstations = kb.list(p, c)
	if adv.LowerBound > 0 {
		adv.Gap = (adv.Time - adv.LowerBound) / adv.LowerBound
	}
	if stop.err != nil {
		return adv, stop.err
	}
	return adv, nil
}

// search runs AdviseWith's exhaustive search (every mapping, in base-W order) or its
// heuristic (greedy start, a greedy start on the k most effective workstations for each k,
// then moves and swaps until none helps or the budget is spent), keeping the best in best
// and bestT.
func search(adv *Advice, eval func([]int) (float64, error), best []int, bestT *float64, works, eff []float64, budget int, exhaustive bool) error {
	P, W := len(works), len(eff)
	if exhaustive {
		adv.Exhaustive = true
		cur := make([]int, P)
		for {
			t, err := eval(cur)
			if err != nil {
				return err
			}
			if t < *bestT {
				*bestT = t
				copy(best, cur)
			}
			i := 0
			for ; i < P; i++ {
				cur[i]++
				if cur[i] < W {
					break
				}
				cur[i] = 0
			}
			if i == P {
				return nil
			}
		}
	}
	order := make([]int, P)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return works[order[a]] > works[order[b]] })
	// greedy: largest work first to the workstation (of the allowed) that would finish it soonest
	greedy := func(allowed []int) []int {
		m := make([]int, P)
		load := make([]float64, W)
		for _, i := range order {
			bw := allowed[0]
			for _, w := range allowed {
				if (load[w]+works[i])/eff[w] < (load[bw]+works[i])/eff[bw] {
					bw = w
				}
			}
			m[i] = bw
			load[bw] += works[i]
		}
		return m
	}
	all := make([]int, W)
	for w := range all {
		all[w] = w
	}
	start := greedy(all)
	copy(best, start)
	t, err := eval(best)
	if err != nil {
		return err
	}
	*bestT = t
	// a start on the k most effective workstations for each k (the sizing points)
	byEff := append([]int(nil), all...)
	sort.SliceStable(byEff, func(a, b int) bool { return eff[byEff[a]] > eff[byEff[b]] })
	for k := 1; k < min(P, W) && adv.Evaluated < budget; k++ {
		m := greedy(byEff[:k])
		t, err := eval(m)
		if err != nil {
			return err
		}
		if t < *bestT*(1-1e-12) {
			*bestT = t
			copy(best, m)
		}
	}
	cand := make([]int, P)
	for improved := true; improved && adv.Evaluated < budget; {
		improved = false
		try := func() error {
			t, err := eval(cand)
			if err != nil {
				return err
			}
			if t < *bestT*(1-1e-12) {
				*bestT = t
				copy(best, cand)
				improved = true
			}
			return nil
		}
		for i := 0; i < P && adv.Evaluated < budget; i++ {
			for w := 0; w < W && adv.Evaluated < budget; w++ {
				if w == best[i] {
					continue
				}
				copy(cand, best)
				cand[i] = w
				if err := try(); err != nil {
					return err
				}
			}
		}
		for i := 0; i < P && adv.Evaluated < budget; i++ {
			for j := i + 1; j < P && adv.Evaluated < budget; j++ {
				if best[i] == best[j] {
					continue
				}
				copy(cand, best)
				cand[i], cand[j] = cand[j], cand[i]
				if err := try(); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
