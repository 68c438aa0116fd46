package sim

import (
	"context"
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// TestClassSwitchExample: examples/qn/class-switch.yaml (one routing chain of two classes,
// 5 jobs). The analytic answer is exact MVA of the chain model (qn.ChainNetwork, checked
// against Octave's qncmvisits/qncmmva in qn); the simulator moves each job by the
// (class, station) probabilities. Per class: the chain's throughput, the response time (the
// class's share of the cycle) and the queue length at every station must lie within the
// simulation's 95 % interval (or 1.5 %: one interval in twenty misses).
func TestClassSwitchExample(t *testing.T) {
	f := modelFile(t, "../examples/qn/class-switch.yaml")
	want, err := f.Solve(context.Background(), "auto", qn.AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !want.Exact {
		t.Fatalf("chain model solved by %s, not exact", want.Method)
	}
	// processor sharing at the queues: class-dependent service times keep product form under
	// PS, not under FCFS (BCMP), and the example says so
	ps := map[string]Discipline{"cpu": PS, "disk": PS}
	res := replicate(t, f.Model, FileConfig(f, Config{Events: 80000, Discipline: ps}), Options{Seed: 13, Reps: 10})
	for c, cl := range f.Model.Classes {
		checkAgrees(t, cl.Name+" X", res.Throughput[c], want.Throughput[c], 0.015)
		checkAgrees(t, cl.Name+" R", res.ResponseTime[c], want.ResponseTime[c], 0.015)
		for k, st := range f.Model.Stations {
			if want.QueueLength[k][c] > 0 {
				checkAgrees(t, cl.Name+" Q "+st.Name, res.QueueLength[k][c], want.QueueLength[k][c], 0.02)
			}
		}
	}
}

// TestClassSwitchRefused: what the switching simulator does not cover is an input error.
func TestClassSwitchRefused(t *testing.T) {
	f := modelFile(t, "../examples/qn/class-switch.yaml")
	cfg := FileConfig(f, Config{})
	cfg.Capacity = map[string]int{"cpu": 3}
	if _, err := New(f.Model, cfg); !errors.Is(err, fault.ErrInput) {
		t.Errorf("switching with capacities: %v, want an input error", err)
	}
}

// BenchmarkClassSwitch: 20 000 events of examples/qn/class-switch.yaml.
func BenchmarkClassSwitch(b *testing.B) {
	f := modelFile(b, "../examples/qn/class-switch.yaml")
	s, err := New(f.Model, FileConfig(f, Config{Events: 20000, Discipline: map[string]Discipline{"cpu": PS, "disk": PS}}))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if _, err := s.Run(1, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFileConfigPS: a station the file declares type ps is simulated by processor sharing
// (qn.Model keeps only "queue"; under FCFS the class-switch example's class-dependent service
// times would move R read by about −1.3 %, measured with 10 × 10⁶ events), and a
// --discipline given by the caller still wins.
func TestFileConfigPS(t *testing.T) {
	f := modelFile(t, "../examples/qn/class-switch.yaml")
	cfg := FileConfig(f, Config{})
	if cfg.Discipline["cpu"] != PS || cfg.Discipline["disk"] != PS {
		t.Errorf("disciplines %v, want cpu and disk PS (the file's type: ps)", cfg.Discipline)
	}
	base := Config{Discipline: map[string]Discipline{"cpu": FCFS}}
	if cfg := FileConfig(f, base); cfg.Discipline["cpu"] != FCFS || cfg.Discipline["disk"] != PS {
		t.Errorf("with cpu=fcfs given: %v", cfg.Discipline)
	}
	if base.Discipline["disk"] == PS {
		t.Error("FileConfig changed the caller's map")
	}
}
