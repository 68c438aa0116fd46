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
	if _, N := Order(m); N[0] != 64 || N[1] != 3 || N[2] != 2 {
		t.Fatalf("scaled N = %v, want (64, 3, 2) = round(N/64)", N)
	}
	for _, alg := range []Algorithm{Pipelined, Interleaved} {
		for _, p := range []int{1, 2} {
			s, err := Measure(context.Background(), m, alg, p, 3, MaxPoints)
			if err != nil {
				t.Fatal(err)
			}
			if !(s.MinS <= s.MedianS && s.MedianS <= s.MaxS) || len(s.Runs) != 3 || s.Q <= 0 || (p == 1 && s.K != 0) || s.Spread < 0 {
				t.Errorf("%s p=%d: %+v", alg, p, s)
			}
		}
	}
	if _, err := Measure(context.Background(), thesisModel(t), Pipelined, 2, 1, 1e6); !errors.Is(err, fault.ErrTooLarge) {
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
	if names, _ := Order(r); names[0] != "A" || names[1] != "C" {
		t.Errorf("order %v", names)
	}
	for _, bad := range [][]string{{"A", "B"}, {"A", "A", "B"}, {"A", "B", "X"}} {
		if _, err := Reordered(m, bad); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

// BenchmarkMeasureThesis64: one pipelined run with 2 workers on the thesis network /64.
func BenchmarkMeasureThesis64(b *testing.B) {
	m, _ := Scaled(thesisModel(b), 16)
	for b.Loop() {
		if _, err := Measure(context.Background(), m, Pipelined, 2, 1, MaxPoints); err != nil {
			b.Fatal(err)
		}
	}
}
