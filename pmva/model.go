// Package pmva is the performance model of the pipelined parallel MVA of Gennaro's thesis
// (001 §6.1.3–6.1.7): the execution time T(p) from the per-point cost q(p) and the
// per-message communication/wait cost k(p) (eqs. 6.1–6.5), the speedup (6.8), its form in
// α = q/k (6.9), the negligible-pipeline limit (6.10) and efficiency (6.11), the measured
// q(p) and k(p) of a run (6.6–6.7), the normalised communication parameters of the BUS-AIO
// c = 2 model (6.12–6.13) and timed runs of qn's two parallel exact solvers (measure.go).
//
// Times are in seconds. Populations are in pipeline order: N[0] is class 1, the class whose
// populations are split among the p workers.
package pmva

import (
	"fmt"
	"math"

	"github.com/clusterperf/clusterperf/fault"
)

// Points is Π_c (N_c + 1), the number of population vectors exact MVA computes.
func Points(N []int) float64 {
	v := 1.0
	for _, n := range N {
		v *= float64(n + 1)
	}
	return v
}

// Positions is Π_{c≥2} (N_c + 1), the pipeline steps (points per class-1 population).
func Positions(N []int) float64 {
	if len(N) == 0 {
		return 1
	}
	return Points(N[1:])
}

func checkShape(N []int, p int) error {
	if len(N) == 0 {
		return fmt.Errorf("%w: pmva: no classes", fault.ErrInput)
	}
	for c, n := range N {
		if n < 0 {
			return fmt.Errorf("%w: pmva: class %d population %d < 0", fault.ErrInput, c+1, n)
		}
	}
	if p < 1 {
		return fmt.Errorf("%w: pmva: p = %d, want p ≥ 1", fault.ErrInput, p)
	}
	return nil
}

func checkCost(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%w: pmva: %s = %v, want a finite time ≥ 0 s", fault.ErrInput, name, v)
	}
	return nil
}

// T1 is eq. (6.1): T(1) = q(1)·Π_c (N_c + 1).
func T1(q1 float64, N []int) float64 { return q1 * Points(N) }

// Tcl is eq. (6.3), the computing time with the ceiling:
// T_cl(p) = q(p)·⌈(N_1+1)/p⌉·(Π_{i≥2}(N_i+1) + p − 1).
func Tcl(q float64, p int, N []int) float64 {
	w := (N[0] + 1 + p - 1) / p
	return q * float64(w) * (Positions(N) + float64(p) - 1)
}

// Tcm is eq. (6.4), the communication time: T_cm(p) = k(p)·(Π_{i≥2}(N_i+1) + p − 2).
func Tcm(k float64, p int, N []int) float64 {
	return k * (Positions(N) + float64(p) - 2)
}

// Time is eq. (6.5) for p ≥ 2 (eq. 6.1 for p = 1, where there is no communication):
// T(p) = q(p)(N_1+1)(Π_{i≥2}(N_i+1)/p + (p−1)/p) + k(p)(Π_{i≥2}(N_i+1) + p − 2).
// Eq. (6.5) replaces (6.3)'s ⌈(N_1+1)/p⌉ by (N_1+1)/p.
func Time(q, k float64, p int, N []int) (float64, error) {
	if err := checkShape(N, p); err != nil {
		return 0, err
	}
	if err := checkCost("q", q); err != nil {
		return 0, err
	}
	if err := checkCost("k", k); err != nil {
		return 0, err
	}
	if p == 1 {
		return T1(q, N), nil
	}
	pf := float64(p)
	return q*float64(N[0]+1)*(Positions(N)/pf+(pf-1)/pf) + Tcm(k, p, N), nil
}

// Speedup is eq. (6.8): s(p) = q(1)·Π(N_c+1) / T(p) with T(p) of eq. (6.5).
func Speedup(q1, q, k float64, p int, N []int) (float64, error) {
	t, err := Time(q, k, p, N)
	if err != nil {
		return 0, err
	}
	if err := checkCost("q(1)", q1); err != nil {
		return 0, err
	}
	if t <= 0 {
		return 0, fmt.Errorf("%w: pmva: T(%d) = 0 (q = k = 0)", fault.ErrInput, p)
	}
	return T1(q1, N) / t, nil
}

