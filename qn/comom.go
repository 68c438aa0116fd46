package qn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Comom solves a closed multi-class network of single-server queues and delay stations
// exactly by the class-oriented Method of Moments (CoMoM: G. Casale, "CoMoM: efficient
// class-oriented evaluation of multiclass performance models", IEEE TSE 35(2), 2009; the
// Method of Moments: G. Casale, "An efficient algorithm for the exact analysis of multiclass
// queueing networks with large population sizes", SIGMETRICS 2006). The number of its steps
// grows with the total population Σ_c N_c, not with the population lattice Π_c (N_c + 1)
// that exact MVA walks; but its arithmetic must be multi-precision, with a precision that
// grows with the population (see verified), so its CPU time grows faster than Σ_c N_c:
// about N^2.3 on 3 classes × 3 queues of N jobs each (work, budget); on the thesis network
// N = (4095, 177, 127) it takes seconds, as long as MVA. Solve's auto picks it only where its estimated cost is the lower one.
//
// Notation. M queue stations k (after merging stations with identical demand rows into one
// group of c_k copies), classes r with populations N_r, demands D_kr at one copy, and
// Z_r = think time + Σ_{delay k} count_k·D_kr. G(a, n) is the normalising constant of the
// network in which queue k has a_k copies (the base network has a = c); it is the coefficient
// of Π_r x_r^{n_r} in exp(Σ_r Z_r x_r)·Π_k (1 − Σ_r D_kr x_r)^{−a_k}. Two relations follow
// from that generating function (Casale 2009: the convolution expression and the population
// constraint):
//
//	CE:  G(a + 1_k, n) = G(a, n) + Σ_r D_kr·G(a + 1_k, n − 1_r)
//	PC:  n_r·G(a, n) = Z_r·G(a, n − 1_r) + Σ_k a_k·D_kr·G(a + 1_k, n − 1_r)
//
// and the performance measures are X_r = G(c, N − 1_r)/G(c, N) and, at one copy of queue k,
// Q_kr = D_kr·G(c + 1_k, N − 1_r)/G(c, N), R_kr = Q_kr/X_r, U_kr = X_r·D_kr.
//
// The classes are added one at a time, largest population first. While class r grows from 0
// to N_r, the earlier classes S = {1..r−1} stay at full population and the basis is
// {G(c, n − h), G(c + 1_k, n − h) : k = 1..M, h ∈ H}, H = {h over S : |h| ≤ M, h_s ≤ N_s}
// ((M + 1)·C(M + r − 1, r − 1) constants, the basis of Casale's CoMoM). One step
// n_r − 1 → n_r:
//
//  1. PC of class r at (c, n − h) gives every G(c, n − h) from the previous step directly;
//  2. CE at (k, h) for |h| < M (and where the missing terms have D_ks = 0 or a negative
//     population) and PC of each s ∈ S at (c, n − h), |h| < M, form a linear system in the
//     G(c + 1_k, n − h) whose matrix does not depend on n_r: it is factorised once per class
//     (Gaussian elimination with partial pivoting; extra consistent rows are dropped) and
//     each step is one forward and back substitution, about (M·|H|)² operations.
//
// Between classes, the last M + 1 steps of class r give the basis of class r + 1 at
// n_{r+1} = 0. Each class's times are scaled by a power of two near its largest time.
//
// Arithmetic: math/big.Float (binary, its exponent range needs no rescaling; the demands'
// binary expansions are exact in it). In float64 the method fails on the thesis network at
// N/32 = (127, 5, 3) (error 9e-8 against MVA) and gives no finite answer at N/16: the
// systems of step 2 are ill-conditioned (estimate 3e15 at N/16) and the recurrence amplifies
// rounding exponentially. verified chooses the precision and checks the result at a second,
// higher one. A system that is singular in exact arithmetic (queues the earlier classes'
// demands cannot tell apart: seen when an earlier class has equal demands at two queues, or
// two earlier classes have proportional queue demands) is tried in the other class orders
// (up to 4 classes) and otherwise refused with ErrUnsupported naming those patterns; agreement with MVAMulti is tested to 1e-10 relative
// on random networks (comom_test.go).
//
// Refused (ErrUnsupported): open classes, multi-server (m > 1) and load-dependent stations,
// fork/join nodes. Time and memory are estimated before allocating (ComomCost, work;
// fault.ErrTooLarge).
func Comom(m *Model) (*Result, error) { return ComomContext(context.Background(), m) }

// ComomContext is Comom stopped by ctx: it checks ctx at every population step and every
// pivot column of a factorisation (well under a millisecond of work each within the
// budget) and returns an error wrapping ctx.Err() (context.Canceled: exit 130).
func ComomContext(ctx context.Context, m *Model) (*Result, error) {
	p, err := newComom(m)
	if err != nil {
		return nil, err
	}
	p.ctx = ctx
	if _, err := p.budget(p.byPopulation()); err != nil {
		return nil, err
	}
	var lastErr error
	for _, order := range p.orders() {
		if err := p.nonSingular(order); err != nil {
			lastErr = err
			continue
		}
		res, err := p.verified(order)
		if err == nil {
			return res, nil
		}
		lastErr = err
		if !errors.Is(err, errComomSingular) {
			break // over budget or not settled: another order would not fare better
		}
	}
	if errors.Is(lastErr, errComomSingular) {
		return nil, p.singularError(len(p.orders()))
	}
	return nil, lastErr
}

