package fit

import "testing"

// TestMarkBounds: a fitted value within 1e-6 × the largest free parameter of its min or
// max is reported at that bound (issue 21: QCRD's s0_io = 1.33372e-08 against min 0 among
// parameters of order 0.1–0.7 printed as if it were a finding).
func TestMarkBounds(t *testing.T) {
	params := []Param{
		{Name: "s_par", Min: 0, Max: 10, Free: true},
		{Name: "s0_io", Min: 0, Max: 1, Free: true},
		{Name: "w", Min: 0, Max: 1, Free: true},
		{Name: "g", Value: -1, Min: -1, Max: 1},
	}
	ps := []ParamEstimate{{Value: 0.70148}, {Value: 1.33372e-08}, {Value: 0.999999}, {Value: -1, Fixed: true}}
	markBounds(ps, params)
	if ps[0].Bound != nil || ps[0].AtBound {
		t.Errorf("s_par 0.70148 is far from its bounds: %+v", ps[0])
	}
	if ps[1].Bound == nil || *ps[1].Bound != 0 || !ps[1].AtBound {
		t.Errorf("s0_io 1.33e-8 (≤ 1e-6 × 0.999999): want at the bound 0, got %+v", ps[1])
	}
	if ps[2].Bound != nil { // 1e-6 from max 1: above the tolerance 1e-6 × 0.999999? equal-ish: 1e-6 > 9.99999e-7
		t.Errorf("w 0.999999 is 1e-6 from max 1, more than the tolerance 9.99999e-7: %+v", ps[2])
	}
	if ps[3].Bound != nil {
		t.Errorf("a fixed parameter is never marked: %+v", ps[3])
	}
}
