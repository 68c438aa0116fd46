package pmvaapp

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/pmva"
	"github.com/clusterperf/clusterperf/qn"
)

const twoClasses = `name: two classes
classes:
  - {name: a, population: 4}
  - {name: b, population: 6}
stations:
  - {name: cpu, type: queue, demand: {a: 0.1, b: 0.2}}
  - {name: disk, type: queue, demand: {a: 0.3, b: 0.1}}
`

func model(t *testing.T) *qn.Model {
	t.Helper()
	m, _, err := qn.ParseModel("two.yaml", []byte(twoClasses))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRunGiven: with q and k given no network is run: one point per solver and p, the
// class with the largest population (b, 6) first (001 §6.1.6), populations as given, a
// note saying formulas only, and an answer.
func TestRunGiven(t *testing.T) {
	r, err := Run(context.Background(), Request{Model: model(t), Name: "two", Algorithms: []pmva.Algorithm{pmva.Pipelined},
		Workers: []int{1, 2, 4}, Repeats: 1, Scale: 1, CalibrateScale: 2, Given: true, Q: 16e-6, K: 1e-6, MaxPoints: pmva.MaxPoints})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Results) != 3 || r.Calibration != nil {
		t.Fatalf("%d points, calibration %v; want 3 and none", len(r.Results), r.Calibration)
	}
	if r.ClassOrder[0] != "b" || r.Populations[0] != 6 || r.Populations[1] != 4 {
		t.Errorf("order %v, populations %v; want b first with 6", r.ClassOrder, r.Populations)
	}
	if !strings.Contains(strings.Join(r.Notes, " "), "formulas only") {
		t.Errorf("notes %q do not say formulas only", r.Notes)
	}
	if r.Answer.Summary == "" || r.Exact {
		t.Errorf("answer %q, exact %v", r.Answer.Summary, r.Exact)
	}
	if len(r.Tables()) != 3 {
		t.Errorf("%d tables, want points, calibration, fig69", len(r.Tables()))
	}
}

// TestRunRefusals: a class order naming an unknown class, and a scale below 1, are input.
func TestRunRefusals(t *testing.T) {
	for _, q := range []Request{
		{Model: model(t), ClassOrder: []string{"a", "zzz"}, Scale: 1, Given: true, Q: 1e-6},
		{Model: model(t), Scale: 0.5, Given: true, Q: 1e-6},
	} {
		q.Algorithms, q.Workers = []pmva.Algorithm{pmva.Pipelined}, []int{1}
		if _, err := Run(context.Background(), q); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%+v: error %v, want fault.ErrInput", q.ClassOrder, err)
		}
	}
}

// TestGivenCostBounds (hostile7 P2-00): q and k at the ends of [MinCostS, MaxCostS] (and
// k = 0) give a result whose every number is finite (json.Marshal refuses NaN and ±Inf);
// beyond them — q = 1e300 s gave NaN speedup_alpha, k = 1e308 s +Inf, k = 1e300 s a
// 6.6e-302 speedup — the run is refused as input naming the flag.
func TestGivenCostBounds(t *testing.T) {
	for _, c := range []struct {
		q, k float64
		want string // "" accepted; else the refusal names it
	}{
		{MaxCostS, MaxCostS, ""},
		{MinCostS, MaxCostS, ""},
		{MaxCostS, MinCostS, ""},
		{MinCostS, 0, ""},
		{1e300, 16e-6, "--q"},
		{16e-6, 1e300, "--k"},
		{16e-6, 1e308, "--k"},
		{0, 1e-6, "--q"},
		{1e-300, 1e-6, "--q"},
		{math.NaN(), 1e-6, "--q"},
		{16e-6, -1, "--k"},
	} {
		r, err := Run(context.Background(), Request{Model: model(t), Name: "two", Algorithms: []pmva.Algorithm{pmva.Pipelined, pmva.Interleaved},
			Workers: []int{1, 2, 64}, Repeats: 1, Scale: 1, CalibrateScale: 2, Given: true, Q: c.q, K: c.k, MaxPoints: pmva.MaxPoints})
		if c.want == "" {
			if err != nil {
				t.Errorf("q %g, k %g: %v", c.q, c.k, err)
			} else if _, err := json.Marshal(r); err != nil {
				t.Errorf("q %g, k %g: %v", c.q, c.k, err)
			}
			continue
		}
		if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("q %g, k %g: %v, want an input error naming %s", c.q, c.k, err, c.want)
		}
	}
}