// singularError explains a model whose class-step systems are singular in every class order
// tried. Patterns seen to make the step of a class singular when they come before it (tested
// on 2- and 3-class networks of 2 queues, comom_test.go): a class with equal demands at two
// queues, or two classes whose queue demands are proportional. The message names the ones
// this model has, so the user sees why no order helps.
func (p *comom) singularError(orders int) error {
	name := func(g int) string { return p.m.Stations[p.groups[g][0]].Name }
	cls := func(a int) string { return p.m.Classes[p.act[a]].Name }
	var causes []string
	G := len(p.groups)
	for a := range p.act {
		for g := 0; g < G; g++ {
			for h := g + 1; h < G; h++ {
				if p.d[a][g] == p.d[a][h] {
					causes = append(causes, fmt.Sprintf("class %s has equal demands at queues %s and %s", cls(a), name(g), name(h)))
				}
			}
		}
	}
	for a := range p.act {
		for b := a + 1; b < len(p.act); b++ {
			prop := G > 1
			for g := 0; g < G && prop; g++ {
				for h := g + 1; h < G && prop; h++ {
					x, y := p.d[a][g]*p.d[b][h], p.d[b][g]*p.d[a][h]
					prop = math.Abs(x-y) <= 1e-12*math.Max(math.Abs(x), math.Abs(y))
				}
			}
			if prop {
				causes = append(causes, fmt.Sprintf("classes %s and %s have proportional queue demands", cls(a), cls(b)))
			}
		}
	}
	tried := fmt.Sprintf("every one of the %d class orders", orders)
	if orders == 1 {
		tried = "the one class order tried (largest population first; other orders are tried up to 4 classes)"
	}
	why := "no equal or proportional demands found: the singularity has another cause"
	if len(causes) > 0 {
		why = strings.Join(causes, "; ")
	}
	return unsupported("comom: a class step's linear system is singular in %s: its step is singular when, among the classes added before it, one has equal demands at two queues or two have proportional queue demands, and here %s (use solver mva or linearizer)", tried, why)
}

// ComomMaxBits is the largest working precision Comom uses.
const ComomMaxBits = 1 << 16

// ComomMaxWork is the largest estimated time of one Comom run it accepts, in nanoseconds
// (see work): 30 s.
const ComomMaxWork = 3e10

// nonSingular factorises every class step's system of the order at 256 bits, without
// walking the populations, so a singular order is skipped before any work.
func (p *comom) nonSingular(order []int) error {
	M := len(p.groups)
	if M == 0 {
		return nil
	}
	for r := range order {
		pops := make([]int, r)
		for s := 0; s < r; s++ {
			pops[s] = p.m.Classes[p.act[order[s]]].Population
		}
		if _, err := p.newSystem(newBasis(M, pops), order, r, 256); err != nil {
			return err
		}
	}
	return nil
}

// comomAgree is the largest relative difference between the results at two precisions at
// which Comom accepts the higher one.
const comomAgree = 1e-13

// verified chooses the working precision and checks the result at a second one.
//
// The CoMoM recurrences lose bits at a steady rate per step of a class phase, a rate set by
// that phase's step system (measured on the thesis network, qn/comom_prec_test.go: no loss
// in the first class's phase, about 1.5 bits per step in the second and 48 bits per step in
// the third, whose system has 60 unknowns; so the precision it needs, 6208 bits, depends on
// the last class's population, 127, and hardly on the first's, 4095). A run whose
// precision is too low stops at the step where levelSane first fails (comomLost), and the
// rate it lost bits at so far gives the loss L of the whole run: L = prec·(steps from the
// start of the failing phase to the end)/(steps done in it). The search:
//
//  1. a first run at comomFirstBits (128 for one class: its recursion loses nothing); if it
//     completes, it is checked at 1.5 times its precision;
//  2. after a stopped run, the answer runs at 1.25·L + 128 bits and the check at
//     1.05·L + 64 (the lower one: if it agrees, the higher one, whose error is smaller by
//     2^-(difference), does too); both at once on two goroutines when GOMAXPROCS ≥ 2;
//  3. a check that stops, disagrees or is infeasible sends the answer up by 1.5 with the
//     old answer as its check.
//
// A result is accepted when two completed runs agree to comomAgree (relative, every
// throughput, response time and queue length) and both pass feasible; the note names both
// precisions. A run whose precision is too low does not always show it in its result: on
// the thesis network at N/4 and up to 2048 bits in another class order every throughput
// came out as 1/D of the bottleneck (utilisation 3) to 12 digits. The step checks
// (levelSane: every such run seen so far stopped at a step) and feasible are the guard
// against agreement on such a parasitic solution; they are tests of necessary conditions,
// not a proof.
func (p *comom) verified(order []int) (*Result, error) {
	type run struct {
		res  *Result
		prec uint
		lost *comomLost
		err  error
	}
	do := func(precs ...uint) ([]run, error) {
		for _, pr := range precs {
			if pr > ComomMaxBits {
				return nil, fmt.Errorf("%w: comom would need more than %d bits of precision for this model", fault.ErrTooLarge, ComomMaxBits)
			}
			if w := p.work(order, pr); w > ComomMaxWork {
				return nil, fmt.Errorf("%w: comom at %d bits would take about %.3g s (limit %.3g s)", fault.ErrTooLarge, pr, w/1e9, float64(ComomMaxWork)/1e9)
			}
		}
		out := make([]run, len(precs))
		one := func(i int) {
			res, err := p.solve(order, precs[i])
			out[i] = run{prec: precs[i]}
			var lost *comomLost
			switch {
			case errors.As(err, &lost):
				out[i].lost = lost
			case errors.Is(err, errComomPrecision):
				out[i].lost = &comomLost{phase: len(order) - 1, step: p.m.Classes[p.act[order[len(order)-1]]].Population, prec: precs[i]}
			case err != nil:
				out[i].err = err
			case !p.feasible(res):
				out[i].lost = &comomLost{phase: len(order) - 1, step: p.m.Classes[p.act[order[len(order)-1]]].Population, prec: precs[i]}
			default:
				out[i].res = res
			}
		}
		if len(precs) == 2 && runtime.GOMAXPROCS(0) >= 2 {
			done := make(chan struct{})
			go func() { one(1); close(done) }()
			one(0)
			<-done
		} else {
			for i := range precs {
				one(i)
			}
		}
		for _, r := range out {
			if r.err != nil {
				return nil, r.err
			}
		}
		return out, nil
	}
	round := func(bits float64) uint { return uint(math.Ceil(bits/64)) * 64 }
	first := uint(comomFirstBits)
	if len(order) == 1 {
		first = 128
	}
	rs, err := do(first)
	if err != nil {
		return nil, err
	}
	ans, chk := rs[0], run{}
	for try := 0; try < 12; try++ {
		switch {
		case ans.lost != nil:
			L := p.lossEstimate(order, ans.lost)
			hi, lo := round(1.25*L+128), round(1.05*L+64)
			hi = max(hi, ans.prec+128)
			lo = min(max(lo, ans.prec+64), hi-64)
			if rs, err = do(hi, lo); err != nil {
				return nil, err
			}
			ans, chk = rs[0], rs[1]
		case chk.res == nil && chk.lost == nil:
			if rs, err = do(round(1.5 * float64(ans.prec))); err != nil {
				return nil, err
			}
			ans, chk = rs[0], ans // the higher one answers, the first one is its check
		case ans.res != nil && chk.res != nil:
			if d := resultDiff(ans.res, chk.res); d <= comomAgree {
				ans.res.Notes = append(ans.res.Notes, fmt.Sprintf("comom: exact method in %d-bit arithmetic; the result at %d bits agrees with it to %.1e relative, and both passed the checks at every step (G > 0, G(c + 1_k) ≥ G(c)) and of the result (U ≤ 1, X_c ≤ N_c/(Z_c + D_c))", ans.prec, chk.prec, d))
				return ans.res, nil
			}
			fallthrough
		default: // the check stopped or disagrees: the answer becomes the check of a run 1.5 times higher
			if rs, err = do(round(1.5 * float64(ans.prec))); err != nil {
				return nil, err
			}
			ans, chk = rs[0], ans
		}
	}
	return nil, unsupported("comom: results did not settle up to %d bits of precision (use solver mva)", ans.prec)
}

