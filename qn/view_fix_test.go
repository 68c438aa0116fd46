package qn

import (
	"context"
	"testing"
)

// TestViewResidenceSkippedClass: two closed classes, a visits q1 and q2, b visits q1 only
// (demand 0 at q2). Exact MVA by hand (Reiser–Lavenberg recursion, Lazowska et al. 1984
// ch. 7), populations (1, 1):
//
//	(1,0): R_a1 = 1, R_a2 = 2, X_a = 1/3, Q_a1 = 1/3, Q_a2 = 2/3
//	(0,1): R_b1 = 3, X_b = 1/3, Q_b1 = 1
//	(1,1): R_a1 = 1·(1 + Q_1(0,1)) = 2, R_a2 = 2·(1 + Q_2(0,1)) = 2, X_a = 1/4
//	       R_b1 = 3·(1 + Q_1(1,0)) = 4, X_b = 1/4
//
// Station residence (StationView doc): mean over the classes that visit the station,
// weighted by class throughput: q1 = (¼·2 + ¼·4)/(¼ + ¼) = 3 s; q2 = R_a2 = 2 s, which is
// also Little's law Q_2 / X_a = (¼·2)/(¼) (b never passes through q2). The old average over
// every class's throughput gave q2 = (¼·2 + ¼·0)/(½) = 1 s (review finding).
func TestViewResidenceSkippedClass(t *testing.T) {
	m := &Model{Classes: []Class{{Name: "a", Population: 1}, {Name: "b", Population: 1}},
		Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}},
		Demand:   [][]float64{{1, 2}, {3, 0}}}
	for _, solver := range []string{"mva", "auto"} {
		r, err := Solve(context.Background(), m, solver, AMVAOptions{})
		if err != nil {
			t.Fatalf("%s: %v", solver, err)
		}
		v := NewView("m", m, r)
		for k, want := range []float64{3, 2} {
			if got := v.Stations[k].ResidenceTime; !closeTo(got, want, 1e-12) {
				t.Errorf("%s: station %s residence_time_s %g, want %g", solver, v.Stations[k].Name, got, want)
			}
		}
		// Little's law at q2 with the throughput of the jobs that pass through it (class a's)
		if q, x := v.Stations[1].QueueLength, r.Throughput[0]; !closeTo(q/x, v.Stations[1].ResidenceTime, 1e-12) {
			t.Errorf("%s: q2 Q/X_a = %g, residence %g", solver, q/x, v.Stations[1].ResidenceTime)
		}
	}
}

// TestViewStationThroughputUnvisited: one closed class (N = 3, think time 1 s) at cpu
// (demand 50 ms) and disk (demand 0: no job passes through it). The station throughput is
// X·V with V = 1 where the class has demand (no visit count given) and 0 where it has none
// (visitsAt), so disk's is 0, not the class's X (review: the single-class stations table
// showed X at a station nobody visits), and cpu's satisfies the utilisation law
// U = X_k·S = X·D (Denning & Buzen 1978). With visits given (V = 4 at cpu, S = 12.5 ms: the
// same demand) cpu's throughput is 4·X.
func TestViewStationThroughputUnvisited(t *testing.T) {
	for _, tc := range []struct {
		name   string
		visits [][]float64
		v      float64 // cpu visits per job
	}{{"demands", nil, 1}, {"visits", [][]float64{{4, 0}}, 4}} {
		m := &Model{Classes: []Class{{Name: "a", Population: 3, ThinkTime: 1}},
			Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "disk", Kind: Queue}},
			Demand:   [][]float64{{0.05, 0}}, Visits: tc.visits}
		r, err := Solve(context.Background(), m, "mva", AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		v := NewView("m", m, r)
		x := r.Throughput[0]
		if got := v.Stations[1].Throughput; got != 0 {
			t.Errorf("%s: disk throughput %g, want 0 (no demand)", tc.name, got)
		}
		if got := v.Stations[0].Throughput; !closeTo(got, tc.v*x, 1e-12) {
			t.Errorf("%s: cpu throughput %g, want %g·X = %g", tc.name, got, tc.v, tc.v*x)
		}
		if u := v.Stations[0].Utilization; !closeTo(u, x*0.05, 1e-12) {
			t.Errorf("%s: cpu U = %g, want X·D = %g", tc.name, u, x*0.05)
		}
	}
}
