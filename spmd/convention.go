package spmd

import (
	"errors"
	"fmt"
	"math"
)

// S11Tolerance is how far s(1, 1) may be from 1 before Conventions warns (5 %).
const S11Tolerance = 0.05

// Conventions returns notes that state the model's g(1) convention and its s(1, 1) =
// T_ref/T(1, 1), with a warning when s(1, 1) is more than S11Tolerance from 1 (issue 19).
// Speedups are T_ref/T(p, d); a parameter set whose T_ref is not the model's own time on one
// processor and one disk gives s(1, 1) ≠ 1: 000 Table 4 (QCRD) gives 0.855 with the thesis's
// g(1) = 1 and 1.406 with 000's g(1) = 0 (seeds README errata).
func (e *Evaluator) Conventions() ([]string, error) {
	var notes []string
	noComm, comm := false, false
	for _, ph := range e.m.Phases {
		if ph.S0Com == 0 && ph.SRCom == 0 {
			continue
		}
		if ph.NoCommAtOne {
			noComm = true
		} else {
			comm = true
		}
	}
	switch {
	case noComm && comm:
		notes = append(notes, "g(1) convention: mixed across phases (some no_comm_at_p1: true)")
	case noComm:
		notes = append(notes, "g(1) convention: 000 §3.6, g(1) = 0: no communication on one processor (no_comm_at_p1: true)")
	case comm:
		notes = append(notes, "g(1) convention: the thesis's g(p) = p^−((r−1)/r), g(1) = 1: one processor pays S0_COM + SR_COM (no_comm_at_p1: true gives 000's g(1) = 0)")
	}
	pt, err := e.Evaluate(1, 1)
	var ce *ConfigError
	if errors.As(err, &ce) {
		return append(notes, fmt.Sprintf("s(1, 1) not defined: %s", ce.Reason)), nil
	}
	if err != nil {
		return notes, err
	}
	if math.Abs(pt.Speedup-1) > S11Tolerance {
		notes = append(notes, fmt.Sprintf("warning: s(1, 1) = %.4g, not 1: T_ref = %.4g is not the model's time on one processor and one disk (%.4g); every speedup is relative to T_ref", pt.Speedup, e.m.RefTime(), pt.Time))
	} else {
		notes = append(notes, fmt.Sprintf("s(1, 1) = %.4g", pt.Speedup))
	}
	return notes, nil
}