// comomFirstBits is the precision of verified's first run.
const comomFirstBits = 512

// lossEstimate extrapolates the bits a whole run loses from a run stopped at lost: the rate
// prec/step of the failing phase, over the steps from that phase's start to the last
// class's end (the later phases are assumed to lose at the same rate; if they lose faster,
// the next run stops too and extrapolates again).
func (p *comom) lossEstimate(order []int, lost *comomLost) float64 {
	rest := 0
	for r := lost.phase; r < len(order); r++ {
		rest += p.m.Classes[p.act[order[r]]].Population
	}
	return float64(lost.prec) * float64(rest) / float64(max(1, lost.step))
}

// feasible checks what every exact solution satisfies: finite non-negative results,
// utilisation ≤ 1 at each queue, and X_c ≤ N_c/(Z_c + D_c) (each job needs at least its
// demand per cycle; Denning & Buzen's asymptotic bound).
func (p *comom) feasible(res *Result) bool {
	const tol = 1e-9
	for k, s := range p.m.Stations {
		if s.Kind != Delay && res.StationUtilization(k) > 1+tol {
			return false
		}
	}
	for c, cl := range p.m.Classes {
		x := res.Throughput[c]
		if math.IsNaN(x) || x < 0 || math.IsInf(x, 0) {
			return false
		}
		d := cl.ThinkTime
		for k, s := range p.m.Stations {
			d += float64(s.Copies()) * p.m.Demand[c][k]
		}
		if d > 0 && x > float64(cl.Population)/d*(1+tol) {
			return false
		}
		for k := range p.m.Stations {
			if q := res.QueueLength[k][c]; math.IsNaN(q) || q < -tol {
				return false
			}
		}
	}
	return true
}

// errComomSingular: a class step's system is singular in this class order.
var errComomSingular = unsupported("comom: singular class step in this class order (Comom explains a model singular in every order: singularError)")

// errComomPrecision marks a run whose precision was visibly too low (a non-positive
// normalising constant or result); verified raises the precision.
var errComomPrecision = errors.New("comom: precision too low")

// resultDiff is the largest relative difference between a and b over throughputs, response
// times and queue lengths (entries where both are zero count as equal).
func resultDiff(a, b *Result) float64 {
	d := 0.0
	rel := func(x, y float64) {
		if x == y {
			return
		}
		d = math.Max(d, math.Abs(x-y)/math.Max(math.Abs(x), math.Abs(y)))
	}
	for c := range a.Throughput {
		rel(a.Throughput[c], b.Throughput[c])
		rel(a.ResponseTime[c], b.ResponseTime[c])
		for k := range a.QueueLength {
			rel(a.QueueLength[k][c], b.QueueLength[k][c])
		}
	}
	return d
}

