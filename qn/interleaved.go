package qn

import (
	"sync/atomic"
	"time"
)

// MVAMultiInterleaved solves a closed multi-class network exactly, like MVAMulti, with a
// wavefront that keeps the sequential solver's memory layout: worker j computes the slices
// n₁ ≡ j (mod p) of the class with the largest population, in the same lexicographic order
// over the other classes, each worker in ONE slice buffer updated in place. The point
// (n₁, s) needs (n₁−1, s) from the previous worker's buffer and (n₁, s − stride_c) from its
// own; a worker may start (n₁, s) once the previous worker has finished (n₁−1, s), which it
// publishes through an atomic progress counter every block of points. The previous worker
// cannot overwrite (n₁−1, s) with (n₁−1+p, s) before this worker has finished (n₁, s),
// because that point depends on it through the other p − 1 workers. Memory: p slices of
// K_q·Π_{c≥2}(N_c+1) numbers — the cache footprint of the sequential solver per worker —
// and bit-identical results (the same kernel in the same order). WithClassOrder picks another
// walk order. Every slice is read by another core, which limits the gain on two cores to
// about 1.3×: MVAMultiSplit, which splits every slice instead, is faster and is what Solve
// uses; this walk is kept as pmva's "interleaved" algorithm.
func MVAMultiInterleaved(m *Model, workers int, opts ...ExactOption) (*Result, *ParallelStats, error) {
	p, workers, err := newParallel(m, workers, opts)
	if err != nil {
		return nil, nil, err
	}
	if len(p.N) >= 2 && p.Kq >= 1 {
		res, st := p.interleavedRows(workers)
		return res, st, nil
	}
	C, Kq := len(p.N), p.Kq
	n1 := p.N[0] + 1
	S := p.slice
	workers, bufs := p.sliceBuffers(workers)
	zero := make([]float64, Kq)
	progress := make([]atomic.Int64, workers) // points finished, counted over the worker's own slices
	wake := wakeChans(workers)                // wake[j]: worker j published progress
	st := interleavedStats(workers, n1, S)
	const block = 256
	var final struct{ x, rk, q []float64 }
	st.Wall = runWorkers(workers, func(j int) {
		own := bufs[j]
		prevW := (j - 1 + workers) % workers
		prevBuf := bufs[prevW]
		n := make([]int, C)
		nbs := make([][]float64, C)
		rk := make([]float64, Kq*C)
		x := make([]float64, C)
		tmp := make([]float64, Kq)
		var waitT time.Duration
		t0 := time.Now()
		done := int64(0) // points finished by this worker
		for n0 := j; n0 < n1; n0 += workers {
			n[0] = n0
			clear(n[1:])
			// the previous worker's count of finished points when (n0−1, S−1) is done
			var need int64
			horizon := S
			if n0 > 0 && workers > 1 {
				need = int64((n0-1)/workers) * int64(S) // its slices before n0−1
				horizon = 0
			}
			for idx := 0; idx < S; idx++ {
				if idx >= horizon {
					dt, _ := await(nil, func() bool { return progress[prevW].Load()-need > int64(idx) }, wake[prevW])
					waitT += dt
					horizon = int(min(progress[prevW].Load()-need, int64(S)))
				}
				if n0 == 0 {
					nbs[0] = zero
				} else if workers == 1 {
					// in place: the kernel overwrites the slot it reads, so copy first
					copy(tmp, own[idx*Kq:(idx+1)*Kq])
					nbs[0] = tmp
				} else {
					nbs[0] = prevBuf[idx*Kq : (idx+1)*Kq]
				}
				p.neighbours(n, idx, own, nbs)
				p.kernel(n, nbs, own[idx*Kq:(idx+1)*Kq], rk, x)
				done++
				if done%block == 0 || idx == S-1 {
					progress[j].Store(done)
					signal(wake[j])
				}
				p.advance(n)
			}
		}
		st.Compute[j] = time.Since(t0) - waitT
		st.Wait[j] = waitT
		if (n1-1)%workers == j {
			final.x = append([]float64(nil), x...)
			final.rk = append([]float64(nil), rk...)
			final.q = append([]float64(nil), own[(S-1)*Kq:S*Kq]...)
		}
	})
	res := p.result(final.x, final.rk, final.q, st.Points)
	res.Solver, res.Method = "mva-interleaved", "mva-interleaved"
	return res, st, nil
}

// interleavedStats starts the statistics of an interleaved walk: worker j computes the
// slices n₀ ≡ j (mod workers) of n1.
func interleavedStats(workers, n1, S int) *ParallelStats {
	st := newStats(workers, S, n1*S)
	for j := 0; j < workers; j++ {
		st.Range = append(st.Range, (n1-j+workers-1)/workers)
	}
	return st
}
