package sim

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// TestCheckRepHonest: every replication the simulator gives (a three-class closed network, a
// mixed open/closed one, the fork/join striped write, whose response times are per-cycle
// means rather than Little's N̄/X; runs of 20000 and 500 events, where Run refuses a
// replication in which the class thinking 100 s completed nothing; MSER-5 and a fixed
// warm-up) passes CheckRep: the invariants hold by the simulator's accounting (no false
// refusal of an honest shard).
func TestCheckRepHonest(t *testing.T) {
	models := []string{`classes: [{name: a, population: 3, think_time: 1}, {name: b, population: 2}, {name: rare, population: 1, think_time: 100}]
stations: [{name: cpu, service_time: {a: 0.2, b: 0.1, rare: 0.1}}, {name: disk, service_time: {a: 0.3, b: 0.5, rare: 0.1}}]
`, `classes: [{name: a, population: 4, think_time: 0.5}, {name: o, arrival_rate: 0.5}]
stations: [{name: cpu, type: multiserver, servers: 2, service_time: {a: 0.2, o: 0.3}}, {name: term, type: delay, service_time: {a: 1, o: 0.1}}]
`}
	ms := []*qn.Model{modelFile(t, filepath.Join("..", "examples", "qn", "striped-write.yaml")).Model}
	for _, src := range models {
		ms = append(ms, parseModel(t, "m.yaml", []byte(src)))
	}
	refused, checked := 0, 0
	for i, m := range ms {
		for _, cfg := range []Config{{Events: 20000}, {Events: 500}, {Events: 5000, WarmupFrac: 0.5}} {
			s, err := New(m, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for k := range uint64(30) {
				r, err := s.Run(5, k)
				if errors.Is(err, fault.ErrNoSteadyState) {
					refused++ // a class completed nothing: Run refuses it, no shard holds it
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				checked++
				if err := CheckRep(r, m); err != nil {
					t.Errorf("model %d, %+v, replication %d: %v", i, cfg, k, err)
				}
			}
		}
	}
	if checked < 200 || refused == 0 {
		t.Errorf("%d replications checked, %d refused by Run; want ≥ 200 and the short runs of class rare refused", checked, refused)
	}
}

// TestCheckRepRefuses: the hostile review's tampered replications of its model (one class of
// population 3) are refused naming the field.
func TestCheckRepRefuses(t *testing.T) {
	m := parseModel(t, "v.yaml", []byte("classes: [{name: a, population: 3, think_time: 1}]\nstations: [{name: cpu, service_time: 0.05}, {name: disk, service_time: 0.03}]\n"))
	s, err := New(m, Config{Events: 20000})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(r *RepResult)
		want string
	}{
		{"R 1.7e308", func(r *RepResult) { r.ResponseTime[0] = 1.7e308 }, "want at most population"},
		{"R null", func(r *RepResult) { r.ResponseTime[0] = math.NaN() }, "response_time_s[0] = null; want"},
		{"X 0", func(r *RepResult) { r.Throughput[0] = 0 }, "throughput_per_s[0] = 0,"},
		{"Q 1e308", func(r *RepResult) { r.QueueLength[1][0] = 1e308 }, "queue_length[1][0]"},
	} {
		r, err := s.Run(1, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := CheckRep(r, m); err != nil {
			t.Fatalf("%s: untampered: %v", c.name, err)
		}
		c.edit(r)
		if err := CheckRep(r, m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.want)
		}
	}
}
