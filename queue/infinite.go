package queue

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// MM1 solves the M/M/1 queue (Kleinrock vol. 1 §3.2; Octave qsmm1): with ρ = λ/μ < 1,
//
//	U = ρ, p₀ = 1 − ρ, Q = ρ/(1 − ρ), R = 1/(μ − λ), X = λ,
//
// and the response time is exponential with rate μ − λ, so its p-quantile is
// −ln(1 − p)/(μ − λ). λ ≥ μ is fault.ErrSaturated.
func MM1(lambda, mu float64) (*Result, error) {
	if err := checkRates(lambda, mu); err != nil {
		return nil, err
	}
	if lambda >= mu {
		return nil, saturated("M/M/1", lambda, mu)
	}
	rho := lambda / mu
	r := &Result{Model: "M/M/1", Method: "M/M/1 closed form (Kleinrock vol. 1 §3.2)", Exact: true,
		ArrivalRate: lambda, ServiceRate: mu, ServiceSCV: 1, Servers: 1, OfferedLoad: rho,
		Utilization: rho, BusyServers: rho, Throughput: lambda,
		Jobs: rho / (1 - rho), ResponseTime: 1 / (mu - lambda), PEmpty: 1 - rho, PWait: ptr(rho)}
	r.JobsWaiting = r.Jobs - rho
	r.WaitingTime = r.ResponseTime - 1/mu
	return r, r.finish()
}

// ErlangB is Erlang's loss formula B(m, a): the probability that an arrival finds all m
// servers of an M/M/m/m system busy, offered load a = λ/μ Erlangs (Octave erlangb(a, m)).
// It uses the recursion B(0) = 1, B(j) = a·B(j−1)/(j + a·B(j−1)), which involves no
// factorials or powers and so stays accurate for any m (Bolch et al. §6.6 eq. 6.112).
func ErlangB(a float64, m int) (float64, error) {
	if !(a >= 0) || math.IsInf(a, 0) {
		return 0, badf("offered load a = %v: must be finite and ≥ 0 (Erlangs)", a)
	}
	if err := checkServers(m); err != nil {
		return 0, err
	}
	return erlangB(a, m), nil
}

func erlangB(a float64, m int) float64 {
	b := 1.0
	for j := 1; j <= m; j++ {
		b = a * b / (float64(j) + a*b)
	}
	return b
}

// ErlangC is Erlang's delay formula C(m, a): the probability that an arrival to an M/M/m
// queue with offered load a = λ/μ < m waits (Octave erlangc(a, m)), from Erlang B:
// C = B/(1 − ρ(1 − B)), ρ = a/m. a ≥ m is fault.ErrSaturated.
func ErlangC(a float64, m int) (float64, error) {
	b, err := ErlangB(a, m)
	if err != nil {
		return 0, err
	}
	if a >= float64(m) {
		return 0, fmt.Errorf("%w: Erlang C: offered load %.6g ≥ %d servers: no steady state", fault.ErrSaturated, a, m)
	}
	rho := a / float64(m)
	return b / (1 - rho*(1-b)), nil
}

// MMm solves the M/M/m queue with m identical servers and one FCFS queue (Kleinrock vol. 1
// §3.5; Octave qsmmm): a = λ/μ, ρ = a/m < 1, C = ErlangC(m, a),
//
//	Q = a + C·ρ/(1 − ρ),  R = Q/λ = 1/μ + C/(mμ − λ),  U = ρ,
//	p₀ = [Σ_{k<m} a^k/k! + a^m/(m!(1 − ρ))]⁻¹ = (m!/a^m) / (1/B − 1 + 1/(1 − ρ))
//
// (the second form, with B = ErlangB(m, a) and m!/a^m taken through logarithms, cannot
// overflow). The waiting time is 0 with probability 1 − C and otherwise exponential with
// rate θ = mμ − λ, so P(R > t) = (1 − C)e^{−μt} + C·e^{−μt}[1 + μ(1 − e^{−(θ−μ)t})/(θ − μ)].
func MMm(lambda, mu float64, m int) (*Result, error) {
	if err := checkRates(lambda, mu); err != nil {
		return nil, err
	}
	if err := checkServers(m); err != nil {
		return nil, err
	}
	model := fmt.Sprintf("M/M/%d", m)
	if lambda >= float64(m)*mu {
		return nil, saturated(model, lambda, float64(m)*mu)
	}
	r := mmm(lambda, mu, m)
	r.Model = model
	return r, r.finish()
}

func mmm(lambda, mu float64, m int) *Result {
	a := lambda / mu
	fm := float64(m)
	rho := a / fm
	b := erlangB(a, m)
	c := b / (1 - rho*(1-b))
	r := &Result{Method: "M/M/m closed form with the Erlang B recursion (Kleinrock vol. 1 §3.5)", Exact: true,
		ArrivalRate: lambda, ServiceRate: mu, ServiceSCV: 1, Servers: m, OfferedLoad: a,
		Utilization: rho, BusyServers: a, Throughput: lambda, PWait: ptr(c)}
	r.JobsWaiting = c * rho / (1 - rho)
	r.Jobs = a + r.JobsWaiting
	r.WaitingTime = c / (fm*mu - lambda)
	r.ResponseTime = 1/mu + r.WaitingTime
	if a == 0 {
		r.PEmpty = 1
	} else {
		lg, _ := math.Lgamma(fm + 1)
		r.PEmpty = math.Exp(lg - fm*math.Log(a) - math.Log(1/b-1+1/(1-rho)))
	}
	return r
}

