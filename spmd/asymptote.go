package spmd

import (
	"fmt"
	"math"
)

// closedLimitP returns s(p → ∞, d) in closed form when the documents give one, per phase:
//
//   - BUS-SIO, CLU-SIO (001 §5.2.1, eq. 5.9, w = 0): τ_comp ≃ ln(p/c)[σ_p/p·ln c + σ_r0 +
//     σ_r·p^((1−r)/r)] → 0 when r > 1 (g exponent < 0), σ_r0 = 0 (or a startup that falls
//     with p) and no serial part; then s → T_ref/τ_IO, τ_IO = σ_n + σ_d/d (eq. 5.8).
//     Otherwise τ_comp → ∞ and s → 0. With w > 0 and g exponent > −1, R(i) ≃ i·w·σ_r·g(p)
//     makes τ_comp → ∞ (eq. 5.10): s → 0.
//   - BUS-AIO (001 §5.3.1): with σ_n > 0 the I/O queue's demand p·c·σ_n grows: s → 0. With
//     σ_n = 0 the p/c jobs saturate the busiest queue: per job the cycle tends to the largest
//     total demand, max(σ_d/d, n·w·σ_r·p^(1+g)/c), the BUS-AIO limit s → T_ref/max(…) (with
//     g = −1: both finite; g > −1 and w > 0: s → 0), provided the delay Z(p) grows slower
//     than p (startup and transfer exponents < 1).
//   - CLU-AIO (001 §5.5.1): the same with d classes: w = 0, σ_n = 0: s → d/σ_d.
//   - optimistic SIO (001 §5.1): without a serial part h(p)·σ_p/p → 0 and s → T_ref/τ_IO;
//     with one, h(p)·S_ser → ∞: s → 0. Optimistic AIO grows without bound unless S_ser > 0
//     (then s → T_ref/(n·S_ser)).
//
// ok is false when no closed form covers the model (it is then evaluated numerically).
// unbounded reports a speedup that grows without limit (optimistic AIO).
func (e *Evaluator) closedLimitP(d int) (s float64, unbounded bool, note string, ok bool) {
	total := 0.0 // Σ cycles·T∞; +Inf when some phase's time grows without bound
	var why []string
	for i := range e.m.Phases {
		ph := &e.m.Phases[i]
		n := ph.NIO
		c := float64(ph.C)
		commVanishes := (ph.S0Com == 0 || ph.S0Exp < 0) && (ph.SRCom == 0 || ph.GExp < 0)
		var t float64
		switch e.m.Arch {
		case BusSIO, CluSIO:
			if ph.W > 0 && ph.SRCom > 0 && ph.GExp <= -1 {
				return 0, false, "", false // eq. 5.10's argument needs g exponent > −1
			}
			if (ph.W == 0 || ph.SRCom == 0) && ph.SSer == 0 && commVanishes {
				t = ph.S0IO + ph.SRIO/float64(d)
				why = append(why, "τ_comp → 0 (w = 0, r > 1, no startup: 001 eq. 5.9): s → T_ref/τ_IO, τ_IO = σ_n + σ_d/d")
			} else {
				t = math.Inf(1)
				why = append(why, "τ_comp → ∞ (001 eq. 5.9/5.10: r = 1, a startup, w > 0 or a serial part): s → 0")
			}
		case BusAIO, CluAIO:
			if ph.S0IO > 0 {
				t = math.Inf(1)
				why = append(why, "the I/O queue's demand p·c·σ_n grows with p (001 §5.3.1): s → 0")
				break
			}
			// per-job demands at the queues fall as 1/p while p/c jobs circulate: the cycle
			// tends to the largest of the delay Z(∞) and the queues' total demands (the
			// fluid limit; checked against large p in TestClosedLimitsAgainstLargeP)
			net := 0.0
			if ph.W > 0 && ph.SRCom > 0 {
				switch {
				case ph.GExp > -1:
					net = math.Inf(1)
				case ph.GExp == -1:
					net = n * ph.W * ph.SRCom / c
				}
			}
			t = math.Max(math.Max(ph.SRIO/float64(d), net), e.delayLimit(ph))
			if math.IsInf(t, 1) {
				why = append(why, "the network queue's demand w·σ_r·p^(1+g)/c or the delay Z(p) grows with p (001 §5.3.1, §5.5.1): s → 0")
			} else {
				why = append(why, "the p/c jobs: cycle → max(σ_d/d, n·w·σ_r·p^(1+g)/c, Z(∞)) (the BUS-AIO limit; CLU-AIO with w = 0: d/σ_d, 001 §5.5.1)")
			}
		case OptimisticSIO:
			if ph.SSer > 0 {
				t = math.Inf(1)
				why = append(why, "h(p)·S_ser grows as ln p (001 §5.1): s → 0")
			} else {
				t = ph.S0IO + ph.SRIO/float64(d)
				why = append(why, "h(p)·σ_p/p → 0 (001 §5.1): s → T_ref/τ_IO")
			}
		case OptimisticAIO:
			if ph.SSer == 0 {
				return math.NaN(), true, "optimistic AIO (001 §5.1): every term falls as 1/p; the speedup grows without bound", true
			}
			t = n * ph.SSer
			why = append(why, "optimistic AIO: the serial part n·S_ser remains (001 §5.1)")
		default:
			return 0, false, "", false
		}
		total += ph.cycles() * t
	}
	note = "closed form: " + why[0]
	if len(why) > 1 {
		note = fmt.Sprintf("closed form, per phase: %v", why)
	}
	if math.IsInf(total, 1) {
		return 0, false, note, true
	}
	if total == 0 {
		return math.NaN(), true, note + "; every term vanishes: the speedup grows without bound", true
	}
	return e.m.RefTime() / total, false, note, true
}

// delayLimit is lim_{p→∞} Z(p) of a BUS-/CLU-AIO phase: n·(h(c)·S_ser + S0_COM(p) +
// (1 − w)·g(p)·SR_COM) with S_par/p → 0; a term with a positive exponent grows without bound.
func (e *Evaluator) delayLimit(ph *Phase) float64 {
	lim := func(v, exp float64) float64 {
		switch {
		case v == 0 || exp < 0:
			return 0
		case exp == 0:
			return v
		}
		return math.Inf(1)
	}
	return ph.NIO * (ph.Sync.H(ph.C)*ph.SSer + lim(ph.S0Com, ph.S0Exp) + lim((1-ph.W)*ph.SRCom, ph.GExp))
}
