package validate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/qn"
)

// Checks of a solved qn.Result read back from a file (shard merge of solve --sweep, hostile
// review: a result was range-checked but not checked against the model, so a throughput of
// 1e300 or 0 was merged with exit 0). The caller has checked the shape (one value per class,
// one row per station, all finite and ≥ 0); CheckResult checks that the numbers are ones a
// solver of this project could have given for model m.

// methodExact maps every method name qn's solvers write (qn/result.go newResult and the
// Method assignments in qn/amva.go, capacity.go, forkjoin.go, interleaved.go, mvald.go,
// parallel.go, rowsparallel.go, rowsplit.go, integral.go) to whether its results are exact.
var methodExact = map[string]bool{
	"mva": true, "comom": true, "open": true, "mixed": true, "empty": true,
	"mva-load-dependent": true, "mva-split": true, "mva-interleaved": true, "mva-parallel": true,
	"ctmc-blocking-after-service": true,
	"schweitzer":                  false, "linearizer": false, "mvablo": false, "forkjoin-mva": false,
	"integral": false,
}

// approxSuffixes are the marginal-probability variants qn's AMVA names after a "+" (MSMethod).
var approxSuffixes = []string{"marginal", "seidmann"}

// ExactTol and ApproxTol are the relative tolerances of the invariants below for an exact
// result (rounding over a long recursion) and an approximate one (an AMVA fixed point
// satisfies them by construction, up to its convergence tolerance).
const (
	ExactTol  = 1e-9
	ApproxTol = 1e-6
)

// defaultTol and defaultMaxIter are qn.AMVAOptions' defaults (qn/amva.go withDefaults).
const (
	defaultTol     = 1e-10
	defaultMaxIter = 100000
)

