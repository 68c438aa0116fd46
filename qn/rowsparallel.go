package qn

import (
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
// same order per point). Every slice crosses from core to core, which is why MVAMultiSplit
// (rowsplit.go) is faster on two cores; this walk is kept as pmva's "interleaved" algorithm.
func (p *multi) interleavedRows(workers int) (*Result, *ParallelStats) {
	Kq := p.Kq
	n1 := p.N[0] + 1
	S := p.slice
	workers, bufs := p.sliceBuffers(workers)
	rows := S / (p.N[len(p.N)-1] + 1)
	progress := make([]atomic.Int64, workers) // rows finished, over the worker's own slices
	wake := wakeChans(workers)
	st := interleavedStats(workers, n1, S)
	var nb0 []float64 // Q at N − e₀, saved before the last slice overwrites it (one worker)
	lastW := (n1 - 1) % workers
	st.Wall = runWorkers(workers, func(j int) {
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
				if workers > 1 {
					dt, _ := await(nil, func() bool { return progress[prevW].Load()-need >= want }, wake[prevW])
					waitT += dt
				}
				if n0 == n1-1 && r0+G == rows { // the group holding N: keep Q(N − e₀)
					at := (S - 1) * Kq
					nb0 = append([]float64(nil), prevBuf[at:at+Kq]...)
				}
			}
			after := func(r int) {
				progress[j].Store(done + int64(r))
				signal(wake[j])
			}
			if n0 == 0 {
				w.slice(n0, own, own, 0, rows, nil, after) // slice 0 reads no class-0 neighbour
			} else {
				w.slice(n0, prevBuf, own, 0, rows, before, after)
			}
			done += int64(rows)
		}
		st.Compute[j] = time.Since(t0) - waitT
		st.Wait[j] = waitT
	})
	res := p.finalPoint(nb0, bufs[lastW], st.Points)
	res.Solver, res.Method = "mva-interleaved", "mva-interleaved"
	return res, st
}
