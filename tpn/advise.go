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
	if len(c.Workstations) == 0 {
		return nil, asInput(at(fileName(c.File, "cluster"), 0, "no workstations"))
	}
	budget, perSim, maxF, notes, err := adviseBudget(p, o)
	if err != nil {
		return nil, err
	}
	eff, totalEff, maxEff, err := effectivePowers(c)
	if err != nil {
		return nil, err
	}
	works := make([]float64, len(p.Processes))
	total, biggest := 0.0, 0.0
	for i, pr := range p.Processes {
		works[i] = work(pr.Segments, 1)
		total += works[i]
		biggest = math.Max(biggest, works[i])
	}
	P, W := len(p.Processes), len(c.Workstations)
	a := &adviser{ctx: ctx, p: p, c: c, progress: o.Progress, works: works, eff: eff, budget: budget,
		adv: &Advice{LowerBound: math.Max(biggest/maxEff, total/totalEff), Notes: notes}, kb: newByK(W),
		best: make([]int, P), bestT: math.Inf(1), most: budget}
	m := math.Pow(float64(W), float64(P))
	exhaustive := m <= MaxExhaustive && m*perSim <= maxF
	if exhaustive {
		a.most = int(m)
	}
	adv := a.adv
	if n, err := Build(p, c); err == nil {
		if r, err := n.Run(Options{}); err == nil && r.Outcome == Completed {
			adv.Given = Seconds(r.Time)
		}
	}
	if exhaustive {
		err = a.exhaustive()
	} else {
		err = a.search()
	}
	var stop errStop
	if se, ok := err.(errStop); ok {
		if math.IsInf(a.bestT, 1) {
			return nil, se.err
		}
		stop = se
		adv.Partial = true
		adv.Notes = append(adv.Notes, fmt.Sprintf("interrupted after %d simulations: the best mapping simulated so far", adv.Evaluated))
	} else if err != nil {
		return nil, err
	}
	adv.Time = a.bestT
	adv.Allocation = allocation(p, c, a.best)
	adv.ByWorkstations = a.kb.list(p, c)
	if adv.LowerBound > 0 {
		adv.Gap = (adv.Time - adv.LowerBound) / adv.LowerBound
	}
	if stop.err != nil {
		return adv, stop.err
	}
	return adv, nil
}

// adviseBudget is the number of simulations the search may run (o.Budget, 0: 2000), cut so
// that budget × the firings of one simulation stays within o.MaxFirings (0:
// MaxAdviseFirings), with a note saying so; refused (ErrTooLarge) when not even one fits.
func adviseBudget(p *Program, o AdviseOptions) (budget int, perSim, maxF float64, notes []string, err error) {
	budget, maxF = o.Budget, o.MaxFirings
	if maxF <= 0 {
		maxF = MaxAdviseFirings
	}
	if budget <= 0 {
		budget = 2000
	}
	z, err := CheckSize(p, BuildOptions{})
	if err != nil {
		return 0, 0, 0, nil, err
	}
	perSim = max(z.Firings, 1)
	if float64(budget)*perSim > maxF {
		nb := int(maxF / perSim)
		if nb < 1 {
			return 0, 0, 0, nil, errTooLarge("%s: one simulation takes about %.4g firings and the limit is %.4g firings in all (AdviseOptions.MaxFirings)", fileName(p.File, "program"), perSim, maxF)
		}
		notes = append(notes, fmt.Sprintf("search budget cut from %d to %d simulations: each takes about %.4g firings and the limit is %.4g in all", budget, nb, perSim, maxF))
		budget = nb
	}
	return budget, perSim, maxF, notes, nil
}

// effectivePowers returns each workstation's effective power ρ·(1 − U)/ρ_ref (relative to
// the reference workstation's power, 1 when none is named), their sum and their maximum.
func effectivePowers(c *Cluster) (eff []float64, total, most float64, err error) {
	ref := 1.0
	for _, w := range c.Workstations {
		if w.Name == c.Reference {
			ref = w.Power
		}
	}
	eff = make([]float64, len(c.Workstations))
	for i, w := range c.Workstations {
		ef, err := w.ExpansionFactor()
		if err != nil {
			return nil, 0, 0, err
		}
		eff[i] = w.Power / ef / ref
		total += eff[i]
	}
	for _, e := range eff {
		most = math.Max(most, e)
	}
	return eff, total, most, nil
}

