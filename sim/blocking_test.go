package sim

import (
	"context"
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// TestBlockingAgainstCTMC: the simulator's blocking after service against the exact CTMC of
// the same network (internal/ctmc.SolveBlocking via qn.SolveBlocking "exact"): throughput,
// queue lengths (blocked jobs included) and utilisations (serving only) within the
// simulation's 95 % interval (or 1.5 %), for a central server with a self-loop and a disk
// feeding another, and for a three-station ring.
func TestBlockingAgainstCTMC(t *testing.T) {
	ring := `classes: [{name: jobs, population: 6}]
stations:
  - {name: a, service_time: 1, capacity: 3}
  - {name: b, service_time: 0.8, capacity: 2}
  - {name: c, service_time: 1.2, capacity: 3}
routing:
  jobs:
    from: {a: {b: 1}, b: {c: 1}, c: {a: 1}}
`
	for _, f := range []*qn.ModelFile{modelFile(t, "testdata/blocking.yaml"), parseModelFile(t, "ring.yaml", []byte(ring))} {
		want, err := qn.SolveBlocking(f.Model, f.Capacity, f.Model.Routing, "exact")
		if err != nil {
			t.Fatal(err)
		}
		free, _ := qn.Solve(context.Background(), f.Model, "mva", qn.AMVAOptions{})
		t.Logf("CTMC X = %.5g (without capacities %.5g)", want.Throughput[0], free.Throughput[0])
		res := replicate(t, f.Model, FileConfig(f, Config{Events: 60000}), Options{Seed: 14, Reps: 10})
		checkAgrees(t, "X", res.Throughput[0], want.Throughput[0], 0.015)
		for k, st := range f.Model.Stations {
			checkAgrees(t, "Q "+st.Name, res.QueueLength[k][0], want.QueueLength[k][0], 0.02)
			checkAgrees(t, "U "+st.Name, res.Utilization[k], want.Utilization[k][0], 0.015)
		}
	}
}

// TestBlockingRefusals: the blocking simulator refuses what it does not model (input
// errors) and reports a cycle of full stations as a deadlock finding.
func TestBlockingRefusals(t *testing.T) {
	f := modelFile(t, "testdata/blocking.yaml")
	cfg := FileConfig(f, Config{Events: 20000})
	cfg.Capacity["nowhere"] = 2
	if _, err := New(f.Model, cfg); !errors.Is(err, fault.ErrInput) {
		t.Errorf("unknown station: %v, want input error", err)
	}
	cfg = FileConfig(f, Config{Events: 20000, Discipline: map[string]Discipline{"cpu": PS}})
	if _, err := New(f.Model, cfg); !errors.Is(err, fault.ErrInput) {
		t.Errorf("PS with capacity: %v, want input error", err)
	}
	// two stations of capacity 2 and 4 jobs: both fill and block each other
	dl := `classes: [{name: j, population: 4}]
stations:
  - {name: a, service_time: 1, capacity: 2}
  - {name: b, service_time: 1, capacity: 2}
routing:
  j:
    from: {a: {b: 1}, b: {a: 1}}
`
	f = parseModelFile(t, "deadlock.yaml", []byte(dl))
	s, err := New(f.Model, FileConfig(f, Config{Events: 20000}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(1, 1); !errors.Is(err, fault.ErrDeadlock) {
		t.Errorf("full ring: %v, want deadlock", err)
	}
}

// BenchmarkBlocking: 20 000 events of the central server with capacities (N = 5).
func BenchmarkBlocking(b *testing.B) {
	f := modelFile(b, "testdata/blocking.yaml")
	s, err := New(f.Model, FileConfig(f, Config{Events: 20000}))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := s.Run(1, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
