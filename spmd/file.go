package spmd

import (
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/modelfile"
)

// FileFormat documents the model file (shown by `clusterperf help speedup`).
const FileFormat = `An SPMD model file is YAML (or JSON).

  name: BTIO class A on the IBM SP-2 (000 §5.1)
  architecture: bus-sio     # bus-sio | clu-sio | bus-aio | clu-aio | optimistic-aio | optimistic-sio
  # caveats: ["…"]          # documented inconsistencies of the source, printed as notes
  c: 1                      # synchronisation level: processors per synchronous group (default 1)
  w: 0.23                   # contention level: 0 = network is a delay, 1 = a queue (default 0)
  sync: exponential         # h(c): exponential (Σ 1/i) | uniform (2c/(c+1)) | deterministic (1)
  r: 3                      # data-space dimension: g(p) = p^-((r-1)/r); r: inf gives 1/p (default 1)
  # g_exponent: -0.1667     # … or g(p) = p^g_exponent directly (BTIO: -1/6)
  no_comm_at_p1: false      # true: Cremonesi & Gennaro's (000) g(1) = 0, no communication on one processor
  cycles: 40                # N, cycles in the phase (default 1)

and the parameters in ONE of three forms:

  seconds:                  # Cremonesi & Gennaro (000) Table 1, per computation burst / per I/O burst
    s_par: 6.9              # parallel CPU time
    s_ser: 0.08             # serial CPU time
    n_io: 5                 # computation bursts per I/O burst (default 1)
    s0_com: 0.0027          # communication startup (at p = 1)
    s0_com_exponent: 0      # startup grows as p^e (default 0)
    sr_com: 0.06            # communication transfer (× g(p))
    s0_io: 0                # I/O startup (σ_n)
    sr_io: 1                # I/O transfer on one disk (σ_d)
    reference_time: 1       # optional T1 of one cycle for the speedup (default
                            #   n_io(s_par + s_ser) + s0_io + sr_io, Cremonesi & Gennaro (000) eq. 3)

  normalized:               # Gennaro (001) Table 4.8: shares of the run time on one processor and disk
    sigma_p: 0.8            # computation; σ_d = 1 − σ_p is the I/O share
    sigma_r0: 0.001         # communication startup
    sigma_r: 0.005          # communication transfer
    sigma_n: 7e-4           # I/O overhead (data redistribution / path to a central I/O node)

  benchmark:                # Cremonesi & Gennaro (000) §5.1.1: from hardware benchmarks
    cpu_rate: 120e6         # flop/s (POLY1)
    flop_parallel: 830e6    # flop of one computation burst, parallel part (whole problem)
    flop_serial: 10e6
    bursts_per_io: 5
    startup: 150e-6         # ping-pong startup t0, s (COMMS1)
    bandwidth: 27e6         # asymptotic bandwidth r∞, bytes/s (COMMS1)
    saturation_bandwidth: 120e6   # r_sat (COMMS3): w = r∞/r_sat unless w is given
    messages: [{p: 9, count: 18}, {p: 64, count: 48}]          # per processor per burst: two
    message_bytes: [{p: 9, bytes: 64e3}, {p: 64, bytes: 18e3}] # points, or {count|bytes, at_p, exponent}
    disk_bandwidth: 10e6    # bytes/s of one disk
    io_bytes: 10e6          # bytes written per I/O burst
    io_startup: 0

A multi-phase program lists phases, each with its own cycles, c, w, sync, r and parameters:

  architecture: bus-aio
  phases:
    - {name: read, cycles: 10, normalized: {sigma_p: 0.5, sigma_r0: 0, sigma_r: 0.01, sigma_n: 0}}
    - {name: solve, cycles: 100, w: 0.2, seconds: {s_par: 2, sr_com: 0.1, sr_io: 0.5}}`

// phaseKeys are the fields of a phase that the top level of a one-phase file holds too.
var phaseKeys = []string{"cycles", "c", "w", "sync", "r", "g_exponent", "no_comm_at_p1", "seconds", "normalized", "benchmark"}

