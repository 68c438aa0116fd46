package tpn

import (
	"fmt"
	"math"
	"sort"
)

// Advice is the best allocation found for a program on a cluster.
type Advice struct {
	Allocation map[string]string `json:"allocation"`
	Time       float64           `json:"time_s"`        // s, predicted
	Exhaustive bool              `json:"exhaustive"`    // every mapping was simulated
	Evaluated  int               `json:"evaluated"`     // simulations run
	LowerBound float64           `json:"lower_bound_s"` // s, no mapping can do better
	Gap        float64           `json:"gap"`           // (Time − LowerBound)/LowerBound
	Given      float64           `json:"given_time_s"`  // s, the program's own allocation (0 if it does not complete)
	Notes      []string          `json:"notes,omitempty"`
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
// simulated firings allowed (0: MaxAdviseFirings).
type AdviseOptions struct {
	Budget     int
	MaxFirings float64
}

// AdviseWith is Advise with explicit budgets.
func AdviseWith(p *Program, c *Cluster, o AdviseOptions) (*Advice, error) {
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
	eval := func(assign []int) (float64, error) {
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
	P, W := len(p.Processes), len(c.Workstations)
	if n, err := Build(p, c); err == nil {
		if r, err := n.Run(Options{}); err == nil && r.Outcome == Completed {
			adv.Given = Seconds(r.Time)
		}
	}
	best := make([]int, P)
	bestT := math.Inf(1)
	if m := math.Pow(float64(W), float64(P)); m <= MaxExhaustive && m*perSim <= maxF {
		adv.Exhaustive = true
		cur := make([]int, P)
		for {
			t, err := eval(cur)
			if err != nil {
				return nil, err
			}
			if t < bestT {
				bestT = t
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
				break
			}
		}
	} else {
		order := make([]int, P)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return works[order[a]] > works[order[b]] })
		load := make([]float64, W)
		for _, i := range order {
			bw := 0
			for w := range load {
				if (load[w]+works[i])/eff[w] < (load[bw]+works[i])/eff[bw] {
					bw = w
				}
			}
			best[i] = bw
			load[bw] += works[i]
		}
		var err error
		if bestT, err = eval(best); err != nil {
			return nil, err
		}
		for improved := true; improved && adv.Evaluated < budget; {
			improved = false
			cand := make([]int, P)
			try := func() error {
				t, err := eval(cand)
				if err != nil {
					return err
				}
				if t < bestT*(1-1e-12) {
					bestT = t
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
						return nil, err
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
						return nil, err
					}
				}
			}
		}
	}
	adv.Time = bestT
	adv.Allocation = map[string]string{}
	for i, pr := range p.Processes {
		adv.Allocation[pr.Name] = c.Workstations[best[i]].Name
	}
	if adv.LowerBound > 0 {
		adv.Gap = (adv.Time - adv.LowerBound) / adv.LowerBound
	}
	return adv, nil
}