// precision estimates the working precision: 128 bits plus 1.25·log2(max D/min D) bits per
// job of the largest class (measured on the thesis network, whose demands span a factor 4:
// N/4 = (1023, 44, 31) needs more than 1024 bits and 2048 suffice; N = (4095, 177, 127)
// needs more than 6144 and 8192 suffice), plus 2 bits per job of the later classes.
func (p *comom) precision() uint {
	ratio := 1.0
	for _, row := range p.d {
		lo, hi := math.Inf(1), 0.0
		for _, v := range row {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if hi > 0 {
			ratio = math.Max(ratio, hi/lo)
		}
	}
	nmax, later := 0, 0
	for _, a := range p.act {
		n := p.m.Classes[a].Population
		later += n
		nmax = max(nmax, n)
	}
	later -= nmax
	if len(p.act) == 1 {
		return 128 // one class: the step's system is the identity, the recursion MVA's
	}
	bits := 128 + 2*float64(later) + 1.25*float64(nmax)*math.Max(1, math.Log2(ratio))
	return uint(math.Min(bits, ComomMaxBits))
}

type comom struct {
	ctx    context.Context // stops walk and factor (ComomContext); nil: never
	m      *Model
	groups [][]int     // queue groups: original station indices with identical demand rows
	count  []float64   // copies per group
	act    []int       // active classes (population > 0, some queue demand)
	d      [][]float64 // d[a][g]: demand of active class a at group g, scaled by 2^-e[a]
	z      []float64   // effective think time of active class a, scaled
	e      []int       // class scale exponents
	zeff   []float64   // unscaled effective think time per class (all classes)
}

func newComom(m *Model) (*comom, error) {
	if err := m.solvable(); err != nil {
		return nil, err
	}
	if err := m.checkClosedDemand(); err != nil {
		return nil, err // wraps fault.ErrInput already
	}
	for _, c := range m.Classes {
		if c.Open {
			return nil, unsupported("comom solves closed networks; class %q is open (use the mixed solver)", c.Name)
		}
	}
	for _, s := range m.Stations {
		if s.Kind == LoadDependent || (s.Kind == MultiServer && s.Servers > 1) {
			return nil, unsupported("comom supports single-server queue and delay stations; station %q is %v (use solver mva, schweitzer or linearizer)", s.Name, s.Kind)
		}
	}
	p := &comom{m: m}
	p.zeff = make([]float64, len(m.Classes))
	for c, cl := range m.Classes {
		p.zeff[c] = cl.ThinkTime
		for k, s := range m.Stations {
			if s.Kind == Delay {
				p.zeff[c] += float64(s.Copies()) * m.Demand[c][k]
			}
		}
	}
	isQueue := func(k int) bool { return m.Stations[k].Kind != Delay }
	for c, cl := range m.Classes {
		if cl.Population == 0 {
			continue
		}
		for k := range m.Stations {
			if isQueue(k) && m.Demand[c][k] > 0 {
				p.act = append(p.act, c)
				break
			}
		}
	}
	// Queue groups: stations some active class visits, merged when the active classes'
	// demands are identical (the product form depends on demands and copies only).
	seen := map[string]int{}
	for k := range m.Stations {
		if !isQueue(k) {
			continue
		}
		var key strings.Builder
		visited := false
		for _, c := range p.act {
			key.WriteString(strconv.FormatUint(math.Float64bits(m.Demand[c][k]), 16))
			key.WriteByte(',')
			visited = visited || m.Demand[c][k] > 0
		}
		if !visited {
			continue
		}
		if g, ok := seen[key.String()]; ok {
			p.groups[g] = append(p.groups[g], k)
			p.count[g] += float64(m.Stations[k].Copies())
			continue
		}
		seen[key.String()] = len(p.groups)
		p.groups = append(p.groups, []int{k})
		p.count = append(p.count, float64(m.Stations[k].Copies()))
	}
	for _, c := range p.act {
		mx := p.zeff[c]
		row := make([]float64, len(p.groups))
		for g, ks := range p.groups {
			row[g] = m.Demand[c][ks[0]]
			mx = math.Max(mx, row[g])
		}
		_, e := math.Frexp(mx)
		e--
		for g := range row {
			row[g] = math.Ldexp(row[g], -e)
		}
		p.d = append(p.d, row)
		p.z = append(p.z, math.Ldexp(p.zeff[c], -e))
		p.e = append(p.e, e)
	}
	return p, nil
}

// byPopulation is the class order of least cost: largest population first (the basis grows
// with the number of classes already added, so the big classes go while it is small).
func (p *comom) byPopulation() []int {
	order := make([]int, len(p.act))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		return p.m.Classes[p.act[order[i]]].Population > p.m.Classes[p.act[order[j]]].Population
	})
	return order
}

// orders lists the class orders Solve tries: largest population first, then (up to 4
// classes) every other permutation, for models whose first order is singular.
func (p *comom) orders() [][]int {
	first := p.byPopulation()
	out := [][]int{first}
	if len(first) > 4 {
		return out
	}
	var perm func(pre, rest []int)
	perm = func(pre, rest []int) {
		if len(rest) == 0 {
			for i := range pre {
				if pre[i] != first[i] {
					out = append(out, append([]int(nil), pre...))
					return
				}
			}
			return
		}
		for i := range rest {
			r := append(append([]int(nil), rest[:i]...), rest[i+1:]...)
			perm(append(pre, rest[i]), r)
		}
	}
	perm(nil, first)
	return out
}

// binom returns C(n, k) as a float64 (no overflow for the sizes the budget admits).
func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	b := 1.0
	for i := 1; i <= k; i++ {
		b = b * float64(n-k+i) / float64(i)
	}
	return b
}

// ComomCost estimates Comom's time on m in seconds (all of its runs, see verified) and returns an error wrapping ErrUnsupported when the method
// does not apply or fault.ErrTooLarge when it is over budget. Solve's auto uses it to choose
// between Comom and the lattice walk of MVAMulti.
func ComomCost(m *Model) (float64, error) {
	p, err := newComom(m)
	if err != nil {
		return 0, err
	}
	return p.budget(p.byPopulation())
}

// runs lists the precisions of verified's runs up to the first at or above the estimate
// (precision): est/3, ×1.5 each, rounded up to 64 bits. On the measured networks the two
// runs that agreed were the last two of this list (cc: 3 classes × 3 queues, N = 400, 800,
// 1600 per class: 2432/3648, 4800/7168, 9472/14208 bits against estimates 3388, 6648,
// 13168), so the list includes the verification run at 1.5× the needed precision.
func (p *comom) runs() []uint {
	est := p.precision()
	var out []uint
	for prec := max(128, est/3); ; prec = prec * 3 / 2 {
		pr := min((prec+63)/64*64, ComomMaxBits)
		out = append(out, pr)
		if pr >= est || pr >= ComomMaxBits || len(out) == 8 {
			return out
		}
	}
}

