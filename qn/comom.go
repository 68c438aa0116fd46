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
// grows with the population of the classes added last (about 48 bits per job of the third
// class on the thesis network; see verified), so its CPU time grows faster than Σ_c N_c:
// on the thesis network scaled by 1/f the answer precision is 1536, 2112, 3840, 7552 bits
// for f = 8, 4, 2, 1 and the time about N^1.6 (BenchmarkMomentsThesisScaled; measured
// times in bench/qn-timings.md). Solve's auto picks it only where its estimated cost
// (ComomCost, work) is the lower one.
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
// rounding exponentially. verified chooses the precision from where low-precision runs
// stop (levelSane) and checks the result at a second, lower one. The last class's steps
// taper their precision (walk), since rounding there is amplified only by the steps left.
// A system that is singular in exact arithmetic (queues the earlier classes'
// demands cannot tell apart: seen when an earlier class has equal demands at two queues, or
// two earlier classes have proportional queue demands) is tried in the other class orders
// (up to 4 classes) and otherwise refused with ErrUnsupported naming those patterns; agreement with MVAMulti is tested to 1e-10 relative
// on random networks (comom_test.go).
//
// Refused (ErrUnsupported): open classes, multi-server (m > 1) and load-dependent stations,
// fork/join nodes. Time and memory are estimated before allocating (ComomCost, work;
// fault.ErrTooLarge).
//
// ctx stops it: it is checked at every population step and every pivot column of a
// factorisation (well under a millisecond of work each within the budget); the error then
// wraps ctx.Err() (context.Canceled: exit 130).
func Comom(ctx context.Context, m *Model) (*Result, error) {
	res, _, err := comomWithin(ctx, m, ComomMaxWork, true)
	return res, err
}