// ParseModel decodes an SPMD model file; errors carry the file name and line.
func ParseModel(file string, data []byte) (*Model, error) {
	doc, err := modelfile.Parse(file, data)
	if err != nil {
		return nil, err
	}
	return DecodeModel(doc)
}

// DecodeModel is ParseModel from a file modelfile.Parse has already read (a caller that
// looked at its top-level fields to tell an SPMD model from another kind decodes it once).
func DecodeModel(doc *modelfile.Doc) (*Model, error) {
	d, root := spec.Tree(doc)
	m := &Model{}
	head := []spec.Field{
		spec.Parsed("architecture", &m.Arch, ParseArchitecture).Required("missing field architecture (bus-sio, clu-sio, bus-aio, clu-aio, optimistic-aio, optimistic-sio)"),
		spec.Texts("caveats", &m.Caveats),
		spec.Key("phases"),
	}
	if root.Has("phases") {
		fields := append(head, spec.Text("name", &m.Name))
		for _, k := range phaseKeys {
			fields = append(fields, spec.Func(k, func(n spec.Node) { n.Errorf("with phases, give %s inside each phase", k) }))
		}
		top := root.Decode(fields...)
		for _, pn := range top["phases"].List() {
			m.Phases = append(m.Phases, decodePhase(pn))
		}
		if len(m.Phases) == 0 {
			top["phases"].Errorf("needs at least one phase")
		}
	} else {
		ph := decodePhase(root, head...)
		m.Name, ph.Name = ph.Name, ""
		m.Phases = []Phase{ph}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, &spec.Error{File: d.File, Msg: err.Error()}
	}
	return m, nil
}

// ParseSync reads h(c)'s name: exponential, uniform or deterministic (any case).
func ParseSync(s string) (SyncCost, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "exponential":
		return Exponential, nil
	case "uniform":
		return Uniform, nil
	case "deterministic":
		return Deterministic, nil
	}
	return Exponential, fmt.Errorf("unknown sync %q (allowed: exponential, uniform, deterministic)", s)
}

// The readers of an SPMD file's numbers (ranges of Validate, so that every model evaluates
// to finite numbers).
var (
	exponent = spec.Between(-MaxExponent, MaxExponent)
	nio      = spec.Between(1, MaxNIO)
	atP      = spec.Between(1, MaxP)
)

// decodePhase reads one phase (n): its parameters in exactly one of three forms (seconds,
// normalized, benchmark), and the fields every form shares, which override the form's; extra
// are the fields of a one-phase file's top level.
func decodePhase(n spec.Node, extra ...spec.Field) Phase {
	var form Phase
	bench := false
	h := Phase{C: 1} // the shared fields
	f := n.Decode(append([]spec.Field{
		spec.Func("seconds", func(s spec.Node) { form = decodeSeconds(s) }),
		spec.Func("normalized", func(s spec.Node) { form = decodeNormalized(s) }),
		spec.Func("benchmark", func(s spec.Node) { form, bench = decodeBenchmark(s), true }),
		spec.Text("name", &h.Name),
		spec.Float("cycles", &h.Cycles, cycles),
		spec.Int("c", &h.C, 1, 1<<20),
		spec.Float("w", &h.W, contention),
		spec.Parsed("sync", &h.Sync, ParseSync),
		spec.Float("r", &h.GExp, rExponent),
		spec.Float("g_exponent", &h.GExp, exponent),
		spec.Bool("no_comm_at_p1", &h.NoCommAtOne),
	}, extra...)...)
	const forms = "give the parameters in exactly one form: seconds, normalized or benchmark"
	n.OneOf(f, forms, forms, "seconds", "normalized", "benchmark")
	ph := form
	ph.Name, ph.Cycles, ph.C, ph.Sync, ph.NoCommAtOne = h.Name, h.Cycles, h.C, h.Sync, h.NoCommAtOne
	if _, w := f["w"]; w || !bench { // without w, the benchmark's r∞/r_sat
		ph.W = h.W
	}
	_, r := f["r"]
	_, ge := f["g_exponent"]
	switch {
	case r && ge:
		n.Errorf("give r or g_exponent, not both")
	case (r || ge) && bench:
		n.Errorf("with benchmark figures g(p) follows from the message laws; drop r/g_exponent")
	case r || ge:
		ph.GExp = h.GExp
	}
	return ph
}

