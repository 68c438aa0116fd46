package spmd

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzMagnitudes writes model files whose every parameter ranges over the whole float64 scale
// (mantissa × 10^exponent, exponents −330 … 330) and whose exponents, c and w vary: each is
// either refused as input or evaluates to finite, positive times with non-negative components
// and, at d = 1, efficiency ≤ 1 + rounding (issue 12).
func FuzzMagnitudes(f *testing.F) {
	f.Add(uint8(0), 6.9, int16(0), 0.08, int16(0), 2.7, int16(-3), 0.06, int16(0), 1.0, int16(0), -0.1667, 0.23, uint8(1), uint8(0))
	f.Add(uint8(2), 1.0, int16(-300), 1.0, int16(-300), 1.0, int16(-300), 1.0, int16(-300), 1.0, int16(-300), 500.0, 0.5, uint8(4), uint8(1))
	f.Add(uint8(3), 1.0, int16(300), 1.0, int16(12), 1.0, int16(9), 1.0, int16(-12), 1.0, int16(-13), 0.4316, 1.0, uint8(2), uint8(2))
	f.Fuzz(func(t *testing.T, arch uint8, a float64, ae int16, b float64, be int16, c float64, ce int16, d float64, de int16, e float64, ee int16, gexp, w float64, cc uint8, sync uint8) {
		v := func(m float64, x int16) string { return fmt.Sprintf("%ge%d", m, x%330) }
		text := fmt.Sprintf("architecture: %s\nc: %d\nw: %g\ng_exponent: %g\nsync: %s\nseconds: {s_par: %s, s_ser: %s, s0_com: %s, sr_com: %s, sr_io: %s, s0_io: %s}\n",
			archNames[int(arch)%len(archNames)], cc%9, w, gexp, []string{"exponential", "uniform", "deterministic"}[sync%3],
			v(a, ae), v(b, be), v(c, ce), v(d, de), v(e, ee), v(a, be))
		m, err := ParseModel("fuzz.yaml", []byte(text))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("parse error is not an input error: %v", err)
			}
			return
		}
		ev, err := NewEvaluator(m)
		if err != nil {
			t.Fatalf("parsed model does not validate: %v\n%s", err, text)
		}
		for _, pd := range [][2]int{{1, 1}, {2, 1}, {8, 1}, {64, 1}, {1024, 1}, {8, 2}, {64, 8}} {
			pt, err := ev.Evaluate(pd[0], pd[1])
			if err != nil {
				if !errors.Is(err, fault.ErrInput) {
					t.Fatalf("p=%d d=%d: %v\n%s", pd[0], pd[1], err, text)
				}
				continue
			}
			cs := pt.Components
			if !(pt.Time > 0) || math.IsInf(pt.Time, 0) || !(pt.Speedup > 0) || math.IsInf(pt.Speedup, 0) {
				t.Fatalf("p=%d d=%d: time %v speedup %v\n%s", pd[0], pd[1], pt.Time, pt.Speedup, text)
			}
			for _, x := range []float64{cs.CPU, cs.Sync, cs.CommStartup, cs.CommTransfer, cs.Contention, cs.IO} {
				if !(x >= 0) || math.IsInf(x, 0) {
					t.Fatalf("p=%d d=%d: component %v\n%s", pd[0], pd[1], x, text)
				}
			}
			if pd[1] == 1 && pt.Efficiency > 1+1e-12 {
				t.Fatalf("p=%d: efficiency %v\n%s", pd[0], pt.Efficiency, text)
			}
		}
		if _, err := ev.Conventions(); err != nil && !errors.Is(err, fault.ErrInput) {
			t.Fatalf("conventions: %v\n%s", err, text)
		}
		l, err := ev.LimitP(2, 1<<12)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("limit: %v\n%s", err, text)
			}
			return
		}
		if !l.Unbounded && (!(l.Speedup >= 0) || math.IsInf(l.Speedup, 0)) {
			t.Fatalf("limit %+v\n%s", l, text)
		}
	})
}
