package qn

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// MVASingle solves a single-class closed network exactly by Mean Value Analysis
// (QSP ch. 6, eqs. 6.1–6.3):
//
//	R_k(n) = D_k·(1 + Q_k(n−1))   queue
//	R_k(n) = D_k                  delay
//	X(n)   = n / (Z + Σ_k Count_k·R_k(n)),   Q_k(n) = X(n)·R_k(n)
//
// Multi-server (m servers) and load-dependent stations use the marginal probabilities
// p_k(j|n) (QSP §20.3, BGdMT eq. 8.43):
//
//	multi-server: R_k(n) = (D_k/m)·(1 + Q_k(n−1) + Σ_{j=0}^{m−2} (m−1−j)·p_k(j|n−1))
//	load-dep.:    R_k(n) = D_k·Σ_{j=1}^{n} j/α(j)·p_k(j−1|n−1)
//	              p_k(j|n) = D_k·X(n)/α(j)·p_k(j−1|n−1),  j ≥ 1
//
// and p_k(0|n) = p_k(0|n−1)·X(n)/X₋ₖ(n), where X₋ₖ is the throughput of the network with one
// copy of k removed. That identity follows from p_k(0|n) = G₋ₖ(n)/G(n) and X(n) = G(n−1)/G(n);
// unlike the textbook 1 − Σ_{j≥1} p_k(j|n) it involves no subtraction and so cannot cancel
// to a negative probability. The reduced networks are solved recursively (memoised), which
// costs one extra solve per distinct count vector of multi-server/load-dependent stations.
//
// A load-dependent station keeps only L = min(len(Rates), N) marginal probabilities, with
// α(j) = α_L for j > L (BGdMT eq. 8.48's form, as mvaMultiLD):
//
//	R_k(n) = D_k·[(1 + Q_k(n−1))/α_L + Σ_{j=1}^{L} j·(1/α(j) − 1/α_L)·p_k(j−1|n−1)]
//
// and an m-server station with m ≥ N is a delay station (never more than N jobs, so every
// job has a server: α(j) = j for every reachable j), solved as one.
//
// Cost: singleWork — O(N·K) for queue and delay stations, O(N·min(m, N)) per multi-server
// and O(N·min(L, N)) per load-dependent station, times the Π(Count_k + 1) reduced networks.
// Beyond MaxSingleWork operations or maxSingleBytes of memory it refuses with
// fault.ErrTooLarge before allocating. The model must have exactly one class, closed.
//
// ctx stops it: it is checked about every million operations (the error wraps
// fault.ErrInterrupted and ctx's error).
func MVASingle(ctx context.Context, m *Model) (*Result, error) {
	if err := m.solvable(); err != nil {
		return nil, err
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, err
	}
	if len(m.Classes) != 1 || m.Classes[0].Open {
		return nil, unsupported("exact single-class MVA needs exactly one closed class (model has %d classes)", len(m.Classes))
	}
	if !singleFits(m, false) {
		why, _ := SingleAffordable(m, false)
		return nil, fmt.Errorf("%w: %s: use solver linearizer or schweitzer (approximate; auto does so), or a smaller population", fault.ErrTooLarge, why)
	}
	s := newSCSolver(ctx, m, 0)
	N := m.Classes[0].Population
	fin := s.run(s.counts, N, false)
	if s.err != nil {
		return nil, s.err
	}
	res := newResult("mva", 1, len(m.Stations))
	res.Status = Status{Converged: true, Iterations: N}
	res.Throughput[0] = fin.x
	for k := range m.Stations {
		res.Residence[k][0] = fin.r[k]
		res.QueueLength[k][0] = fin.x * fin.r[k]
		res.ResponseTime[0] += float64(m.Stations[k].Copies()) * fin.r[k]
		res.Utilization[k][0] = fin.u[k]
	}
	return res, nil
}

// MVASingleTrajectory returns X(n) and R(n) for n = 0..N of a single-class closed model
// (exact MVA computes every population on its way to N, so a population sweep is free).
func MVASingleTrajectory(m *Model) (x, r []float64, err error) {
	if err := m.solvable(); err != nil {
		return nil, nil, err
	}
	if len(m.Classes) != 1 || m.Classes[0].Open {
		return nil, nil, unsupported("exact single-class MVA needs exactly one closed class")
	}
	if !singleFits(m, true) {
		why, _ := SingleAffordable(m, true)
		return nil, nil, fmt.Errorf("%w: %s: use a smaller population", fault.ErrTooLarge, why)
	}
	s := newSCSolver(context.Background(), m, 0)
	N := m.Classes[0].Population
	fin := s.run(s.counts, N, true)
	r = make([]float64, N+1)
	for n := 1; n <= N; n++ {
		r[n] = float64(n)/fin.xs[n] - s.z
	}
	return fin.xs, r, nil
}