// budget estimates Comom's CPU time in seconds on this class order (the sum of work over
// runs, at least two runs since verified needs two that agree) and refuses, wrapping
// fault.ErrTooLarge, a run whose values would not fit in comomMaxBytes or a total above
// ComomMaxWork, naming the estimate, its basis and the limit.
func (p *comom) budget(order []int) (float64, error) {
	rs := p.runs()
	if len(rs) == 1 {
		rs = append(rs, rs[0]*3/2)
	}
	top := rs[len(rs)-1]
	if b := p.bytes(order, top); b > comomMaxBytes {
		return math.Inf(1), fmt.Errorf("%w: comom would hold about %.3g GiB of %d-bit values, over its limit of %.3g GiB: the dense factorisation of the last class's step system holds (M+i)·M·C(M+i, i)² values for M = %d queue groups and i = %d earlier classes, and the binomial term explodes with many classes (use solver mva or linearizer)", fault.ErrTooLarge, b/(1<<30), top, float64(comomMaxBytes)/(1<<30), len(p.groups), len(order)-1)
	}
	w := 0.0
	for _, pr := range rs {
		w += p.work(order, pr)
	}
	if w > ComomMaxWork {
		return w / 1e9, fmt.Errorf("%w: comom would take about %.3g s of CPU time (runs at %v bits, up to the first at or above the estimated precision of %d bits, whose agreement with the one before verifies it; limit %.3g s)", fault.ErrTooLarge, w/1e9, rs, p.precision(), float64(ComomMaxWork)/1e9)
	}
	return w / 1e9, nil
}

// comomMaxBytes is the most memory one Comom run's big.Float values may take: 2 GiB.
const comomMaxBytes = 2 << 30

// bytes estimates the memory of one run at prec bits: the values held at once (ops) at
// prec/8 bytes of mantissa plus 64 bytes of big.Float header each.
func (p *comom) bytes(order []int, prec uint) float64 {
	_, vals := p.ops(order)
	return vals * (float64(prec)/8 + 64)
}

// ops counts, for one class order, the big.Float operations and the big.Float values held
// at once: class position i has a basis of |H_i| ≤ C(M + i, i) offsets, a system of
// cols = M·|H_i| unknowns and about rows = (M + i)·|H_i| equations, factorised once
// (rows·cols² operations) and solved at each of its N_r steps (cols² + rows + (M+1)·|H_i|).
func (p *comom) ops(order []int) (ops, vals float64) {
	M := len(p.groups)
	for i, a := range order {
		h := binom(M+i, i)
		cols := float64(M) * h
		rows := float64(M+i) * h
		n := float64(p.m.Classes[p.act[a]].Population)
		ops += 2*rows*cols*cols + n*(2*cols*cols+2*rows+2*float64(M+1)*h)
		vals = math.Max(vals, rows*cols+cols*cols+float64(M+3)*float64(M+1)*h)
	}
	return ops, vals
}

// work estimates the CPU time of one run at prec bits in nanoseconds (finite; memory is
// bytes): a counted big.Float operation on w-word operands costs 40 + w^1.3 ns of CPU,
// fitted to runs at 128–8192 bits (w = 2–128) of the cc networks (3 classes × 3 queues,
// N = 400 and 800 per class: 23–36, 30–32, 90, 221, 549–581 ns per counted operation at
// w = 2, 8, 32, 64, 128) and of one class at two queues and a delay (N = 1e5: 56, 74,
// 186, 309, 682 ns) on this 2-vCPU host under load ~20 (CPU time, getrusage). Time grows
// with the population through ops (linear: steps) and through the precision (linear
// in N, see precision): about N^2.3 over N = 400–1600 (measured 0.39, 1.76, 8.6 s of
// CPU for cc at N = 400, 800, 1600).
func (p *comom) work(order []int, prec uint) float64 {
	ops, _ := p.ops(order)
	w := float64(prec) / 64
	return ops * (40 + math.Pow(w, 1.3))
}

// basis is the set H of population offsets h over the classes added so far, with the
// neighbour table up[i][s] = index of h + 1_s (−1 when |h| = M or beyond N_s).
type basis struct {
	h  [][]int
	up [][]int
}

func newBasis(M int, pops []int) *basis {
	b := &basis{}
	idx := map[string]int{}
	key := func(h []int) string {
		var sb strings.Builder
		for _, v := range h {
			sb.WriteString(strconv.Itoa(v))
			sb.WriteByte(',')
		}
		return sb.String()
	}
	var gen func(h []int, s, left int)
	gen = func(h []int, s, left int) {
		if s == len(pops) {
			idx[key(h)] = len(b.h)
			b.h = append(b.h, append([]int(nil), h...))
			return
		}
		for v := 0; v <= left && v <= pops[s]; v++ {
			h[s] = v
			gen(h, s+1, left-v)
		}
		h[s] = 0
	}
	gen(make([]int, len(pops)), 0, M)
	b.up = make([][]int, len(b.h))
	for i, h := range b.h {
		b.up[i] = make([]int, len(pops))
		for s := range pops {
			h2 := append([]int(nil), h...)
			h2[s]++
			if j, ok := idx[key(h2)]; ok {
				b.up[i][s] = j
			} else {
				b.up[i][s] = -1
			}
		}
	}
	return b
}

// level is a basis vector at one population: v[i] = G(c, n − h_i), v[(1+k)·|H| + i] =
// G(c + 1_k, n − h_i), in big.Float (whose exponent range needs no rescaling).
type level struct{ v []big.Float }

func newLevel(n int, prec uint) *level {
	l := &level{v: make([]big.Float, n)}
	for i := range l.v {
		l.v[i].SetPrec(prec)
	}
	return l
}

