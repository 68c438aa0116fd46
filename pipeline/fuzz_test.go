package pipeline

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzMagnitudes writes sort models whose every constant ranges over the float64 scale
// (mantissa × 10^exponent): each is refused as input or predicts finite positive times
// for p from 1 to 1e9 (issue 12: b_io: 1e-300 printed +Inf).
func FuzzMagnitudes(f *testing.F) {
	f.Add(2.0, int16(7), 6.5536, int16(4), 0.066, int16(-6), 0.04, int16(-6), 0.54, int16(6), 0.03, int16(0), 1.2, int16(6), 0.387, int16(6))
	f.Add(1.0, int16(300), 1.0, int16(0), 1.0, int16(-300), 1.0, int16(-320), 1.0, int16(-300), 1.0, int16(300), 1.0, int16(-6), 1.0, int16(15))
	f.Fuzz(func(t *testing.T, n float64, ne int16, s float64, se int16, cq float64, cqe int16, cm float64, cme int16, bio float64, bioe int16, ln float64, lne int16, bn float64, bne int16, bg float64, bge int16) {
		v := func(m float64, x int16) string { return fmt.Sprintf("%ge%d", m, x%330) }
		text := fmt.Sprintf("n: %s\nblock: %s\nsort: {c_q: %s, c_m: %s, b_io: %s, l_n: %s, b_n: %s, b_gather: %s}\n",
			v(n, ne), v(s, se), v(cq, cqe), v(cm, cme), v(bio, bioe), v(ln, lne), v(bn, bne), v(bg, bge))
		m, _, err := ParseModel("fuzz.yaml", []byte(text))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		for _, p := range []int{1, 2, 7, 1000, 1_000_000, MaxP} {
			pt := m.Predict(p)
			if !(pt.Time > 0) || math.IsInf(pt.Time, 0) {
				t.Fatalf("p = %d: time %v\n%s", p, pt.Time, text)
			}
			for _, st := range pt.Stages {
				if !(st.Time >= 0) || math.IsInf(st.Time, 0) {
					t.Fatalf("p = %d: stage %+v\n%s", p, st, text)
				}
			}
		}
	})
}
