package qn

import (
	"fmt"
	"sort"
	"strings"
)

// Solvers lists the solver names Solve accepts.
var solverNames = []string{"auto", "mva", "schweitzer", "linearizer", "open", "mixed", "forkjoin"}

// SolverNames returns the names Solve accepts, "auto" first.
func SolverNames() []string { return append([]string(nil), solverNames...) }

// Solve solves m with the named solver; "auto" (or "") picks: open → Open, mixed → Mixed,
// one closed class → exact MVA, several closed classes → exact MVA while the population
// lattice has at most MaxLattice points and no multi-server/load-dependent stations (on all
// cores from ParallelThreshold points), else Linearizer. A model with fork/join nodes goes to
// ForkJoinMVA (approximate) under "auto" and "forkjoin"; every other solver refuses it.
func Solve(m *Model, solver string, opt AMVAOptions) (*Result, error) {
	solver = strings.ToLower(solver)
	if solver == "forkjoin" || ((solver == "" || solver == "auto") && len(m.ForkJoins) > 0) {
		return ForkJoinMVA(m)
	}
	if err := m.solvable(); err != nil {
		return nil, err
	}
	open, closed := len(m.OpenClasses()), len(m.ClosedClasses())
	switch solver {
	case "", "auto":
		switch {
		case closed == 0:
			return Open(m)
		case open > 0:
			return Mixed(m)
		case closed == 1:
			return MVASingle(m)
		case LatticeSize(m) <= MaxLattice && !hasMarginal(m):
			return multiExact(m)
		default:
			return Linearizer(m, opt)
		}
	case "mva", "exact":
		if open > 0 {
			if closed == 0 {
				return Open(m)
			}
			return Mixed(m)
		}
		if closed == 1 {
			return MVASingle(m)
		}
		return multiExact(m)
	case "schweitzer", "bs", "bard-schweitzer":
		return Schweitzer(m, opt)
	case "linearizer":
		return Linearizer(m, opt)
	case "open":
		return Open(m)
	case "mixed":
		return Mixed(m)
	}
	names := append([]string(nil), solverNames...)
	sort.Strings(names)
	return nil, fmt.Errorf("unknown solver %q (allowed: %s)", solver, strings.Join(names, ", "))
}

func hasMarginal(m *Model) bool {
	for _, s := range m.Stations {
		if s.Kind == LoadDependent || (s.Kind == MultiServer && s.Servers > 1) {
			return true
		}
	}
	return false
}

// ParallelThreshold is the population-lattice size from which Solve runs exact multi-class
// MVA on all cores (MVAMultiInterleaved); below it the sequential solver is faster.
const ParallelThreshold = 1e6

func multiExact(m *Model) (*Result, error) {
	if hasMarginal(m) {
		return MVAMulti(m)
	}
	if LatticeSize(m) >= ParallelThreshold {
		r, _, err := MVAMultiInterleaved(m, 0)
		return r, err
	}
	return MVAMulti(m)
}
