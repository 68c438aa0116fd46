package spmd

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Architecture is an I/O organisation × I/O synchronisation (000 §3.2–3.3, 001 ch. 5).
type Architecture int

// The architectures (the package comment gives each one's formulas).
const (
	// BusSIO: one shared I/O bus, synchronous I/O (every group waits for the I/O burst);
	// the fork/join approximation of 000 eq. 16 (001 §5.4).
	BusSIO Architecture = iota
	// CluSIO: one disk per cluster, synchronous I/O; the same formulas as BusSIO (001 §5.4).
	CluSIO
	// BusAIO: one shared I/O bus, asynchronous I/O; exact MVA (000 eq. 14, 001 eq. 5.11).
	BusAIO
	// CluAIO: one disk per cluster, asynchronous I/O; d classes, exact by convolution
	// (000 §4.3, 001 §5.5).
	CluAIO
	// OptimisticAIO: the optimistic bound with asynchronous I/O, a closed form (001 §5.1,
	// eq. 5.1).
	OptimisticAIO
	// OptimisticSIO: the optimistic bound with synchronous I/O, a closed form (001 §5.1).
	OptimisticSIO
)

var archNames = []string{"bus-sio", "clu-sio", "bus-aio", "clu-aio", "optimistic-aio", "optimistic-sio"}

func (a Architecture) String() string { return archNames[a] }

// Architectures lists every architecture, in order.
func Architectures() []Architecture {
	return []Architecture{BusSIO, CluSIO, BusAIO, CluAIO, OptimisticAIO, OptimisticSIO}
}

// ParseArchitecture reads a name such as "bus-aio".
func ParseArchitecture(s string) (Architecture, error) {
	k := strings.ToLower(strings.ReplaceAll(s, "_", "-"))
	for i, n := range archNames {
		if k == n {
			return Architecture(i), nil
		}
	}
	return 0, fmt.Errorf("unknown architecture %q (allowed: %s)", s, strings.Join(archNames, ", "))
}

// Model is an SPMD program of one or more phases on an architecture.
type Model struct {
	Name   string
	Arch   Architecture
	Phases []Phase
	// Caveats are the documented inconsistencies of the model's source (the file's caveats:
	// list, e.g. 000 Table 4's s(1, 1) = 0.855): every result of the model prints them as
	// notes.
	Caveats []string
}