// MMInf solves the M/M/∞ station (Kleinrock vol. 1 §3.4; Octave qsmminf): every job is
// served at once, so R = 1/μ, Q = a = λ/μ (Poisson distributed), p₀ = e^{−a}, X = λ. The
// per-server utilization is 0 (Octave's U is the traffic intensity a, reported here as
// BusyServers). Any λ ≥ 0 is stable.
func MMInf(lambda, mu float64) (*Result, error) {
	if err := checkRates(lambda, mu); err != nil {
		return nil, err
	}
	a := lambda / mu
	if math.IsInf(a, 0) {
		return nil, badf("offered load λ/μ = %g/%g exceeds the largest float64 (1.8e308): --lambda/--mu", lambda, mu)
	}
	r := &Result{Model: "M/M/∞", Method: "M/M/∞ closed form (Kleinrock vol. 1 §3.4)", Exact: true,
		ArrivalRate: lambda, ServiceRate: mu, ServiceSCV: 1, OfferedLoad: a, BusyServers: a,
		Throughput: lambda, Jobs: a, ResponseTime: 1 / mu, PEmpty: math.Exp(-a), PWait: ptr(0)}
	return r, r.finish()
}

// MG1 solves the M/G/1 queue by the Pollaczek–Khinchine mean value formula (Kleinrock vol. 1
// §5.7 eq. 5.72; Octave qsmg1 with x2nd = S²(1 + c²)): service time mean S = 1/μ and squared
// coefficient of variation c² (1 exponential, 0 deterministic), ρ = λS < 1,
//
//	Q = ρ + ρ²(1 + c²)/(2(1 − ρ)),  R = S + ρS(1 + c²)/(2(1 − ρ)),  p₀ = 1 − ρ.
//
// Octave 1.2.7's qsmg1 returns p₀ = e^{−ρ}, which is not the M/G/1 empty probability; the
// tests compare U, R, Q, X with it and p₀ with 1 − ρ. No percentiles: the response-time
// distribution depends on the whole service distribution, not its first two moments.
func MG1(lambda, mu, scv float64) (*Result, error) {
	if err := checkRates(lambda, mu); err != nil {
		return nil, err
	}
	if !(scv >= 0) || math.IsInf(scv, 0) {
		return nil, badf("service-time SCV c² = %v: must be finite and ≥ 0 (1 exponential, 0 deterministic)", scv)
	}
	if lambda >= mu {
		return nil, saturated("M/G/1", lambda, mu)
	}
	s := 1 / mu
	rho := lambda * s
	r := &Result{Model: "M/G/1", Method: "Pollaczek–Khinchine mean value formula (Kleinrock vol. 1 eq. 5.72)", Exact: true,
		ArrivalRate: lambda, ServiceRate: mu, ServiceSCV: scv, Servers: 1, OfferedLoad: rho,
		Utilization: rho, BusyServers: rho, Throughput: lambda, PEmpty: 1 - rho, PWait: ptr(rho)}
	r.JobsWaiting = rho * rho * (1 + scv) / (2 * (1 - rho))
	r.Jobs = rho + r.JobsWaiting
	r.WaitingTime = rho * s * (1 + scv) / (2 * (1 - rho))
	r.ResponseTime = s + r.WaitingTime
	r.Notes = append(r.Notes, "response-time percentiles need the whole service-time distribution: not given for M/G/1")
	return r, r.finish()
}

// MMmHetero approximates an M/M/m queue whose servers have different rates μ_i by an M/M/m
// queue with the mean rate μ̄ = Σμ_i/m (Bolch et al. §6.2; exactly what Octave's qsammm
// computes): U = λ/Σμ_i, p₀ and P(wait) from the M/M/m formulas at ρ = U, Q = mρ + ρ·C/(1 − ρ),
// R = Q/λ. It is an approximation (exact when all μ_i are equal): the result says so.
// λ ≥ Σμ_i is fault.ErrSaturated.
func MMmHetero(lambda float64, mus []float64) (*Result, error) {
	if len(mus) == 0 {
		return nil, badf("heterogeneous M/M/m: no service rates given (want μ_1,…,μ_m)")
	}
	if err := checkServers(len(mus)); err != nil {
		return nil, err
	}
	sum := 0.0
	for i, mu := range mus {
		if !(mu > 0) || math.IsInf(mu, 0) {
			return nil, badf("service rate μ_%d = %v: must be finite and > 0 (jobs/s)", i+1, mu)
		}
		sum += mu
	}
	if math.IsInf(sum, 0) {
		return nil, badf("service rates %v: their sum Σμ_i overflows float64 (1.8e308): --mus", mus)
	}
	m := len(mus)
	mean := sum / float64(m)
	if err := checkRates(lambda, mean); err != nil {
		return nil, err
	}
	model := fmt.Sprintf("M/M/%d heterogeneous", m)
	if lambda >= sum {
		return nil, saturated(model, lambda, sum)
	}
	r := mmm(lambda, mean, m)
	r.Model = model
	r.Exact = false
	equal := true
	for _, mu := range mus {
		if mu != mus[0] {
			equal = false
		}
	}
	if equal {
		r.Exact = true
	}
	r.Method = "M/M/m with the mean service rate (Bolch et al. §6.2; Octave qsammm)"
	r.Notes = append(r.Notes, "approximation: the servers' rates are replaced by their mean; no error bound is known, exact when all rates are equal; percentiles not given")
	return r, r.finish()
}
