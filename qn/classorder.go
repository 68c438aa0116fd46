package qn

import (
	"fmt"

	"github.com/clusterperf/clusterperf/fault"
)

// ExactOption tunes how the exact multi-class lattice walks (MVAMulti, MVAMultiParallel,
// MVAMultiInterleaved) visit the population lattice. No option changes the answer: every
// order computes the same exact solution up to rounding (TestClassOrderSameAnswer: within
// 1e-12 relative); options change only the time and the memory the walk takes.
type ExactOption func(*exactConfig)

type exactConfig struct {
	order []int // nil: LargestFirst
}

// WithClassOrder makes the exact lattice walk take the classes in this order: order[0]
// (model class indices, a permutation of 0 … C−1) is the outermost class — class 1 of 001
// §6.1's pipeline, whose populations the parallel solvers split among workers — and the
// others are walked lexicographically in the order given. The default is the class with the
// largest population first and the others in model order (001 §6.1.6). Memory grows with
// the product of the populations of every class but the first (2·K·Π_{c>1}(N_c+1) numbers
// sequentially), so a small first class costs memory; the solvers refuse a walk beyond their
// budget with fault.ErrTooLarge. This is the knob of 001 Fig. 6.8 (the effect of class order
// on the pipelined algorithm's time).
func WithClassOrder(order []int) ExactOption {
	return func(c *exactConfig) { c.order = append([]int(nil), order...) }
}

// exactClosed checks what both exact lattice walks need — a solvable model, closed demands,
// no open class — and returns the walk order under opts.
func exactClosed(m *Model, opts []ExactOption) ([]int, error) {
	if err := closedSolver(m, "exact multi-class MVA"); err != nil {
		return nil, err
	}
	return walkOrder(m, opts)
}

// walkOrder is the class order of the exact lattice walk of m under opts: WithClassOrder's
// permutation (checked), else LargestFirst.
func walkOrder(m *Model, opts []ExactOption) ([]int, error) {
	var cfg exactConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.order == nil {
		return LargestFirst(m), nil
	}
	C := len(m.Classes)
	if len(cfg.order) != C {
		return nil, fmt.Errorf("%w: class order %v: %d entries for %d classes", fault.ErrInput, cfg.order, len(cfg.order), C)
	}
	seen := make([]bool, C)
	for _, c := range cfg.order {
		if c < 0 || c >= C || seen[c] {
			return nil, fmt.Errorf("%w: class order %v: not a permutation of the class indices 0 … %d", fault.ErrInput, cfg.order, C-1)
		}
		seen[c] = true
	}
	return cfg.order, nil
}

// LargestFirst is the default class order of the exact lattice walks (MVAMulti, its
// parallel forms and the load-dependent recursion), as model class indices: the class with
// the largest population first (the first such on a tie; 001 §6.1.6: class 1 of the
// pipeline), the others in their model order.
func LargestFirst(m *Model) []int {
	big := 0
	for c, cl := range m.Classes {
		if cl.Population > m.Classes[big].Population {
			big = c
		}
	}
	order := []int{big}
	for c := range m.Classes {
		if c != big {
			order = append(order, c)
		}
	}
	return order
}
