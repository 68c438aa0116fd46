package spmd

import (
	"errors"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestNonRecursiveSolver (issue 33): the non-recursive MVA of 000 eqs. 17/22 (speedup
// --solver non-recursive) gives the recursive MVA's times on a BUS-AIO model (000 Table 4's
// QCRD parameters, g(p) = 1/p) for p = 1…64, d = 1…4, to 1e-9 relative (both are exact; the
// difference is rounding); p/c beyond MaxNonRecursive is refused as too large, and another
// architecture as input.
func TestNonRecursiveSolver(t *testing.T) {
	m := &Model{Arch: BusAIO, Phases: []Phase{{Cycles: 1, NIO: 1, C: 1, W: 0.19, GExp: -1, SPar: 0.71, S0Com: 0.049, SRCom: 0.41, SRIO: 0.001, Ref: 1}}}
	rec, err := NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	nr, _ := NewEvaluator(m)
	if err := nr.UseNonRecursive(); err != nil {
		t.Fatal(err)
	}
	for p := 1; p <= 64; p++ {
		for d := 1; d <= 4; d++ {
			a, err1 := rec.Evaluate(p, d)
			b, err2 := nr.Evaluate(p, d)
			if err := errors.Join(err1, err2); err != nil {
				t.Fatal(err)
			}
			if math.Abs(a.Time-b.Time) > 1e-9*a.Time {
				t.Errorf("p = %d, d = %d: recursive %.15g, non-recursive %.15g", p, d, a.Time, b.Time)
			}
		}
	}
	if _, err := nr.Evaluate(MaxNonRecursive+1, 1); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("p = %d: %v, want too large", MaxNonRecursive+1, err)
	}
	sio, _ := NewEvaluator(&Model{Arch: BusSIO, Phases: m.Phases})
	if err := sio.UseNonRecursive(); !errors.Is(err, fault.ErrInput) {
		t.Errorf("BUS-SIO: %v, want input error", err)
	}
}
