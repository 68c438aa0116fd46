package qn

import (
	"context"
	"math"
	"testing"
)

// TestZeroConventions checks doc.go's rule in every solver: an empty class's residence
// time is what one arriving job of that class would see (closed queue: D·(1 + Q_k(N)),
// the arrival theorem; load-dependent station in an empty network: D/α(1); open M/M/1:
// D/(1 − U)); a station the class never visits gives 0.
func TestZeroConventions(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "a", Population: 5, ThinkTime: 1}, {Name: "empty", Population: 0}},
		Stations: []Station{{Name: "q", Kind: Queue}, {Name: "d", Kind: Delay}, {Name: "u", Kind: Queue}},
		Demand:   [][]float64{{0.3, 0.5, 0.1}, {0.2, 0.4, 0}},
	}
	exact, err := MVAMulti(m)
	if err != nil {
		t.Fatal(err)
	}
	q := exact.StationQueueLength(0)
	want := []float64{0.2 * (1 + q), 0.4, 0}
	for _, solver := range []string{"mva", "schweitzer", "linearizer"} {
		r, err := Solve(context.Background(), m, solver, AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tol := 1e-14
		if solver != "mva" {
			tol = 0.05 // approximate Q_k(N)
		}
		for k, w := range want {
			if got := r.Residence[k][1]; !closeTo(got, w, tol) || (w == 0) != (got == 0) {
				t.Errorf("%s: empty class residence at %s = %g, want %g", solver, m.Stations[k].Name, got, w)
			}
		}
		if r.Throughput[1] != 0 || r.QueueLength[0][1] != 0 {
			t.Errorf("%s: empty class X %g Q %g, want 0", solver, r.Throughput[1], r.QueueLength[0][1])
		}
	}
	// Same rule with a multi-server station (exact load-dependent path): an arriving job of
	// the empty class sees R = (D/m)(1 + Q + Σ_{j<m−1}(m−1−j)p(j|N)), which is the residence
	// the solver computes for a class of one job (arrival theorem: it sees the others at N).
	ms := m.Clone()
	ms.Stations[0] = Station{Name: "ms", Kind: MultiServer, Servers: 3}
	r0, err := MVAMulti(ms)
	if err != nil {
		t.Fatal(err)
	}
	one := ms.Clone()
	one.Classes[1].Population = 1
	r1, err := MVAMulti(one)
	if err != nil {
		t.Fatal(err)
	}
	// R_{k,c}(N + e_c) computed by the solver at population N + e_c is exactly the residence
	// the empty class was given at N.
	if !closeTo(r0.Residence[0][1], r1.Residence[0][1], 1e-13) {
		t.Errorf("empty class at 3-server station: %g, one-job class %g", r0.Residence[0][1], r1.Residence[0][1])
	}
	// Single class, population 0, load-dependent: D/α(1).
	ld := &Model{Classes: []Class{{Name: "a"}}, Stations: []Station{{Name: "ld", Kind: LoadDependent, Rates: []float64{2, 3}}}, Demand: [][]float64{{0.5}}}
	r, err := MVASingle(context.Background(), ld)
	if err != nil {
		t.Fatal(err)
	}
	if r.Residence[0][0] != 0.25 {
		t.Errorf("N = 0 at a load-dependent station: residence %g, want D/α(1) = 0.25", r.Residence[0][0])
	}
	// Open class with rate 0 beside a loaded one: D/(1 − U).
	op := &Model{Classes: []Class{{Name: "o", Open: true, ArrivalRate: 2}, {Name: "z", Open: true}}, Stations: []Station{{Name: "q", Kind: Queue}}, Demand: [][]float64{{0.25}, {0.1}}}
	r, err = Open(op)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Residence[0][1]; math.Abs(got-0.1/(1-0.5)) > 1e-15 {
		t.Errorf("open class with rate 0: residence %g, want 0.2", got)
	}
}
