package qn

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// interleavedRows is MVAMultiInterleaved on the row walk of multirow.go: worker j computes
// the slices n₀ ≡ j (mod workers) of the class with the largest population, each in ONE
// buffer updated in place, group by group of rowGroup rows. A group of slice n₀ needs the
// same rows of slice n₀ − 1 from the previous worker, which publishes the number of rows
// it has finished after every group; the previous worker cannot overwrite those rows with
// slice n₀ − 1 + workers before this worker has published them, because that slice depends
// on them through the other workers. Bit-identical to MVAMulti (the same arithmetic in the
// same order per point). Waiting spins briefly, then blocks on the predecessor's channel.
func (p *multi) interleavedRows(workers int) (*Result, *ParallelStats) {
	Kq := p.Kq
	n1 := p.N[0] + 1
	S := p.slice
	workers, bufs := p.sliceBuffers(workers)
	rows := S / (p.N[len(p.N)-1] + 1)
	progress := make([]atomic.Int64, workers) // rows finished, over the worker's own slices
	notify := make([]chan struct{}, workers)
	for j := range notify {
		notify[j] = make(chan struct{}, 1)
	}
	st := &ParallelStats{Workers: workers, Positions: S, Compute: make([]time.Duration, workers), Wait: make([]time.Duration, workers), Points: n1 * S}
	for j := 0; j < workers; j++ {
		st.Range = append(st.Range, (n1-j+workers-1)/workers)
	}
	var nb0 []float64 // Q at N − e₀, saved before the last slice overwrites it (one worker)
	lastW := (n1 - 1) % workers
	start := time.Now()
	var wg sync.WaitGroup
	for j := 0; j < workers; j++ {
		wg.Add(1)
		go func(j int) {
			defer wg.Done()
			w := p.newRowWalker()
			own := bufs[j]
			prevW := (j - 1 + workers) % workers
			prevBuf := bufs[prevW]
			if workers == 1 {
				prevBuf = own
			}
			var waitT time.Duration
			t0 := time.Now()
			done := int64(0)
			for n0 := j; n0 < n1; n0 += workers {
				var need int64 // the predecessor's rows finished before slice n0 − 1
				if n0 > 0 {
					need = int64((n0-1)/workers) * int64(rows)
				}
				before := func(r0, G int) {
					want := int64(r0 + G)
					if workers > 1 && progress[prevW].Load()-need < want {
						tw := time.Now()
						for spins := 0; progress[prevW].Load()-need < want; spins++ {
							if spins < spinLimit {
								runtime.Gosched()
							} else {
								<-notify[prevW]
							}
						}
						waitT += time.Since(tw)
					}
					if n0 == n1-1 && r0+G == rows { // the group holding N: keep Q(N − e₀)
						at := (S - 1) * Kq
						nb0 = append([]float64(nil), prevBuf[at:at+Kq]...)
					}
				}
				after := func(r int) {
					progress[j].Store(done + int64(r))
					select {
					case notify[j] <- struct{}{}:
					default:
					}
				}
				if n0 == 0 {
					w.slice(n0, own, own, nil, after) // slice 0 reads no class-0 neighbour
				} else {
					w.slice(n0, prevBuf, own, before, after)
				}
				done += int64(rows)
			}
			st.Compute[j] = time.Since(t0) - waitT
			st.Wait[j] = waitT
		}(j)
	}
	wg.Wait()
	st.Wall = time.Since(start)
	res := p.finalPoint(nb0, bufs[lastW], st.Points)
	res.Solver, res.Method = "mva-interleaved", "mva-interleaved"
	return res, st
}
