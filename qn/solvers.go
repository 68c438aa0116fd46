package qn

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Cost is a solver's estimate for one model, what Solve's auto compares.
type Cost struct {
	// Applies reports whether the solver takes the model, within its budget (MaxLattice,
	// MaxLDWork, MaxSingleWork for exact MVA); auto considers only these.
	Applies bool
	// Rank orders by accuracy: 0 exact (as a method: Exact says whether the model is
	// product form too), 1 numerical integration of the exact integral representation
	// (relative error ≤ 1e-9 when its grids converge), 2 Linearizer (Chandy–Neuse), 3 the
	// Bard–Schweitzer approximation and fork/join MVA.
	Rank int
	// Seconds is the estimated time in s before any run: exact MVA's operation count
	// (exactWork, or singleWork for one class) × mvaSecondsPerOp, Comom's lower bound
	// (comomLowerBound); 0 where no estimate precedes the run.
	Seconds float64
	// Why says why the solver applies (its size) or why not.
	Why string
}

// before orders costs for auto: the more accurate rank first, then the fewer seconds (ties
// keep the registry's order).
func (c Cost) before(d Cost) bool {
	if c.Rank != d.Rank {
		return c.Rank < d.Rank
	}
	return c.Seconds < d.Seconds
}

// Solver is one solution method of a Model as a value: its name, its cost estimate for a
// model, whether its result for a model is exact, and Solve. Solvers lists them.
type Solver struct {
	name        string
	aliases     []string
	approximate bool // never exact, whatever the model
	opt         AMVAOptions
	cost        func(m *Model) Cost
	named       func(ctx context.Context, m *Model, opt AMVAOptions) (*Result, error)
	// auto is the run under auto with at most budget seconds (Comom's limit): nil result and
	// the why-not clause when the solver refuses at run time (Comom's pilot, Integral's
	// grids); else the result and auto's clause.
	auto func(ctx context.Context, m *Model, opt AMVAOptions, budget float64) (*Result, string, error)
}

// Name is the name Solve accepts for s.
func (s Solver) Name() string { return s.name }

// Cost is s's estimate for m (see Cost).
func (s Solver) Cost(m *Model) Cost { return s.cost(m) }

// Exact reports whether s's result for m is exact: an exact method (MVA, Comom, the open
// and mixed formulas) on a product-form model. A FCFS station whose service times per visit
// differ by class is not product form (BCMP; NotProductForm), so MVA's answer there is the
// processor-sharing network's, an approximation. Integral, Linearizer, Bard–Schweitzer and
// fork/join MVA (on a model with fork/join nodes) are approximate.
func (s Solver) Exact(m *Model) bool {
	if s.approximate && !(s.name == "forkjoin" && len(m.ForkJoins) == 0) {
		return false
	}
	return len(NotProductForm(m)) == 0
}

// Solve solves m with s, as Solve(ctx, m, s.Name(), opt) with the options s was listed with.
func (s Solver) Solve(ctx context.Context, m *Model) (*Result, error) {
	return Solve(ctx, m, s.name, s.opt)
}

// Solvers lists the solvers Solve accepts by name, with the options opt (Linearizer's and
// Bard–Schweitzer's tolerance and iterations, RequireExact), in auto's order for equal
// costs. A new list on every call: there is no global registry to change. They are (QSP:
// Lazowska et al., see the package doc): mva (exact MVA: MVASingle, QSP ch. 6 eqs. 6.1–6.3;
// MVAMulti, Reiser & Lavenberg 1980; marginals for multi-server and load-dependent stations,
// QSP §20.4, BGdMT eqs. 8.43–8.46; Open or Mixed for open classes), comom (class-oriented
// Method of Moments, Casale 2009), integral (McKenna & Mitra 1982), schweitzer (Schweitzer
// 1979, QSP §7.4.2), linearizer (Chandy & Neuse 1982, QSP §7.4.3), open (QSP ch. 6.2),
// mixed (QSP ch. 7.4), forkjoin (ForkJoinMVA).
func Solvers(opt AMVAOptions) []Solver {
	return solverList{
		{name: "mva", aliases: []string{"exact"}, cost: mvaCost, named: mvaNamed, auto: mvaAuto},
		{name: "comom", cost: comomEstimate, named: comomNamed, auto: comomAuto},
		{name: "integral", approximate: true, cost: integralCost, named: integralNamed, auto: integralAutoRun},
		{name: "schweitzer", aliases: []string{"bs", "bard-schweitzer"}, approximate: true, cost: closedCost(3, "Bard–Schweitzer approximate MVA"),
			named: func(_ context.Context, m *Model, o AMVAOptions) (*Result, error) { return Schweitzer(m, o) }, auto: plain(Schweitzer)},
		{name: "linearizer", approximate: true, cost: closedCost(2, "Linearizer approximate MVA"),
			named: func(_ context.Context, m *Model, o AMVAOptions) (*Result, error) { return Linearizer(m, o) }, auto: plain(Linearizer)},
		{name: "open", cost: openCost, named: func(_ context.Context, m *Model, _ AMVAOptions) (*Result, error) { return Open(m) },
			auto: func(_ context.Context, m *Model, _ AMVAOptions, _ float64) (*Result, string, error) {
				r, err := Open(m)
				return r, "", err
			}},
		{name: "mixed", cost: mixedCost, named: func(ctx context.Context, m *Model, _ AMVAOptions) (*Result, error) { return Mixed(ctx, m) },
			auto: func(ctx context.Context, m *Model, _ AMVAOptions, _ float64) (*Result, string, error) {
				r, err := Mixed(ctx, m)
				return r, "", err
			}},
		{name: "forkjoin", approximate: true, cost: forkJoinCost, named: forkJoinNamed,
			auto: func(ctx context.Context, m *Model, _ AMVAOptions, _ float64) (*Result, string, error) {
				r, err := ForkJoinMVA(ctx, m)
				return r, "", err
			}},
	}.withOpt(opt)
}