// cycles reads N, the cycles of a phase, in (0, MaxCycles].
func cycles(n spec.Node) float64 {
	if v := n.Range(1e-9, MaxCycles); v > 0 {
		return v
	}
	return 1
}

// contention reads w in [0, 1].
func contention(n spec.Node) float64 {
	w := n.NonNeg()
	if w > 1 {
		n.Errorf("%v must be in [0, 1] (0 = delay, 1 = queue)", w)
	}
	return w
}

// rExponent reads the data-space dimension r (a number ≥ MinR, or inf) as g(p)'s exponent.
func rExponent(r spec.Node) float64 {
	if !r.IsScalar() {
		_ = r.String() // records the problem
		return 0
	}
	switch strings.ToLower(strings.TrimSpace(r.String())) {
	case "inf", ".inf", "infinity":
		return -1
	}
	v := r.Float()
	if v < MinR {
		r.Errorf("%v is out of range; allowed %g … inf (g(p) = p^-((r-1)/r); r < 1 makes the transfer grow with p, as the thesis's fitted QCRD cases do)", v, MinR)
		return 0
	}
	return GFromR(v)
}

// decodeSeconds reads the seconds form (Cremonesi & Gennaro (000) Table 1).
func decodeSeconds(s spec.Node) Phase {
	ph := Phase{NIO: 1}
	s.Decode(
		spec.Float("s_par", &ph.SPar, phaseTime), spec.Float("s_ser", &ph.SSer, phaseTime),
		spec.Float("n_io", &ph.NIO, nio),
		spec.Float("s0_com", &ph.S0Com, phaseTime), spec.Float("s0_com_exponent", &ph.S0Exp, exponent),
		spec.Float("sr_com", &ph.SRCom, phaseTime),
		spec.Float("s0_io", &ph.S0IO, phaseTime), spec.Float("sr_io", &ph.SRIO, phaseTime),
		spec.Float("reference_time", &ph.Ref, func(n spec.Node) float64 {
			v := phaseTime(n)
			if v == 0 {
				n.Errorf("must be > 0")
			}
			return v
		}),
	)
	if ph.work() == 0 { // every time 0: the model's time would be 0 (hostile review 8, P1-3)
		s.Errorf("no work at all: s_par, s_ser, s0_io and sr_io are all 0; at least one must be > 0")
	}
	return ph
}

// decodeNormalized reads the normalized form (Gennaro (001) Table 4.8).
func decodeNormalized(s spec.Node) Phase {
	var nz Normalized
	share := func(n spec.Node) float64 {
		v := n.NonNeg()
		checkTime(n, v)
		return v
	}
	g := s.Decode(
		spec.Float("sigma_p", &nz.SigmaP, share).Required("missing sigma_p (the computation share, 0 < σ_p ≤ 1)"),
		spec.Float("sigma_r0", &nz.SigmaR0, share), spec.Float("sigma_r", &nz.SigmaR, share),
		spec.Float("sigma_n", &nz.SigmaN, share), spec.Float("sigma_ser", &nz.SigmaSer, share),
	)
	p, err := nz.Phase()
	if sp, ok := g["sigma_p"]; ok && err != nil {
		sp.Errorf("%v", err)
	}
	return p
}