// Alpha is α(p) = q(p)/k(p), the ratio of a point's computing time to a message's
// communication time (001 §6.1.6; the text writes h(p)/k(p) with h the computing time).
func Alpha(q, k float64) (float64, error) {
	if err := checkCost("q", q); err != nil {
		return 0, err
	}
	if err := checkCost("k", k); err != nil {
		return 0, err
	}
	if k == 0 {
		return 0, fmt.Errorf("%w: pmva: α = q/k needs k > 0", fault.ErrInput)
	}
	return q / k, nil
}

// SpeedupAlpha is eq. (6.9), eq. (6.8) divided by k with q(p) = q(1):
// s(p) = α·Π(N_c+1) / (α(N_1+1)(Π_{i≥2}(N_i+1)/p + (p−1)/p) + Π_{i≥2}(N_i+1) + p − 2).
func SpeedupAlpha(alpha float64, p int, N []int) (float64, error) {
	if err := checkShape(N, p); err != nil {
		return 0, err
	}
	if err := checkCost("α", alpha); err != nil {
		return 0, err
	}
	pf := float64(p)
	den := alpha*float64(N[0]+1)*(Positions(N)/pf+(pf-1)/pf) + Positions(N) + pf - 2
	if den <= 0 {
		return 0, fmt.Errorf("%w: pmva: eq. (6.9) needs α > 0 or p ≥ 2", fault.ErrInput)
	}
	return alpha * Points(N) / den, nil
}

// SpeedupLimit is eq. (6.10), eq. (6.9) when Π_{i≥2}(N_i+1) ≫ p:
// s(p) = α(N_1+1) / (α(N_1+1)/p + 1).
func SpeedupLimit(alpha float64, p int, n1 int) float64 {
	a := alpha * float64(n1+1)
	return a / (a/float64(p) + 1)
}

// Efficiency is eq. (6.11), e(p) = s(p)/p of eq. (6.10): α(N_1+1) / (α(N_1+1) + p).
func Efficiency(alpha float64, p int, n1 int) float64 {
	a := alpha * float64(n1+1)
	return a / (a + float64(p))
}

// Measured q(p) and k(p) of one run (eqs. 6.6–6.7). T is the run's wall time and K the
// total wait of the last worker (communication including waiting, footnote 3).
//
//	q(1) = T(1)/Π(N_c+1)                                   (6.6)
//	q(p) = p·(T(p) − K_p(p))/Π(N_c+1)                       (6.7; the text's "C" is a typo for Π)
//	k(p) = K_p(p)/(Π_{i≥2}(N_i+1) + p − 2)                  (6.4 solved for k)
func Measured(T, K float64, p int, N []int) (q, k float64, err error) {
	if err := checkShape(N, p); err != nil {
		return 0, 0, err
	}
	if err := checkCost("T", T); err != nil {
		return 0, 0, err
	}
	if err := checkCost("K", K); err != nil {
		return 0, 0, err
	}
	if p == 1 {
		return T / Points(N), 0, nil
	}
	q = float64(p) * math.Max(T-K, 0) / Points(N)
	return q, K / (Positions(N) + float64(p) - 2), nil
}

// Normalised are the BUS-AIO parameters of 001 §6.1.7 for a message of ms bytes at
// bandwidth tb (bytes/s) with latency l (s): the communication times normalised by the
// computation between two messages, q(1)·(N_1+1).
//
//	σ_r = M_s/(T_b·q(1)·(N_1+1))   (6.12)     σ_r0 = L/(q(1)·(N_1+1))   (6.13)
func Normalised(ms, tb, l, q1 float64, n1 int) (sigmaR, sigmaR0 float64) {
	w := q1 * float64(n1+1)
	return ms / (tb * w), l / w
}

// BusAIOSpeedup is the BUS-AIO model with c = 2, w = 0, no I/O (σ_p = 1, σ_n = σ_d = 0) and
// g = 1 (r = 1) of 001 §6.1.7: the network queue has no queueing (w = 0), so the cycle time
// is the delay alone, τ = h(2)/p + σ_r0 + σ_r with h(2) = 1 + 1/2 (the mean of the larger of
// two exponential bursts), and s = 1/τ. With σ_r0 + σ_r = k/(q(1)(N_1+1)) this is eq. (6.10)
// with 1/p replaced by h(2)/p: the thesis's Fig. 6.9 relationship.
func BusAIOSpeedup(sigmaR0, sigmaR float64, p int) float64 {
	return 1 / (1.5/float64(p) + sigmaR0 + sigmaR)
}