type solverList []Solver

func (l solverList) withOpt(opt AMVAOptions) []Solver {
	for i := range l {
		l[i].opt = opt
	}
	return l
}

// lookup finds the solver named name (or one of its aliases) in Solvers(opt).
func lookup(name string, opt AMVAOptions) (Solver, error) {
	for _, s := range Solvers(opt) {
		if s.name == name || contains(s.aliases, name) {
			return s, nil
		}
	}
	if blockingOnly[name] {
		return Solver{}, fmt.Errorf("%w: solver %q solves networks with finite capacities (a model file's capacity:); this model has none: use auto, mva, schweitzer, linearizer, open, mixed or forkjoin", fault.ErrInput, name)
	}
	names := append([]string(nil), solverNames...)
	sort.Strings(names)
	return Solver{}, fmt.Errorf("%w: unknown solver %q (allowed: %s)", fault.ErrInput, name, strings.Join(names, ", "))
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// Candidates lists the solvers auto considers for m, in the order it tries them: those
// whose Cost applies, the more accurate rank first, then the fewer estimated seconds (Cost.before).
func Candidates(m *Model, opt AMVAOptions) []Solver {
	var out []Solver
	var costs []Cost
	for _, s := range Solvers(opt) {
		c := s.Cost(m)
		if c.Applies {
			out, costs = append(out, s), append(costs, c)
		}
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return costs[idx[a]].before(costs[idx[b]]) })
	sorted := make([]Solver, len(out))
	for i, j := range idx {
		sorted[i] = out[j]
	}
	return sorted
}

// shape counts m's open and closed classes and says whether it has fork/join nodes.
func shape(m *Model) (open, closed int, fj bool) {
	return len(m.OpenClasses()), len(m.ClosedClasses()), len(m.ForkJoins) > 0
}

func mvaCost(m *Model) Cost {
	open, closed, fj := shape(m)
	switch {
	case fj || open > 0 || closed == 0:
		return Cost{Why: "exact MVA under auto: closed classes without fork/join nodes"}
	case closed == 1:
		why, ok := SingleAffordable(m, false)
		ops, _, _ := singleWork(m, false)
		return Cost{Applies: ok, Seconds: ops * mvaSecondsPerOp, Why: why}
	}
	why, ok := exactAffordable(m)
	return Cost{Applies: ok, Seconds: exactWork(m) * mvaSecondsPerOp, Why: why}
}

// several is the cost shape of the solvers auto uses for several closed classes only
// (Comom, Integral): one closed class goes to MVASingle or Linearizer.
func several(m *Model) (string, bool) {
	open, closed, fj := shape(m)
	if fj || open > 0 || closed < 2 {
		return "auto uses it for several closed classes without fork/join nodes", false
	}
	return "", true
}

func comomEstimate(m *Model) Cost {
	if why, ok := several(m); !ok {
		return Cost{Why: why}
	}
	if hasMarginal(m) {
		return Cost{Why: "not comom: it solves single-server queues and delays only"}
	}
	return Cost{Applies: true, Seconds: comomLowerBound(m), Why: "estimated from a lower bound of its runs"}
}

func integralCost(m *Model) Cost {
	if why, ok := several(m); !ok {
		return Cost{Rank: 1, Why: why}
	}
	return Cost{Applies: true, Rank: 1, Why: fmt.Sprintf("at most %.3g integrand evaluations", float64(integralAutoPoints))}
}

