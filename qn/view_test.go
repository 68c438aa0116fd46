package qn

import (
	"context"
	"encoding/json"
	"testing"
)

// TestViewZeroConvention: an idle M/M/1 (open class, arrival rate 0, demand 1 s) has
// response time D/(1 − U) = 1 s by ZeroConvention (one job arriving now finds it empty);
// the station's residence time in the view and its JSON must be the same 1 s, not 0.
// A class that does not visit a station still gives that station residence 0 there.
func TestViewZeroConvention(t *testing.T) {
	cases := []struct {
		name    string
		m       *Model
		station []float64 // expected StationView.ResidenceTime per station
	}{
		{"idle M/M/1", &Model{Classes: []Class{{Name: "o", Open: true}}, Stations: []Station{{Name: "q", Kind: Queue}},
			Demand: [][]float64{{1}}}, []float64{1}},
		{"closed N = 0", &Model{Classes: []Class{{Name: "c"}}, Stations: []Station{{Name: "q", Kind: Queue}, {Name: "d", Kind: Delay}},
			Demand: [][]float64{{0.5, 2}}}, []float64{0.5, 2}},
		// two idle open classes, one visiting q only: the mean over visiting classes
		{"two idle classes", &Model{Classes: []Class{{Name: "a", Open: true}, {Name: "b", Open: true}},
			Stations: []Station{{Name: "q", Kind: Queue}, {Name: "r", Kind: Queue}}, Demand: [][]float64{{1, 0}, {3, 0.5}}},
			[]float64{2, 0.5}},
	}
	for _, tc := range cases {
		r, err := Solve(context.Background(), tc.m, "auto", AMVAOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		v := NewView(tc.name, tc.m, r)
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var back View
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		for k, want := range tc.station {
			if got := back.Stations[k].ResidenceTime; !closeTo(got, want, 1e-15) {
				t.Errorf("%s: station %s residence_time_s %g, want %g", tc.name, tc.m.Stations[k].Name, got, want)
			}
		}
		if len(tc.m.Classes) == 1 {
			// one class: Σ over stations of the station residence = the class response time
			sum := 0.0
			for _, s := range back.Stations {
				sum += s.ResidenceTime
			}
			if !closeTo(sum, back.Classes[0].ResponseTime, 1e-15) {
				t.Errorf("%s: stations' residence sums to %g, class response time %g", tc.name, sum, back.Classes[0].ResponseTime)
			}
		}
		if back.Method == "" || !back.Exact {
			t.Errorf("%s: view labels method %q exact %v, want an exact method", tc.name, back.Method, back.Exact)
		}
	}
}

// TestViewUnvisitedThroughput: a class with demand 0 at a station never passes through it,
// so its throughput there is X_c·V_{c,k} = 0 (hostile review: it showed X_c); where it has
// demand (no visits given) V = 1 and the station throughput is X_c. Every solver.
func TestViewUnvisitedThroughput(t *testing.T) {
	m, _, err := ParseModel("c6.yaml", []byte("classes: [{name: a, population: 3}, {name: b, population: 2}]\nstations: [{name: cpu, demand: {a: 1, b: 2}}, {name: nobody, demand: 0}, {name: half, demand: {a: 0.5, b: 0}}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, solver := range []string{"auto", "mva", "comom", "schweitzer", "linearizer"} {
		r, err := Solve(context.Background(), m, solver, AMVAOptions{})
		if err != nil {
			t.Fatal(solver, err)
		}
		v := NewView("c6", m, r)
		for k, want := range [][2]float64{{r.Throughput[0], r.Throughput[1]}, {0, 0}, {r.Throughput[0], 0}} {
			for c := range 2 {
				if got := v.Stations[k].PerClass[c].Throughput; got != want[c] {
					t.Errorf("%s: station %s class %d throughput %v, want %v", solver, v.Stations[k].Name, c, got, want[c])
				}
			}
		}
	}
}

// TestViewUtilizationInfeasible: Linearizer on /work/s3/hx/c8.yaml (50 classes × population
// 2, 3 queues) gives station s1 U = 1.00013 — above the bound U ≤ 1 of any single server.
// The view flags it (utilization_infeasible) and keeps the approximation's value (no clamp);
// Solve raises the error estimate to at least (U − 1)/U (infeasible). An exact result or a
// delay station is never flagged.
func TestViewUtilizationInfeasible(t *testing.T) {
	m, r := solveFile(t, "testdata/linearizer-u-above-1.yaml", "linearizer") // the reviewer's c8.yaml
	v := NewView("m", m, r)
	flagged := 0
	for k, s := range v.Stations {
		if want := s.Utilization > 1+1e-12; s.UtilizationInfeasible != want {
			t.Errorf("station %s: U = %v, flagged %v", s.Name, s.Utilization, s.UtilizationInfeasible)
		}
		if s.UtilizationInfeasible {
			flagged++
		}
		if s.UtilizationInfeasible && r.ErrorEstimate.RelError < (s.Utilization-1)/s.Utilization {
			t.Errorf("station %d: error estimate %v below the excess", k, r.ErrorEstimate.RelError)
		}
	}
	if flagged == 0 {
		t.Error("Linearizer on c8 no longer exceeds U = 1 anywhere: the case lost its point (it gave s1 U = 1.00013)")
	}
	// the flag itself, on a hand-made result: approximate U = 1.2 is flagged, exact is not
	r.Utilization[0][0] = 1.2 * float64(m.Stations[0].Copies())
	for c := 1; c < len(m.Classes); c++ {
		r.Utilization[0][c] = 0
	}
	if !NewView("m", m, r).Stations[0].UtilizationInfeasible {
		t.Error("approximate U = 1.2 not flagged")
	}
	r.Exact = true
	if NewView("m", m, r).Stations[0].UtilizationInfeasible {
		t.Error("exact result flagged")
	}
}
