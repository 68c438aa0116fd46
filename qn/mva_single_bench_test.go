//go:build unix

package qn

import (
	"context"
	"testing"
)

// qnbenchSingle is bench/qnbench's single(N, K) network: K−1 single-server queues and one
// delay station, demands 0.01·(1 + (k+2) mod 7) (a fixed, arbitrary pattern), no think time.
func qnbenchSingle(N, K int) *Model {
	m := &Model{Classes: []Class{{Name: "c", Population: N}}, Demand: [][]float64{make([]float64, K)}}
	for k := 0; k < K; k++ {
		m.Stations = append(m.Stations, Station{Name: "k", Kind: Queue})
		m.Demand[0][k] = 0.01 * float64(1+(k+2)%7)
	}
	m.Stations[K-1].Kind = Delay
	return m
}

// BenchmarkSolveSingleN1000K50 is the side-by-side suite's single N = 1000, K = 50 case
// (bench/qnbench, against Octave's qncsmva) through the public path qnbench and the CLI
// use: Solve with solver "mva" (validation, time scaling, budget, recursion, result).
func BenchmarkSolveSingleN1000K50(b *testing.B) {
	m := qnbenchSingle(1000, 50)
	benchSolveMVA(b, m)
}

// BenchmarkSolveSingleN1000K5 is the suite's single N = 1000, K = 5 case via Solve.
func BenchmarkSolveSingleN1000K5(b *testing.B) {
	m := qnbenchSingle(1000, 5)
	benchSolveMVA(b, m)
}

// BenchmarkSolveKeckP1024 is the suite's 004 model P = 1024 case via Solve.
func BenchmarkSolveKeckP1024(b *testing.B) {
	m := KeckModel(1024, 144.133e-6, 254.474e-9, 221.995e-6)
	benchSolveMVA(b, m)
}

// benchSolveMVA solves m with Solve "mva" b.N times and also reports the process's CPU time
// per solve (cpu-µs/op: user + system, getrusage, with the garbage collector's share; on a
// loaded shared host the wall time is not repeatable).
func benchSolveMVA(b *testing.B, m *Model) {
	b.Helper()
	c0 := cpuTime()
	benchSolve(b, m, func(m *Model) (*Result, error) { return Solve(context.Background(), m, "mva", AMVAOptions{}) })
	b.ReportMetric(float64(cpuTime()-c0)/1e3/float64(b.N), "cpu-µs/op")
}
