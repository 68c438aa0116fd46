package qn

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// ParallelStats reports how a parallel exact solver spent its time (per worker), the
// inputs of the thesis's performance model (001 eqs. 6.3–6.5).
type ParallelStats struct {
	Workers   int
	Points    int           // population vectors computed
	Wall      time.Duration // whole solve
	Compute   []time.Duration
	Wait      []time.Duration // time blocked on another worker (communication + idling)
	Positions int             // Π_{c≥2}(N_c+1): pipeline steps (points per slice)
	Range     []int           // per worker: class-1 subscripts (MVAMultiParallel, MVAMultiInterleaved), rows of every slice (MVAMultiSplit)
}

// newStats starts the statistics of a parallel walk of points population vectors by workers
// workers over positions pipeline steps.
func newStats(workers, positions, points int) *ParallelStats {
	return &ParallelStats{Workers: workers, Positions: positions, Points: points, Compute: make([]time.Duration, workers), Wait: make([]time.Duration, workers)}
}

// newParallel prepares a parallel exact walk: the set-up of newMulti and the worker count
// (≤ 0: runtime.GOMAXPROCS(0)).
func newParallel(m *Model, workers int, opts []ExactOption) (*multi, int, error) {
	p, err := newMulti(m, opts)
	if err != nil {
		return nil, 0, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return p, workers, nil
}

// runWorkers runs work(0) … work(workers−1) on goroutines of their own and returns when all
// have returned, with the wall time.
func runWorkers(workers int, work func(j int)) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for j := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(j)
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// spinLimit is how many times a waiting worker yields before it blocks.
const spinLimit = 200

// await returns once ready() holds, with the time it waited. It yields the processor
// spinLimit times, then blocks on wake, a channel with a buffer of one that gets a token
// (signal) after every change ready reads: on a host that gives us less than a core per
// worker, spinning would take the CPU from the very worker it waits for. It gives up with
// ctx's error when ctx is done (nil ctx: never).
func await(ctx context.Context, ready func() bool, wake <-chan struct{}) (time.Duration, error) {
	if ready() {
		return 0, nil
	}
	var done <-chan struct{}
	if ctx != nil {
		done = ctx.Done()
	}
	t0 := time.Now()
	for spins := 0; !ready(); spins++ {
		if spins < spinLimit {
			runtime.Gosched()
			continue
		}
		select {
		case <-wake:
		case <-done:
			return time.Since(t0), ctx.Err()
		}
	}
	return time.Since(t0), nil
}

// signal leaves a token in wake (see await) unless one is there already.
func signal(wake chan<- struct{}) {
	select {
	case wake <- struct{}{}:
	default:
	}
}

// wakeChans makes one wake channel (see await) per worker.
func wakeChans(workers int) []chan struct{} {
	w := make([]chan struct{}, workers)
	for j := range w {
		w[j] = make(chan struct{}, 1)
	}
	return w
}

// sliceBuffers caps workers at the n₁ values there are (at least 1) and gives each worker
// one slice buffer of Π_{c≥2}(N_c+1)·K_q numbers, the interleaved walks' memory.
func (p *multi) sliceBuffers(workers int) (int, [][]float64) {
	workers = max(1, min(workers, p.N[0]+1))
	bufs := make([][]float64, workers)
	for j := range bufs {
		bufs[j] = make([]float64, p.slice*p.Kq)
	}
	return workers, bufs
}

// MVAMultiParallel solves a closed multi-class network exactly, like MVAMulti, with the
// pipelined algorithm of 001 §6.1: the class with the largest population is class 1 (001
// §6.1.6); worker j owns a contiguous range of its populations n₁ and walks the sub-lattice of
// the other classes in lexicographic order, computing its whole n₁ range at each position.
// Q(n − e₁) at the bottom of a range comes from worker j−1 at the same position (sent in
// batches over a channel); Q(n − e_c), c ≥ 2, from the worker's own ring buffer of the last
// Π_{c≥3}(N_c+1)+1 positions. Memory: (N₁+1)·(Π_{c≥3}(N_c+1)+1)·K numbers in all.
// Every point is computed with the same arithmetic in the same order as MVAMulti, so the
// results are identical. workers ≤ 0 means runtime.GOMAXPROCS(0). WithClassOrder picks
// another class 1 and order (001 Fig. 6.8).
func MVAMultiParallel(m *Model, workers int, opts ...ExactOption) (*Result, *ParallelStats, error) {
	p, workers, err := newParallel(m, workers, opts)
	if err != nil {
		return nil, nil, err
	}
	C, K := len(p.N), p.Kq // points store queue-station queue lengths only
	n1 := p.N[0] + 1
	workers = max(1, min(workers, n1))
	pl := &pipeWalk{p: p, workers: workers, positions: p.slice, ring: 1} // positions: Π_{c≥2}(N_c+1), in lex order of classes 2…C
	for ci := 1; ci < C; ci++ {
		pl.ring = max(pl.ring, p.strides[ci]+1) // positions kept: the largest stride plus the current one
	}
	if float64(n1)*float64(pl.ring)*float64(K)*8 > 8<<30 {
		return nil, nil, fmt.Errorf("%w: parallel exact MVA would need %.3g GB (limit 8.6 GB); use solver linearizer", fault.ErrTooLarge, float64(n1)*float64(pl.ring)*float64(K)*8/1e9)
	}
	pl.st = newStats(workers, pl.positions, n1*pl.positions)
	// ranges of n₁
	pl.lo = make([]int, workers+1)
	for j := 0; j <= workers; j++ {
		pl.lo[j] = j * n1 / workers
	}
	for j := 0; j < workers; j++ {
		pl.st.Range = append(pl.st.Range, pl.lo[j+1]-pl.lo[j])
	}
	pl.links = make([]chan []float64, workers) // links[j]: from worker j-1 to j
	for j := 1; j < workers; j++ {
		pl.links[j] = make(chan []float64, 4)
	}
	pl.st.Wall = runWorkers(workers, pl.work)
	res := p.result(pl.final.x, pl.final.rk, pl.final.q, pl.st.Points)
	res.Solver, res.Method = "mva-parallel", "mva-parallel"
	return res, pl.st, nil
}

// pipelineBatch is how many boundary queue-length vectors a worker sends at once.
const pipelineBatch = 64

// pipeWalk is MVAMultiParallel's shared state: worker j owns n₁ ∈ [lo[j], lo[j+1]) and
// receives its bottom boundary from links[j]; ring positions of each worker's range are
// kept; the last worker leaves the result at the full population in final.
type pipeWalk struct {
	p                  *multi
	workers, positions int
	ring               int
	lo                 []int
	links              []chan []float64
	st                 *ParallelStats
	final              struct{ x, rk, q []float64 }
}

// pipeWorker is one worker's state: buf[(pos%ring)][n₁−a][k] holds its queue lengths;
// in/inAt the batch of boundaries being read, out the batch being filled.
type pipeWorker struct {
	pl      *pipeWalk
	j, a, b int
	width   int
	buf, rk []float64
	x       []float64
	n       []int
	nbs     [][]float64
	in, out []float64
	inAt    int
	waitT   time.Duration
}

// work is worker j's walk over every position of the other classes' sub-lattice.
func (pl *pipeWalk) work(j int) {
	C, K := len(pl.p.N), pl.p.Kq
	a, b := pl.lo[j], pl.lo[j+1] // n₁ ∈ [a, b)
	w := &pipeWorker{pl: pl, j: j, a: a, b: b, width: b - a,
		buf: make([]float64, pl.ring*(b-a)*K), rk: make([]float64, K*C), x: make([]float64, C),
		n: make([]int, C), nbs: make([][]float64, C)}
	t0 := time.Now()
	for pos := 0; pos < pl.positions; pos++ {
		w.row(pos, w.receive())
		w.send(pos)
		pl.p.advance(w.n)
	}
	pl.st.Compute[j], pl.st.Wait[j] = time.Since(t0)-w.waitT, w.waitT
	if j == pl.workers-1 {
		last := ((pl.positions - 1) % pl.ring) * w.width * K
		pl.final.x = append([]float64(nil), w.x...)
		pl.final.rk = append([]float64(nil), w.rk...)
		pl.final.q = append([]float64(nil), w.buf[last+(w.width-1)*K:last+w.width*K]...)
	}
}

// receive returns the boundary Q(a−1, pos) from the predecessor (nil for the first
// worker, or when a = 0), reading a new batch from the link when the last is used up.
func (w *pipeWorker) receive() []float64 {
	K := w.pl.p.Kq
	if w.j == 0 || w.a == 0 {
		return nil
	}
	if w.in == nil || w.inAt == len(w.in)/K {
		tw := time.Now()
		w.in = <-w.pl.links[w.j]
		w.waitT += time.Since(tw)
		w.inAt = 0
	}
	bnd := w.in[w.inAt*K : (w.inAt+1)*K]
	w.inAt++
	return bnd
}

// row computes Q(n₁, pos) for n₁ ∈ [a, b): Q(n − e₁) from the row below (bnd at the
// bottom), Q(n − e_c), c ≥ 2, from the ring position pos − stride_c.
func (w *pipeWorker) row(pos int, bnd []float64) {
	p, K, ring, width := w.pl.p, w.pl.p.Kq, w.pl.ring, w.width
	n, nbs, buf := w.n, w.nbs, w.buf
	slot := (pos % ring) * width * K
	for i := w.a; i < w.b; i++ {
		n[0] = i
		if i == w.a {
			nbs[0] = bnd
		} else {
			nbs[0] = buf[slot+(i-w.a-1)*K : slot+(i-w.a)*K]
		}
		for ci := 1; ci < len(n); ci++ {
			if n[ci] > 0 {
				ps := ((pos-p.strides[ci])%ring + ring) % ring
				nbs[ci] = buf[ps*width*K+(i-w.a)*K : ps*width*K+(i-w.a+1)*K]
			}
		}
		p.kernel(n, nbs, buf[slot+(i-w.a)*K:slot+(i-w.a+1)*K], w.rk, w.x)
	}
}

// send passes Q(b−1, pos) on to the next worker, in batches of pipelineBatch (the last
// batch at the last position).
func (w *pipeWorker) send(pos int) {
	pl, K := w.pl, w.pl.p.Kq
	if w.j+1 >= pl.workers {
		return
	}
	if w.out == nil {
		w.out = make([]float64, 0, pipelineBatch*K)
	}
	slot := (pos % pl.ring) * w.width * K
	w.out = append(w.out, w.buf[slot+(w.width-1)*K:slot+w.width*K]...)
	if len(w.out) == pipelineBatch*K || pos == pl.positions-1 {
		tw := time.Now()
		pl.links[w.j+1] <- w.out
		w.waitT += time.Since(tw)
		w.out = nil
	}
}
