package spmd

import (
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/internal/spec"
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

var phaseFields = []string{"name", "cycles", "c", "w", "sync", "r", "g_exponent", "no_comm_at_p1", "seconds", "normalized", "benchmark"}

// ParseModel decodes an SPMD model file; errors carry the file name and line.
func ParseModel(file string, data []byte) (*Model, error) {
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return nil, err
	}
	return DecodeModel(d, root)
}

// DecodeModel is ParseModel from a file spec.Parse has already read (a caller that looked at
// its top-level fields to tell an SPMD model from another kind decodes it once).
func DecodeModel(d *spec.Decoder, root spec.Node) (*Model, error) {
	file := d.File
	top := root.Map(append([]string{"architecture", "phases", "caveats"}, phaseFields...)...)
	m := &Model{Name: top["name"].String()}
	for _, c := range top["caveats"].List() {
		m.Caveats = append(m.Caveats, c.String())
	}
	if a := top["architecture"]; a.Valid() {
		arch, err := ParseArchitecture(a.String())
		if err != nil {
			a.Errorf("%v", err)
		}
		m.Arch = arch
	} else {
		root.Errorf("missing field architecture (bus-sio, clu-sio, bus-aio, clu-aio, optimistic-aio, optimistic-sio)")
	}
	if ps := top["phases"]; ps.Valid() {
		for _, k := range phaseFields {
			if k != "name" && top[k].Valid() {
				top[k].Errorf("with phases, give %s inside each phase", k)
			}
		}
		for _, pn := range ps.List() {
			m.Phases = append(m.Phases, parsePhase(pn, pn.Map(phaseFields...)))
		}
		if len(m.Phases) == 0 {
			ps.Errorf("needs at least one phase")
		}
	} else {
		ph := parsePhase(root, top)
		ph.Name = ""
		m.Phases = []Phase{ph}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, &spec.Error{File: file, Msg: err.Error()}
	}
	return m, nil
}