type scStation struct {
	st *Station // the model's station (not copied: 64 bytes each)
	d  float64
	// delay: a delay station, or an m-server station with m ≥ N (every job has a server,
	// so its residence is D: a delay station, exactly).
	delay bool
}

type scSolver struct {
	z      float64
	st     []scStation
	counts []int // copies per station
	memo   map[string][]float64
	ctx    context.Context
	err    error // set when ctx stopped the recursion
}

type scFinal struct {
	x  float64
	r  []float64 // residence per copy at N
	u  []float64
	xs []float64 // X(n), n = 0..N, when requested
}

func newSCSolver(ctx context.Context, m *Model, class int) *scSolver {
	K := len(m.Stations)
	s := &scSolver{z: m.Classes[class].ThinkTime, ctx: ctx, st: make([]scStation, K), counts: make([]int, K)}
	N := m.Classes[class].Population
	for k := range m.Stations {
		st := &m.Stations[k]
		s.st[k] = scStation{st: st, d: m.Demand[class][k], delay: scDelay(*st, N)}
		s.counts[k] = st.Copies()
	}
	return s
}

// scDelay reports whether the recursion treats st as a delay station at population N: a
// delay station, or an m-server station with m ≥ N (every job has a server).
func scDelay(st Station, N int) bool {
	return st.Kind == Delay || (st.Kind == MultiServer && st.Servers > 1 && st.Servers >= N)
}

// scMarginal reports whether the recursion keeps marginal probabilities for st at
// population N: a multi-server station with 1 < m < N, or a load-dependent station.
func scMarginal(st Station, N int) bool {
	return !scDelay(st, N) && marginalKind(st)
}

// marginalKind reports a multi-server station with more than one server or a
// load-dependent station.
func marginalKind(st Station) bool {
	return (st.Kind == MultiServer && st.Servers > 1) || st.Kind == LoadDependent
}

func (s *scSolver) isMarginal(k int) bool {
	return !s.st[k].delay && marginalKind(*s.st[k].st)
}

// ldKept is the number L of marginal probabilities the recursion keeps for a marginal
// station at population N: min(m, N) for m servers, min(len(Rates), N) for a
// load-dependent station (at least 1).
func ldKept(st Station, N int) int {
	if st.Kind == MultiServer {
		return max(1, min(st.Servers, N))
	}
	return max(1, min(len(st.Rates), N))
}

// checkEvery is about how many operations run between two looks at ctx.
const checkEvery = 1 << 20

// stopped records and reports ctx's cancellation at population n of N.
func (s *scSolver) stopped(n, N int) bool {
	if s.err != nil {
		return true
	}
	if s.ctx == nil || s.ctx.Err() == nil {
		return false
	}
	s.err = fmt.Errorf("%w: exact single-class MVA stopped at population %d of %d: %w", fault.ErrInterrupted, n, N, s.ctx.Err())
	return true
}

