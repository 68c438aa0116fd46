package app

import (
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

// BenchmarkParseSweep reads the --sweep forms (a population range, a per-class demand in
// time units, an arrival-rate range of n points) against a two-class model.
func BenchmarkParseSweep(b *testing.B) {
	m, _, err := qn.ParseModel("f.yaml", []byte("classes: [{name: a, population: 2, think_time: 1s}, {name: o, arrival_rate: 1}]\nstations: [{name: cpu, demand: 5ms}, {name: disk, demand: {a: 1ms, o: 2ms}}]\n"))
	if err != nil {
		b.Fatal(err)
	}
	sweeps := []string{"population=1:100:10", "demand.disk.o=1ms:50ms:1ms", "arrival_rate.o=60/min:180/min:n21"}
	for b.Loop() {
		for _, s := range sweeps {
			if _, _, err := ParseSweep(s, m); err != nil {
				b.Fatal(err)
			}
		}
	}
}