// term is one nonzero coefficient of a factor row.
type term struct {
	col int
	val big.Float
}

// system is the per-class linear system of step 2: rows of CE (kind 0: group a, offset i)
// and PC (kind 1: class position a, offset i). piv are the rows LU with partial pivoting
// chose (one per unknown, in elimination order), pcol their pivot columns; lower and upper
// the factors' nonzeros of those rows, invDiag the inverted pivots.
type system struct {
	kind, a, i   []int
	piv, pcol    []int
	lower, upper [][]term
	invDiag      []big.Float
	rows, cols   int
}

func (p *comom) newSystem(b *basis, order []int, r int, prec uint) (*system, error) {
	M, nh := len(p.groups), len(b.h)
	sy := &system{cols: M * nh}
	col := func(k, i int) int { return k*nh + i }
	var A [][]big.Float
	newRow := func() []big.Float {
		row := make([]big.Float, sy.cols)
		for c := range row {
			row[c].SetPrec(prec)
		}
		return row
	}
	for k := 0; k < M; k++ {
		for i := range b.h {
			ok := true
			for s := 0; s < r; s++ {
				if p.d[order[s]][k] != 0 && b.up[i][s] < 0 && b.h[i][s] < p.m.Classes[p.act[order[s]]].Population {
					ok = false // a term outside H that is not known to vanish
				}
			}
			if !ok {
				continue
			}
			row := newRow()
			row[col(k, i)].SetInt64(1)
			for s := 0; s < r; s++ {
				if j := b.up[i][s]; j >= 0 && p.d[order[s]][k] != 0 {
					row[col(k, j)].SetFloat64(-p.d[order[s]][k])
				}
			}
			A = append(A, row)
			sy.kind, sy.a, sy.i = append(sy.kind, 0), append(sy.a, k), append(sy.i, i)
		}
	}
	for s := 0; s < r; s++ {
		for i := range b.h {
			j := b.up[i][s]
			if j < 0 {
				continue
			}
			row := newRow()
			for k := 0; k < M; k++ {
				row[col(k, j)].SetFloat64(p.d[order[s]][k])
				row[col(k, j)].Mul(&row[col(k, j)], new(big.Float).SetFloat64(p.count[k]))
			}
			A = append(A, row)
			sy.kind, sy.a, sy.i = append(sy.kind, 1), append(sy.a, s), append(sy.i, i)
		}
	}
	sy.rows = len(A)
	if sy.rows < sy.cols {
		return nil, errComomSingular
	}
	if err := sy.factor(A, prec, p.stopped); err != nil {
		return nil, err
	}
	return sy, nil
}

// factor runs Gaussian elimination with partial pivoting over all rows of the consistent
// rows × cols system A and keeps the factors of the pivot rows. A column without a pivot
// (every remaining entry below 2^(64−prec), rounding noise of zero: the entries are 1 or
// demands ≤ 1 after scaling) makes the system singular: errComomSingular. (Setting such an
// unknown to 0 instead was tried: with 4 classes of 100 jobs the results then fail, so the
// unknowns the dependent equations leave free do matter.)
// stop is checked at every pivot column (ComomContext).
func (sy *system) factor(A [][]big.Float, prec uint, stop func() error) error {
	rows, cols := sy.rows, sy.cols
	perm := make([]int, rows)
	for q := range perm {
		perm[q] = q
	}
	var f, t, ab, best big.Float
	for _, z := range []*big.Float{&f, &t, &ab, &best} {
		z.SetPrec(prec)
	}
	var pcol []int // pivot column of pivot row i
	var inv []big.Float
	for j := 0; j < cols; j++ {
		if err := stop(); err != nil {
			return err
		}
		i := len(pcol)
		bq := -1
		best.SetInt64(0)
		for q := i; q < rows; q++ {
			ab.Abs(&A[perm[q]][j])
			if ab.Cmp(&best) > 0 {
				best.Set(&ab)
				bq = q
			}
		}
		if bq < 0 || best.MantExp(nil) < 64-int(prec) {
			return errComomSingular
		}
		perm[i], perm[bq] = perm[bq], perm[i]
		pr := A[perm[i]]
		var d big.Float
		d.SetPrec(prec).Quo(big.NewFloat(1).SetPrec(prec), &pr[j])
		inv = append(inv, d)
		pcol = append(pcol, j)
		for q := i + 1; q < rows; q++ {
			row := A[perm[q]]
			if row[j].Sign() == 0 {
				continue
			}
			f.Mul(&row[j], &inv[i])
			row[j].Set(&f) // the multiplier, L's entry
			for c := j + 1; c < cols; c++ {
				if pr[c].Sign() == 0 {
					continue
				}
				t.Mul(&f, &pr[c])
				row[c].Sub(&row[c], &t)
			}
		}
	}
	T := len(pcol)
	sy.piv, sy.pcol, sy.invDiag = perm[:T], pcol, inv
	sy.lower = make([][]term, T)
	sy.upper = make([][]term, T)
	for i := 0; i < T; i++ {
		row := A[perm[i]]
		for u := 0; u < i; u++ { // multipliers, at the earlier pivots' columns
			if c := pcol[u]; row[c].Sign() != 0 {
				tm := term{col: u}
				tm.val.SetPrec(prec).Set(&row[c])
				sy.lower[i] = append(sy.lower[i], tm)
			}
		}
		for c := pcol[i] + 1; c < cols; c++ {
			if row[c].Sign() != 0 {
				tm := term{col: c}
				tm.val.SetPrec(prec).Set(&row[c])
				sy.upper[i] = append(sy.upper[i], tm)
			}
		}
	}
	return nil
}

