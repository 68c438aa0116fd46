package spmd

import (
	"errors"
	"fmt"
	"math"
)

// SyncCost is the distribution assumed for the burst times that a fork/join synchronises.
type SyncCost int

const (
	Exponential   SyncCost = iota // h(c) = Σ_{i=1}^{c} 1/i (000 eq. 6)
	Uniform                       // h(c) = 2c/(c+1) (000 §3.5)
	Deterministic                 // h(c) = 1
)

// H returns the synchronisation cost h(c) ≥ 1.
func (s SyncCost) H(c int) float64 {
	switch s {
	case Uniform:
		return 2 * float64(c) / float64(c+1)
	case Deterministic:
		return 1
	}
	h := 0.0
	for i := c; i >= 1; i-- {
		h += 1 / float64(i)
	}
	return h
}

func (s SyncCost) String() string {
	return [...]string{"exponential", "uniform", "deterministic"}[s]
}

// Phase holds the parameters of one program phase, in seconds per burst (000 Table 1).
type Phase struct {
	Name   string
	Cycles float64 // N, cycles in the phase (default 1)
	NIO    float64 // n_IO: computation bursts per I/O burst (≥ 1)
	SPar   float64 // S_par: parallel CPU time of one computation burst, s
	SSer   float64 // S_ser: serial CPU time, s
	S0Com  float64 // S0_COM at p = 1, s; S0_COM(p) = S0Com·p^S0ComExp
	S0Exp  float64 // exponent of the startup's growth with p (0: constant; BTIO ≈ 0.5)
	SRCom  float64 // SR_COM: transfer time, s; the transfer is g(p)·SR_COM
	GExp   float64 // g(p) = p^GExp; from r: GExp = −(r−1)/r (r = 1: 0; r = ∞: −1)
	W      float64 // contention level 0 … 1
	C      int     // synchronisation level c ≥ 1
	Sync   SyncCost
	S0IO   float64 // S0_IO: I/O startup (σ_n), s
	SRIO   float64 // SR_IO: I/O transfer of one burst on one disk (σ_d), s
	Ref    float64 // T_ref of one cycle when given (normalised models: 1; 000 Table 4: T1); 0 = computed
	// NoCommAtOne applies 000's definition g(1) = 0 (§3.6): one processor exchanges no
	// messages, so startup and transfer vanish at p = 1. The thesis's g(p) = p^−((r−1)/r)
	// gives g(1) = 1; that is the default.
	NoCommAtOne bool
}

// GFromR returns the exponent of g(p) = p^−((r−1)/r) for data-space dimension r ≥ 1
// (r = +Inf gives −1, g(p) = 1/p).
func GFromR(r float64) float64 {
	if math.IsInf(r, 1) {
		return -1
	}
	return -(r - 1) / r
}

// G returns g(p).
func (ph *Phase) G(p int) float64 {
	if p == 1 && ph.NoCommAtOne {
		return 0
	}
	return math.Pow(float64(p), ph.GExp)
}

// S0 returns the communication startup S0_COM(p).
func (ph *Phase) S0(p int) float64 {
	if p == 1 && ph.NoCommAtOne {
		return 0
	}
	return ph.S0Com * math.Pow(float64(p), ph.S0Exp)
}

// RefTime is T_ref, the time of one cycle on one processor and one disk without
// communication: n_IO(S_par + S_ser) + S0_IO + SR_IO (000 eq. 1).
// A phase given in normalised units has T_ref = 1 (001 eq. 4.3: s = 1/τ).
func (ph *Phase) RefTime() float64 {
	if ph.Ref > 0 {
		return ph.Ref
	}
	return ph.NIO*(ph.SPar+ph.SSer) + ph.S0IO + ph.SRIO
}

// work is a phase's own time at p = 1 without communication, n_IO·(S_par + S_ser) + S0_IO +
// SR_IO (s): 0 makes the model's time 0 and its speedup 0/0.
func (ph *Phase) work() float64 { return ph.NIO*(ph.SPar+ph.SSer) + ph.S0IO + ph.SRIO }

// label is "phase <name>: " for an error message, "" for an unnamed phase (a one-phase file).
func (ph *Phase) label() string {
	if ph.Name == "" {
		return ""
	}
	return fmt.Sprintf("phase %q: ", ph.Name)
}

func (ph *Phase) cycles() float64 {
	if ph.Cycles <= 0 {
		return 1
	}
	return ph.Cycles
}

