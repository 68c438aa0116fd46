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
	positions := p.slice // Π_{c≥2}(N_c+1), in lex order of classes 2…C
	ring := 1            // positions kept: the largest stride plus the current one
	for ci := 1; ci < C; ci++ {
		ring = max(ring, p.strides[ci]+1)
	}
	if float64(n1)*float64(ring)*float64(K)*8 > 8<<30 {
		return nil, nil, fmt.Errorf("%w: parallel exact MVA would need %.3g GB (limit 8.6 GB); use solver linearizer", fault.ErrTooLarge, float64(n1)*float64(ring)*float64(K)*8/1e9)
	}
	st := newStats(workers, positions, n1*positions)
	// ranges of n₁
	lo := make([]int, workers+1)
	for j := 0; j <= workers; j++ {
		lo[j] = j * n1 / workers
	}
	for j := 0; j < workers; j++ {
		st.Range = append(st.Range, lo[j+1]-lo[j])
	}
	const batch = 64
	links := make([]chan []float64, workers) // links[j]: from worker j-1 to j
	for j := 1; j < workers; j++ {
		links[j] = make(chan []float64, 4)
	}
	var final struct {
		x, rk, q []float64
	}
	st.Wall = runWorkers(workers, func(j int) {
		a, b := lo[j], lo[j+1] // n₁ ∈ [a, b)
		width := b - a
		buf := make([]float64, ring*width*K) // buf[(pos%ring)][n1-a][k]
		rk := make([]float64, K*C)
		x := make([]float64, C)
		n := make([]int, C)
		nbs := make([][]float64, C)
		var in, out []float64
		inAt := 0
		var computeT, waitT time.Duration
		t0 := time.Now()
		for pos := 0; pos < positions; pos++ {
			// boundary Q(a−1, pos) from the predecessor
			var bnd []float64
			if j > 0 && a > 0 {
				if in == nil || inAt == len(in)/K {
					tw := time.Now()
					in = <-links[j]
					waitT += time.Since(tw)
					inAt = 0
				}
				bnd = in[inAt*K : (inAt+1)*K]
				inAt++
			}
			slot := (pos % ring) * width * K
			for i := a; i < b; i++ {
				n[0] = i
				if i == a {
					nbs[0] = bnd
				} else {
					nbs[0] = buf[slot+(i-a-1)*K : slot+(i-a)*K]
				}
				for ci := 1; ci < C; ci++ {
					if n[ci] > 0 {
						ps := ((pos-p.strides[ci])%ring + ring) % ring
						nbs[ci] = buf[ps*width*K+(i-a)*K : ps*width*K+(i-a+1)*K]
					}
				}
				p.kernel(n, nbs, buf[slot+(i-a)*K:slot+(i-a+1)*K], rk, x)
			}
			// pass Q(b−1, pos) on
			if j+1 < workers {
				if out == nil {
					out = make([]float64, 0, batch*K)
				}
				out = append(out, buf[slot+(width-1)*K:slot+width*K]...)
				if len(out) == batch*K || pos == positions-1 {
					tw := time.Now()
					links[j+1] <- out
					waitT += time.Since(tw)
					out = nil
				}
			}
			p.advance(n)
		}
		computeT = time.Since(t0) - waitT
		st.Compute[j], st.Wait[j] = computeT, waitT
		if j == workers-1 {
			last := ((positions - 1) % ring) * width * K
			final.x = append([]float64(nil), x...)
			final.rk = append([]float64(nil), rk...)
			final.q = append([]float64(nil), buf[last+(width-1)*K:last+width*K]...)
		}
	})
	res := p.result(final.x, final.rk, final.q, st.Points)
	res.Solver, res.Method = "mva-parallel", "mva-parallel"
	return res, st, nil
}