// solveInto solves the system for the right-hand sides of the pivot rows (b, in pivot
// order; overwritten) and writes the unknowns into y (free unknowns 0).
func (sy *system) solveInto(b, y []big.Float, t *big.Float) {
	for i := range b {
		for _, tm := range sy.lower[i] {
			t.Mul(&tm.val, &b[tm.col])
			b[i].Sub(&b[i], t)
		}
	}
	for c := range y {
		y[c].SetInt64(0)
	}
	for i := len(b) - 1; i >= 0; i-- {
		for _, tm := range sy.upper[i] {
			if y[tm.col].Sign() == 0 {
				continue
			}
			t.Mul(&tm.val, &y[tm.col])
			b[i].Sub(&b[i], t)
		}
		y[sy.pcol[i]].Mul(&b[i], &sy.invDiag[i])
	}
}

// solve runs CoMoM with the active classes in the given order at prec bits.
func (p *comom) solve(order []int, prec uint) (*Result, error) {
	M := len(p.groups)
	if M == 0 || len(order) == 0 {
		return p.result(order, nil, nil, nil, 0, prec)
	}
	// Class 1: H = {∅}, G(a, 0) = 1 for every a.
	b := newBasis(M, nil)
	init := newLevel(M+1, prec)
	for i := range init.v {
		init.v[i].SetInt64(1)
	}
	steps := 0
	for r, a := range order {
		sy, err := p.newSystem(b, order, r, prec)
		if err != nil {
			return nil, err
		}
		N := p.m.Classes[p.act[a]].Population
		hist, err := p.walk(b, sy, order, r, init, N, M, prec)
		if err != nil {
			return nil, err
		}
		steps += N
		if r == len(order)-1 {
			return p.result(order, b, hist[len(hist)-1], hist[len(hist)-2], steps, prec)
		}
		// The basis of the next class at n_{r+1} = 0: offsets (h, j) from level N_r − j.
		pops := make([]int, r+1)
		for s := 0; s <= r; s++ {
			pops[s] = p.m.Classes[p.act[order[s]]].Population
		}
		nb := newBasis(M, pops)
		init = p.transfer(b, nb, hist, M, prec)
		b = nb
	}
	return nil, fmt.Errorf("comom: internal error: no class stepped")
}

// walk steps class order[r] from 0 to N and returns the last min(N, M) + 1 levels.
func (p *comom) walk(b *basis, sy *system, order []int, r int, init *level, N, M int, prec uint) ([]*level, error) {
	nh := len(b.h)
	a := order[r]
	zr := new(big.Float).SetPrec(prec).SetFloat64(p.z[a])
	cd := make([]big.Float, M) // c_k·D_kr
	dr := make([]big.Float, M)
	for k := range cd {
		dr[k].SetPrec(prec).SetFloat64(p.d[a][k])
		cd[k].SetPrec(prec).SetFloat64(p.count[k])
		cd[k].Mul(&cd[k], &dr[k])
	}
	// PC_s rows: (N_s − h_s) and Z_s.
	ns := make([]big.Float, len(sy.piv))
	zs := make([]big.Float, len(sy.piv))
	for j, q := range sy.piv {
		if sy.kind[q] == 1 {
			s, i := sy.a[q], sy.i[q]
			ns[j].SetPrec(prec).SetInt64(int64(p.m.Classes[p.act[order[s]]].Population - b.h[i][s]))
			zs[j].SetPrec(prec).SetFloat64(p.z[order[s]])
		}
	}
	keep := min(N, M) + 1
	hist := []*level{init}
	prev := init
	rhs := make([]big.Float, len(sy.piv))
	for j := range rhs {
		rhs[j].SetPrec(prec)
	}
	var t, s, nf big.Float
	t.SetPrec(prec)
	s.SetPrec(prec)
	nf.SetPrec(prec)
	var free []*level
	for n := 1; n <= N; n++ {
		if err := p.stopped(); err != nil {
			return nil, err
		}
		var cur *level
		if len(free) > 0 {
			cur, free = free[len(free)-1], free[:len(free)-1]
		} else {
			cur = newLevel(len(prev.v), prec)
		}
		g0, pg0 := cur.v[:nh], prev.v[:nh]
		// 1. PC of class r: n·G(c, n − h) = Z_r·G(c, n − h − 1_r) + Σ_k c_k·D_kr·G(c + 1_k, n − h − 1_r).
		nf.SetInt64(int64(n))
		for i := 0; i < nh; i++ {
			s.Mul(zr, &pg0[i])
			for k := 0; k < M; k++ {
				t.Mul(&cd[k], &prev.v[(1+k)*nh+i])
				s.Add(&s, &t)
			}
			g0[i].Quo(&s, &nf)
		}
		// 2. Right-hand sides of the pivot rows: CE G(c, n − h) + D_kr·G(c + 1_k, n − h − 1_r);
		// PC_s (N_s − h_s)·G(c, n − h) − Z_s·G(c, n − h − 1_s).
		for j, q := range sy.piv {
			i := sy.i[q]
			if sy.kind[q] == 0 {
				k := sy.a[q]
				rhs[j].Mul(&dr[k], &prev.v[(1+k)*nh+i])
				rhs[j].Add(&rhs[j], &g0[i])
				continue
			}
			up := b.up[i][sy.a[q]]
			rhs[j].Mul(&ns[j], &g0[i])
			t.Mul(&zs[j], &g0[up])
			rhs[j].Sub(&rhs[j], &t)
		}
		sy.solveInto(rhs, cur.v[nh:], &t)
		if !levelSane(cur.v, nh, M) {
			return nil, &comomLost{phase: r, step: n, prec: prec}
		}
		hist = append(hist, cur)
		if len(hist) > keep {
			if hist[0] != init {
				free = append(free, hist[0])
			}
			hist = hist[1:]
		}
		prev = cur
	}
	return hist, nil
}

