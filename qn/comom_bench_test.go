//go:build unix

package qn

import (
	"context"
	"fmt"
	"testing"
)

// benchComomCPU solves m by Comom b.N times and reports the process's CPU time per solve
// (cpu-ms/op: user + system, getrusage; the wall time of a loaded shared host is not
// repeatable) and the precision of the accepted run (bits, from its note).
func benchComomCPU(b *testing.B, m *Model) {
	b.Helper()
	c0 := cpuTime()
	bits := 0
	for b.Loop() {
		r, err := Comom(context.Background(), m)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range r.Notes {
			fmt.Sscanf(n, "comom: exact method in %d-bit", &bits)
		}
	}
	b.ReportMetric(float64(cpuTime()-c0)/1e6/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(bits), "bits")
}

// BenchmarkComomThesisCPU: the thesis network (001 §6.1.4, N = (4095, 177, 127)) by Comom,
// with its CPU time (BenchmarkComomThesis in bench_test.go reports the wall time).
func BenchmarkComomThesisCPU(b *testing.B) { benchComomCPU(b, ThesisNetwork()) }

// BenchmarkMomentsThesisScaled: how Comom's cost grows with the population: the thesis
// network with every population divided by f = 8, 4, 2, 1 (3 classes, 4 queues and a
// delay).
func BenchmarkMomentsThesisScaled(b *testing.B) {
	for _, f := range []int{8, 4, 2, 1} {
		m := ThesisNetwork()
		for c := range m.Classes {
			m.Classes[c].Population /= f
		}
		b.Run(fmt.Sprintf("f=%d", f), func(b *testing.B) { benchComomCPU(b, m) })
	}
}

// BenchmarkMomentsC4x1000CPU: BenchmarkMomentsC4x1000's network (4 classes × 1000 jobs on
// 2 queues and 3 delays, 10¹² population vectors) with its CPU time.
func BenchmarkMomentsC4x1000CPU(b *testing.B) {
	m := MomentsNetworkC4(1000)
	m.Stations[2].Kind, m.Stations[3].Kind = Delay, Delay
	benchComomCPU(b, m)
}