func closedCost(rank int, what string) func(*Model) Cost {
	return func(m *Model) Cost {
		open, closed, fj := shape(m)
		if fj || open > 0 || closed == 0 {
			return Cost{Rank: rank, Why: what + ": closed classes without fork/join nodes"}
		}
		return Cost{Applies: true, Rank: rank, Why: what}
	}
}

func openCost(m *Model) Cost {
	open, closed, fj := shape(m)
	return Cost{Applies: !fj && open > 0 && closed == 0, Why: "exact open-network formulas: open classes only"}
}

func mixedCost(m *Model) Cost {
	open, closed, fj := shape(m)
	return Cost{Applies: !fj && open > 0 && closed > 0, Why: "exact mixed-network MVA: open and closed classes"}
}

func forkJoinCost(m *Model) Cost {
	return Cost{Applies: len(m.ForkJoins) > 0, Rank: 3, Why: "fork/join MVA: the only solver for fork/join nodes"}
}

func plain(f func(*Model, AMVAOptions) (*Result, error)) func(context.Context, *Model, AMVAOptions, float64) (*Result, string, error) {
	return func(_ context.Context, m *Model, o AMVAOptions, _ float64) (*Result, string, error) {
		r, err := f(m, o)
		return r, "", err
	}
}

func mvaNamed(ctx context.Context, m *Model, _ AMVAOptions) (*Result, error) {
	open, closed, _ := shape(m)
	if open > 0 {
		if closed == 0 {
			return Open(m)
		}
		return Mixed(ctx, m)
	}
	if closed == 1 {
		return MVASingle(ctx, m)
	}
	r, err := multiExact(ctx, m)
	if r != nil && r.Reason != "" {
		r.Reason = "solver mva requested: exact multi-class MVA " + r.Reason
	}
	return r, err
}

func mvaAuto(ctx context.Context, m *Model, _ AMVAOptions, _ float64) (*Result, string, error) {
	if len(m.ClosedClasses()) == 1 {
		r, err := MVASingle(ctx, m)
		return r, "", err
	}
	r, err := multiExact(ctx, m)
	return r, "", err
}

func comomNamed(ctx context.Context, m *Model, _ AMVAOptions) (*Result, error) {
	r, err := Comom(ctx, m)
	if err != nil && errors.Is(err, ErrUnsupported) && !errors.Is(err, fault.ErrInput) {
		err = fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	if r != nil {
		r.Reason = fmt.Sprintf("solver comom requested: exact class-oriented Method of Moments, a direct method (%d population steps, one per job added; no iteration)", r.Status.Iterations)
	}
	return r, err
}

// comomAuto runs Comom for auto within budget seconds (comomWithin: its first run, the
// pilot, then the estimate of the rest); a refusal (singular, over the limit, did not
// settle) is the why-not clause; a cancelled ctx is the error.
func comomAuto(ctx context.Context, m *Model, _ AMVAOptions, budget float64) (*Result, string, error) {
	r, sec, err := comomWithin(ctx, m, budget*1e9, true)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", err
		}
		return nil, comomWhyNot(err), nil
	}
	return r, fmt.Sprintf("exact class-oriented Method of Moments (estimated %.2g s; exact MVA over %.3g population vectors: %.2g s)", sec, LatticeSize(m), exactWork(m)*mvaSecondsPerOp), nil
}

func integralNamed(ctx context.Context, m *Model, _ AMVAOptions) (*Result, error) {
	r, err := Integral(ctx, m, IntegralMaxPoints)
	if err != nil && errors.Is(err, ErrUnsupported) && !errors.Is(err, fault.ErrInput) {
		err = fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	if r != nil {
		r.Reason = fmt.Sprintf("solver integral requested: numerical integration of the exact integral representation (%d grids; the last two differ by %.1e)", r.Status.Iterations, r.Status.Residual)
	}
	return r, err
}

func integralAutoRun(ctx context.Context, m *Model, _ AMVAOptions, _ float64) (*Result, string, error) {
	return integralAuto(ctx, m)
}

func forkJoinNamed(ctx context.Context, m *Model, opt AMVAOptions) (*Result, error) {
	if opt.RequireExact && len(m.ForkJoins) > 0 {
		return nil, fmt.Errorf("%w: %w: fork/join node %q: no exact solver models fork/join synchronisation (simulate the model, or drop the exact requirement for the approximate forkjoin solver)", fault.ErrInput, ErrUnsupported, m.ForkJoins[0].Name)
	}
	return ForkJoinMVA(ctx, m)
}