// Validate checks the phases.
func (m *Model) Validate() error {
	if len(m.Phases) == 0 {
		return errors.New("model has no phases")
	}
	var errs []error
	for i := range m.Phases {
		if err := m.Phases[i].Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ConfigError reports a (p, d) the model cannot be evaluated at, and what would be valid.
type ConfigError struct {
	P, D   int
	Reason string
}

func (e *ConfigError) Error() string { return fmt.Sprintf("p = %d, d = %d: %s", e.P, e.D, e.Reason) }

// Is makes a ConfigError an input error (fault.ErrInput).
func (e *ConfigError) Is(target error) bool { return target == fault.ErrInput }

// CheckConfig returns a *ConfigError unless every phase can run on p processors and d disks:
// c must divide p; CLU models need p ≥ d; CLU-AIO needs p/c to be a multiple of d (000 §3.7).
func (m *Model) CheckConfig(p, d int) error {
	if p < 1 || d < 1 || p > MaxP || d > MaxP {
		return &ConfigError{p, d, fmt.Sprintf("p and d must be in 1 … %d", MaxP)}
	}
	for _, ph := range m.Phases {
		c := ph.C
		if p%c != 0 {
			return &ConfigError{p, d, fmt.Sprintf("synchronisation level c = %d must divide p (valid p: multiples of %d)", c, c)}
		}
		switch m.Arch {
		case CluSIO, CluAIO:
			if p < d {
				return &ConfigError{p, d, fmt.Sprintf("%v clusters the p processors around the d I/O nodes: p must be ≥ d", m.Arch)}
			}
		}
		if m.Arch == CluAIO && (p/c)%d != 0 {
			return &ConfigError{p, d, fmt.Sprintf("CLU-AIO needs p/c = %d to be a multiple of d = %d (valid p: multiples of c·d = %d)", p/c, d, c*d)}
		}
	}
	return nil
}

// Components splits the predicted time (seconds, summed over phases and cycles).
type Components struct {
	CPU          float64 `json:"cpu_s"`           // n_IO(S_par/p + S_ser): one processor's own work
	Sync         float64 `json:"sync_s"`          // waiting for the slowest of a group (h(c), fork/join)
	CommStartup  float64 `json:"comm_startup_s"`  // n_IO·S0_COM(p)
	CommTransfer float64 `json:"comm_transfer_s"` // n_IO·g(p)·SR_COM
	Contention   float64 `json:"contention_s"`    // queueing for the network
	IO           float64 `json:"io_s"`            // I/O service and queueing
}

// Total is the sum of the components.
func (c Components) Total() float64 {
	return c.CPU + c.Sync + c.CommStartup + c.CommTransfer + c.Contention + c.IO
}

func (c *Components) add(o Components, k float64) {
	c.CPU += k * o.CPU
	c.Sync += k * o.Sync
	c.CommStartup += k * o.CommStartup
	c.CommTransfer += k * o.CommTransfer
	c.Contention += k * o.Contention
	c.IO += k * o.IO
}

// Largest returns the name of the largest component: the bottleneck resource.
func (c Components) Largest() string {
	names := []string{"cpu", "sync", "comm_startup", "comm_transfer", "contention", "io"}
	vals := []float64{c.CPU, c.Sync, c.CommStartup, c.CommTransfer, c.Contention, c.IO}
	bi := 0
	for i, v := range vals {
		if v > vals[bi] {
			bi = i
		}
	}
	return names[bi]
}

// Point is the prediction at p processors and d disks.
type Point struct {
	P          int        `json:"p"`
	D          int        `json:"d"`
	Time       float64    `json:"time_s"` // seconds (normalised units, T/T_ref, for σ models)
	Speedup    float64    `json:"speedup"`
	Efficiency float64    `json:"efficiency"`
	Components Components `json:"components"`
	Bottleneck string     `json:"bottleneck"`
	Solver     string     `json:"solver,omitempty"` // how the network was solved: mva, convolution (CLU-AIO)
}

// RefTime is T_ref of the whole program: Σ_m N_m·T_ref,m.
func (m *Model) RefTime() float64 {
	t := 0.0
	for i := range m.Phases {
		t += m.Phases[i].cycles() * m.Phases[i].RefTime()
	}
	return t
}

// Evaluator evaluates a model at many (p, d), caching what does not depend on d.
type Evaluator struct {
	// MaxWork bounds the estimated work of one call (Evaluate, Surface) in MVA steps
	// (10–45 ns each); 0 means DefaultMaxWork. Larger inputs are refused with an error
	// wrapping fault.ErrTooLarge that names the estimate and this limit (CLI: --max-work).
	MaxWork float64
	// NonRecursive solves BUS-AIO's closed network {delay z, queue x, queue E} with the
	// non-recursive MVA of 000 eqs. 17/22 (001 App. A, NonRecursiveR) instead of the
	// recursion over the population (speedup --solver non-recursive). Its sums have
	// C(n+2, 2) terms with n!-sized factors, so populations above MaxNonRecursive are
	// refused (fault.ErrTooLarge); other architectures refuse it (fault.ErrInput).
	NonRecursive bool
	m            *Model
	sioComp      map[[2]int]Components // (phase, p) → computation-burst components of SIO models
}

// MaxNonRecursive is the largest population Evaluator.NonRecursive solves: 170! is the
// largest factorial below the float64 range, and the sums' terms Z^e/e! · Π S^e stay finite
// up to there only for moderate demands; 150 keeps a margin.
const MaxNonRecursive = 150

// NewEvaluator validates m and returns an evaluator.
func NewEvaluator(m *Model) (*Evaluator, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &Evaluator{m: m, sioComp: map[[2]int]Components{}}, nil
}

// DefaultMaxWork is the default work budget of an Evaluator: 3e8 MVA steps. Measured on the
// shared 2-vCPU machine under load: one evaluation at p = 1e8 (BUS-SIO, 1e8 steps) 4.5 s,
// p = 1e9 55 s (45 ns a step); the CLU-AIO surface p 1…512 × d 1…16 (1.5e8 units) 3.4 s
// (22 ns a unit). The default thus allows about 7–14 s.
const DefaultMaxWork = 3e8

// Work estimates the cost of Evaluate(p, d) in MVA steps: the fork/join (SIO) and BUS-AIO
// networks take p/c steps per phase, CLU-AIO's convolution (p/c)² (cluAIOSymmetric: O(d²n²),
// n = p/(cd)), the optimistic SIO bound's h(p) p steps.
func (e *Evaluator) Work(p, d int) float64 {
	w := 0.0
	for _, ph := range e.m.Phases {
		g := float64(p) / float64(max(ph.C, 1))
		switch e.m.Arch {
		case CluAIO:
			w += g * g
		case OptimisticAIO:
			w++
		default:
			w += g + float64(ph.C)
		}
	}
	return w
}

func (e *Evaluator) maxWork() float64 {
	if e.MaxWork > 0 {
		return e.MaxWork
	}
	return DefaultMaxWork
}

func (e *Evaluator) tooLarge(what string, w float64) error {
	return fmt.Errorf("%w: %s needs about %.3g MVA steps; the limit is %.3g (fewer p or d; library: Evaluator.MaxWork)", fault.ErrTooLarge, what, w, e.maxWork())
}

// Evaluate predicts time, speedup and components at (p, d).
func (e *Evaluator) Evaluate(p, d int) (Point, error) {
	return e.EvaluateContext(context.Background(), p, d)
}

// EvaluateContext is Evaluate stopped by ctx: the SIO models' fork/join sum (p/c MVA steps,
// up to seconds at p ≈ 1e8) checks ctx every sioCheckSteps steps and returns an error
// wrapping fault.ErrInterrupted and ctx's error when it is cancelled (the other
// architectures take O(1) or O(d²n²) ≤ MaxWork steps without a check: microseconds at the
// sizes a surface reaches).
func (e *Evaluator) EvaluateContext(ctx context.Context, p, d int) (Point, error) {
	if err := e.m.CheckConfig(p, d); err != nil {
		return Point{}, err
	}
	if w := e.Work(p, d); w > e.maxWork() {
		return Point{}, e.tooLarge(fmt.Sprintf("p = %d, d = %d", p, d), w)
	}
	pt := Point{P: p, D: d}
	for i := range e.m.Phases {
		c, solver, err := e.cycle(ctx, i, p, d)
		if err != nil {
			return Point{}, err
		}
		pt.Components.add(c, e.m.Phases[i].cycles())
		if solver != "" {
			pt.Solver = solver
		}
	}
	pt.Time = pt.Components.Total()
	if err := pt.Components.clampNoise(pt.Time); err != nil {
		return Point{}, fmt.Errorf("p = %d, d = %d: %w", p, d, err)
	}
	pt.Time = pt.Components.Total()
	if !(pt.Time > 0) || math.IsInf(pt.Time, 0) {
		// the parameter ranges (checkRanges) make this unreachable; never print it
		return Point{}, fmt.Errorf("p = %d, d = %d: the model's time is %v, not a finite positive number", p, d, pt.Time)
	}
	pt.Speedup = e.m.RefTime() / pt.Time
	pt.Efficiency = pt.Speedup / float64(p)
	if pt.Efficiency > 1 && pt.Efficiency <= 1+noiseULPs*epsilon {
		pt.Efficiency = 1 // rounding of T_ref/(p·T) when T = T_ref/p exactly
	}
	pt.Bottleneck = pt.Components.Largest()
	return pt, nil
}

// base returns the service parts of one computation burst at p: CPU, startup, transfer.
func base(ph *Phase, p int) (cpu, start, transfer float64) {
	return ph.SPar/float64(p) + ph.SSer, ph.S0(p), ph.G(p) * ph.SRCom
}

// cycle returns the components of one cycle of phase i at (p, d).
func (e *Evaluator) cycle(ctx context.Context, i, p, d int) (Components, string, error) {
	ph := &e.m.Phases[i]
	n := ph.NIO
	cpu, start, transfer := base(ph, p)
	h := ph.Sync.H(ph.C)
	groups := p / ph.C
	z := n * (h*cpu + start + (1-ph.W)*transfer)
	x := n * ph.W * transfer
	var c Components
	c.CPU, c.CommStartup, c.CommTransfer = n*cpu, n*start, n*transfer
	switch e.m.Arch {
	case OptimisticAIO:
		// 001 §5.1 states the optimistic bounds without σ_n; the I/O startup S0_IO is kept
		// (spread like the transfer) so that T(1, 1) = T_ref and s ≤ p·d/… never exceeds the
		// ideal: without it a model with S0_IO > 0 had s(1, 1) > 1 (issue 12: "efficiency 2").
		c = Components{CPU: n * cpu, IO: (ph.S0IO + ph.SRIO/float64(d)) / float64(p)}
		return c, "", nil
	case OptimisticSIO:
		c = Components{CPU: n * cpu, Sync: (ph.Sync.H(p) - 1) * n * cpu, IO: ph.S0IO + ph.SRIO/float64(d)}
		return c, "", nil
	case BusSIO, CluSIO:
		comp, err := e.sio(ctx, i, p, z, x)
		if err != nil {
			return c, "", err
		}
		comp.IO = ph.S0IO + ph.SRIO/float64(d)
		return comp, "", nil
	case BusAIO:
		E := float64(ph.C)*ph.S0IO + ph.SRIO/float64(d)/float64(groups)
		// Exact MVA of {delay z, queue x, queue E} with p/c jobs (QSP eq. 6.1–6.3), inline:
		// this runs for every (p, d) of every surface and fit. TestBusAIOAgainstDirectQN
		// checks it against qn.MVASingle and the non-recursive formula.
		rx, rE := busAIO(groups, z, x, E)
		method := "mva"
		if e.NonRecursive {
			if groups > MaxNonRecursive {
				return c, "", fmt.Errorf("%w: the non-recursive MVA (000 eqs. 17/22) at p/c = %d jobs: its terms overflow beyond %d jobs (n! and powers of the demands); use the recursive solver", fault.ErrTooLarge, groups, MaxNonRecursive)
			}
			r := NonRecursiveR(groups, []float64{x, E}, z)
			rx, rE, method = r[0], r[1], "non-recursive mva"
		}
		c.Sync = n * (h - 1) * cpu
		c.Contention = rx - x
		c.IO = rE
		return c, method, nil
	case CluAIO:
		E := float64(ph.C)*ph.S0IO + ph.SRIO/float64(groups)
		// d symmetric classes of p/(cd) jobs: exact, by convolution over the product form
		// (cluAIOSymmetric, checked against exact multi-class MVA)
		if E == 0 && x == 0 && z == 0 {
			return c, "", fmt.Errorf("CLU-AIO at p = %d, d = %d: zero time everywhere in the cycle (no computation, communication or I/O): throughput is unbounded", p, d)
		}
		rDisk, rNet, _ := cluAIOSymmetric(d, groups/d, E, x, z)
		c.Sync = n * (h - 1) * cpu
		c.Contention = rNet - x
		c.IO = rDisk
		return c, "convolution", nil
	}
	return c, "", fmt.Errorf("unknown architecture %v", e.m.Arch)
}

// sio returns the computation-burst components of the fork/join approximation
// T_comp = Σ_{i=1}^{p/c} R(i)/i (000 eq. 16 with n_IO folded into z and x; 001 eq. 5.6),
// R(i) the cycle time of {delay z, queue x} with i jobs, solved by qn's exact MVA.
// A cancelled ctx (checked every sioCheckSteps steps) stops it with fault.ErrInterrupted;
// nothing is cached then.
func (e *Evaluator) sio(ctx context.Context, i, p int, z, x float64) (Components, error) {
	key := [2]int{i, p}
	if c, ok := e.sioComp[key]; ok {
		return c, nil
	}
	ph := &e.m.Phases[i]
	groups := p / ph.C
	// Exact MVA of {delay z, queue x} with k = 1 … p/c jobs (QSP eq. 6.1–6.3), inline and in
	// O(1) memory: R(k) = z + x·(1 + Q(k−1)), X = k/R(k), Q(k) = X·x·(1 + Q(k−1)).
	// TestSIOAgainstQN checks it against qn.MVASingleTrajectory.
	total, cont, q := 0.0, 0.0, 0.0
	for k := 1; k <= groups; k++ {
		if k%sioCheckSteps == 0 && ctx.Err() != nil {
			return Components{}, fmt.Errorf("%w at p = %d after %d of %d fork/join MVA steps: %w", fault.ErrInterrupted, p, k, groups, ctx.Err())
		}
		rx := x * (1 + q)
		r := z + rx
		total += r / float64(k)
		cont += x * q / float64(k) // R(k) − z − x, without cancellation
		if r > 0 {
			q = float64(k) / r * rx
		}
	}
	n := ph.NIO
	cpu, start, transfer := base(ph, p)
	c := Components{CPU: n * cpu, CommStartup: n * start, CommTransfer: n * transfer, Contention: cont}
	c.Sync = total - c.CPU - c.CommStartup - c.CommTransfer - c.Contention
	e.sioComp[key] = c
	return c, nil
}

// sioCheckSteps is how often sio checks its context: 2^20 steps, about 10–45 ms.
const sioCheckSteps = 1 << 20

// Value returns the component named as Largest names it.
func (c Components) Value(name string) float64 {
	switch name {
	case "cpu":
		return c.CPU
	case "sync":
		return c.Sync
	case "comm_startup":
		return c.CommStartup
	case "comm_transfer":
		return c.CommTransfer
	case "contention":
		return c.Contention
	case "io":
		return c.IO
	}
	return math.NaN()
}

// busAIO returns the residence times at the network queue and the I/O queue of the closed
// network {delay z, queue x, queue e} with N jobs, by exact MVA.
func busAIO(N int, z, x, e float64) (rx, re float64) {
	qx, qe := 0.0, 0.0
	for k := 1; k <= N; k++ {
		rx, re = x*(1+qx), e*(1+qe)
		X := float64(k) / (z + rx + re)
		qx, qe = X*rx, X*re
	}
	return rx, re
}

const (
	epsilon   = 0x1p-52 // float64 machine epsilon
	noiseULPs = 64      // a component within 64·ε of the total is rounding noise
)

// clampNoise sets to 0 every component whose magnitude is at most noiseULPs·ε·total: such a
// value is rounding noise of a difference of terms no larger than the total (Sync is
// total − CPU − startup − transfer − contention; contention Σ (R(k) − z − x)/k). A
// component more negative than that is a real negative and is an error, never hidden.
func (c *Components) clampNoise(total float64) error {
	tol := noiseULPs * epsilon * math.Abs(total)
	for _, v := range []*float64{&c.CPU, &c.Sync, &c.CommStartup, &c.CommTransfer, &c.Contention, &c.IO} {
		switch {
		case math.Abs(*v) <= tol:
			*v = 0
		case *v < 0:
			return fmt.Errorf("a component is %v, negative beyond rounding (total %v): a defect in the model, please report it", *v, total)
		}
	}
	return nil
}