// decodeBenchmark reads the benchmark form (Cremonesi & Gennaro (000) §5.1.1) and derives
// its phase, whose times and exponents obey the ranges of the seconds form.
func decodeBenchmark(s spec.Node) Phase {
	b := Benchmark{BurstsPerIO: 1}
	g := s.Decode(
		spec.Float("cpu_rate", &b.CPURate, spec.NonNegative).Required("missing cpu_rate"),
		spec.Float("flop_parallel", &b.FlopPar, spec.NonNegative),
		spec.Float("flop_serial", &b.FlopSer, spec.NonNegative),
		spec.Float("bursts_per_io", &b.BurstsPerIO, nio),
		spec.Float("startup", &b.Startup, spec.Time),
		spec.Float("bandwidth", &b.Bandwidth, spec.Bandwidth).Required("missing bandwidth"),
		spec.Float("saturation_bandwidth", &b.SatBW, spec.Bandwidth),
		spec.Func("messages", func(n spec.Node) { b.Messages = parseLaw(n, "count") }).Required("missing messages"),
		spec.Func("message_bytes", func(n spec.Node) { b.MsgBytes = parseLaw(n, "bytes") }).Required("missing message_bytes"),
		spec.Float("disk_bandwidth", &b.DiskBW, spec.Bandwidth).Required("missing disk_bandwidth"),
		spec.Float("io_bytes", &b.IOBytes, spec.Size),
		spec.Float("io_startup", &b.IOStartup, spec.Time),
	)
	ph, err := b.Phase()
	if err == nil {
		if err := ph.checkRanges(); err != nil {
			s.Errorf("the benchmark figures give %v", err)
		}
		return ph
	}
	_, cpu := g["cpu_rate"]
	_, bw := g["bandwidth"]
	_, disk := g["disk_bandwidth"]
	if cpu && bw && disk {
		s.Errorf("%v", err)
	}
	return Phase{}
}

// parseLaw reads {count|bytes: V, at_p: P, exponent: E} or [{p: P1, count|bytes: V1}, {p: P2, …}].
func parseLaw(n spec.Node, key string) PowerLaw {
	if n.IsMap() {
		l := PowerLaw{AtP: 1}
		n.Decode(spec.Float(key, &l.V, lawValue(key)), spec.Float("at_p", &l.AtP, atP), spec.Float("exponent", &l.Exp, exponent))
		return l
	}
	items := n.List()
	if len(items) != 2 {
		n.Errorf("give two points [{p: …, %s: …}, {p: …, %s: …}] or {%s, at_p, exponent}", key, key, key)
		return PowerLaw{}
	}
	var ps, vs [2]float64
	for i, it := range items {
		it.Decode(spec.Float("p", &ps[i], atP), spec.Float(key, &vs[i], lawValue(key)))
	}
	l, err := PowerLawThrough(ps[0], vs[0], ps[1], vs[1])
	if err != nil {
		n.Errorf("%v", err)
	}
	if math.IsNaN(l.Exp) {
		return PowerLaw{}
	}
	return l
}

// lawValue reads a message count (a plain number) or a message size (bytes, with the units
// of internal/units) and checks that it is > 0 and at most 1e15.
func lawValue(key string) spec.Reader {
	return func(n spec.Node) float64 {
		var v float64
		if key == "bytes" {
			v = n.Bytes()
		} else {
			v = n.Float()
		}
		if n.IsScalar() && !(v > 0 && v <= 1e15) {
			n.Errorf("%v is out of range; allowed > 0 … 1e15", v)
			return 1
		}
		return v
	}
}

// phaseTime reads a time parameter (units allowed) in {0} ∪ [MinTime, MaxTime].
func phaseTime(n spec.Node) float64 {
	v := n.Seconds()
	checkTime(n, v)
	return v
}

// checkTime records an error when a time parameter v (already decoded) is outside
// {0} ∪ [MinTime, MaxTime].
func checkTime(n spec.Node, v float64) {
	if v != 0 && (v < MinTime || v > MaxTime) {
		n.Errorf("%v s is out of range; allowed 0 or %g … %g s (results must stay finite and above rounding)", v, MinTime, MaxTime)
	}
}