func key(counts []int) string {
	var b strings.Builder
	for _, c := range counts {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	return b.String()
}

// throughputs returns X(0..N) of the network with the given copy counts.
func (s *scSolver) throughputs(counts []int, N int) []float64 {
	k := key(counts)
	if xs, ok := s.memo[k]; ok && len(xs) > N {
		return xs
	}
	fin := s.run(counts, N, true)
	if s.err == nil {
		if s.memo == nil {
			s.memo = map[string][]float64{}
		}
		s.memo[k] = fin.xs
	}
	return fin.xs
}

// scMarginals holds, per marginal station k (multi-server with 1 < m < N, or
// load-dependent), the state the exact recursion carries between populations: the
// marginal probabilities p_k(j|n) of one copy for j < L, 1/α(j) for j = 1..L, and, for
// load-dependent stations, 1/α_L and coef_j = j·(1/α(j) − 1/α_L); xminus[k] is X₋ₖ(n),
// the throughput of the network with one copy of k removed (QSP §20.4, BGdMT §8.2.4;
// the package doc). Non-marginal stations have nil rows.
type scMarginals struct {
	p      [][]float64
	coef   [][]float64
	invA   [][]float64
	invAL  []float64
	xminus [][]float64
	ops    int // arithmetic operations per population step, for checkEvery
}

// marginals builds the recursion's marginal state for the copy counts at population N;
// it returns false when ctx stopped a reduced network's recursion.
func (s *scSolver) marginals(counts []int, N int) (scMarginals, bool) {
	K := len(s.st)
	m := scMarginals{
		p: make([][]float64, K), coef: make([][]float64, K), invA: make([][]float64, K),
		invAL: make([]float64, K), xminus: make([][]float64, K), ops: K,
	}
	for k := range s.st {
		if counts[k] == 0 || !s.isMarginal(k) || s.st[k].d == 0 {
			continue
		}
		st := *s.st[k].st
		L := ldKept(st, N)
		m.ops += 2 * L
		m.p[k] = make([]float64, L)
		m.p[k][0] = 1
		m.invA[k] = make([]float64, L)
		for j := 1; j <= L; j++ {
			m.invA[k][j-1] = 1 / st.alpha(j)
		}
		if st.Kind == LoadDependent {
			m.invAL[k] = 1 / st.alpha(L)
			m.coef[k] = make([]float64, L)
			for j := 1; j <= L; j++ {
				m.coef[k][j-1] = float64(j) * (1/st.alpha(j) - m.invAL[k])
			}
		}
		red := append([]int(nil), counts...)
		red[k]--
		m.xminus[k] = s.throughputs(red, N)
		if s.err != nil {
			return scMarginals{}, false
		}
	}
	return m, true
}

// advance moves the queue lengths and marginals from population n−1 to n given X(n) = x
// and the residences r: Q_k = X·R_k, p_k(j|n) = D_k·X/α(j)·p_k(j−1|n−1) for j ≥ 1, and
// p_k(0|n) = p_k(0|n−1)·X(n)/X₋ₖ(n) (zero when X₋ₖ(n) = 0).
func (m *scMarginals) advance(st []scStation, q, r []float64, x float64, n int) {
	for k := range st {
		q[k] = x * r[k]
		pk := m.p[k]
		if pk == nil {
			continue
		}
		dx, ia := st[k].d*x, m.invA[k]
		for j := min(n, len(pk)-1); j >= 1; j-- {
			pk[j] = dx * ia[j-1] * pk[j-1]
		}
		if xm := m.xminus[k][n]; xm > 0 {
			pk[0] *= x / xm
		} else {
			pk[0] = 0
		}
	}
}

// run is the exact single-class recursion over n = 1..N for the given copy counts: at
// each step the residence per copy R_k(n) from Q_k(n−1) and the marginals, X(n) =
// n / (Z + Σ_k c_k·R_k(n)), then advance. traj keeps X(0..N).
func (s *scSolver) run(counts []int, N int, traj bool) scFinal {
	if s.simple() {
		return s.runSimple(counts, N, traj)
	}
	K := len(s.st)
	q := make([]float64, K)
	r := make([]float64, K)
	m, ok := s.marginals(counts, N)
	if !ok {
		return scFinal{}
	}
	var xs []float64
	if traj {
		xs = make([]float64, N+1)
	}
	every := max(1, checkEvery/m.ops)
	x := 0.0
	for n := 1; n <= N; n++ {
		if n%every == 0 && s.stopped(n, N) {
			return scFinal{}
		}
		total := s.z
		for k, st := range s.st {
			if counts[k] == 0 {
				continue
			}
			d := st.d
			switch {
			case d == 0:
				r[k] = 0
			case st.delay:
				r[k] = d
			case st.st.Kind == Queue || (st.st.Kind == MultiServer && st.st.Servers == 1):
				r[k] = d * (1 + q[k])
			case st.st.Kind == MultiServer:
				mm := st.st.Servers
				sum := 0.0
				pk := m.p[k]
				for j := 0; j <= mm-2 && j < len(pk); j++ {
					sum += float64(mm-1-j) * pk[j]
				}
				r[k] = d / float64(mm) * (1 + q[k] + sum)
			default: // LoadDependent: R = D·[(1 + Q)/α_L + Σ_{j≤L} coef_j·p(j−1)]
				sum := (1 + q[k]) * m.invAL[k]
				for j, c := range m.coef[k] {
					sum += c * m.p[k][j]
				}
				r[k] = d * sum
			}
			total += float64(counts[k]) * r[k]
		}
		if total > 0 {
			x = float64(n) / total
		} else {
			x = 0 // degenerate: no demand anywhere; reported as infinite elsewhere
		}
		m.advance(s.st, q, r, x, n)
		if traj {
			xs[n] = x
		}
	}
	return s.final(x, r, m.p, xs, N)
}

// final is the recursion's result at population N: X, residences (at N = 0 the zero
// convention of doc.go, the residence one arriving job would have, D/α(1)) and
// utilizations (X·D, X·D/m for m servers, 1 − p(0) for a load-dependent station).
func (s *scSolver) final(x float64, r []float64, p [][]float64, xs []float64, N int) scFinal {
	if N == 0 {
		for k, st := range s.st {
			r[k] = st.d / st.st.alpha(1)
		}
	}
	fin := scFinal{x: x, r: r, u: make([]float64, len(s.st)), xs: xs}
	for k, st := range s.st {
		switch {
		case st.st.Kind == Delay:
			fin.u[k] = x * st.d
		case st.st.Kind == MultiServer:
			fin.u[k] = x * st.d / float64(st.st.Servers)
		case st.st.Kind == LoadDependent && p[k] != nil:
			fin.u[k] = 1 - p[k][0]
		default:
			fin.u[k] = x * st.d
		}
	}
	return fin
}

// String describes a station for error messages.
func (s Station) String() string {
	if s.Copies() > 1 {
		return fmt.Sprintf("%s ×%d", s.Name, s.Copies())
	}
	return s.Name
}

// simple reports whether every station is a queue (or one-server multi-server) or a delay,
// for which the recursion needs no marginal probabilities.
func (s *scSolver) simple() bool {
	for k := range s.st {
		if s.isMarginal(k) {
			return false
		}
	}
	return true
}

// runSimple is the O(N·K) recursion for queue and delay stations, with the delay stations
// folded into the think time (their residence is constant) and tight arrays for the queues.
// One pass over the queues per population step both updates Q_k(n) = X(n)·D_k·(1 + Q_k(n−1))
// and sums the next step's denominator Z + Σ_k c_k·D_k·(1 + Q_k(n)) in the same order as
// two separate loops would (so the same roundings): the pass's only loop-carried chain is
// that sum. The steps run in chunks (qSteps) between looks at ctx, about every million
// operations.
func (s *scSolver) runSimple(counts []int, N int, traj bool) scFinal {
	K := len(s.st)
	buf := make([]float64, 5*K) // dq, cq, q, then the final r and u
	dq, cq := buf[0:0:K], buf[K:K:2*K]
	z := s.z
	for k, st := range s.st {
		if counts[k] == 0 || st.d == 0 {
			continue
		}
		if st.delay {
			z += float64(counts[k]) * st.d
			continue
		}
		dq = append(dq, st.d)
		cq = append(cq, float64(counts[k])*st.d)
	}
	q := buf[2*K : 2*K+len(dq)]
	var xs []float64
	if traj {
		xs = make([]float64, N+1)
	}
	every := max(1, checkEvery/max(1, len(cq)))
	check := every
	total := z // Z + Σ c_k·(1 + Q_k(0)) with Q_k(0) = 0: each term is c_k exactly
	for _, c := range cq {
		total += c
	}
	x := 0.0
	for from := 1; from <= N; {
		to := min(N, check-1) // steps up to the next look at ctx
		x, total = qSteps(q, dq, cq, xs, z, x, total, from, to)
		if from = to + 1; from > N {
			break
		}
		if s.stopped(from, N) {
			return scFinal{}
		}
		check += every
	}
	// residence times at N: R_k = D_k(1 + Q_k(N−1)) = Q_k(N)/X(N)
	fin := scFinal{x: x, r: buf[3*K : 4*K], u: buf[4*K : 5*K], xs: xs}
	j := 0 // the queues in the order the set-up loop took them
	for k, st := range s.st {
		fin.r[k] = st.d
		fin.u[k] = x * st.d
		if st.st.Kind == MultiServer {
			fin.u[k] = x * st.d / float64(st.st.Servers)
		}
		if counts[k] == 0 || st.d == 0 || st.delay {
			continue
		}
		if x > 0 {
			fin.r[k] = q[j] / x
		}
		j++
	}
	return fin
}

// qSteps runs runSimple's population steps n = from..to (X(n) = n/total; then
// Q_j ← X·D_j·(1 + Q_j) in place and the next total z + Σ_j c_j·(1 + Q_j) over the new
// Q_j, summed left to right; xs[n] = X(n) when xs is not nil) and returns the last X and
// the next total (x and total unchanged when from > to). The sum's chain of additions
// bounds a step; unrolling does not shorten it and reassociating it would change the
// roundings. The steps run in this small function rather than in runSimple, where the
// register allocator kept the loop index and the slice bases on the stack (slower:
// bench/qn-timings.md).
func qSteps(q, d, c, xs []float64, z, x, total float64, from, to int) (float64, float64) {
	d, c = d[:len(q)], c[:len(q)]
	for n := from; n <= to; n++ {
		if total > 0 {
			x = float64(n) / total
		} else {
			x = 0 // degenerate: no demand anywhere; reported as infinite elsewhere
		}
		next := z
		for j := range q {
			qj := x * d[j] * (1 + q[j])
			q[j] = qj
			next += c[j] * (1 + qj)
		}
		total = next
		if xs != nil {
			xs[n] = x
		}
	}
	return x, total
}

// MaxSingleWork bounds the estimated work of exact single-class MVA (singleWork), in the
// sweep's unit (population vectors × stations): the same limit as a whole sweep,
// MaxSweepWork, about two seconds of CPU time.
const MaxSingleWork = MaxSweepWork

// maxSingleBytes bounds the memory of exact single-class MVA: the throughputs X(0..N) kept
// per reduced network (and the trajectory's two arrays).
const maxSingleBytes = 4e9

// singleWork estimates exact single-class MVA on m (one closed class): operations
// N·nets·(K + Σ_k 2·L_k·c_k/(c_k+1)) — N population steps, nets = Π_k (c_k + 1) networks
// (the reduced networks of the c_k copies of each marginal station k, of which a fraction
// c_k/(c_k+1) hold k), K stations and the L_k marginal probabilities (ldKept) updated and
// summed per step — and bytes 8·(N+1)·(nets − 1 + 2·traj) of kept throughputs.
func singleWork(m *Model, traj bool) (ops, bytes, nets float64) {
	N := m.Classes[0].Population
	per := float64(len(m.Stations))
	nets = 1
	for k, st := range m.Stations {
		if !scMarginal(st, N) || m.Demand[0][k] == 0 {
			continue
		}
		c := float64(st.Copies())
		nets *= c + 1
		per += 2 * float64(ldKept(st, N)) * c / (c + 1)
	}
	ops = float64(N) * nets * per
	keep := nets - 1
	if traj {
		keep += 2
	}
	return ops, 8 * float64(N+1) * keep, nets
}

// singleFits is SingleAffordable's verdict without its words (no formatting on the solver's
// path).
func singleFits(m *Model, traj bool) bool {
	ops, bytes, _ := singleWork(m, traj)
	return ops <= MaxSingleWork && bytes <= maxSingleBytes
}

// SingleAffordable says whether exact single-class MVA of m (one closed class; traj: the
// whole trajectory X(0..N), as MVASingleTrajectory) fits MaxSingleWork and maxSingleBytes,
// and if not why, with the estimate and the limit.
func SingleAffordable(m *Model, traj bool) (string, bool) {
	ops, bytes, nets := singleWork(m, traj)
	if ops <= MaxSingleWork && bytes <= maxSingleBytes {
		return fmt.Sprintf("about %.3g population vectors × stations", ops), true
	}
	what := fmt.Sprintf("population %d × %d stations", m.Classes[0].Population, len(m.Stations))
	if nets > 1 {
		what = fmt.Sprintf("population %d × (%d stations + the marginal probabilities of its multi-server/load-dependent stations) × %.0f reduced networks", m.Classes[0].Population, len(m.Stations), nets)
	}
	if ops > MaxSingleWork {
		return fmt.Sprintf("exact single-class MVA would visit about %.3g population vectors × stations (%s; limit %.3g)", ops, what, float64(MaxSingleWork)), false
	}
	return fmt.Sprintf("exact single-class MVA would hold about %.3g GB of throughputs (%.0f networks × population %d; limit %.3g GB)", bytes/1e9, max(1, nets-1), m.Classes[0].Population, maxSingleBytes/1e9), false
}