// Parameter ranges (issue 12: every result finite, never rounding noise). With times in
// {0} ∪ [MinTime, MaxTime], exponents in [−MaxExponent, MaxExponent], p ≤ 2^30, n_IO ≤ MaxNIO
// and N ≤ MaxCycles every term of a prediction is below 1e9·1e6·1e9·2^120 ≈ 1e60 s: finite.
const (
	MinTime     = 1e-12 // s: a nonzero time parameter is at least a picosecond
	MaxTime     = 1e9   // s: about 32 years
	MaxExponent = 4.0   // |g_exponent|, |s0_com_exponent|, |message law exponents|
	MinR        = 0.2   // r ≥ 0.2 keeps the g(p) exponent (1 − r)/r ≤ 4
	MaxNIO      = 1e6   // computation bursts per I/O burst
	MaxCycles   = 1e9   // N, cycles in a phase
	MaxP        = 1 << 30
)

// checkRanges reports the first parameter outside the ranges above.
func (ph *Phase) checkRanges() error {
	for _, t := range []struct {
		name string
		v    float64
	}{{"s_par", ph.SPar}, {"s_ser", ph.SSer}, {"s0_com", ph.S0Com}, {"sr_com", ph.SRCom}, {"s0_io", ph.S0IO}, {"sr_io", ph.SRIO}, {"reference_time", ph.Ref}} {
		if t.v != 0 && !(t.v >= MinTime && t.v <= MaxTime) {
			return fmt.Errorf("%s = %v s, out of range; allowed 0 or %g … %g s", t.name, t.v, MinTime, MaxTime)
		}
	}
	if !(math.Abs(ph.GExp) <= MaxExponent) {
		return fmt.Errorf("a g(p) exponent of %v, out of range; allowed −%g … %g", ph.GExp, MaxExponent, MaxExponent)
	}
	if !(math.Abs(ph.S0Exp) <= MaxExponent) {
		return fmt.Errorf("a startup exponent of %v, out of range; allowed −%g … %g", ph.S0Exp, MaxExponent, MaxExponent)
	}
	if !(ph.NIO >= 1 && ph.NIO <= MaxNIO) {
		return fmt.Errorf("n_io = %v, out of range; allowed 1 … %g", ph.NIO, MaxNIO)
	}
	if !(ph.Cycles >= 0 && ph.Cycles <= MaxCycles) {
		return fmt.Errorf("cycles = %v, out of range; allowed up to %g", ph.Cycles, MaxCycles)
	}
	return nil
}

// Validate reports every parameter out of range.
func (ph *Phase) Validate() error {
	var errs []error
	nonneg := func(name string, v float64) {
		if !(v >= 0) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("%s%s = %v must be finite and ≥ 0", ph.label(), name, v))
		}
	}
	nonneg("s_par", ph.SPar)
	nonneg("s_ser", ph.SSer)
	nonneg("s0_com", ph.S0Com)
	nonneg("sr_com", ph.SRCom)
	nonneg("s0_io", ph.S0IO)
	nonneg("sr_io", ph.SRIO)
	nonneg("cycles", ph.Cycles)
	nonneg("reference_time", ph.Ref)
	if !(ph.NIO >= 1) || math.IsInf(ph.NIO, 0) {
		errs = append(errs, fmt.Errorf("%sn_io = %v must be ≥ 1 (computation bursts per I/O burst)", ph.label(), ph.NIO))
	}
	if !(ph.W >= 0 && ph.W <= 1) {
		errs = append(errs, fmt.Errorf("%sw = %v must be in [0, 1] (0 = delay, 1 = queue)", ph.label(), ph.W))
	}
	if ph.C < 1 {
		errs = append(errs, fmt.Errorf("%sc = %d must be ≥ 1", ph.label(), ph.C))
	}
	if math.IsNaN(ph.GExp) || math.IsInf(ph.GExp, 0) || math.IsNaN(ph.S0Exp) || math.IsInf(ph.S0Exp, 0) {
		errs = append(errs, fmt.Errorf("%sscaling exponents must be finite", ph.label()))
	}
	if err := ph.checkRanges(); err != nil {
		errs = append(errs, fmt.Errorf("%s%w", ph.label(), err))
	}
	if !(ph.work() > 0) { // not RefTime: a reference_time does not give the phase work
		errs = append(errs, fmt.Errorf("%sno work at all (S_par + S_ser + S0_IO + SR_IO = 0): at least one must be > 0", ph.label()))
	}
	return errors.Join(errs...)
}

