package qn

import (
	"math/rand/v2"
	"testing"
)

// TestParallelIdentical: the pipelined solver gives bit-for-bit the results of MVAMulti
// (same arithmetic, same order) for any number of workers.
func TestParallelIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for i := 0; i < 25; i++ {
		m := randomClosed(rng, 1+i%4, 2+i%4, 30)
		seq, err := MVAMulti(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 2, 3, 7, 64, -1, -2, -3, -7} {
			solve := MVAMultiParallel
			if w < 0 { // the interleaved wavefront
				solve, w = MVAMultiInterleaved, -w
			}
			par, st, err := solve(m, w)
			if err != nil {
				t.Fatal(err)
			}
			for c := range m.Classes {
				if par.Throughput[c] != seq.Throughput[c] || par.ResponseTime[c] != seq.ResponseTime[c] {
					t.Fatalf("model %d workers %d class %d: X %v vs %v, R %v vs %v", i, w, c, par.Throughput[c], seq.Throughput[c], par.ResponseTime[c], seq.ResponseTime[c])
				}
				for k := range m.Stations {
					if par.QueueLength[k][c] != seq.QueueLength[k][c] {
						t.Fatalf("model %d workers %d: Q[%d][%d] %v vs %v", i, w, k, c, par.QueueLength[k][c], seq.QueueLength[k][c])
					}
				}
			}
			if st.Points != seq.Status.Iterations {
				t.Fatalf("points %d vs %d", st.Points, seq.Status.Iterations)
			}
		}
	}
}

func BenchmarkMVAMultiParallelThesis(b *testing.B) {
	benchSolve(b, ThesisNetwork(), onWorkers(MVAMultiParallel, 0))
}

func BenchmarkMVAMultiParallel1Thesis(b *testing.B) {
	benchSolve(b, ThesisNetwork(), onWorkers(MVAMultiParallel, 1))
}

func BenchmarkMVAMultiInterleavedThesis(b *testing.B) {
	benchSolve(b, ThesisNetwork(), onWorkers(MVAMultiInterleaved, 0))
}