// comomWithin plans Comom on m (the pilot runs, plan) in the first class order that is not
// singular and, when solve is set, runs it (verified); it refuses with fault.ErrTooLarge
// what its estimate puts over limit ns of CPU time (Solve's auto passes a smaller limit
// than ComomMaxWork). It returns the estimate in seconds.
func comomWithin(ctx context.Context, m *Model, limit float64, solve bool) (*Result, float64, error) {
	p, err := newComom(m)
	if err != nil {
		return nil, 0, err
	}
	p.ctx, p.limit = ctx, limit
	if len(p.act) == 0 { // no job visits a queue (population 0, or delays only): closed form
		if !solve {
			return nil, 0, nil
		}
		res, err := p.result(nil, nil, nil, nil, 0, 64)
		return res, 0, err
	}
	var lastErr error
	for _, order := range p.orders() {
		pl, err := p.plan(order)
		est := 0.0
		if err == nil {
			est, _, err = pl.estimate()
		}
		if err == nil && !solve {
			return nil, est / 1e9, nil
		}
		if err == nil {
			var res *Result
			if res, err = p.verified(pl); err == nil {
				return res, est / 1e9, nil
			}
		}
		lastErr = err
		if !errors.Is(err, errComomSingular) {
			break // over budget or not settled: another order would not fare better
		}
	}
	if errors.Is(lastErr, errComomSingular) {
		return nil, 0, p.singularError(len(p.orders()))
	}
	return nil, 0, lastErr
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
// walking the populations, so a singular order is skipped before any work; it returns the
// operations each phase's factorisation did and each of its steps does (work).
func (p *comom) nonSingular(order []int) (factorOps, stepShort, stepLong []float64, err error) {
	M := len(p.groups)
	for r := range order {
		if M == 0 {
			break
		}
		pops := make([]int, r)
		for s := 0; s < r; s++ {
			pops[s] = p.m.Classes[p.act[order[s]]].Population
		}
		b := newBasis(M, pops)
		sy, err := p.newSystem(b, order, r, 256)
		if err != nil {
			return nil, nil, nil, err
		}
		sh, lo := sy.stepOps(len(b.h), M)
		factorOps = append(factorOps, float64(sy.factorOps))
		stepShort, stepLong = append(stepShort, sh), append(stepLong, lo)
	}
	return factorOps, stepShort, stepLong, nil
}

// comomAgree is the largest relative difference between the results at two precisions at
// which Comom accepts the higher one.
const comomAgree = 1e-13

// verified chooses the working precision and checks the result at a second one.
//
// The CoMoM recurrences lose bits at a steady rate per step of a class phase, a rate set by
// that phase's step system (measured on the thesis network at N/4 by comparing every level
// at 4096 and 8192 bits: no loss in the first class's phase, about 1.5 bits per step in the
// second and 48 bits per step in the third, whose system has 60 unknowns; so the precision
// the full network needs, 6208 bits by bisection, depends on the last class's population,
// 127, and hardly on the first's, 4095: TestComomLossLastClass). A run whose
// precision is too low stops at the step where levelSane first fails (comomLost), and the
// rate it lost bits at so far gives the loss L of the whole run: L = prec·(steps from the
// start of the failing phase to the end)/(steps done in it). The search:
//
//  1. the pilots (plan): a first run at comomFirstBits (128 for one class: its recursion
//     loses nothing); while it stops before the last class, again at a precision that
//     gets it through the phase it stopped in; once it stops in the last class, again at
//     twice the precision, which gives that phase's loss rate as a difference (the thesis
//     network: 512 and 1024 bits, stopped at steps 11 and 22 of 127). A pilot that
//     completes is the answer, checked at 1.5 times its precision;
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
func (p *comom) verified(pl *comomPlan) (*Result, error) {
	order := pl.order
	spent := pl.pilotWork
	do := func(precs ...uint) ([]comomRun, error) {
		for _, pr := range precs {
			if pr > ComomMaxBits {
				return nil, fmt.Errorf("%w: comom would need more than %d bits of precision for this model", fault.ErrTooLarge, ComomMaxBits)
			}
			if spent += pl.work(p, pr); spent > p.maxWork() {
				return nil, fmt.Errorf("%w: comom would take about %.3g s of CPU time with its run at %d bits (limit %.3g s)", fault.ErrTooLarge, spent/1e9, pr, p.maxWork()/1e9)
			}
		}
		out := make([]comomRun, len(precs))
		if len(precs) == 2 && runtime.GOMAXPROCS(0) >= 2 {
			done := make(chan struct{})
			go func() { out[1] = p.run(order, precs[1]); close(done) }()
			out[0] = p.run(order, precs[0])
			<-done
		} else {
			for i := range precs {
				out[i] = p.run(order, precs[i])
			}
		}
		for _, r := range out {
			if r.err != nil {
				return nil, r.err
			}
		}
		return out, nil
	}
	ans, chk, prev := pl.pilot, comomRun{}, pl.prevLost
	var rs []comomRun
	var err error
	for try := 0; try < 12; try++ {
		switch {
		case ans.lost != nil:
			hi, lo := p.nextPair(order, ans, prev)
			prev = ans.lost
			if rs, err = do(hi, lo); err != nil {
				return nil, err
			}
			ans, chk = rs[0], rs[1]
		case chk.res == nil && chk.lost == nil:
			if rs, err = do(roundBits(1.5 * float64(ans.prec))); err != nil {
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
			if rs, err = do(roundBits(1.5 * float64(ans.prec))); err != nil {
				return nil, err
			}
			ans, chk = rs[0], ans
		}
	}
	return nil, unsupported("comom: results did not settle up to %d bits of precision (use solver mva)", ans.prec)
}

// comomRun is one run of solve: its result, or where it lost its precision, or another
// error (singular, cancelled).
type comomRun struct {
	res  *Result
	prec uint
	lost *comomLost
	err  error
}

// run solves at prec bits and classifies the outcome; an infeasible result or one
// solve finds visibly wrong counts as lost at the last step.
func (p *comom) run(order []int, prec uint) comomRun {
	res, err := p.solve(order, prec)
	out := comomRun{prec: prec}
	atEnd := &comomLost{phase: len(order) - 1, step: p.m.Classes[p.act[order[len(order)-1]]].Population, prec: prec}
	var lost *comomLost
	switch {
	case errors.As(err, &lost):
		out.lost = lost
	case errors.Is(err, errComomPrecision):
		out.lost = atEnd
	case err != nil:
		out.err = err
	case !p.feasible(res):
		out.lost = atEnd
	default:
		out.res = res
	}
	return out
}

// nextPair is the answer's and the check's precision after run a stopped: 1.25·L + 128 and
// 1.05·L + 64 bits for the extrapolated loss L (lossEstimate), the answer at least 128 bits
// above the stopped run and the check between the two.
func (p *comom) nextPair(order []int, a comomRun, prev *comomLost) (hi, lo uint) {
	L := p.lossEstimate(order, a.lost, prev)
	hi = max(roundBits(1.25*L+128), a.prec+128, roundBits(1.25*float64(a.prec)))
	lo = min(max(roundBits(1.05*L+64), a.prec+64), hi-64)
	return hi, lo
}

// roundBits rounds a precision up to a multiple of 64 bits.
func roundBits(bits float64) uint { return uint(math.Ceil(bits/64)) * 64 }

// comomPlan is what Comom knows about one class order before its verified runs: the
// operation counts of its step systems (nonSingular) and its first run, the pilot, at
// comomFirstBits (128 for one class: its recursion loses nothing).
type comomPlan struct {
	p         *comom
	order     []int
	factorOps []float64 // per phase: the factorisation's operations (long)
	stepShort []float64 // per phase: one step's operations with short operands
	stepLong  []float64 // per phase: one step's multiplications by long factors
	pilot     comomRun
	prevLost  *comomLost // the pilot before pilot, stopped in the same phase
	pilotWork float64    // estimated CPU ns of the pilots
}

// plan refuses what is over budget before allocating (the dense count of ops at the
// pilot's precision: time and memory), factorises the order's systems (a singular one:
// errComomSingular) and does the pilot run.
func (p *comom) plan(order []int) (*comomPlan, error) {
	first := uint(comomFirstBits)
	if len(order) == 1 {
		first = 128
	}
	if err := p.denseBudget(order, first); err != nil {
		return nil, err
	}
	fo, ss, sl, err := p.nonSingular(order)
	if err != nil {
		return nil, err
	}
	pl := &comomPlan{order: order, factorOps: fo, stepShort: ss, stepLong: sl}
	// Every answer needs the pilot and at least one more run at a higher precision (1.5 times
	// the pilot's when the pilot settles; more when it runs out), so refuse before the pilot
	// when those two alone are over budget (hostile review: a one-class model of 3e7 jobs ran
	// its pilot for minutes before the estimate refused it).
	pl.pilotWork = pl.work(p, first)
	if least := pl.pilotWork + pl.work(p, roundBits(1.5*float64(first))); least > p.maxWork() {
		return nil, fmt.Errorf("%w: comom would take about %.3g s of CPU time at least (a first run at %d bits and a second at %d; limit %.3g s)", fault.ErrTooLarge, least/1e9, first, roundBits(1.5*float64(first)), p.maxWork()/1e9)
	}
	pl.p = p
	if pl.pilot = p.run(order, first); pl.pilot.err != nil {
		return nil, pl.pilot.err
	}
	// A pilot that ran out before the last class says nothing of the later phases' loss
	// rates (on the cc networks the last phase loses faster than the second): run it again
	// at a precision that gets it through the failing phase at the rate it lost there, until
	// it stops in the last phase or finishes.
	for tries := 0; tries < len(order); tries++ {
		l := pl.pilot.lost
		if l == nil || l.phase == len(order)-1 {
			break
		}
		N := p.m.Classes[p.act[order[l.phase]]].Population
		next := roundBits(1.1*float64(l.prec)*float64(N)/float64(max(1, l.step)) + 256)
		if next > ComomMaxBits {
			break // estimate refuses it
		}
		// this run, the answer and the check all need at least next bits
		w := pl.work(p, next)
		if pl.pilotWork+3*w > p.maxWork() {
			return nil, fmt.Errorf("%w: comom would take more than %.3g s of CPU time: its first run, at %d bits, ran out of precision at step %d of class %q (added as number %d of %d), so its runs need more than %d bits (limit %.3g s)", fault.ErrTooLarge, (pl.pilotWork+3*w)/1e9, l.prec, l.step, p.m.Classes[p.act[order[l.phase]]].Name, l.phase+1, len(order), next, p.maxWork()/1e9)
		}
		pl.pilotWork += w
		if pl.pilot = p.run(order, next); pl.pilot.err != nil {
			return nil, pl.pilot.err
		}
	}
	// A second pilot at twice the precision, stopped in the same phase, gives that phase's
	// loss rate free of the earlier phases' loss (lossEstimate).
	if l := pl.pilot.lost; l != nil && l.phase == len(order)-1 {
		next := 2 * l.prec
		if w := pl.work(p, next); next <= ComomMaxBits && pl.pilotWork+w <= p.maxWork() {
			pl.pilotWork += w
			second := p.run(order, next)
			switch {
			case second.err != nil:
				return nil, second.err
			case second.lost == nil:
				pl.pilot = second
			case second.lost.phase == l.phase:
				pl.pilot, pl.prevLost = second, l
			}
		}
	}
	return pl, nil
}

// estimate is the plan's estimated CPU time in ns (the pilot and the runs verified will do
// next if each settles as planned: the pair of nextPair after a stopped pilot, else one run
// at 1.5 times the pilot's precision) and the precisions of those runs; it wraps
// fault.ErrTooLarge when they are over ComomMaxBits, comomMaxBytes or ComomMaxWork.
func (pl *comomPlan) estimate() (float64, []uint, error) {
	p := pl.p
	var runs []uint
	if pl.pilot.lost != nil {
		hi, lo := p.nextPair(pl.order, pl.pilot, pl.prevLost)
		runs = []uint{hi, lo}
		if hi > ComomMaxBits {
			l := pl.pilot.lost
			return math.Inf(1), runs, fmt.Errorf("%w: comom would need more than %d bits of precision, its limit: a run at %d bits ran out of precision at step %d of %d of class %q (added as number %d of %d), and the steps after it lose more (extrapolated: about %d bits) (use solver mva or linearizer)", fault.ErrTooLarge, ComomMaxBits, l.prec, l.step, p.m.Classes[p.act[pl.order[l.phase]]].Population, p.m.Classes[p.act[pl.order[l.phase]]].Name, l.phase+1, len(pl.order), hi)
		}
	} else {
		runs = []uint{roundBits(1.5 * float64(pl.pilot.prec))}
	}
	if b := 2 * p.bytes(pl.order, runs[0]); b > comomMaxBytes {
		return math.Inf(1), runs, fmt.Errorf("%w: comom's two runs at %v bits would hold about %.3g GiB, over its limit of %.3g GiB (use solver mva or linearizer)", fault.ErrTooLarge, runs, b/(1<<30), float64(comomMaxBytes)/(1<<30))
	}
	w := pl.pilotWork
	for _, pr := range runs {
		w += pl.work(p, pr)
	}
	if w > p.maxWork() {
		return w, runs, fmt.Errorf("%w: comom would take about %.3g s of CPU time (a first run at %d bits, then runs at %v bits; limit %.3g s)", fault.ErrTooLarge, w/1e9, pl.pilot.prec, runs, p.maxWork()/1e9)
	}
	return w, runs, nil
}

// comomFirstBits is the precision of verified's first run.
const comomFirstBits = 512

// lossEstimate extrapolates the bits a whole run loses from the last run stopped (lost),
// given the one stopped before it (prev, or nil). Two runs stopped in the same phase give
// its loss rate as a difference, (prec₂ − prec₁)/(step₂ − step₁) bits per step, free of
// what the earlier phases lost; one run gives only prec/step, which counts the earlier
// phases' loss as this phase's (an overestimate: on the cc network at N = 4000, 98 624
// bits against about 40 000). The later phases are assumed to lose at the same rate (plan
// runs its pilot until it stops in the last phase).
func (p *comom) lossEstimate(order []int, lost, prev *comomLost) float64 {
	rest := 0
	for r := lost.phase; r < len(order); r++ {
		rest += p.m.Classes[p.act[order[r]]].Population
	}
	if prev != nil && prev.phase == lost.phase && lost.step > prev.step && lost.prec > prev.prec {
		rate := float64(lost.prec-prev.prec) / float64(lost.step-prev.step)
		return max(0, float64(lost.prec)-rate*float64(lost.step)) + rate*float64(rest)
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

type comom struct {
	ctx    context.Context // stops walk and factor (Comom); nil: never
	limit  float64         // CPU ns Comom may take (ComomMaxWork, less for auto); 0: ComomMaxWork
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
	if err := closedSolver(m, "comom"); err != nil {
		return nil, err
	}
	if err := singleServerOnly(m, "comom"); err != nil {
		return nil, err
	}
	p := &comom{m: m}
	p.zeff = thinkPlusDelay(m)
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
	// demands are identical.
	p.groups, p.count = queueGroups(m, p.act)
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

// ComomCost estimates Comom's CPU time on m in seconds (all of its runs, see verified) and
// returns an error wrapping ErrUnsupported when the method does not apply or
// fault.ErrTooLarge when it is over budget. It does Comom's first run (the pilot at
// comomFirstBits, stopped where its precision runs out: the stopping step gives the
// precision of the rest), a few per cent of the total on the measured networks. Solve's
// auto uses it to choose between Comom and the lattice walk of MVAMulti.
func ComomCost(m *Model) (float64, error) {
	_, sec, err := comomWithin(context.Background(), m, ComomMaxWork, false)
	return sec, err
}

// comomLowerBound is a lower bound of Comom's CPU time on m in seconds, without running
// anything: two runs (an answer and its check) of one PC step per job at 128 bits, on a
// basis of one offset (2M + 2 operations per job for M queue groups); 0 when Comom does not
// apply (ComomCost says why).
func comomLowerBound(m *Model) float64 {
	p, err := newComom(m)
	if err != nil {
		return 0
	}
	n := 0
	for _, a := range p.act {
		n += m.Classes[a].Population
	}
	return 2 * float64(n) * float64(2*len(p.groups)+2) * opNanos(128) / 1e9
}

// maxWork is the CPU time in ns this run may take (limit, or ComomMaxWork).
func (p *comom) maxWork() float64 {
	if p.limit > 0 {
		return p.limit
	}
	return ComomMaxWork
}

// denseBudget refuses, before anything is allocated, an order whose dense operation count
// (ops: a dense factorisation per class, dense steps) at prec bits is over ComomMaxWork or
// whose values are over comomMaxBytes. The dense count is an upper bound of the work: the
// factors are sparse (thesis network: 357 nonzeros for 60 unknowns).
func (p *comom) denseBudget(order []int, prec uint) error {
	if b := p.bytes(order, prec); b > comomMaxBytes {
		return fmt.Errorf("%w: comom would hold about %.3g GiB of %d-bit values, over its limit of %.3g GiB: the dense factorisation of the last class's step system holds (M+i)·M·C(M+i, i)² values for M = %d queue groups and i = %d earlier classes, and the binomial term explodes with many classes (use solver mva or linearizer)", fault.ErrTooLarge, b/(1<<30), prec, float64(comomMaxBytes)/(1<<30), len(p.groups), len(order)-1)
	}
	f := 0.0
	for i := range order {
		fo, _, _ := p.phaseOps(order, i)
		f += fo * opNanos(prec)
	}
	if f > p.maxWork() {
		return fmt.Errorf("%w: comom's factorisations alone would take about %.3g s of CPU time (limit %.3g s): (M+i)·M²·C(M+i, i)³ operations for M = %d queue groups and i = %d earlier classes (use solver mva or linearizer)", fault.ErrTooLarge, f/1e9, p.maxWork()/1e9, len(p.groups), len(order)-1)
	}
	return nil
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
	for i := range order {
		f, st, v := p.phaseOps(order, i)
		ops += f + float64(p.m.Classes[p.act[order[i]]].Population)*st
		vals = math.Max(vals, v)
	}
	return ops, vals
}

// phaseOps is ops for class position i: the factorisation's operations, one step's, and the
// values held.
func (p *comom) phaseOps(order []int, i int) (factor, step, vals float64) {
	M := len(p.groups)
	h := binom(M+i, i)
	cols := float64(M) * h
	rows := float64(M+i) * h
	return 2 * rows * cols * cols, 2*cols*cols + 2*rows + 2*float64(M+1)*h, rows*cols + cols*cols + float64(M+3)*float64(M+1)*h
}

// work estimates the CPU time of one run at prec bits in nanoseconds: a·ops + b·Σ w over
// the short operations + c·Σ w^1.585 over the long ones (stepOps; the factorisation's
// count as long), w = prec/64 words at each step (the last class's steps run at the
// tapering precision of walk), with the constants of comomCost.
func (pl *comomPlan) work(p *comom, prec uint) float64 {
	n, sw, lw := pl.features(p, prec)
	return comomCost[0]*n + comomCost[1]*sw + comomCost[2]*lw
}

// features are the sums work weighs: operations, Σ w over short ones, Σ w^1.585 over long.
func (pl *comomPlan) features(p *comom, prec uint) (n, sw, lw float64) {
	add := func(count, long float64, bits uint, times float64) {
		w := float64(bits) / 64
		n += times * (count + long)
		sw += times * count * w
		lw += times * long * math.Pow(w, 1.585)
	}
	for i, a := range pl.order {
		if i >= len(pl.stepShort) {
			break
		}
		N := p.m.Classes[p.act[a]].Population
		add(0, pl.factorOps[i], prec, 1)
		if i < len(pl.order)-1 || prec <= 128 {
			add(pl.stepShort[i], pl.stepLong[i], prec, float64(N))
			continue
		}
		slices := min(N, 64) // the tapering precision, in at most 64 slices
		for j := 0; j < slices; j++ {
			k := 1 + (2*j+1)*N/(2*slices)
			pn := 128 + ((prec-128)*uint(N-k+1)/uint(N)+63)/64*64
			add(pl.stepShort[i], pl.stepLong[i], pn, float64(N)/float64(slices))
		}
	}
	return n, sw, lw
}

// opNanos is the CPU time of one operation at prec bits with short operands, in ns
// (comomCost; for denseBudget and comomLowerBound).
func opNanos(prec uint) float64 {
	return comomCost[0] + comomCost[1]*float64(prec)/64
}

// comomCost are the constants of work in ns: per operation, per word of a short operation,
// per word^1.585 of a long one. Least squares of the relative error over single runs (CPU
// time, getrusage, 2-vCPU host at load average 16) of the cc networks (N = 400 at 2048 and
// 4096 bits, N = 800 at 4096 and 8192), the thesis network (N at 6272 and 8192, N/4 at
// 2048), one class (N = 1e5 at 128 and 1024), comomAutoModel (512, 768) and 4 classes × 100
// jobs on 4 queues and a delay (16 320): model/measured 0.68–1.28.
var comomCost = [3]float64{52, 2.6, 3.7}

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
	rounded      []*system // the factors rounded to prec/2, prec/4, … (at, for the last phase)
	prec         uint      // the factors' precision
	factorOps    int       // multiplications the elimination did
}

// stepOps counts the big.Float operations of one step of walk with this system (nh offsets,
// M queue groups): PC of the stepping class (2M + 2 per offset), the right-hand sides (4
// per pivot row), the substitutions (2 per factor entry, 1 per pivot) and the checks. long
// counts the multiplications by a factor entry of full length (fill-in and inverted
// pivots: more than 64 significant bits at 256), whose cost grows like Karatsuba's w^1.58
// in the operands' words w; the others multiply by a short number (a demand, a population,
// an entry of the original system) or add, in time linear in w.
func (sy *system) stepOps(nh, M int) (short, long float64) {
	n := (2*M+2)*nh + 4*len(sy.piv) + (M+1)*nh
	l := 0
	for i := range sy.lower {
		n += 2 * (len(sy.lower[i]) + len(sy.upper[i]))
		for _, row := range [][]term{sy.lower[i], sy.upper[i]} {
			for j := range row {
				if row[j].val.MinPrec() > 64 {
					l++
				}
			}
		}
		if sy.invDiag[i].MinPrec() > 64 {
			l++
		}
	}
	return float64(n - l), float64(l)
}

// at returns the factors rounded to the lowest of prec, prec/2, prec/4, … (multiples of 64
// bits) that is still at least bits: a product's cost grows with its operands' lengths, and
// the last phase's steps need less precision as they go (walk).
func (sy *system) at(bits uint) *system {
	cur := sy
	for i := 0; ; i++ {
		next := (cur.prec/2 + 63) / 64 * 64
		if next < bits || next >= cur.prec {
			return cur
		}
		if i == len(sy.rounded) {
			sy.rounded = append(sy.rounded, cur.roundedTo(next))
		}
		cur = sy.rounded[i]
	}
}

// roundedTo is a copy of the factors with every entry rounded to bits.
func (sy *system) roundedTo(bits uint) *system {
	out := *sy
	out.rounded, out.prec = nil, bits
	cp := func(rows [][]term) [][]term {
		o := make([][]term, len(rows))
		for i, row := range rows {
			o[i] = make([]term, len(row))
			for j := range row {
				o[i][j].col = row[j].col
				o[i][j].val.SetPrec(bits).Set(&row[j].val)
			}
		}
		return o
	}
	out.lower, out.upper = cp(sy.lower), cp(sy.upper)
	out.invDiag = make([]big.Float, len(sy.invDiag))
	for i := range sy.invDiag {
		out.invDiag[i].SetPrec(bits).Set(&sy.invDiag[i])
	}
	return &out
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
// stop is checked at every pivot column (Comom).
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
				sy.factorOps += 2
			}
		}
	}
	T := len(pcol)
	sy.piv, sy.pcol, sy.invDiag, sy.prec = perm[:T], pcol, inv, prec
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
// order; overwritten) and writes the unknowns into y (free unknowns 0). t and u are
// scratch values at the working precision (u takes turns with the b[i] it accumulates: an
// in-place big.Float Add or Sub allocates when its operands' exponents differ).
func (sy *system) solveInto(b, y []big.Float, t, u *big.Float) {
	for i := range b {
		for _, tm := range sy.lower[i] {
			t.Mul(&tm.val, &b[tm.col])
			u.Sub(&b[i], t)
			b[i], *u = *u, b[i]
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
			u.Sub(&b[i], t)
			b[i], *u = *u, b[i]
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
	w := p.newComomWalk(b, sy, order, r, M, prec)
	keep := min(N, M) + 1
	hist := []*level{init}
	prev := init
	var free []*level
	for n := 1; n <= N; n++ {
		if err := p.stopped(); err != nil {
			return nil, err
		}
		pn := prec
		if r == len(order)-1 && prec > 128 {
			// The last phase: rounding at step n is amplified only by the steps after it, so
			// the precision tapers from prec at its first step to 128 bits at its last (see
			// verified: prec covers the loss of the whole run, so prec·(N − n + 1)/N covers the
			// rest of this phase's).
			pn = 128 + ((prec-128)*uint(N-n+1)/uint(N)+63)/64*64
		}
		var cur *level
		if len(free) > 0 {
			cur, free = free[len(free)-1], free[:len(free)-1]
		} else {
			cur = newLevel(len(prev.v), pn)
		}
		w.step(b, sy, prev, cur, n, pn)
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

// comomWalk holds the constants of one class phase of walk (class r = order[r]: Z_r,
// c_k·D_kr and D_kr per queue group; per pivot row of a PC_s equation N_s − h_s and Z_s)
// and its scratch numbers, reused at every step.
type comomWalk struct {
	M, nh           int
	zr              big.Float
	cd, dr          []big.Float
	ns, zs          []big.Float
	rhs             []big.Float
	t, u, s, s2, nf big.Float
}

func (p *comom) newComomWalk(b *basis, sy *system, order []int, r, M int, prec uint) *comomWalk {
	a := order[r]
	w := &comomWalk{M: M, nh: len(b.h), cd: make([]big.Float, M), dr: make([]big.Float, M),
		ns: make([]big.Float, len(sy.piv)), zs: make([]big.Float, len(sy.piv)), rhs: make([]big.Float, len(sy.piv))}
	w.zr.SetPrec(prec).SetFloat64(p.z[a])
	for k := range w.cd {
		w.dr[k].SetPrec(prec).SetFloat64(p.d[a][k])
		w.cd[k].SetPrec(prec).SetFloat64(p.count[k])
		w.cd[k].Mul(&w.cd[k], &w.dr[k])
	}
	// PC_s rows: (N_s − h_s) and Z_s.
	for j, q := range sy.piv {
		if sy.kind[q] == 1 {
			s, i := sy.a[q], sy.i[q]
			w.ns[j].SetPrec(prec).SetInt64(int64(p.m.Classes[p.act[order[s]]].Population - b.h[i][s]))
			w.zs[j].SetPrec(prec).SetFloat64(p.z[order[s]])
		}
	}
	w.nf.SetPrec(64)
	return w
}

// step computes level n (cur) from level n − 1 (prev) at pn bits: first the PC equation of
// class r, n·G(c, n − h) = Z_r·G(c, n − h − 1_r) + Σ_k c_k·D_kr·G(c + 1_k, n − h − 1_r), then
// the rest of the level by solving the factored system for the pivot rows' right-hand
// sides.
func (w *comomWalk) step(b *basis, sy *system, prev, cur *level, n int, pn uint) {
	nh, M := w.nh, w.M
	fs := sy.at(pn)
	for _, z := range []*big.Float{&w.t, &w.u, &w.s, &w.s2} {
		z.SetPrec(pn)
	}
	for i := range cur.v {
		cur.v[i].SetPrec(pn)
	}
	g0, pg0 := cur.v[:nh], prev.v[:nh]
	// 1. PC of class r.
	w.nf.SetInt64(int64(n))
	for i := 0; i < nh; i++ {
		w.s.Mul(&w.zr, &pg0[i])
		for k := 0; k < M; k++ {
			w.t.Mul(&w.cd[k], &prev.v[(1+k)*nh+i])
			w.s2.Add(&w.s, &w.t)
			w.s, w.s2 = w.s2, w.s
		}
		g0[i].Quo(&w.s, &w.nf)
	}
	// 2. Right-hand sides of the pivot rows: CE G(c, n − h) + D_kr·G(c + 1_k, n − h − 1_r);
	// PC_s (N_s − h_s)·G(c, n − h) − Z_s·G(c, n − h − 1_s).
	for j, q := range sy.piv {
		i := sy.i[q]
		w.rhs[j].SetPrec(pn)
		if sy.kind[q] == 0 {
			k := sy.a[q]
			w.t.Mul(&w.dr[k], &prev.v[(1+k)*nh+i])
			w.rhs[j].Add(&w.t, &g0[i])
			continue
		}
		up := b.up[i][sy.a[q]]
		w.u.Mul(&w.ns[j], &g0[i])
		w.t.Mul(&w.zs[j], &g0[up])
		w.rhs[j].Sub(&w.u, &w.t)
	}
	fs.solveInto(w.rhs, cur.v[nh:], &w.t, &w.u)
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

// stopped returns an error wrapping the context's error once Comom's ctx is done.
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
	x, qPerCopy, err := p.levelMeasures(order, b, cur, prev, prec)
	if err != nil {
		return nil, err
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

// levelMeasures reads the active classes' throughputs X_c = G(c, N − 1_c)/G(c, N) (rescaled
// by 2^−e) and per-copy queue lengths Q_kc = D_kc·G(c + 1_k, N − 1_c)/G(c, N) at queue
// stations from the final levels (cur at N, prev at N − 1_last); nil cur gives zeros.
func (p *comom) levelMeasures(order []int, b *basis, cur, prev *level, prec uint) (x []float64, qPerCopy [][]float64, err error) {
	K, C := len(p.m.Stations), len(p.m.Classes)
	qPerCopy = make([][]float64, K) // [k][c] at queue stations
	for k := range qPerCopy {
		qPerCopy[k] = make([]float64, C)
	}
	x = make([]float64, C)
	if cur == nil {
		return x, qPerCopy, nil
	}
	nh := len(b.h)
	G := &cur.v[0]
	if G.Sign() <= 0 {
		return nil, nil, fmt.Errorf("%w: non-positive normalising constant at %d bits", errComomPrecision, prec)
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
	return x, qPerCopy, nil
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
