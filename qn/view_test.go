package qn

import (
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
		r, err := Solve(tc.m, "auto", AMVAOptions{})
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
		r, err := Solve(m, solver, AMVAOptions{})
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
