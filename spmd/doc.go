// Package spmd implements the integrated queueing-network speedup models of SPMD programs
// of Cremonesi & Gennaro (000_8add0f5bb0544b54.txt, "000") and Gennaro's thesis
// (001_aff851d615610ea7.txt, "001"), built on package qn.
//
// A program phase is N cycles; a cycle is n_IO computation bursts (CPU, then communication)
// and one I/O burst. On p processors and d disks (I/O nodes), with synchronisation level c
// (p/c groups of c processors) and contention level w:
//
//	z     = h(c)·(S_par/p + S_ser) + S0_COM(p) + (1−w)·g(p)·SR_COM     000 eq. (15), 001 (5.5)
//	x     = w·g(p)·SR_COM                                               000 eq. (9),  001 (5.4)
//	g(p)  = p^−((r−1)/r)  (r = ∞: 1/p), or p^e for an explicit exponent  000 eq. (7)
//	h(c)  = Σ_{i≤c} 1/i (exponential), 2c/(c+1) (uniform), 1 (deterministic)   eq. (6)
//
// Architectures (000 §4, 001 ch. 5), per cycle:
//   - BUS-SIO and CLU-SIO (identical formulas, 001 §5.4): the fork/join approximation
//     T_comp = n_IO·Σ_{i=1}^{p/c} R(i)/i, R(i) the cycle time of the closed network
//     {delay z, queue x} with i jobs (000 eq. 16, 001 eq. 5.6), plus T_IO = S0_IO + SR_IO/d.
//   - BUS-AIO: exact MVA of {delay n_IO·z, queue n_IO·x, queue E} with p/c jobs,
//     E = c·S0_IO + (SR_IO/d)/(p/c) (001 eq. 5.11; 000 eq. 14 writes S0_IO without the factor
//     c, the same for c = 1).
//   - CLU-AIO: d classes of p/(cd) jobs, one disk per class with demand
//     c·S0_IO + SR_IO/(p/c), a shared communication queue and delay (000 §4.3, 001 §5.5).
//     Solved exactly at any size by convolution over the product form, using the symmetry of
//     the classes (cluaio.go; agrees with exact multi-class MVA to 1e-10).
//   - Optimistic AIO and SIO (001 §5.1): τ = n_IO(S_par/p + S_ser) + SR_IO/(dp), and
//     h(p)·n_IO(S_par/p + S_ser) + SR_IO/d. (001 eq. 5.2 prints σ_d/d for the AIO case,
//     contradicting eq. 5.1 and the model of Fig. 5.1; we follow eq. 5.1.)
//
// Speedup is s(p, d) = T_ref/T(p, d) with T_ref = n_IO(S_par + S_ser) + S0_IO + SR_IO per
// cycle (000 eq. 3; in normalised units T_ref = σ_p + σ_d = 1 and s = 1/τ, 001 eq. 4.3;
// a measured T1 can be given instead, as 000 Table 4 normalises by it). Communication is
// absent from T_ref: at p = 1 the model's own T(1,1) exceeds it by S0_COM + g(1)·SR_COM.
// Multi-phase programs add their phases' times (000 §3).
//
// Parameters come in seconds (000), normalised σ (001: σ_p = S_par, σ_r0 = S0_COM,
// σ_r = SR_COM, σ_n = S0_IO, σ_d = 1 − σ_p = SR_IO, n_IO = 1), or from hardware benchmark
// figures (000 §5.1.1): see Benchmark.
package spmd
