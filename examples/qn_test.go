package examples

import (
	"context"
	"math"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// TestCentralServerRouting: the routing example's visits are the traffic equations' solution,
// worked by hand from the file's probabilities — interactive, per pass through the network:
// V_cpu = 1/0.10 = 10, V_fast = 0.55·10 = 5.5, V_slow = 0.35·10 = 3.5, V_net = 1; batch, per
// arrival: V_cpu = 1 + 0.75·V_cpu ⇒ 4, each disk 0.5·4 = 2 — and the mixed solution obeys
// the utilization law U = X·V·S and Little's law Q = X·R at every station.
func TestCentralServerRouting(t *testing.T) {
	data, err := FS.ReadFile("qn/central-server.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := qn.ParseModel("qn/central-server.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{10, 5.5, 3.5, 1}, {4, 2, 2, 0}}
	S := [][]float64{{0.005, 0.012, 0.03, 0.05}, {0.01, 0.012, 0.03, 0.05}}
	for c := range want {
		for k := range want[c] {
			if math.Abs(m.Visits[c][k]-want[c][k]) > 1e-12 {
				t.Errorf("V[%d][%d] = %v, want %v", c, k, m.Visits[c][k], want[c][k])
			}
		}
	}
	r, err := qn.Mixed(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if r.Throughput[1] != 0.5 {
		t.Errorf("open throughput %v, want the arrival rate 0.5", r.Throughput[1])
	}
	for c := range want {
		for k := range want[c] {
			u := r.Throughput[c] * want[c][k] * S[c][k]
			if math.Abs(r.Utilization[k][c]-u) > 1e-12 {
				t.Errorf("U[%d][%d] = %v, X·V·S = %v", k, c, r.Utilization[k][c], u)
			}
			if q := r.Throughput[c] * r.Residence[k][c]; math.Abs(r.QueueLength[k][c]-q) > 1e-9 {
				t.Errorf("Q[%d][%d] = %v, X·R = %v", k, c, r.QueueLength[k][c], q)
			}
		}
	}
}

// TestStripedWrite: the fork/join example is solved by the approximate fork/join MVA; its
// throughput obeys the bottleneck bound X ≤ 1/D_ost3 = 1/0.09 and the utilization law, and
// (measured, session 1: 8 × 200 000 simulated events) lies within 1 % of simulation, the
// response time within 2 % — checked against the simulator in sim TestForkJoinMVAAccuracy.
func TestStripedWrite(t *testing.T) {
	data, err := FS.ReadFile("qn/striped-write.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := qn.ParseModel("qn/striped-write.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := qn.Solve(context.Background(), m, "auto", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	x := r.Throughput[0]
	if r.Solver != "forkjoin-mva" || x > 1/0.09 || x <= 0 {
		t.Fatalf("%s: X = %v", r.Solver, x)
	}
	for k, d := range []float64{0.004, 0.05, 0.05, 0.09, 0.05} {
		if math.Abs(r.Utilization[k][0]-x*d) > 1e-12 {
			t.Errorf("station %d: U = %v, X·D = %v", k, r.Utilization[k][0], x*d)
		}
	}
	if math.Abs(x*(0.5+r.ResponseTime[0])-8) > 1e-9 {
		t.Errorf("X·(Z + R) = %v, want N = 8", x*(0.5+r.ResponseTime[0]))
	}
}

// TestWebTier: README's first question ("is my web tier saturated?") on examples/qn/web-tier.yaml
// — by hand from the file: D = 0.01, 0.02, 0.04 s, Z = 0.5 s: the bottleneck db (largest D),
// throughput ceiling 1/0.04 = 25 /s, N* = (0.07 + 0.5)/0.04 = 14.25; with N = 50 ≫ N* the
// database is nearly always busy (U_db = X·D_db → 1) and X is just below 25 /s.
func TestWebTier(t *testing.T) {
	data, err := FS.ReadFile("qn/web-tier.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := qn.ParseModel("qn/web-tier.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if ns := qn.NStar(m); math.Abs(ns-14.25) > 1e-12 {
		t.Errorf("N* = %v, want 14.25", ns)
	}
	r, err := qn.Solve(m, "mva", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if x := r.Throughput[0]; x > 25 || x < 24.9 {
		t.Errorf("X = %v, want just below 1/D_db = 25", x)
	}
	if u := r.StationUtilization(2); u < 0.996 || u > 1 {
		t.Errorf("U_db = %v, want just below 1", u)
	}
}
