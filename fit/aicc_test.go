package fit

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// oneFree is a BUS-AIO spec with one free parameter (s_par): its AICc is defined from
// n = k + 2 = 3 observations, the USL baseline's (k = 2 on speedups) from 4.
const oneFree = `architecture: bus-aio
c: 1
reference_time: 1
parameters:
  s_par:  {start: 0.5, min: 0, max: 2}
  s_ser:  0.01
  s0_com: 0.01
  sr_com: 0.1
  s0_io:  0.01
  sr_io:  0.01
  w:      0.5
  g_exponent: -1
`

func oneFreeRun(t *testing.T, csv string) (*Report, error) {
	t.Helper()
	sp, err := ParseSpec("m.yaml", []byte(oneFree))
	if err != nil {
		t.Fatal(err)
	}
	data, err := ReadData("d.csv", strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	return Run(sp, data)
}

// TestInformationCriteriaUndefined: AICc = AIC + 2k(k+1)/(n−k−1) (Burnham & Anderson 2002,
// eq. 2.4) has no finite value for n ≤ k + 1; AICcOf answers nil there and the formula
// elsewhere.
func TestInformationCriteriaUndefined(t *testing.T) {
	for _, c := range []struct {
		n, k int
		ok   bool
	}{{3, 1, true}, {3, 2, false}, {2, 1, false}, {1, 1, false}, {4, 2, true}} {
		got := AICcOf(0.5, c.n, c.k)
		if (got != nil) != c.ok {
			t.Errorf("n=%d k=%d: AICcOf = %v, want defined=%v", c.n, c.k, got, c.ok)
			continue
		}
		if got != nil {
			aic, _, _ := InformationCriteria(0.5, c.n, c.k)
			want := aic + 2*float64(c.k*(c.k+1))/float64(c.n-c.k-1)
			if math.Abs(*got-want) > 1e-12 {
				t.Errorf("n=%d k=%d: AICc %g, want %g", c.n, c.k, *got, want)
			}
		}
	}
}

// TestRunThreePoints: the issue-15 repro. Three speedups that are exactly Amdahl's law with
// f = 1/9 (s(2) = 1/(1/9 + 4/9) = 1.8, s(4) = 1/(1/9 + 2/9) = 3): Amdahl and the SPMD model
// (k = 1) are ranked, USL (k = 2, n = k + 1) is listed last without AICc, with the reason;
// the weights of the ranked ones sum to 1 and the report marshals (no ±Inf).
func TestRunThreePoints(t *testing.T) {
	rep, err := oneFreeRun(t, "p,d,speedup\n1,1,1.0\n2,1,1.8\n4,1,3.0\n")
	if err != nil {
		t.Fatal(err)
	}
	rk := rep.Ranking
	if len(rk) != 3 {
		t.Fatalf("ranking %+v, want 3 entries", rk)
	}
	if rk[0].Name != "amdahl" {
		t.Errorf("winner %s, want amdahl (the data are Amdahl's law exactly)", rk[0].Name)
	}
	last := rk[2]
	if last.Name != "usl" || last.AICc != nil || last.DeltaAICc != nil || last.Weight != nil || !strings.Contains(last.Note, "needs n ≥ k + 2 = 4") {
		t.Errorf("last %+v: want usl without AICc, Δ and weight, and the reason in the note", last)
	}
	sum := 0.0
	for _, r := range rk[:2] {
		if r.AICc == nil || r.DeltaAICc == nil || r.Weight == nil {
			t.Fatalf("%s: not ranked: %+v", r.Name, r)
		}
		sum += *r.Weight
	}
	if math.Abs(sum-1) > 1e-12 || *rk[0].DeltaAICc != 0 {
		t.Errorf("weights sum to %g (want 1), Δ of the winner %g (want 0)", sum, *rk[0].DeltaAICc)
	}
	if rep.Best == nil || rep.Best.AICc == nil {
		t.Fatalf("best SPMD candidate %+v", rep.Best)
	}
	if _, err := json.Marshal(rep); err != nil {
		t.Errorf("report does not marshal: %v", err)
	}
}

// TestRunTooFewToRank: with n ≤ k + 1 for every SPMD candidate nothing can be ranked: the
// input is refused (fault.ErrInput, exit 2) naming the number of points needed.
func TestRunTooFewToRank(t *testing.T) {
	_, err := oneFreeRun(t, "p,d,speedup\n1,1,1.0\n2,1,1.8\n")
	if !errors.Is(err, fault.ErrInput) || !errors.Is(err, ErrTooFewToRank) || !strings.Contains(err.Error(), "n ≥ k + 2 = 3") {
		t.Errorf("err = %v, want an input error needing 3 observations", err)
	}
}

// TestFitBaselinesTooFew: fewer observations than USL's parameters (3 on times) is an
// input error, as in SPMD.
func TestFitBaselinesTooFew(t *testing.T) {
	data := &Data{Target: "time", Obs: []Observation{{P: 1, D: 1, Value: 10}, {P: 2, D: 1, Value: 6}}}
	_, err := Baselines(data)
	if !errors.Is(err, fault.ErrInput) || !errors.Is(err, ErrTooFewObservations) {
		t.Errorf("err = %v, want fault.ErrInput and ErrTooFewObservations", err)
	}
}
