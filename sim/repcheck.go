package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/qn"
)

// repTol is the rounding allowed in the checks of CheckRep (each is exact in real arithmetic).
const repTol = 1e-9

// CheckRep checks a replication of model m read back from a shard file (hostile review: a
// response time of 1.7e308 or a queue length of 1e308 was merged with exit 0, and a null
// response time silently left out of the mean) against what Run guarantees. The caller has
// checked the shape and that every other value is finite and ≥ 0; r.ResponseTime may hold
// NaN (null in JSON). For each class c, with T the measured time and W the warm-up time:
//
//	X_c > 0 and R_c is a number: Run refuses a replication in which a class completed no job
//	after the warm-up (fault.ErrNoSteadyState), the only case of a NaN (null) response time
//	(Simulator.result), so a shard's replication has neither;
//	closed class: Q_kc ≤ N_c at every station (no more jobs than exist), and
//	X_c·R_c ≤ N_c·(T + W)/T: with Little's estimator X·R = ∫ jobs dt / T ≤ N; with the
//	per-cycle one (fork/join models) Σ of the cycles' response times / T, each job's
//	completed cycles being disjoint intervals of [0, T + W].
//
// Each error names the field and what is allowed.
func CheckRep(r *RepResult, m *qn.Model) error {
	var errs []error
	for c, cl := range m.Classes {
		x, rt := r.Throughput[c], r.ResponseTime[c]
		if math.IsNaN(rt) || x == 0 {
			errs = append(errs, fmt.Errorf("throughput_per_s[%d] = %g, response_time_s[%d] = %s; want a throughput > 0 and a response time (a number ≥ 0): a replication in which class %s completed no job is refused when it runs, never written", c, x, c, num(rt), cl.Name))
			continue
		}
		if cl.Open {
			continue
		}
		n := float64(cl.Population)
		for k, s := range m.Stations {
			if q := r.QueueLength[k][c]; q > n*(1+repTol) {
				errs = append(errs, fmt.Errorf("queue_length[%d][%d] = %g; at most the population %d of class %s can be at station %s", k, c, q, cl.Population, cl.Name, s.Name))
			}
		}
		if lim := n * (r.Time + r.WarmupTime) / r.Time; !(x*rt <= lim*(1+repTol)) {
			errs = append(errs, fmt.Errorf("response_time_s[%d] = %g with throughput_per_s[%d] = %g: X·R = %g jobs in service on average; want at most population × (time_s + warmup_time_s)/time_s = %g", c, rt, c, x, x*rt, lim))
		}
	}
	return errors.Join(errs...)
}

// num is x as a shard file writes it (NaN as null).
func num(x float64) string {
	if math.IsNaN(x) {
		return "null"
	}
	return fmt.Sprint(x)
}
