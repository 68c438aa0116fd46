package simapp

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// oneQueue is a closed network of one queue and a think time: 2 jobs, Z = 1 s, D = 0.5 s.
// Exact MVA (Lazowska et al., Quantitative System Performance, §6.4): n = 1: R = 0.5,
// X = 1/1.5; n = 2: Q(1) = X·R = 1/3, R = 0.5·(1 + 1/3) = 2/3 s, X = 2/(1 + 2/3) = 1.2 jobs/s.
const oneQueue = `name: one queue
classes:
  - {name: jobs, population: 2, think_time: 1}
stations:
  - {name: cpu, type: queue, demand: 0.5}
`

func parse(t *testing.T) *qn.ModelFile {
	t.Helper()
	mf, err := qn.ParseModelFile("one.yaml", []byte(oneQueue))
	if err != nil {
		t.Fatal(err)
	}
	return mf
}

// TestConfigRefusals: a distribution or discipline named for a station or class the model
// does not have (or of the wrong kind) is refused, not ignored.
func TestConfigRefusals(t *testing.T) {
	mf := parse(t)
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"no such station", Options{Service: []string{"disk=exp"}}, "no station of that name"},
		{"think of an open class", Options{Arrival: []string{"jobs=exp"}}, "no open class"},
		{"not NAME=VALUE", Options{Think: []string{"jobs"}}, "want NAME=VALUE"},
		{"discipline", Options{Discipline: []string{"cpu=lifo"}}, "want fcfs or ps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Config(mf.Model, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
	if _, err := Config(mf.Model, Options{Service: []string{"cpu=det"}, Discipline: []string{"cpu=ps"}}); err != nil {
		t.Errorf("a valid configuration refused: %v", err)
	}
}

// TestRunQN: simulate's Run on oneQueue: the analytic X = 1.2 jobs/s (exact MVA, above)
// falls inside the simulation's 95 % interval, the result says its method and error
// estimate, and each simulation is counted once.
func TestRunQN(t *testing.T) {
	n := 0
	r, err := Run(context.Background(), Request{Path: "one.yaml", QN: parse(t),
		Options: Options{Seed: 1, Reps: 5, Events: 20000, Count: func() { n++ }}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d simulations counted, want 1", n)
	}
	if r.Kind != "qn" || r.Model != "one queue" || !strings.HasPrefix(r.Method, "discrete-event simulation") || r.Exact {
		t.Errorf("kind %q, model %q, method %q, exact %v", r.Kind, r.Model, r.Method, r.Exact)
	}
	if r.ErrorEstimate == nil || !(r.ErrorEstimate.RelHalfWidth95 > 0) {
		t.Errorf("no error estimate: %+v", r.ErrorEstimate)
	}
	found := false
	for _, row := range r.Rows {
		if strings.HasPrefix(row.Quantity, "X") {
			found = true
			if row.Analytic == nil || math.Abs(*row.Analytic-1.2) > 1e-9 {
				t.Fatalf("%s: analytic %v, want 1.2 (exact MVA)", row.Quantity, row.Analytic)
			}
			if row.Inside == nil || !*row.Inside {
				t.Errorf("%s: analytic %v outside the simulated interval (%v ± %v)", row.Quantity, *row.Analytic, row.Simulated, row.HalfWidth)
			}
		}
	}
	if !found {
		t.Errorf("no throughput row in %+v", r.Rows)
	}
	if r.Answer.Summary == "" {
		t.Error("no answer")
	}
}

// TestRunCancelled: a context cancelled before the first replication ends is an
// interruption.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Request{Path: "one.yaml", QN: parse(t), Options: Options{Seed: 1, Reps: 2}})
	if !errors.Is(err, fault.ErrInterrupted) {
		t.Fatalf("error %v, want fault.ErrInterrupted", err)
	}
}
