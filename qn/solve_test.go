package qn

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestAutoLabels enumerates every choice Solve's "auto" makes and checks that each result
// says its method, whether it is exact, why it was chosen, and, when approximate, its error
// estimate; and that RequireExact refuses exactly the approximate choices (issue 13).
func TestAutoLabels(t *testing.T) {
	two := func(n1, n2 int, st ...Station) *Model {
		m := &Model{Classes: []Class{{Name: "a", Population: n1, ThinkTime: 1}, {Name: "b", Population: n2, ThinkTime: 2}}, Stations: st}
		for c := 0; c < 2; c++ {
			row := make([]float64, len(st))
			for k := range row {
				row[k] = 0.01 * float64(1+k+c)
			}
			m.Demand = append(m.Demand, row)
		}
		return m
	}
	q, d := Station{Name: "q", Kind: Queue}, Station{Name: "d", Kind: Delay}
	ms := Station{Name: "ms", Kind: MultiServer, Servers: 4}
	ld := Station{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 1.5, 1.8}}
	fj, _, err := ParseModel("fj.yaml", []byte(fmt.Sprintf(fjModel, 4)))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		m         *Model
		method    string
		exact     bool
		refuseErr error // with RequireExact
	}{
		{"open", &Model{Classes: []Class{{Name: "o", Open: true, ArrivalRate: 2}}, Stations: []Station{q}, Demand: [][]float64{{0.1}}}, "open", true, nil},
		{"mixed", &Model{Classes: []Class{{Name: "o", Open: true, ArrivalRate: 2}, {Name: "c", Population: 3}}, Stations: []Station{q}, Demand: [][]float64{{0.1}, {0.2}}}, "mixed", true, nil},
		{"single", &Model{Classes: []Class{{Name: "c", Population: 30}}, Stations: []Station{ms, q}, Demand: [][]float64{{1, 0.1}}}, "mva", true, nil},
		{"multi", two(20, 30, q, d), "mva", true, nil},
		{"multi-ms", two(20, 30, ms, q, d), "mva-load-dependent", true, nil},
		{"multi-ld", two(20, 30, ld, q), "mva-load-dependent", true, nil},
		// a lattice of 3.6e9 vectors, over MVA's budget: comom solves it exactly (one queue
		// and a delay; about 0.3 s) — the plain linearizer fallback is checked by
		// cmd/clusterperf's "multi-class too large", where comom is over its own budget
		{"huge-lattice", two(60000, 60000, q, d), "comom", true, nil},
		{"huge-ms", two(30000, 30000, ms, q, d), "linearizer+marginal", false, fault.ErrTooLarge},
		{"huge-ld", two(30000, 30000, ld, q), "linearizer+marginal", false, fault.ErrTooLarge},
		{"forkjoin", fj, "forkjoin-mva", false, ErrUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Solve(context.Background(), tc.m, "auto", AMVAOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.exact && !strings.Contains(r.Describe(), "(exact)") {
				t.Errorf("Describe() = %q", r.Describe())
			}
			if r.Method != tc.method || r.Exact != tc.exact || r.Reason == "" {
				t.Errorf("method %q exact %v reason %q; want %q %v and a reason", r.Method, r.Exact, r.Reason, tc.method, tc.exact)
			}
			if !r.Exact && r.ErrorEstimate == nil && len(r.Notes) == 0 {
				t.Errorf("approximate result with neither error estimate nor note")
			}
			if !r.Exact && r.Solver != "forkjoin-mva" {
				e := r.ErrorEstimate
				if e == nil || e.MeasuredRelError == nil || e.SpreadMethod == "" || !(e.RelError >= *e.MeasuredRelError) || !(e.RelError >= e.Spread) {
					t.Errorf("error estimate %+v", e)
				} else if d := r.Describe(); !strings.Contains(d, "APPROXIMATE") || !strings.Contains(d, "estimated error") {
					t.Errorf("Describe() = %q", d)
				} else {
					t.Logf("%s: %s; estimate %.3g (spread vs %s %.3g, measured %.3g at N = %v)", tc.name, r.Reason, e.RelError, e.SpreadMethod, e.Spread, *e.MeasuredRelError, e.MeasuredPopulation)
				}
			}
			_, err = Solve(context.Background(), tc.m, "auto", AMVAOptions{RequireExact: true})
			switch {
			case tc.refuseErr == nil && err != nil:
				t.Errorf("RequireExact refused an exact model: %v", err)
			case tc.refuseErr != nil && !errors.Is(err, tc.refuseErr):
				t.Errorf("RequireExact: err = %v, want %v", err, tc.refuseErr)
			case tc.refuseErr != nil && !errors.Is(err, fault.ErrInput):
				t.Errorf("RequireExact: err = %v does not wrap fault.ErrInput (exit 2)", err)
			}
		})
	}
}

// Named solvers: exact ones are labelled exact, approximate ones carry an estimate and are
// refused under RequireExact.
func TestNamedSolverLabels(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "a", Population: 12, ThinkTime: 1}, {Name: "b", Population: 7}},
		Stations: []Station{{Name: "ms", Kind: MultiServer, Servers: 3}, {Name: "q", Kind: Queue}},
		Demand:   [][]float64{{0.5, 0.1}, {0.3, 0.2}},
	}
	exact, err := Solve(context.Background(), m, "mva", AMVAOptions{})
	if err != nil || !exact.Exact {
		t.Fatalf("mva: %v, exact %v", err, exact != nil && exact.Exact)
	}
	for _, s := range []string{"schweitzer", "linearizer"} {
		r, err := Solve(context.Background(), m, s, AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Exact || r.ErrorEstimate == nil || r.ErrorEstimate.MeasuredRelError == nil {
			t.Fatalf("%s: exact %v, estimate %+v", s, r.Exact, r.ErrorEstimate)
		}
		// Here the exact solution at N itself is affordable, so the measured error is the
		// true error.
		if got, want := *r.ErrorEstimate.MeasuredRelError, relDiff(m, r, exact); got != want {
			t.Errorf("%s: measured error %g, true error %g", s, got, want)
		}
		if _, err := Solve(context.Background(), m, s, AMVAOptions{RequireExact: true}); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "approximate") {
			t.Errorf("%s with RequireExact: err = %v", s, err)
		}
	}
}
