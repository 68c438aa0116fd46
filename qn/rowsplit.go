package qn

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
)

// MVAMultiSplit solves a closed network of queue and delay stations exactly, like MVAMulti,
// on several cores by splitting EVERY slice of the row walk (multirow.go) by rows (issue 20).
//
// A slice (one population n₀ of the class walked first) is R = Π_{c=1}^{C−2}(N_c+1) rows of
// N_{C−1}+1 points. Row r needs the same row of the previous slice (class 0; in place, the
// worker's own) and the rows r − stride_c, c = 1 … C−2, of the same slice. Worker j owns the
// rows [lo_j, lo_{j+1}) of every slice and updates them in place in a buffer of its own, in
// the same order and with the same arithmetic as MVAMulti, so the results are bit-identical.
// Only the first rows of worker j depend on another worker: on the last B rows of worker
// j−1 in the same slice, B = Π_{c=2}^{C−2}(N_c+1) the row stride of class 1 (B = 1 for
// C = 3). After each slice worker j−1 copies those B rows into a ring of ringDepth slices
// and publishes the count (one atomic store); worker j copies them into its buffer before
// its slice. So worker j−1 runs freely ahead of j
// (waiting only when it is ringDepth slices ahead), each slice crosses cores as B rows
// (4 KB on the thesis network) instead of the whole slice (730 KB: MVAMultiInterleaved),
// and there are N₀+1 synchronisations per pair of workers. The rows are balanced by work
// (points × active classes). Waiting spins briefly, then blocks (await).
//
// It needs C ≥ 3 classes with at least 2·B rows per slice and a queue station to use more
// than one worker; otherwise (and with workers = 1) it is the sequential row walk. workers ≤
// 0 means runtime.GOMAXPROCS(0), but no more than give each worker minSplitPoints points
// of every slice. ctx is checked at every slice: a cancelled ctx stops every
// worker within one slice and returns ctx's error. The Result's Method is "mva-split" when
// more than one worker ran, else "mva". Memory: one slice buffer (K_q·Π_{c≥1}(N_c+1)
// numbers) per worker plus the rings, with no more workers than fit in the sequential
// walk's budget (two slices within 8 GiB). WithClassOrder picks another walk order.
func MVAMultiSplit(ctx context.Context, m *Model, workers int, opts ...ExactOption) (*Result, *ParallelStats, error) {
	auto := workers <= 0
	p, workers, err := newParallel(m, workers, opts)
	if err != nil {
		return nil, nil, err
	}
	if auto { // enough work per slice to pay for a synchronisation (a microsecond or so)
		workers = max(1, min(workers, p.slice/minSplitPoints))
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if len(p.N) < 2 || p.Kq < 1 { // no rows to walk: the point-by-point walk
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		st := newStats(1, p.slice, (p.N[0]+1)*p.slice)
		t0 := time.Now()
		res := p.solve()
		st.Wall = time.Since(t0)
		st.Compute[0] = st.Wall
		return res, st, nil
	}
	return p.splitRows(ctx, workers, ringDepth)
}

// ringDepth is how many slices a worker may run ahead of its successor in MVAMultiSplit
// (fewer when a slice's boundary rows are large: at most ringBytes per ring). On the thesis
// network 128 slices are 512 KB, many scheduler time slices of one worker's work
// (bench/qn-timings.md): a successor descheduled by a busy host does not stop its
// predecessor.
const (
	ringDepth = 128
	ringBytes = 4 << 20
)

// minSplitPoints is the fewest points of every slice a worker gets when MVAMultiSplit
// chooses the number of workers (a synchronisation's cost: bench/qn-timings.md): the thesis network
// at N/4 (1440 points per slice) runs on 2 workers, at N (22 784) on up to 44.
const minSplitPoints = 512

// splitPoints returns the row ranges lo[0] = 0 < lo[1] < … < lo[w] = rows of at most workers
// workers with equal work, each at least back rows long (a worker's rows may depend only on
// its predecessor's). The work of row r is its points times (2 + its active classes among
// 1 … C−2): class 0 and the last class are active at almost every point.
func (p *multi) splitPoints(workers, rows, back int) []int {
	C := len(p.N)
	workers = max(1, min(workers, rows/max(back, 1)))
	if workers == 1 {
		return []int{0, rows}
	}
	cum := make([]float64, rows+1)
	n := make([]int, C)
	for r := range rows {
		w := 2.0
		for ci := 1; ci <= C-2; ci++ {
			if n[ci] > 0 {
				w++
			}
		}
		cum[r+1] = cum[r] + w
		for ci := C - 2; ci >= 1; ci-- { // odometer over classes 1 … C−2
			n[ci]++
			if n[ci] <= p.N[ci] {
				break
			}
			n[ci] = 0
		}
	}
	lo := []int{0}
	r := 0
	for j := 1; j < workers; j++ {
		target := cum[rows] * float64(j) / float64(workers)
		for r < rows && cum[r] < target {
			r++
		}
		if r > 0 && target-cum[r-1] < cum[r]-target { // the nearer bound
			r--
		}
		// at least back rows after the previous bound and enough left for the others
		r = min(max(r, lo[j-1]+back), rows-(workers-j)*back)
		lo = append(lo, r)
	}
	return append(lo, rows)
}

// splitRows is MVAMultiSplit for C ≥ 2 and K_q ≥ 1, with rings of at most maxDepth slices.
func (p *multi) splitRows(ctx context.Context, workers, maxDepth int) (*Result, *ParallelStats, error) {
	Kq, S, C := p.Kq, p.slice, len(p.N)
	w0 := p.newRowWalker()
	rs := &rowSplit{p: p, ctx: ctx, w0: w0, rowLen: w0.rowLen, n1: p.N[0] + 1}
	if C >= 3 {
		rs.back = p.strides[1] / rs.rowLen // rows below its range a worker reads: the largest row stride, class 1's
	}
	rs.slot = rs.back * rs.rowLen * Kq // floats in one ring slot: B rows
	rs.depth = max(1, min(maxDepth, ringBytes/max(8*rs.slot, 1)))
	// Each worker holds a slice buffer and a ring: no more workers than fit in the
	// sequential walk's memory budget (newMulti: two slices within 8 GiB).
	workers = min(workers, max(1, int((8<<30)/(float64(S*Kq)*8+float64(rs.depth*rs.slot)*8))))
	rs.lo = p.splitPoints(workers, w0.rows, rs.back)
	workers = len(rs.lo) - 1
	rs.workers = workers
	rs.st = newStats(workers, S, rs.n1*S)
	rs.bufs = make([][]float64, workers)
	rs.rings = make([][]float64, workers)
	for j := range rs.bufs {
		rs.bufs[j] = make([]float64, S*Kq)
		if j > 0 {
			rs.rings[j] = make([]float64, rs.depth*rs.slot)
		}
		rs.st.Range = append(rs.st.Range, rs.lo[j+1]-rs.lo[j])
	}
	rs.done = make([]gate, workers)
	rs.taken = make([]gate, workers)
	for j := range rs.done {
		rs.done[j].wake, rs.taken[j].wake = make(chan struct{}, 1), make(chan struct{}, 1)
	}
	// A blocked worker sleeps until its neighbour is batch slices past what it needs, so
	// that on a busy host it is woken once per batch, not once per slice. batch < depth:
	// the neighbour can always get that far (it is never more than depth slices apart).
	rs.batch = int64(min(16, rs.depth-1))
	rs.errs = make([]error, workers)
	rs.st.Wall = runWorkers(workers, rs.work)
	for _, err := range rs.errs {
		if err != nil {
			return nil, nil, err
		}
	}
	lo, rowLen := rs.lo, rs.rowLen
	last := rs.bufs[0] // gather the last slice
	for j := 1; j < workers; j++ {
		copy(last[lo[j]*rowLen*Kq:lo[j+1]*rowLen*Kq], rs.bufs[j][lo[j]*rowLen*Kq:lo[j+1]*rowLen*Kq])
	}
	res := p.finalPoint(rs.nb0, last, rs.st.Points)
	if workers > 1 {
		res.Method = "mva-split"
	}
	return res, rs.st, nil
}

// rowSplit is splitRows's shared state: worker j owns rows [lo[j], lo[j+1]) of every
// slice in bufs[j]; the back rows below its range come from worker j−1 through rings[j],
// a ring of depth slots of slot floats. done[j] counts the slices worker j has published,
// taken[j] those worker j has copied out of rings[j].
type rowSplit struct {
	p                  *multi
	ctx                context.Context
	w0                 *rowWalker
	workers, n1        int
	rowLen, back, slot int
	depth              int
	batch              int64
	lo                 []int
	bufs, rings        [][]float64
	done, taken        []gate
	errs               []error
	st                 *ParallelStats
	nb0                []float64 // Q at N − e₀ (position S−1, the last worker's), kept before slice N₀
}

// work is worker j's walk over the slices n₀ = 0..N₀ of its rows: take the boundary rows
// of worker j−1, compute, publish its own last back rows for worker j+1.
func (rs *rowSplit) work(j int) {
	p, Kq, S := rs.p, rs.p.Kq, rs.p.slice
	w := rs.w0
	if j > 0 {
		w = p.newRowWalker()
	}
	buf := rs.bufs[j]
	a, b := rs.lo[j], rs.lo[j+1]
	var waitT time.Duration
	t0 := time.Now()
	defer func() {
		rs.st.Compute[j] = time.Since(t0) - waitT
		rs.st.Wait[j] = waitT
	}()
	for n0 := range rs.n1 {
		if err := rs.ctx.Err(); err != nil {
			rs.errs[j] = err
			return
		}
		if j > 0 { // worker j−1's boundary rows of this slice
			dt, err := rs.done[j-1].wait(rs.ctx, int64(n0)+1, min(int64(n0)+1+rs.batch, int64(rs.n1)))
			waitT += dt
			if err != nil {
				rs.errs[j] = err
				return
			}
			at := (n0 % rs.depth) * rs.slot
			copy(buf[(a-rs.back)*rs.rowLen*Kq:a*rs.rowLen*Kq], rs.rings[j][at:at+rs.slot])
			rs.taken[j].publish(int64(n0) + 1)
		}
		if j == rs.workers-1 && n0 == rs.n1-1 && n0 > 0 {
			rs.nb0 = append([]float64(nil), buf[(S-1)*Kq:S*Kq]...)
		}
		w.slice(n0, buf, buf, a, b, nil, nil)
		if j+1 < rs.workers { // publish this slice's last back rows for worker j+1
			need := int64(n0-rs.depth) + 1 // slot n0 % depth last held slice n0 − depth
			dt, err := rs.taken[j+1].wait(rs.ctx, need, need+rs.batch)
			waitT += dt
			if err != nil {
				rs.errs[j] = err
				return
			}
			at := (n0 % rs.depth) * rs.slot
			copy(rs.rings[j+1][at:at+rs.slot], buf[(b-rs.back)*rs.rowLen*Kq:b*rs.rowLen*Kq])
			rs.done[j].publish(int64(n0) + 1)
		}
	}
}

// gate is a count one worker publishes and one other worker waits on (MVAMultiSplit).
type gate struct {
	n    atomic.Int64 // the published count
	want atomic.Int64 // what the blocked waiter waits for; 0: not blocked
	wake chan struct{}
}

// publish makes the count n and wakes the waiter if it is blocked and n is what it wants.
func (g *gate) publish(n int64) {
	g.n.Store(n)
	if w := g.want.Load(); w != 0 && n >= w {
		signal(g.wake)
	}
}

// wait returns once the count is at least need, with the time waited. It yields the
// processor spinLimit times while the count is short; then it blocks until the count is
// at least until (≥ need, and a count the publisher is sure to reach) or ctx is done.
// The order of the two atomics (want stored, then n loaded; n stored, then want loaded)
// guarantees that a publish either is seen by the check or sends the wake-up.
func (g *gate) wait(ctx context.Context, need, until int64) (time.Duration, error) {
	if g.n.Load() >= need {
		return 0, nil
	}
	t0 := time.Now()
	for range spinLimit {
		runtime.Gosched()
		if g.n.Load() >= need {
			return time.Since(t0), nil
		}
	}
	g.want.Store(until)
	defer g.want.Store(0)
	for g.n.Load() < until {
		select {
		case <-g.wake:
		case <-ctx.Done():
			return time.Since(t0), ctx.Err()
		}
	}
	return time.Since(t0), nil
}
