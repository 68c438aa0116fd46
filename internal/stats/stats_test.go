package stats

import (
	"math"
	"testing"
)

// TestTQuantile: two-sided 95 % and 99 % critical values t_{q,ν} from the table of the
// NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.2 "Critical values of the
// Student's t distribution" (printed to three decimals, so compared within 5e-4), and the
// closed forms for ν = 1 (Cauchy: tan(π(q − ½))) and ν = 2 ((2q−1)·√(2/(1−(2q−1)²))).
func TestTQuantile(t *testing.T) {
	cases := []struct {
		q    float64
		dof  int
		want float64
	}{
		{0.975, 1, 12.706}, {0.975, 2, 4.303}, {0.975, 3, 3.182}, {0.975, 4, 2.776},
		{0.975, 5, 2.571}, {0.975, 9, 2.262}, {0.975, 10, 2.228}, {0.975, 19, 2.093},
		{0.975, 30, 2.042}, {0.975, 100, 1.984},
		{0.995, 1, 63.657}, {0.995, 10, 3.169}, {0.95, 10, 1.812},
	}
	for _, c := range cases {
		if got := TQuantile(c.q, c.dof); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("t(%g, %d) = %.4f, NIST table %.3f", c.q, c.dof, got, c.want)
		}
	}
	for _, q := range []float64{0.6, 0.9, 0.975, 0.999} {
		if got, want := TQuantile(q, 1), math.Tan(math.Pi*(q-0.5)); math.Abs(got-want) > 1e-9*want {
			t.Errorf("t(%g, 1) = %v, Cauchy closed form %v", q, got, want)
		}
		a := 2*q - 1
		if got, want := TQuantile(q, 2), a*math.Sqrt(2/(1-a*a)); math.Abs(got-want) > 1e-9*want {
			t.Errorf("t(%g, 2) = %v, closed form %v", q, got, want)
		}
	}
	// symmetry and the normal limit (z_{0.975} = 1.959964)
	if got := TQuantile(0.025, 7) + TQuantile(0.975, 7); math.Abs(got) > 1e-12 {
		t.Errorf("t(0.025) + t(0.975) = %v, want 0", got)
	}
	if got := TQuantile(0.975, 1_000_000); math.Abs(got-1.959964) > 1e-5 {
		t.Errorf("t(0.975, 1e6) = %v, normal 1.959964", got)
	}
	for _, bad := range []struct {
		q   float64
		dof int
	}{{0.975, 0}, {0.975, -1}, {0, 3}, {1, 3}, {math.NaN(), 3}} {
		if got := TQuantile(bad.q, bad.dof); !math.IsNaN(got) {
			t.Errorf("t(%v, %d) = %v, want NaN", bad.q, bad.dof, got)
		}
	}
}

// TestMeanCI: xs = 1…5 has mean 3, s² = 2.5, so the half-width is t_{0.975,4}·√(2.5/5)
// = 2.776·0.7071 (NIST table value of t).
func TestMeanCI(t *testing.T) {
	m, h := MeanCI([]float64{1, 2, 3, 4, 5})
	if math.Abs(m-3) > 1e-15 || math.Abs(h-2.776*math.Sqrt(0.5)) > 5e-4 {
		t.Errorf("MeanCI(1…5) = %v ± %v, want 3 ± %v", m, h, 2.776*math.Sqrt(0.5))
	}
	// equivariance: the same numbers times 1e-300 and 1e300 (squares would underflow or
	// overflow without scaling)
	for _, f := range []float64{1e-300, 1e300} {
		m2, h2 := MeanCI([]float64{1 * f, 2 * f, 3 * f, 4 * f, 5 * f})
		if math.Abs(m2/f-3) > 1e-12 || math.Abs(h2/f-h) > 1e-12*h {
			t.Errorf("scaled by %g: %v ± %v, want %v ± %v", f, m2/f, h2/f, 3, h)
		}
	}
	if m, h := MeanCI([]float64{4}); m != 4 || !math.IsInf(h, 1) {
		t.Errorf("one value: %v ± %v, want 4 ± Inf", m, h)
	}
	if m, _ := MeanCI(nil); !math.IsNaN(m) {
		t.Errorf("no values: mean %v, want NaN", m)
	}
}

// TestLag1: an alternating series ±1 of length n has lag-1 autocorrelation −(n−1)/n (every
// product is −1, every square 1); a constant series 0 by definition.
func TestLag1(t *testing.T) {
	xs := []float64{1, -1, 1, -1, 1, -1, 1, -1}
	if got := Lag1(xs); math.Abs(got+7.0/8) > 1e-12 {
		t.Errorf("alternating: %v, want −7/8", got)
	}
	if got := Lag1([]float64{2, 2, 2, 2}); got != 0 {
		t.Errorf("constant: %v", got)
	}
}

// TestMSER5 checks the rule on series whose answer follows from the definition:
//   - a transient of 10 batches at level 10, then batch means alternating ±1: dropping the
//     transient removes its large squares; dropping more of the ±1 part only raises
//     Σ(z−z̄)²/(b−d)² ≈ 1/(b−d); so d* = 10 batches = 50 observations, accepted (10 ≤ 60/2);
//   - a linear trend z_j = j: Σ(z−z̄)²/m² = (m²−1)/(12m) falls as m = b−d shrinks, so d* is
//     the last allowed truncation (b − b/4 = 75 of 100 batches), beyond half the series:
//     not accepted (too short / no steady state);
//   - a stationary alternating series: d* = 0.
func TestMSER5(t *testing.T) {
	var y []float64
	for j := 0; j < 60; j++ {
		for i := 0; i < MSERBatch; i++ {
			switch {
			case j < 10:
				y = append(y, 10)
			case j%2 == 0:
				y = append(y, 1)
			default:
				y = append(y, -1)
			}
		}
	}
	if d, ok := MSER5(y); d != 50 || !ok {
		t.Errorf("transient of 50: discard %d ok %v, want 50 true", d, ok)
	}
	if d, ok := MSER5(y[50:]); d != 0 || !ok {
		t.Errorf("stationary: discard %d ok %v, want 0 true", d, ok)
	}
	trend := make([]float64, 500)
	for i := range trend {
		trend[i] = float64(i / MSERBatch)
	}
	if d, ok := MSER5(trend); ok || d != MSERBatch*75 {
		t.Errorf("trend: discard %d ok %v, want %d false", d, ok, MSERBatch*75)
	}
	// a large common level (1e7, spread 11: not flat) does not change the answer (shifted sums)
	big := make([]float64, len(y))
	for i, v := range y {
		big[i] = 1e7 + v
	}
	if d, ok := MSER5(big); d != 50 || !ok {
		t.Errorf("level 1e7: discard %d ok %v, want 50 true", d, ok)
	}
	// constant up to rounding: no transient, whatever the rounding pattern
	flat := make([]float64, 500)
	for i := range flat {
		flat[i] = 1 + float64(i%7-3)*1e-15
	}
	if d, ok := MSER5(flat); d != 0 || !ok {
		t.Errorf("flat: discard %d ok %v, want 0 true", d, ok)
	}
	if _, ok := MSER5(make([]float64, 9)); ok {
		t.Error("one batch accepted")
	}
}

// BenchmarkMSER5: the rule on 500 observations (the simulator's chunk series).
func BenchmarkMSER5(b *testing.B) {
	y := make([]float64, 500)
	for i := range y {
		y[i] = math.Sin(float64(i)) + 10*math.Exp(-float64(i)/50)
	}
	for b.Loop() {
		MSER5(y)
	}
}