func parsePhase(n spec.Node, f map[string]spec.Node) Phase {
	var ph Phase
	forms := 0
	for _, k := range []string{"seconds", "normalized", "benchmark"} {
		if f[k].Valid() {
			forms++
		}
	}
	if forms != 1 {
		n.Errorf("give the parameters in exactly one form: seconds, normalized or benchmark")
	}
	var fromBench bool
	if s := f["seconds"]; s.Valid() {
		g := s.Map("s_par", "s_ser", "n_io", "s0_com", "s0_com_exponent", "sr_com", "s0_io", "sr_io", "reference_time")
		vals := map[string]float64{}
		for k, v := range g {
			if k != "n_io" && k != "s0_com_exponent" {
				vals[k] = v.Seconds()
				checkTime(v, vals[k])
			}
		}
		num := func(k string) float64 { return vals[k] }
		ph = Phase{SPar: num("s_par"), SSer: num("s_ser"), NIO: 1, S0Com: num("s0_com"), SRCom: num("sr_com"), S0IO: num("s0_io"), SRIO: num("sr_io")}
		if v, ok := g["n_io"]; ok {
			ph.NIO = v.Range(1, MaxNIO)
		}
		if v, ok := g["s0_com_exponent"]; ok {
			ph.S0Exp = v.Range(-MaxExponent, MaxExponent)
		}
		if v, ok := g["reference_time"]; ok {
			if ph.Ref = vals["reference_time"]; ph.Ref == 0 {
				v.Errorf("must be > 0")
			}
		}
	}
	if s := f["normalized"]; s.Valid() {
		g := s.Map("sigma_p", "sigma_r0", "sigma_r", "sigma_n", "sigma_ser")
		vals := map[string]float64{}
		for k, v := range g {
			vals[k] = v.NonNeg()
			checkTime(v, vals[k])
		}
		num := func(k string) float64 { return vals[k] }
		if !g["sigma_p"].Valid() {
			s.Errorf("missing sigma_p (the computation share, 0 < σ_p ≤ 1)")
		}
		p, err := Normalized{SigmaP: num("sigma_p"), SigmaR0: num("sigma_r0"), SigmaR: num("sigma_r"), SigmaN: num("sigma_n"), SigmaSer: num("sigma_ser")}.Phase()
		if err != nil && g["sigma_p"].Valid() {
			g["sigma_p"].Errorf("%v", err)
		}
		ph = p
	}
	if s := f["benchmark"]; s.Valid() {
		fromBench = true
		g := s.Map("cpu_rate", "flop_parallel", "flop_serial", "bursts_per_io", "startup", "bandwidth", "saturation_bandwidth", "messages", "message_bytes", "disk_bandwidth", "io_bytes", "io_startup")
		num := func(k string) float64 {
			if v, ok := g[k]; ok {
				return v.NonNeg()
			}
			return 0
		}
		for _, k := range []string{"cpu_rate", "bandwidth", "disk_bandwidth", "messages", "message_bytes"} {
			if !g[k].Valid() {
				s.Errorf("missing %s", k)
			}
		}
		rate := func(k string) float64 {
			if v, ok := g[k]; ok {
				return v.BytesPerSecond()
			}
			return 0
		}
		sec := func(k string) float64 {
			if v, ok := g[k]; ok {
				return v.Seconds()
			}
			return 0
		}
		b := Benchmark{CPURate: num("cpu_rate"), FlopPar: num("flop_parallel"), FlopSer: num("flop_serial"), BurstsPerIO: 1,
			Startup: sec("startup"), Bandwidth: rate("bandwidth"), SatBW: rate("saturation_bandwidth"), DiskBW: rate("disk_bandwidth"),
			IOStartup: sec("io_startup")}
		if v, ok := g["bursts_per_io"]; ok {
			b.BurstsPerIO = v.Range(1, MaxNIO)
		}
		if v, ok := g["io_bytes"]; ok {
			b.IOBytes = v.Bytes()
		}
		b.Messages = parseLaw(g["messages"], "count")
		b.MsgBytes = parseLaw(g["message_bytes"], "bytes")
		if p, err := b.Phase(); err == nil {
			ph = p
			// the derived times and exponents obey the same ranges as the seconds form
			if err := ph.checkRanges(); err != nil {
				s.Errorf("the benchmark figures give %v", err)
			}
		} else if g["cpu_rate"].Valid() && g["bandwidth"].Valid() && g["disk_bandwidth"].Valid() {
			s.Errorf("%v", err)
		}
	}
	ph.Name = f["name"].String()
	if v, ok := f["cycles"]; ok {
		ph.Cycles = v.Range(1e-9, MaxCycles)
		if ph.Cycles <= 0 {
			ph.Cycles = 1
		}
	}
	ph.C = 1
	if v, ok := f["c"]; ok {
		ph.C = v.Int(1, 1<<20)
	}
	if v, ok := f["w"]; ok {
		ph.W = v.NonNeg()
		if ph.W > 1 {
			v.Errorf("%v must be in [0, 1] (0 = delay, 1 = queue)", ph.W)
		}
	} else if !fromBench {
		ph.W = 0
	}
	if v, ok := f["no_comm_at_p1"]; ok {
		ph.NoCommAtOne = v.Bool()
	}
	if v, ok := f["sync"]; ok {
		switch strings.ToLower(v.String()) {
		case "exponential":
			ph.Sync = Exponential
		case "uniform":
			ph.Sync = Uniform
		case "deterministic":
			ph.Sync = Deterministic
		default:
			v.Errorf("unknown sync %q (allowed: exponential, uniform, deterministic)", v.String())
		}
	}
	r, ge := f["r"], f["g_exponent"]
	switch {
	case r.Valid() && ge.Valid():
		n.Errorf("give r or g_exponent, not both")
	case (r.Valid() || ge.Valid()) && fromBench:
		n.Errorf("with benchmark figures g(p) follows from the message laws; drop r/g_exponent")
	case r.Valid():
		s := strings.ToLower(strings.TrimSpace(r.String()))
		if s == "inf" || s == ".inf" || s == "infinity" {
			ph.GExp = -1
		} else if v := r.Float(); v < MinR {
			r.Errorf("%v is out of range; allowed %g … inf (g(p) = p^-((r-1)/r); r < 1 makes the transfer grow with p, as the thesis's fitted QCRD cases do)", v, MinR)
		} else {
			ph.GExp = GFromR(v)
		}
	case ge.Valid():
		ph.GExp = ge.Range(-MaxExponent, MaxExponent)
	}
	return ph
}

// parseLaw reads {count|bytes: V, at_p: P, exponent: E} or [{p: P1, count|bytes: V1}, {p: P2, …}].
func parseLaw(n spec.Node, key string) PowerLaw {
	if !n.Valid() {
		return PowerLaw{}
	}
	if n.IsMap() {
		f := n.Map(key, "at_p", "exponent")
		l := PowerLaw{V: lawValue(f[key], key), AtP: 1}
		if v, ok := f["at_p"]; ok {
			l.AtP = v.Range(1, MaxP)
		}
		if v, ok := f["exponent"]; ok {
			l.Exp = v.Range(-MaxExponent, MaxExponent)
		}
		return l
	}
	items := n.List()
	if len(items) != 2 {
		n.Errorf("give two points [{p: …, %s: …}, {p: …, %s: …}] or {%s, at_p, exponent}", key, key, key)
		return PowerLaw{}
	}
	var ps, vs [2]float64
	for i, it := range items {
		f := it.Map("p", key)
		ps[i], vs[i] = f["p"].Range(1, MaxP), lawValue(f[key], key)
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
func lawValue(n spec.Node, key string) float64 {
	var v float64
	if key == "bytes" {
		v = n.Bytes()
	} else {
		v = n.Float()
	}
	if n.Valid() && n.IsScalar() && !(v > 0 && v <= 1e15) {
		n.Errorf("%v is out of range; allowed > 0 … 1e15", v)
		return 1
	}
	return v
}

// checkTime records an error when a time parameter v (already decoded) is outside
// {0} ∪ [MinTime, MaxTime].
func checkTime(n spec.Node, v float64) {
	if v != 0 && (v < MinTime || v > MaxTime) {
		n.Errorf("%v s is out of range; allowed 0 or %g … %g s (results must stay finite and above rounding)", v, MinTime, MaxTime)
	}
}
