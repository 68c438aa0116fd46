package sim

import (
	"errors"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// FuzzSimulateModelFile: every model file qn.ParseModelFile accepts — class switching and
// capacities included — is simulated (FileConfig) or refused with a classified error, and a
// short run gives finite, non-negative numbers or a classified error (a blocking deadlock is
// a finding): never a panic.
func FuzzSimulateModelFile(f *testing.F) {
	for _, path := range []string{"../examples/qn/class-switch.yaml", "testdata/blocking.yaml"} {
		if data, err := os.ReadFile(path); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("classes: [{name: j, population: 4}]\nstations:\n  - {name: a, service_time: 1, capacity: 2}\n  - {name: b, service_time: 1, capacity: 2}\nrouting:\n  j:\n    from: {a: {b: 1}, b: {a: 1}}\n"))
	f.Add([]byte("classes: [{name: a, population: 1}, {name: b, population: 1}]\nstations: [{name: s, service_time: 1}]\nrouting:\n  a: {switch: {s: {b: {s: 1}}}}\n  b: {switch: {s: {a: {s: 1}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		mf, err := qn.ParseModelFile("fuzz.yaml", data)
		if err != nil {
			return
		}
		s, err := New(mf.Model, FileConfig(mf, Config{Events: 500, MaxMemoryBytes: 64 << 20}))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) && !errors.Is(err, fault.ErrTooLarge) {
				t.Fatalf("unclassified refusal: %v\n%s", err, data)
			}
			return
		}
		checkRun(t, s, data)
	})
}
