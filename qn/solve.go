package qn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// Solvers lists the solver names Solve accepts.
var solverNames = []string{"auto", "mva", "comom", "integral", "schweitzer", "linearizer", "open", "mixed", "forkjoin", "mvablo", "exact"}

// blockingOnly lists the solver names of finite-capacity models only (SolveBlocking,
// reached through ModelFile.Solve for a file with capacity:).
var blockingOnly = map[string]bool{"mvablo": true, "exact": true, "ctmc": true}

// SolverNames returns the names Solve accepts, "auto" first.
func SolverNames() []string { return append([]string(nil), solverNames...) }

// Solve solves m with the solver of that name among Solvers(opt) (Solver.Solve is the same
// call). "auto" (or "") tries Candidates(m) — the solvers whose Cost applies, by accuracy
// rank then estimated seconds (autoSolve) — and says why in Result.Reason. What it comes to:
//
//   - fork/join nodes → ForkJoinMVA (approximate: no exact product-form solution exists);
//   - open classes only → Open (exact); open and closed → Mixed (exact);
//   - one closed class → MVASingle (exact);
//   - several closed classes → Comom (exact, class-oriented Method of Moments) when its
//     estimated time is below exact MVA's, or MVA is over budget and Comom's estimate is
//     under comomAutoSeconds (comomAuto); else exact MVAMulti when its cost fits
//     (population lattice ≤ MaxLattice, or, with multi-server/load-dependent stations,
//     work ≤ MaxLDWork; on all cores from ParallelThreshold points), else Integral
//     (numerical integration of the exact integral representation: approximate, error
//     estimate ≤ 1e-9) when its grid converges within integralAutoPoints, else Linearizer
//     with the marginal multi-server method (approximate).
//
// Every approximate result from Solve carries an ErrorEstimate (see estimateError). With
// opt.RequireExact Solve never approximates: auto returns an error wrapping
// fault.ErrTooLarge (exact solver over budget) or ErrUnsupported and fault.ErrInput (no
// exact method for the model), and a named approximate solver is refused (fault.ErrInput).
func Solve(ctx context.Context, m *Model, solver string, opt AMVAOptions) (*Result, error) {
	solver = strings.ToLower(solver)
	if sv, err := lookup(solver, opt); err == nil && opt.RequireExact && sv.approximate && !(solver == "forkjoin" && len(m.ForkJoins) == 0) {
		return nil, fmt.Errorf("%w: solver %q is approximate and exact results were required (use solver auto or mva)", fault.ErrInput, solver)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", fault.ErrInput, err)
	}
	e := timeScale(m)
	ms := m
	if e != 0 {
		ms = m.Clone()
		ms.scaleTimes(-e)
		if err := overflowedArrivals(m, ms); err != nil {
			return nil, err
		}
	}
	res, err := solveEstimated(ctx, ms, solver, opt)
	if err != nil {
		if se := (*SaturationError)(nil); errors.As(err, &se) {
			se.ArrivalRate = openRate(m) // in m's units: the message then names the capacity
		}
		return nil, err
	}
	labelProductForm(m, res)
	if e != 0 {
		if err := res.scaleTimes(m, e); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// openRate is the total arrival rate of m's open classes, jobs/s.
func openRate(m *Model) float64 {
	var l float64
	for _, c := range m.Classes {
		if c.Open {
			l += c.ArrivalRate
		}
	}
	return l
}

// timeScale returns the exponent e of the power of two 2^e nearest below the largest
// demand or think time of m (0 if there is none). Solve divides every time by 2^e and multiplies the results back, so the
// arithmetic runs near 1 whatever the time unit: MVA is equivariant under scaling all
// times by s (X → X/s, R → s·R, Q and U unchanged), and scaling by a power of two is exact,
// so results do not depend on the unit (issue 12: demand 1e308 or 1e-320 with N = 10 gives
// U = 1, Q = 10, not 0).
func timeScale(m *Model) int {
	mx := 0.0
	for c, row := range m.Demand {
		for _, d := range row {
			mx = math.Max(mx, d)
		}
		mx = math.Max(mx, m.Classes[c].ThinkTime)
	}
	if mx == 0 || math.IsInf(mx, 0) || math.IsNaN(mx) {
		return 0
	}
	_, e := math.Frexp(mx)
	return e - 1
}

// overflowedArrivals reports an open class whose arrival rate λ left the float64 range when
// scaled by 2^e ≤ max demand: then λ·D_max ≥ λ·2^e overflows too, so the station with the
// largest λ·D is saturated (utilisation beyond 1.8e308 ≥ 1) — a model finding, not a bad
// number (hostile review: arrival_rate 1e308 gave exit 1 "arrival rate +Inf must be finite").
func overflowedArrivals(m, scaled *Model) error {
	for c, cl := range scaled.Classes {
		if !cl.Open || !math.IsInf(cl.ArrivalRate, 0) {
			continue
		}
		best := 0
		for k := range m.Stations {
			if m.Demand[c][k] > m.Demand[c][best] {
				best = k
			}
		}
		return &SaturationError{Station: m.Stations[best].Name, Utilization: m.Classes[c].ArrivalRate * m.Demand[c][best]}
	}
	return nil
}

// scaleTimes multiplies every time of m (demands, think times) by 2^e and divides rates by
// it (math.Ldexp: exact unless a value leaves the normal range).
func (m *Model) scaleTimes(e int) {
	for c := range m.Classes {
		m.Classes[c].ThinkTime = math.Ldexp(m.Classes[c].ThinkTime, e)
		m.Classes[c].ArrivalRate = math.Ldexp(m.Classes[c].ArrivalRate, -e)
		for k := range m.Demand[c] {
			m.Demand[c][k] = math.Ldexp(m.Demand[c][k], e)
		}
	}
}

// scaleTimes converts a result of the scaled model m back: times × 2^e, throughputs ÷ 2^e.
// A number the float64 range cannot hold (a response time above 1.8e308 s, a throughput
// above 1.8e308 per second) is refused rather than printed as Inf or 0, naming the class and
// the station: for a residence time its own, for a class's throughput or response time the
// station where the class spends the most time (review P3: "class 0: throughput …" named
// neither).
func (r *Result) scaleTimes(m *Model, e int) error {
	bad := func(v float64) bool { return math.IsInf(v, 0) || math.IsNaN(v) || (v == 0) }
	const advice = "is outside the float64 range: express the model's times (demands, think times, rates) in another unit"
	for c := range r.Throughput {
		x, rt := r.Throughput[c], r.ResponseTime[c]
		r.Throughput[c] = math.Ldexp(x, -e)
		r.ResponseTime[c] = math.Ldexp(rt, e)
		if (x != 0 && bad(r.Throughput[c])) || (rt != 0 && bad(r.ResponseTime[c])) {
			top := 0
			for k := range r.Residence {
				if r.Residence[k][c] > r.Residence[top][c] {
					top = k
				}
			}
			return fmt.Errorf("%w: class %q (most of its time at station %q): throughput %.6g × 2^%d per s or response time %.6g × 2^%d s %s", fault.ErrInput, m.Classes[c].Name, m.Stations[top].Name, x, -e, rt, e, advice)
		}
		for k := range r.Residence {
			v := r.Residence[k][c]
			r.Residence[k][c] = math.Ldexp(v, e)
			if v != 0 && bad(r.Residence[k][c]) {
				return fmt.Errorf("%w: class %q, station %q: residence time %.6g × 2^%d s %s", fault.ErrInput, m.Classes[c].Name, m.Stations[k].Name, v, e, advice)
			}
		}
	}
	return nil
}

// NoEstimateNote starts the note Solve adds to an approximate result it could not estimate
// (a fork/join result: no exact solver exists to compare with); an estimate measured
// later (solveapp.SetObservedEstimate) drops it.
const NoEstimateNote = "approximate result without an error estimate"

func solveEstimated(ctx context.Context, m *Model, solver string, opt AMVAOptions) (*Result, error) {
	res, err := solve(ctx, m, solver, opt)
	if err != nil {
		return nil, err
	}
	if !res.Exact && res.ErrorEstimate == nil && res.Solver != "forkjoin-mva" {
		if est, err := estimateError(m, res, opt); err == nil {
			res.ErrorEstimate = est
		} else {
			res.Notes = append(res.Notes, "no error estimate: "+fault.Detail(err))
		}
	}
	if !res.Exact && res.ErrorEstimate == nil {
		res.Notes = append(res.Notes, NoEstimateNote+": check it against `simulate`")
	}
	if !res.Exact {
		infeasible(m, res)
	}
	return res, nil
}

// infeasible notes where an approximate result breaks U ≤ 1 at a queueing station (the
// approximate solvers do not enforce it; Linearizer can exceed it slightly near saturation)
// and raises the error estimate to at least the excess, which is a lower bound of the
// relative error of that station's throughput.
func infeasible(m *Model, res *Result) {
	for k, st := range m.Stations {
		if st.Kind == Delay {
			continue
		}
		if u := res.StationUtilization(k); u > 1+1e-12 {
			res.Notes = append(res.Notes, fmt.Sprintf("approximation infeasible at station %q: utilization %.10g > 1, so its throughputs are at least %.2g %% too high", st.Name, u, 100*(u-1)))
			if e := res.ErrorEstimate; e != nil {
				e.RelError = math.Max(e.RelError, (u-1)/u)
			}
		}
	}
}

// solve runs the named solver (Solvers) on m, or auto (autoSolve) for "" or "auto".
func solve(ctx context.Context, m *Model, solver string, opt AMVAOptions) (*Result, error) {
	auto := solver == "" || solver == "auto"
	if solver == "forkjoin" {
		return forkJoinNamed(ctx, m, opt)
	}
	if !auto || len(m.ForkJoins) == 0 {
		if err := m.solvable(); err != nil {
			return nil, err
		}
	}
	if auto {
		return autoSolve(ctx, m, opt)
	}
	s, err := lookup(solver, opt)
	if err != nil {
		return nil, err
	}
	return s.named(ctx, m, opt)
}

// autoSolve is Solve's auto: it tries Candidates(m) in order — the solvers that apply, the
// more accurate first (exact methods, then Integral, then Linearizer), and among exact ones
// the fewer estimated seconds (Comom's lower bound against exact MVA's operation count ×
// mvaSecondsPerOp) — and returns the first result. Comom runs within the smaller of
// comomAutoSeconds and the next exact candidate's estimate; a solver that refuses at run
// time (Comom's pilot over that budget or singular, Integral's grids not converged within
// integralAutoPoints) passes to the next. Result.Reason says why (autoReason). With
// opt.RequireExact it stops with an error before the first approximate candidate.
func autoSolve(ctx context.Context, m *Model, opt AMVAOptions) (*Result, error) {
	cands := Candidates(m, opt)
	whyNot := map[string]string{}
	for i, s := range cands {
		c := s.Cost(m)
		if c.Rank > 0 && opt.RequireExact {
			return nil, requireExactError(m, whyNot)
		}
		budget := float64(comomAutoSeconds)
		for _, n := range cands[i+1:] {
			if nc := n.Cost(m); nc.Rank == 0 {
				budget = min(budget, nc.Seconds)
				break
			}
		}
		r, clause, err := s.auto(ctx, m, opt, budget)
		if err != nil {
			return nil, err
		}
		if r == nil {
			whyNot[s.name] = clause
			continue
		}
		r.Reason = autoReason(m, s.name, r, clause, whyNot)
		return r, nil
	}
	return nil, fmt.Errorf("%w: no solver applies to this model", fault.ErrInput)
}

// clauses are auto's why (exact MVA's size or budget), why2 (Comom's clause) and why3
// (Integral's) for several closed classes: a solver's refusal at run time, else why its Cost
// does not apply, else (Comom estimated above exact MVA) the comparison of the estimates.
func clauses(m *Model, whyNot map[string]string) (string, string, string) {
	why := mvaCost(m).Why
	why2, ok := whyNot["comom"]
	if !ok {
		c := comomEstimate(m)
		why2 = c.Why
		if c.Applies {
			why2 = fmt.Sprintf("not comom: estimated at least %.2g s, not below exact MVA's %.2g s", c.Seconds, exactWork(m)*mvaSecondsPerOp)
		}
	}
	return why, why2, whyNot["integral"]
}

// autoReason is Result.Reason of auto's choice name for m (clause: the chosen solver's own
// clause; whyNot: the clauses of the solvers that refused before it).
func autoReason(m *Model, name string, r *Result, clause string, whyNot map[string]string) string {
	open, closed, fj := shape(m)
	switch {
	case fj:
		return "the model has fork/join nodes, which no exact solver handles"
	case closed == 0:
		return "open classes only: exact open-network formulas"
	case open > 0:
		return "open and closed classes: exact mixed-network MVA"
	case closed == 1 && name == "mva":
		return "one closed class: exact MVA"
	case closed == 1:
		return "one closed class: " + mvaCost(m).Why + "; approximated by Linearizer"
	}
	why, why2, why3 := clauses(m, whyNot)
	switch name {
	case "comom":
		return "several closed classes: " + clause
	case "mva":
		return "several closed classes: exact multi-class MVA (" + why + "; " + why2 + ")" + cores(r)
	case "integral":
		return "several closed classes: " + why + "; " + why2 + "; " + clause
	}
	return why + "; " + why2 + "; " + why3 + "; approximated by Linearizer"
}

// requireExactError is auto's refusal to approximate under opt.RequireExact.
func requireExactError(m *Model, whyNot map[string]string) error {
	_, closed, fj := shape(m)
	switch {
	case fj:
		return fmt.Errorf("%w: %w: fork/join node %q: no exact solver models fork/join synchronisation (simulate the model, or drop the exact requirement for the approximate forkjoin solver)", fault.ErrInput, ErrUnsupported, m.ForkJoins[0].Name)
	case closed == 1:
		return fmt.Errorf("%w: exact results required, but %s", fault.ErrTooLarge, mvaCost(m).Why)
	}
	why, why2, _ := clauses(m, whyNot)
	return fmt.Errorf("%w: exact results required, but %s; %s (without the exact requirement, auto tries solver integral, a numerical integration with an error estimate, then Linearizer)", fault.ErrTooLarge, why, why2)
}

// cores is multiExact's clause on the cores it used, after "; " ("" for one core).
func cores(r *Result) string {
	if r == nil || r.Reason == "" {
		return ""
	}
	return "; " + r.Reason
}

// integralAutoPoints is the budget of integrand evaluations auto gives Integral before it
// falls back to Linearizer (its time: bench/qn-timings.md).
const integralAutoPoints = IntegralMaxPoints

// integralAuto tries Integral for auto where no exact solver is affordable: its result
// (approximate, with an error estimate of 1e-9 or less) and why, or nil and why not (it
// does not apply, or its grid did not converge within integralAutoPoints); a cancelled
// ctx is returned as the error.
func integralAuto(ctx context.Context, m *Model) (*Result, string, error) {
	t0 := time.Now()
	r, err := Integral(ctx, m, integralAutoPoints)
	switch {
	case err == nil:
		return r, fmt.Sprintf("numerical integration of the exact integral representation (estimated relative error %.1e)", r.ErrorEstimate.RelError), nil
	case ctx.Err() != nil:
		return nil, "", err
	case errors.Is(err, ErrUnsupported):
		return nil, "not integral: it solves single-server queues and delays only", nil
	case errors.Is(err, fault.ErrTooLarge):
		return nil, "not integral: too many queue groups for its grid", nil
	default:
		return nil, fmt.Sprintf("integral did not converge within its budget (%.1f s: %s)", time.Since(t0).Seconds(), fault.Detail(err)), nil
	}
}

// comomAutoSeconds is the longest estimated Comom time (all its runs) auto accepts.
const comomAutoSeconds = 5

// mvaSecondsPerOp converts exactWork (lattice × classes × stations) into seconds, calibrated
// by the exact-MVA benchmarks (docs/exact-scaling.md, bench/qn-timings.md).
const mvaSecondsPerOp = 1e-9

// comomWhyNot is Comom's refusal as a clause of auto's reason: "not comom: …" without the
// error kinds' prefixes and the advice to use another solver (auto is choosing one).
func comomWhyNot(err error) string {
	t := err.Error()
	for _, p := range []string{ErrUnsupported.Error() + ": ", fault.ErrTooLarge.Error() + ": ", "comom: "} {
		t = strings.TrimPrefix(t, p)
	}
	return "not comom: " + strings.TrimSuffix(t, " (use solver mva or linearizer)")
}

// exactWork estimates the floating-point operations of exact multi-class MVA for m.
func exactWork(m *Model) float64 {
	C := float64(len(m.ClosedClasses()))
	if !hasMarginal(m) {
		return LatticeSize(m) * C * float64(len(m.Stations))
	}
	total := 0
	for _, c := range m.Classes {
		if !c.Open {
			total += c.Population
		}
	}
	rec, nets := 0.0, 1.0
	for _, s := range m.Stations {
		rec++
		switch {
		case s.Kind == MultiServer && s.Servers > 1:
			rec += float64(min(s.Servers, max(total, 1)))
			nets *= float64(s.Copies() + 1)
		case s.Kind == LoadDependent:
			rec += float64(min(len(s.Rates), max(total, 1)))
			nets *= float64(s.Copies() + 1)
		}
	}
	return LatticeSize(m) * nets * C * (rec + float64(len(m.Stations)))
}

// exactAffordable says whether exact multi-class MVA fits its budget, and why (or why not).
func exactAffordable(m *Model) (string, bool) {
	if !hasMarginal(m) {
		if l := LatticeSize(m); l > MaxLattice {
			return fmt.Sprintf("exact multi-class MVA would visit %.3g population vectors (limit %.3g)", l, float64(MaxLattice)), false
		}
		return fmt.Sprintf("%.3g population vectors", LatticeSize(m)), true
	}
	if w := exactWork(m); w > MaxLDWork {
		return fmt.Sprintf("exact multi-class MVA with multi-server/load-dependent stations would take about %.3g operations (limit %.3g)", w, float64(MaxLDWork)), false
	}
	return fmt.Sprintf("about %.3g operations with multi-server/load-dependent stations", exactWork(m)), true
}

// estimateBudget is the largest exact-MVA work estimateError spends on the measured error.
const estimateBudget = 3e7

// estimateError estimates the error of an approximate closed-network result r of m
// (issue 13): (1) the spread between r and a second approximation — Schweitzer for a
// Linearizer result, Linearizer for a Schweitzer result — and (2) the measured error of the
// same approximation at the largest population N' = ⌊s·N⌋ (one factor s ≤ 1 for every
// class, at least one job per non-empty class) whose exact solution costs at most
// estimateBudget operations. RelError is the larger of the two.
func estimateError(m *Model, r *Result, opt AMVAOptions) (*ErrorEstimate, error) {
	var approx, other func(*Model, AMVAOptions) (*Result, error)
	switch r.Solver {
	case "linearizer":
		approx, other = Linearizer, Schweitzer
	case "schweitzer":
		approx, other = Schweitzer, Linearizer
	default:
		return nil, fmt.Errorf("no estimator for solver %s", r.Solver)
	}
	o, err := other(m, opt)
	if err != nil {
		return nil, err
	}
	est := &ErrorEstimate{Spread: relDiff(m, r, o), SpreadMethod: o.Method}
	est.RelError = est.Spread
	// Measured error at a smaller population.
	small := m.Clone()
	for s := 1.0; s > 1e-9; s /= 2 {
		for c, cl := range m.Classes {
			if cl.Population > 0 {
				small.Classes[c].Population = max(1, int(math.Floor(s*float64(cl.Population))))
			}
		}
		if exactWork(small) <= estimateBudget {
			break
		}
	}
	if exactWork(small) > estimateBudget {
		return est, nil
	}
	ex, err := MVAMulti(small)
	if err != nil {
		if errors.Is(err, fault.ErrTooLarge) {
			return est, nil
		}
		return nil, err
	}
	ap, err := approx(small, opt)
	if err != nil {
		return nil, err
	}
	e := relDiff(small, ap, ex)
	est.MeasuredRelError = &e
	for _, cl := range small.Classes {
		est.MeasuredPopulation = append(est.MeasuredPopulation, cl.Population)
	}
	est.RelError = math.Max(est.RelError, e)
	return est, nil
}

// relDiff is the largest relative difference of class throughputs and response times of a
// from b (b the reference), over classes with jobs.
func relDiff(m *Model, a, b *Result) float64 {
	d := 0.0
	for c, cl := range m.Classes {
		if cl.Open || cl.Population == 0 {
			continue
		}
		for _, p := range [][2]float64{{a.Throughput[c], b.Throughput[c]}, {a.ResponseTime[c], b.ResponseTime[c]}} {
			if p[1] != 0 {
				d = math.Max(d, math.Abs(p[0]-p[1])/math.Abs(p[1]))
			}
		}
	}
	return d
}

func hasMarginal(m *Model) bool {
	for _, s := range m.Stations {
		if s.Kind == LoadDependent || (s.Kind == MultiServer && s.Servers > 1) {
			return true
		}
	}
	return false
}

// ParallelThreshold is the population-lattice size from which Solve runs exact multi-class
// MVA through MVAMultiSplit: on all cores (GOMAXPROCS) where its slices split, and stopped by
// ctx at every slice. Below it MVAMulti is as fast (a few milliseconds) and the workers'
// start and synchronisation cost more than they save.
const ParallelThreshold = 1e6

// multiExact is exact multi-class MVA for Solve: MVAMultiSplit from ParallelThreshold
// population vectors, saying in the Reason how many cores it used when more than one (the
// caller makes that a clause of its reason: cores), else MVAMulti (also for multi-server
// or load-dependent stations).
func multiExact(ctx context.Context, m *Model) (*Result, error) {
	if hasMarginal(m) {
		return mvaMultiLDContext(ctx, m, nil)
	}
	if LatticeSize(m) < ParallelThreshold {
		return MVAMulti(m)
	}
	r, st, err := MVAMultiSplit(ctx, m, 0)
	if err == nil && st.Workers > 1 {
		rows := strings.Trim(strings.ReplaceAll(fmt.Sprint(st.Range), " ", " + "), "[]")
		r.Reason = fmt.Sprintf("on %d cores: each slice of the lattice walk split by rows, %s (parallel from %.0g population vectors)", st.Workers, rows, ParallelThreshold)
	}
	return r, err
}