// CheckMethod checks r's method, exact flag and status: the method is one qn writes (an AMVA
// one possibly with "+marginal"/"+seidmann"), exact is what that method gives, an exact
// method's status is converged, and an approximate one's converged flag agrees with its
// residual and iteration count under opt (converged ⇔ residual < tol; not converged only
// after opt.MaxIter iterations).
func CheckMethod(r *qn.Result, opt qn.AMVAOptions) error {
	base, suffix, plus := strings.Cut(r.Method, "+")
	exact, ok := methodExact[base]
	if !ok || (plus && (exact || !contains(approxSuffixes, suffix))) {
		return fmt.Errorf("method = %q; want one of the solvers' method names (mva, comom, open, mixed, schweitzer, linearizer, forkjoin-mva, mva-load-dependent, …)", r.Method)
	}
	// forkjoin-mva is exact single-class MVA on a model without fork/join nodes (qn's
	// ForkJoinMVA says so); CheckResult, which has the model, checks which case this is.
	// an exact method's result is labelled not exact on a model that is not product form
	// (qn.NotProductForm); CheckResult, which has the model, checks which case this is
	if r.Exact != exact && base != "forkjoin-mva" && !(exact && !r.Exact) {
		return fmt.Errorf("exact = %v; method %q gives exact = %v", r.Exact, r.Method, exact)
	}
	st := r.Status
	tol, maxIter := cmp.Or(max(opt.Tol, 0), defaultTol), cmp.Or(max(opt.MaxIter, 0), defaultMaxIter)
	switch {
	case math.IsNaN(st.Residual) || math.IsInf(st.Residual, 0) || st.Residual < 0 || st.Iterations < 0:
		return fmt.Errorf("status = %+v; want iterations ≥ 0 and a finite residual ≥ 0", st)
	case exact && !st.Converged:
		return fmt.Errorf("status.converged = false; method %q is exact and always converges", r.Method)
	case base == "schweitzer" || base == "linearizer":
		if st.Converged != (st.Residual < tol) || (!st.Converged && st.Iterations < maxIter) {
			return fmt.Errorf("status = {converged %v, iterations %d, residual %g}; with tolerance %g and at most %d iterations a run converges exactly when its residual is below the tolerance, and stops unconverged only after the last iteration", st.Converged, st.Iterations, st.Residual, tol, maxIter)
		}
	case !st.Converged:
		return fmt.Errorf("status.converged = false; method %q has no iteration that can stop unconverged", r.Method)
	}
	return nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// CheckResult checks the numbers of r, a solution of model m, against what m implies
// (QSP ch. 3 and 5):
//
//	open class:    X_c = λ_c
//	closed class:  N_c = X_c·(R_c + Z_c)           (Little's law over the whole cycle)
//	               X_c ≤ N_c/(D_c + Z_c)            (ABA, QSP Table 5.1, per class)
//	               Q_kc ≤ N_c                       (no more jobs at a station than exist)
//	every class:   R_c ≥ D_c = Σ_k copies_k·D_ck    (no model without fork/join can beat its demand)
//	               U_kc = X_c·D_ck / servers_k      (utilization law; delay centre: X_c·D_ck)
//
// within ExactTol (exact methods) or ApproxTol (approximate ones) relative to the larger
// side. R ≥ D and the throughput bound are skipped for fork/join models (branches run in
// parallel), the utilization law for load-dependent stations (no fixed server count).
func CheckResult(r *qn.Result, m *qn.Model) error {
	tol := ApproxTol
	if r.Exact {
		tol = ExactTol
	}
	fj := len(m.ForkJoins) > 0
	var errs []error
	if r.Method == "forkjoin-mva" && r.Exact == fj {
		errs = append(errs, fmt.Errorf("exact = %v; method %q is exact exactly when the model has no fork/join nodes (it has %d)", r.Exact, r.Method, len(m.ForkJoins)))
	}
	base, _, _ := strings.Cut(r.Method, "+")
	if npf := qn.NotProductForm(m); methodExact[base] && base != "forkjoin-mva" && r.Exact != (len(npf) == 0) {
		errs = append(errs, fmt.Errorf("exact = %v; method %q is exact exactly when the model is product form (FCFS stations whose service times differ by class: %v)", r.Exact, r.Method, npf))
	}
	for c, cl := range m.Classes {
		x, rt := r.Throughput[c], r.ResponseTime[c]
		d := 0.0
		for k, s := range m.Stations {
			d += float64(s.Copies()) * m.Demand[c][k]
		}
		if cl.Open && !near(x, cl.ArrivalRate, tol) {
			errs = append(errs, fmt.Errorf("throughput_per_s[%d] = %g; class %s is open with arrival rate %g, which is its throughput", c, x, cl.Name, cl.ArrivalRate))
		}
		if !cl.Open {
			n := float64(cl.Population)
			if !near(n, x*(rt+cl.ThinkTime), tol) {
				errs = append(errs, fmt.Errorf("class %s: throughput_per_s[%d]·(response_time_s[%d] + think time) = %g·(%g + %g) = %g; want the population %d (Little's law)", cl.Name, c, c, x, rt, cl.ThinkTime, x*(rt+cl.ThinkTime), cl.Population))
			}
			if ub := n / (d + cl.ThinkTime); !fj && x > ub*(1+tol) {
				errs = append(errs, fmt.Errorf("throughput_per_s[%d] = %g; class %s's throughput is at most N/(D + Z) = %g (asymptotic bound)", c, x, cl.Name, ub))
			}
			for k, s := range m.Stations {
				if q := r.QueueLength[k][c]; q > n*(1+tol) {
					errs = append(errs, fmt.Errorf("queue_length[%d][%d] = %g; at most the population %d of class %s can be at station %s", k, c, q, cl.Population, cl.Name, s.Name))
				}
			}
		}
		if !fj && rt < d*(1-tol) && (cl.Open || cl.Population > 0) {
			errs = append(errs, fmt.Errorf("response_time_s[%d] = %g; class %s's response time is at least its total demand %g", c, rt, cl.Name, d))
		}
		errs = append(errs, checkUtilLaw(r, m, c, tol))
	}
	return errors.Join(errs...)
}

// checkUtilLaw checks U_kc = X_c·D_ck/servers_k at the stations of class c (not load-dependent).
func checkUtilLaw(r *qn.Result, m *qn.Model, c int, tol float64) error {
	for k, s := range m.Stations {
		want := r.Throughput[c] * m.Demand[c][k]
		switch s.Kind {
		case qn.LoadDependent:
			continue
		case qn.MultiServer:
			want /= float64(max(s.Servers, 1))
		}
		if u := r.Utilization[k][c]; !near(u, want, tol) {
			return fmt.Errorf("utilization[%d][%d] = %g; station %s's utilization by class %s is X·D/servers = %g (utilization law)", k, c, u, s.Name, m.Classes[c].Name, want)
		}
	}
	return nil
}

// near reports |a − b| ≤ tol·max(|a|, |b|) (or both below the smallest normal float).
func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) || math.Abs(a-b) < 1e-300
}