// adviser is AdviseContext's search state: each process's work and each workstation's
// effective power, the simulations allowed, the best mapping so far (best, bestT) and the
// best per number of workstations used (kb).
type adviser struct {
	ctx      context.Context
	p        *Program
	c        *Cluster
	progress func(done, total int)
	adv      *Advice
	kb       *byK
	works    []float64
	eff      []float64
	budget   int
	most     int // the most simulations the search will run, for progress
	best     []int
	bestT    float64
}

// eval simulates the program with process i on workstation assign[i] and returns its
// completion time (+Inf when it does not complete); errStop once ctx is cancelled.
func (a *adviser) eval(assign []int) (t float64, err error) {
	if err := a.ctx.Err(); err != nil {
		return 0, errStop{err}
	}
	defer func() {
		if err == nil {
			a.kb.add(assign, t)
			if a.progress != nil {
				a.progress(a.adv.Evaluated, a.most)
			}
		}
	}()
	q := *a.p
	q.Allocation = map[string]string{}
	for i, pr := range a.p.Processes {
		q.Allocation[pr.Name] = a.c.Workstations[assign[i]].Name
	}
	n, err := Build(&q, a.c)
	if err != nil {
		return 0, err
	}
	r, err := n.Run(Options{})
	if err != nil {
		return 0, err
	}
	a.adv.Evaluated++
	if r.Outcome != Completed {
		return math.Inf(1), nil
	}
	return Seconds(r.Time), nil
}

// exhaustive simulates every mapping, in base-W order, keeping the first best.
func (a *adviser) exhaustive() error {
	P, W := len(a.works), len(a.eff)
	a.adv.Exhaustive = true
	cur := make([]int, P)
	for {
		t, err := a.eval(cur)
		if err != nil {
			return err
		}
		if t < a.bestT {
			a.bestT = t
			copy(a.best, cur)
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

// search is the heuristic: a greedy start on all workstations, a greedy start on the k
// most effective workstations for each k (the sizing points), then moves and swaps until
// none helps or the budget is spent.
func (a *adviser) search() error {
	P, W, eff := len(a.works), len(a.eff), a.eff
	all := make([]int, W)
	for w := range all {
		all[w] = w
	}
	copy(a.best, a.greedy(all))
	t, err := a.eval(a.best)
	if err != nil {
		return err
	}
	a.bestT = t
	byEff := append([]int(nil), all...)
	sort.SliceStable(byEff, func(i, j int) bool { return eff[byEff[i]] > eff[byEff[j]] })
	for k := 1; k < min(P, W) && a.adv.Evaluated < a.budget; k++ {
		if _, err := a.try(a.greedy(byEff[:k])); err != nil {
			return err
		}
	}
	cand := make([]int, P)
	for improved := true; improved && a.adv.Evaluated < a.budget; {
		if improved, err = a.improve(cand); err != nil {
			return err
		}
	}
	return nil
}

// greedy maps the largest work first to the workstation (of the allowed) that would
// finish it soonest: least (load + work)/effective power.
func (a *adviser) greedy(allowed []int) []int {
	P, works, eff := len(a.works), a.works, a.eff
	order := make([]int, P)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return works[order[x]] > works[order[y]] })
	m := make([]int, P)
	load := make([]float64, len(eff))
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

// try simulates mapping m and keeps it when it beats the best by more than rounding.
func (a *adviser) try(m []int) (bool, error) {
	t, err := a.eval(m)
	if err != nil {
		return false, err
	}
	if t < a.bestT*(1-1e-12) {
		a.bestT = t
		copy(a.best, m)
		return true, nil
	}
	return false, nil
}

// improve tries, within the budget, every move of one process to another workstation and
// then every swap of two processes on different workstations, each from the best so far;
// it reports whether any helped.
func (a *adviser) improve(cand []int) (improved bool, err error) {
	P, W, best := len(a.works), len(a.eff), a.best
	for i := 0; i < P && a.adv.Evaluated < a.budget; i++ {
		for w := 0; w < W && a.adv.Evaluated < a.budget; w++ {
			if w == best[i] {
				continue
			}
			copy(cand, best)
			cand[i] = w
			ok, err := a.try(cand)
			if err != nil {
				return improved, err
			}
			improved = improved || ok
		}
	}
	for i := 0; i < P && a.adv.Evaluated < a.budget; i++ {
		for j := i + 1; j < P && a.adv.Evaluated < a.budget; j++ {
			if best[i] == best[j] {
				continue
			}
			copy(cand, best)
			cand[i], cand[j] = cand[j], cand[i]
			ok, err := a.try(cand)
			if err != nil {
				return improved, err
			}
			improved = improved || ok
		}
	}
	return improved, nil
}
