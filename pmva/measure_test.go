package pmva

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

func thesisModel(t testing.TB) *qn.Model {
	data, err := os.ReadFile("testdata/thesis-network.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := qn.ParseModel("thesis-network.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMeasure: on the thesis shape /64 both solvers run, times are ordered min ≤ median ≤
// max, q > 0, and k(1) = 0; the stand-in keeps the shape (largest class first).
func TestMeasure(t *testing.T) {
	m, err := Scaled(thesisModel(t), 64)
	if err != nil {
		t.Fatal(err)
	}
	if _, N := Order(m, false); N[0] != 64 || N[1] != 3 || N[2] != 2 {
		t.Fatalf("scaled N = %v, want (64, 3, 2) = round(N/64)", N)
	}
	for _, alg := range []Algorithm{Pipelined, Interleaved} {
		for _, p := range []int{1, 2} {
			s, err := Measure(context.Background(), m, alg, p, 3, MaxPoints, false)
			if err != nil {
				t.Fatal(err)
			}
			if !(s.MinS <= s.MedianS && s.MedianS <= s.MaxS) || len(s.Runs) != 3 || s.Q <= 0 || (p == 1 && s.K != 0) || s.Spread < 0 {
				t.Errorf("%s p=%d: %+v", alg, p, s)
			}
		}
	}
	if _, err := Measure(context.Background(), thesisModel(t), Pipelined, 2, 1, 1e6, false); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("budget: %v", err)
	}
}

// TestReordered: classes permuted with their demands; unknown or repeated names refused.
func TestReordered(t *testing.T) {
	m := thesisModel(t)
	r, err := Reordered(m, []string{"C", "A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Classes[0].Name != "C" || r.Demand[0][1] != 0.040 || r.Classes[1].Population != 4095 {
		t.Errorf("%+v %v", r.Classes, r.Demand)
	}
	// the solver still takes the largest class first
	if names, _ := Order(r, false); names[0] != "A" || names[1] != "C" {
		t.Errorf("order %v", names)
	}
	// in the model's order (the Fig. 6.8 experiment) the small class C is class 1
	if names, N := Order(r, true); names[0] != "C" || names[1] != "A" || N[0] != 127 {
		t.Errorf("model order %v %v", names, N)
	}
	for _, bad := range [][]string{{"A", "B"}, {"A", "A", "B"}, {"A", "B", "X"}} {
		if _, err := Reordered(m, bad); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// TestMeasureModelOrder: timed runs walk the classes in the order asked for — the pipelined
// solver's class 1 is the small class C, so it has N_C + 1 = 3 populations to split and runs
// at most 3 workers (4 are refused, naming class 1's populations) — while the default order
// runs 4.
func TestMeasureModelOrder(t *testing.T) {
	m, err := Scaled(thesisModel(t), 64) // N = (64, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Reordered(m, []string{"C", "A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Measure(context.Background(), r, Pipelined, 2, 1, MaxPoints, true)
	if err != nil {
		t.Fatal(err)
	}
	if s.Order[0] != "C" || s.Points != 65*4*3 {
		t.Errorf("order %v, %v points", s.Order, s.Points)
	}
	if _, err := Measure(context.Background(), r, Pipelined, 4, 1, MaxPoints, true); err == nil {
		t.Error("4 workers on a class 1 of 3 populations: no error")
	}
	if _, err := Measure(context.Background(), r, Pipelined, 4, 1, MaxPoints, false); err != nil {
		t.Errorf("default order, 4 workers: %v", err)
	}
}

// BenchmarkMeasureThesis16: one pipelined run with 2 workers on the thesis network /16 (N = (256, 11, 8)).
func BenchmarkMeasureThesis16(b *testing.B) {
	m, _ := Scaled(thesisModel(b), 16)
	for b.Loop() {
		if _, err := Measure(context.Background(), m, Pipelined, 2, 1, MaxPoints, false); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRun: a study calibrated on the thesis shape /64 predicts /32 at p = 1, 2 for both
// solvers; every point carries its measured runs and a finite relative error, and the
// calibration network is never the one measured for the comparison (different points).
func TestRun(t *testing.T) {
	th := thesisModel(t)
	target, _ := Scaled(th, 32)
	calib, _ := Scaled(th, 64)
	st, err := Run(context.Background(), target, calib, Config{Algorithms: []Algorithm{Pipelined, Interleaved}, Workers: []int{1, 2}, Repeats: 2, MaxPoints: MaxPoints})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Points) != 4 || len(st.Calibration) != 4 {
		t.Fatalf("%d points, %d calibration samples", len(st.Points), len(st.Calibration))
	}
	for _, pt := range st.Points {
		if pt.Measured == nil || pt.RelError == nil || pt.Measured.Points == st.Calibration[0].Points || pt.Time <= 0 {
			t.Errorf("%+v", pt)
		}
		if pt.P == 2 && (pt.Alpha == nil) != (pt.K == 0) {
			t.Errorf("p=2: α %v with k = %v", pt.Alpha, pt.K)
		}
	}
}

// TestPredictThesis: eq. (6.5) on the thesis network with q = 16.0 µs and a given k is the
// closed form, and the points carry eqs. (6.9)–(6.11) from p = 2.
func TestPredictThesis(t *testing.T) {
	c := Costs{Q: map[int]float64{1: 16e-6, 2: 16e-6}, K: map[int]float64{2: 100e-6}}
	pts, err := Predict(Pipelined, thesisN, []int{1, 2}, c)
	if err != nil {
		t.Fatal(err)
	}
	// T(2) = q·4096·(22 784/2 + 1/2) + k·(22 784 + 0)
	if want := 16e-6*4096*(22784.0/2+0.5) + 100e-6*22784; !near(pts[1].Time, want, 1e-12) || pts[0].Alpha != nil || pts[1].Alpha == nil || !near(*pts[1].Alpha, 0.16, 1e-12) {
		t.Errorf("T(2) = %v want %v; %+v", pts[1].Time, want, pts[1])
	}
}
