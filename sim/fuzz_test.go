package sim

import (
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// FuzzSimulateModel: every model file qn.ParseModel accepts (routing, fork/joins, groups
// included) is accepted by the simulator and runs a short replication without panicking.
func FuzzSimulateModel(f *testing.F) {
	f.Add([]byte("classes: [{name: b, population: 2}, {name: w, arrival_rate: 1}]\nstations: [{name: a, service_time: 0.1}, {name: d, service_time: 0.2, count: 2}]\n" +
		"routing:\n  b: {reference: d, from: {a: {d: 1}, d: {a: 0.5, d: 0.5}}}\n  w: {arrivals: {a: 1}, from: {a: {d: 0.5}, d: {a: 1}}}\n"))
	f.Add([]byte("classes: [{name: j, population: 4}]\nstations: [{name: c, service_time: 0.05}, {name: a, service_time: 0.2}, {name: b, service_time: 0.3}]\n" +
		"fork_joins: [{name: s, branches: [a, b]}]\nrouting:\n  j: {from: {c: {s: 1}, s: {c: 1}}}\n"))
	f.Add([]byte("classes: [{name: u, population: 3, think_time: 1}]\nstations: [{name: cpu, type: multiserver, servers: 2, demand: 0.1}, {name: t, type: delay, demand: 1}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, _, err := qn.ParseModel("fuzz.yaml", data)
		if err != nil {
			return
		}
		for _, c := range m.Classes { // keep a run short whatever the numbers
			if c.Population > 50 || c.ArrivalRate > 1e6 {
				return
			}
		}
		s, err := New(m, Config{Events: 500})
		if err != nil {
			t.Fatalf("the simulator rejects a parsed model: %v\n%s", err, data)
		}
		if _, err := s.Run(1, 0); err != nil {
			t.Logf("run: %v", err) // e.g. an unstable open class: an error, not a panic
		}
	})
}