// levelSane checks what every exact level satisfies, each step: G(c, n − h) > 0 (every
// population in the basis is non-negative) and G(c + 1_k, n − h) ≥ G(c, n − h) (CE: the
// added terms are non-negative), with a relative slack of 2^−32 for rounding where the two
// are equal. Rounding errors amplified by the recurrence (see verified) break one of these
// long before they reach the throughputs, so a run whose precision is too low stops at the
// step where it lost its last bits instead of finishing (comomLost).
func levelSane(v []big.Float, nh, M int) bool {
	var lo big.Float
	for i := 0; i < nh; i++ {
		g := &v[i]
		if g.Sign() <= 0 {
			return false
		}
		lo.SetPrec(64).SetMantExp(g, -32)
		lo.Sub(g, &lo)
		for k := 1; k <= M; k++ {
			if v[k*nh+i].Cmp(&lo) < 0 {
				return false
			}
		}
	}
	return true
}

// comomLost reports a run stopped by levelSane: its precision ran out at step `step` of
// class phase `phase` (the phase-th class added).
type comomLost struct {
	phase, step int
	prec        uint
}

func (e *comomLost) Error() string {
	return fmt.Sprintf("comom: precision too low: %d bits exhausted at step %d of class phase %d", e.prec, e.step, e.phase+1)
}

func (e *comomLost) Unwrap() error { return errComomPrecision }

// stopped returns an error wrapping the context's error once ComomContext's ctx is done.
func (p *comom) stopped() error {
	if p.ctx == nil {
		return nil
	}
	if err := p.ctx.Err(); err != nil {
		return fmt.Errorf("comom stopped: %w", err)
	}
	return nil
}

// transfer builds the level of the next class at population 0 from the last levels of the
// current class: G(a, (N_S − h, N_r − j)) is entry h of level N_r − j.
func (p *comom) transfer(b, nb *basis, hist []*level, M int, prec uint) *level {
	nh, nnh := len(b.h), len(nb.h)
	out := newLevel((M+1)*nnh, prec)
	idx := map[string]int{}
	for i, h := range b.h {
		idx[fmt.Sprint(h)] = i
	}
	for i, h := range nb.h {
		j := h[len(h)-1]
		if j >= len(hist) {
			continue // population below 0: G = 0
		}
		src := hist[len(hist)-1-j]
		si, ok := idx[fmt.Sprint(h[:len(h)-1])]
		if !ok {
			continue
		}
		for k := 0; k <= M; k++ {
			out.v[k*nnh+i].Set(&src.v[k*nh+si])
		}
	}
	return out
}

// result turns the final levels (cur at N, prev at N − 1_last) into a Result.
func (p *comom) result(order []int, b *basis, cur, prev *level, steps int, prec uint) (*Result, error) {
	m := p.m
	K, C := len(m.Stations), len(m.Classes)
	res := newResult("comom", C, K)
	res.Status = Status{Converged: true, Iterations: steps}
	res.Notes = append(res.Notes, fmt.Sprintf("comom is direct, not iterative: iterations counts its %d population steps (one per job added, N_1 + … + N_C), and converged only says it finished", steps))
	qPerCopy := make([][]float64, K) // [k][c] at queue stations
	for k := range qPerCopy {
		qPerCopy[k] = make([]float64, C)
	}
	x := make([]float64, C)
	if cur != nil {
		nh := len(b.h)
		G := &cur.v[0]
		if G.Sign() <= 0 {
			return nil, fmt.Errorf("%w: non-positive normalising constant at %d bits", errComomPrecision, prec)
		}
		var t big.Float
		t.SetPrec(prec)
		last := len(order) - 1
		for pos, a := range order {
			c := p.act[a]
			src, i := cur, 0
			if pos == last {
				src = prev
			} else {
				for ; i < nh; i++ {
					if hsum(b.h[i]) == 1 && b.h[i][pos] == 1 {
						break
					}
				}
			}
			t.Quo(&src.v[i], G)
			xv, _ := t.Float64()
			x[c] = math.Ldexp(xv, -p.e[a])
			for g, ks := range p.groups {
				t.Quo(&src.v[(1+g)*nh+i], G)
				gv, _ := t.Float64()
				q := p.d[a][g] * gv
				for _, k := range ks {
					qPerCopy[k][c] = q
				}
			}
		}
	}
	// Classes without queue demand cycle through the delays only: X = N/Z.
	for c, cl := range m.Classes {
		if cl.Population > 0 && !p.isActive(c) {
			x[c] = float64(cl.Population) / p.zeff[c]
		}
	}
	qTot := make([]float64, K)
	for k := range m.Stations {
		for c := range m.Classes {
			qTot[k] += qPerCopy[k][c]
		}
	}
	for c, cl := range m.Classes {
		res.Throughput[c] = x[c]
		for k, s := range m.Stations {
			d := m.Demand[c][k]
			r := d
			if s.Kind != Delay {
				switch {
				case cl.Population == 0:
					r = d * (1 + qTot[k]) // what one arriving job would see
				case x[c] > 0:
					r = qPerCopy[k][c] / x[c]
				}
			}
			res.Residence[k][c] = r
			res.QueueLength[k][c] = x[c] * r
			res.ResponseTime[c] += float64(s.Copies()) * r
			res.Utilization[k][c] = x[c] * d
		}
	}
	for c := range m.Classes {
		for _, v := range []float64{res.Throughput[c], res.ResponseTime[c]} {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, fmt.Errorf("%w: class %q: result %v at %d bits", errComomPrecision, m.Classes[c].Name, v, prec)
			}
		}
	}
	return res, nil
}

func (p *comom) isActive(c int) bool {
	for _, a := range p.act {
		if a == c {
			return true
		}
	}
	return false
}

func hsum(h []int) int {
	s := 0
	for _, v := range h {
		s += v
	}
	return s
}