// Normalized gives a phase in the thesis's normalised units (001 Table 4.8): σ_p the
// computation share, σ_d = 1 − σ_p the I/O share, σ_r0 and σ_r the communication startup
// and transfer, σ_n the I/O overhead; T_ref = 1 and s = 1/τ.
type Normalized struct {
	SigmaP, SigmaR0, SigmaR, SigmaN float64
	SigmaSer                        float64 // serial CPU share (000's S_ser·n_IO/T1), default 0
}

// Phase converts to seconds-per-phase form with n_IO = 1 (the σ's already cover a phase).
func (n Normalized) Phase() (Phase, error) {
	if !(n.SigmaP > 0 && n.SigmaP+n.SigmaSer <= 1) {
		return Phase{}, fmt.Errorf("sigma_p = %v (+ sigma_ser %v) must be in (0, 1]: σ_d = 1 − σ_p − σ_ser is the I/O share", n.SigmaP, n.SigmaSer)
	}
	return Phase{NIO: 1, SPar: n.SigmaP, SSer: n.SigmaSer, S0Com: n.SigmaR0, SRCom: n.SigmaR, S0IO: n.SigmaN, SRIO: 1 - n.SigmaP - n.SigmaSer, C: 1, Ref: 1}, nil
}

// PowerLaw is a per-processor quantity that scales as a power of p: v(p) = V·(p/AtP)^Exp.
type PowerLaw struct {
	V, AtP, Exp float64
}

// At evaluates the law at p.
func (l PowerLaw) At(p float64) float64 { return l.V * math.Pow(p/l.AtP, l.Exp) }

// PowerLawThrough returns the law through two measured points (p1, v1), (p2, v2).
func PowerLawThrough(p1, v1, p2, v2 float64) (PowerLaw, error) {
	if !(p1 > 0 && p2 > 0 && v1 > 0 && v2 > 0) || p1 == p2 {
		return PowerLaw{}, fmt.Errorf("a power law needs two points with different p > 0 and values > 0")
	}
	return PowerLaw{V: v1, AtP: p1, Exp: math.Log(v2/v1) / math.Log(p2/p1)}, nil
}

// Benchmark derives phase parameters from hardware benchmark figures as in 000 §5.1.1.
type Benchmark struct {
	CPURate     float64 // flop/s (POLY1)
	FlopPar     float64 // parallel flop of one computation burst (whole problem)
	FlopSer     float64 // serial flop of one computation burst
	BurstsPerIO float64 // n_IO
	Startup     float64 // t0, s per message (COMMS1 ping-pong)
	Bandwidth   float64 // r∞, bytes/s (COMMS1)
	SatBW       float64 // r_sat, bytes/s (COMMS3); w ≈ r∞/r_sat when w is not given
	Messages    PowerLaw
	MsgBytes    PowerLaw
	DiskBW      float64 // bytes/s of one disk (I/O node)
	IOBytes     float64 // bytes written per I/O burst
	IOStartup   float64 // s
}

// Phase converts benchmark figures (000 §5.1.1): S_par = flop_par/rate, S_ser =
// flop_ser/rate; S0_COM(p) = t0·m(p) and the transfer m(p)·L(p)/r∞ with m and L power laws in
// p, so g(p) = p^(e_m + e_L); SR_IO = io_bytes/disk_bw; w = r∞/r_sat (an upper bound, 000).
func (b Benchmark) Phase() (Phase, error) {
	if !(b.CPURate > 0) || !(b.Bandwidth > 0) || !(b.DiskBW > 0) {
		return Phase{}, errors.New("benchmark: cpu_rate, bandwidth and disk_bandwidth must be > 0")
	}
	if !(b.Messages.AtP > 0) || !(b.MsgBytes.AtP > 0) {
		return Phase{}, errors.New("benchmark: messages and message_bytes need at_p > 0")
	}
	nio := b.BurstsPerIO
	if nio == 0 {
		nio = 1
	}
	ph := Phase{
		NIO:   nio,
		SPar:  b.FlopPar / b.CPURate,
		SSer:  b.FlopSer / b.CPURate,
		S0Com: b.Startup * b.Messages.At(1),
		S0Exp: b.Messages.Exp,
		SRCom: b.Messages.At(1) * b.MsgBytes.At(1) / b.Bandwidth,
		GExp:  b.Messages.Exp + b.MsgBytes.Exp,
		S0IO:  b.IOStartup,
		SRIO:  b.IOBytes / b.DiskBW,
		C:     1,
	}
	if b.SatBW > 0 {
		ph.W = math.Min(1, b.Bandwidth/b.SatBW)
	}
	return ph, nil
}
