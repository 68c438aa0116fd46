package qn

import (
	"runtime"
	"sync"
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
// walk order.
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
	// A worker that must wait spins briefly, then blocks on its predecessor's notify channel:
	// on a host that gives us less than a core per worker, spinning would take the CPU from
	// the very worker it waits for.
	notify := make([]chan struct{}, workers) // notify[j]: worker j published progress
	for j := range notify {
		notify[j] = make(chan struct{}, 1)
	}
	st := &ParallelStats{Workers: workers, Positions: S, Compute: make([]time.Duration, workers), Wait: make([]time.Duration, workers), Points: n1 * S}
	for j := 0; j < workers; j++ {
		st.Range = append(st.Range, (n1-j+workers-1)/workers)
	}
	const block = 256
	const slack = 8 * block
	var final struct{ x, rk, q []float64 }
	start := time.Now()
	var wg sync.WaitGroup
	for j := 0; j < workers; j++ {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
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
				for i := 1; i < C; i++ {
					n[i] = 0
				}
				// the previous worker's count of finished points when (n0−1, S−1) is done
				var need int64
				if n0 > 0 && workers > 1 {
					need = int64((n0-1)/workers) * int64(S) // its slices before n0−1
				}
				horizon := S
				if n0 > 0 && workers > 1 {
					horizon = 0
				}
				for idx := 0; idx < S; idx++ {
					if idx >= horizon {
						tw := time.Now()
						// Spin while the predecessor is close; once blocked, wait until it is
						// `slack` points ahead so that the next catch-up is far away.
						want := idx + 1
						for spins := 0; ; spins++ {
							h := int(progress[prevW].Load() - need)
							if h >= min(want, S) {
								horizon = min(h, S)
								break
							}
							if spins < spinLimit {
								runtime.Gosched()
							} else {
								want = idx + slack
								<-notify[prevW]
							}
						}
						waitT += time.Since(tw)
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
					for ci := 1; ci < C; ci++ {
						if n[ci] > 0 {
							k := idx - p.strides[ci]
							nbs[ci] = own[k*Kq : (k+1)*Kq]
						}
					}
					p.kernel(n, nbs, own[idx*Kq:(idx+1)*Kq], rk, x)
					done++
					if done%block == 0 || idx == S-1 {
						progress[j].Store(done)
						select {
						case notify[j] <- struct{}{}:
						default:
						}
					}
					for ci := C - 1; ci >= 1; ci-- {
						n[ci]++
						if n[ci] <= p.N[ci] {
							break
						}
						n[ci] = 0
					}
				}
			}
			st.Compute[j] = time.Since(t0) - waitT
			st.Wait[j] = waitT
			if (n1-1)%workers == j {
				final.x = append([]float64(nil), x...)
				final.rk = append([]float64(nil), rk...)
				final.q = append([]float64(nil), own[(S-1)*Kq:S*Kq]...)
			}
		}(j)
	}
	wg.Wait()
	st.Wall = time.Since(start)
	res := p.result(final.x, final.rk, final.q, st.Points)
	res.Solver, res.Method = "mva-interleaved", "mva-interleaved"
	return res, st, nil
}

// spinLimit is how many times a waiting worker yields before it blocks.
const spinLimit = 200
