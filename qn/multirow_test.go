package qn

import (
	"math/rand/v2"
	"testing"
)

// TestRowsIdentical: the row-by-row walk (solveRows, with the K_q = 4 unrolled variant)
// gives bit-for-bit the results of the generic point-by-point walk (solve): the same
// arithmetic in the same order. Random networks with delays, C = 2 … 5, K = 2 … 7 (so
// K_q = 1 … 6, including 4), some classes empty.
func TestRowsIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 26))
	for i := 0; i < 60; i++ {
		C, K := 2+i%4, 2+i%6
		m := randomClosed(rng, C, K, 12)
		if i%7 == 3 {
			m.Classes[rng.IntN(C)].Population = 0
		}
		p, err := newMulti(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, got := p.solve(), p.solveRows()
		if got.Status.Iterations != want.Status.Iterations {
			t.Fatalf("model %d: %d points, want %d", i, got.Status.Iterations, want.Status.Iterations)
		}
		for c := range m.Classes {
			if got.Throughput[c] != want.Throughput[c] || got.ResponseTime[c] != want.ResponseTime[c] {
				t.Fatalf("model %d (C=%d K=%d) class %d: X %v want %v, R %v want %v", i, C, K, c, got.Throughput[c], want.Throughput[c], got.ResponseTime[c], want.ResponseTime[c])
			}
			for k := range m.Stations {
				if got.QueueLength[k][c] != want.QueueLength[k][c] || got.Residence[k][c] != want.Residence[k][c] {
					t.Fatalf("model %d: Q/R[%d][%d] %v/%v want %v/%v", i, k, c, got.QueueLength[k][c], got.Residence[k][c], want.QueueLength[k][c], want.Residence[k][c])
				}
			}
		}
	}
}

// thesisScaled is the thesis network with populations N = (4095, 177, 127) divided by f
// (at least one job each): the same shape at a fraction of the cost, for instruction counts
// (valgrind) and the scaling table of docs/exact-scaling.md.
func thesisScaled(f int) *Model {
	m := ThesisNetwork()
	for c := range m.Classes {
		m.Classes[c].Population = max(1, m.Classes[c].Population/f)
	}
	return m
}

// BenchmarkMVAMultiThesisEighth is the thesis network at N/8 = (511, 22, 15): 187 000
// population vectors, ~1/500 of the full lattice.
func BenchmarkMVAMultiThesisEighth(b *testing.B) {
	m := thesisScaled(8)
	benchSolve(b, m, mvaMulti)
}
