package pmva

import (
	"math"
	"strings"
	"testing"
)

// TestSuperlinearNotes (session 4's review: pmva printed run-dependent superlinear
// predictions without a word): with q(2) = 0.4·q(1) and k = 0, eq. (6.8) gives a speedup
// above 2 (the pipeline's own terms cannot bring T(2) back above T(1)/2 at k = 0 here), and
// the note names the point, both costs and the calibration spread; with q(2) = q(1) the
// speedup stays ≤ p and nothing is said.
func TestSuperlinearNotes(t *testing.T) {
	N := []int{63, 7, 3}
	for _, tc := range []struct {
		q2   float64
		want bool
	}{{0.4e-6, true}, {1e-6, false}} {
		pts, err := Predict(Pipelined, N, []int{1, 2}, Costs{Q: map[int]float64{1: 1e-6, 2: tc.q2}, K: map[int]float64{1: 0, 2: 0}})
		if err != nil {
			t.Fatal(err)
		}
		if super := pts[1].Speedup > 2; super != tc.want {
			t.Fatalf("q(2) = %g: speedup %g, superlinear %v, want %v", tc.q2, pts[1].Speedup, super, tc.want)
		}
		cal := []Sample{{Algorithm: Pipelined, P: 1, Spread: 0.3}, {Algorithm: Pipelined, P: 2, Spread: 0.5}, {Algorithm: Interleaved, P: 2, Spread: 9}}
		notes := SuperlinearNotes(pts, cal)
		if (len(notes) == 1) != tc.want {
			t.Fatalf("q(2) = %g: notes %q", tc.q2, notes)
		}
		if tc.want {
			for _, s := range []string{"pipelined p = 2", "superlinear", "q(2) = 4e-07 s below q(1) = 1e-06 s", "spread up to 50 %", "noise"} {
				if !strings.Contains(notes[0], s) {
					t.Errorf("note lacks %q: %s", s, notes[0])
				}
			}
		}
	}
}

// TestEstimate: the error estimate is the largest |rel_error| of the measured points and
// the largest spread of their runs, against the predicted network's runs; without runs it
// says it is unmeasured and carries no number.
func TestEstimate(t *testing.T) {
	e1, e2 := -0.3, 0.1
	pts := []Point{
		{Algorithm: Pipelined, P: 1, RelError: &e2, Measured: &Sample{Spread: 0.2}},
		{Algorithm: Pipelined, P: 2, RelError: &e1, Measured: &Sample{Spread: 0.05}},
		{Algorithm: Interleaved, P: 2}, // not run
	}
	e := Estimate(pts)
	if e.MaxAbsRelError == nil || math.Abs(*e.MaxAbsRelError-0.3) > 1e-15 || *e.MaxSpread != 0.2 || !strings.Contains(e.Against, "2 points (pipelined p = 1, pipelined p = 2)") {
		t.Errorf("got %+v", e)
	}
	if u := Estimate(pts[2:]); u.MaxAbsRelError != nil || u.MaxSpread != nil || !strings.Contains(u.Against, "unmeasured") {
		t.Errorf("no runs: got %+v", u)
	}
}

// TestSuperlinearNoted (issue 33): a predicted speedup above p — 8.24 on 2 workers, as the
// issue reports — gets a plausibility note in every speedup column that shows it: eq. (6.8)
// (SuperlinearNotes' own check) and the α forms (eq. 6.9 here); a speedup ≤ p gets none.
func TestSuperlinearNoted(t *testing.T) {
	s824, ok := 8.24, 1.9
	a := 0.5
	pts := []Point{
		{Algorithm: Pipelined, P: 2, Q: 1e-7, K: 2e-7, Q1: 8e-7, Speedup: s824},
		{Algorithm: Pipelined, P: 2, Q: 1e-6, K: 2e-6, Q1: 1e-6, Speedup: 1.5, Alpha: &a, SpeedupAlpha: &s824, SpeedupLimit: &ok},
		{Algorithm: Pipelined, P: 4, Q: 1e-6, K: 2e-6, Q1: 1e-6, Speedup: 3.9, Alpha: &a, SpeedupAlpha: &ok},
	}
	n := SuperlinearNotes(pts, nil)
	if len(n) != 2 || !strings.Contains(n[0], "predicted speedup 8.24 is superlinear") || !strings.Contains(n[1], "eq. (6.9) gives a speedup of 8.24 on 2 workers, above p: implausible") {
		t.Errorf("notes: %q", n)
	}
}
