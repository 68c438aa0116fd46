package fit

import (
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/spmd"
)

// FileFormat documents the fit model file (shown by `clusterperf help fit`).
const FileFormat = `A fit model file is YAML (or JSON): which SPMD model family to fit, and each parameter
fixed (a number) or free (start, with optional min and max bounds).

  name: QCRD stage 2 (000 §5.2)
  architecture: bus-aio     # bus-sio | clu-sio | bus-aio | clu-aio | optimistic-aio | optimistic-sio | auto
  c: 1                      # synchronisation level (fixed)
  sync: exponential         # exponential | uniform | deterministic
  reference_time: 1         # speedup data: s = T_ref/T(p,d); the times are then in units of T_ref
  no_comm_at_p1: true       # Cremonesi & Gennaro's (000) g(1) = 0: no communication on one processor (default false)
  starts: 20                # multi-start Levenberg–Marquardt (default 20)
  seed: 1
  bootstrap: 0              # residual-bootstrap replicates for percentile intervals (0: none)
  objective: relative       # relative: Σ((model − observed)/observed)²; absolute: the thesis's
                            #   ε = Σ[s(p,d) − s_pd]² (001 §6.2)
  parameters:               # Cremonesi & Gennaro (000) Table 1 in seconds (or T_ref units); unlisted ones are 0
    s_par:  {start: 0.5, min: 0, max: 2}      # parallel CPU time of a computation burst
    s_ser:  {start: 0.01, min: 0, max: 1}     # serial CPU time
    s0_com: {start: 0.01, min: 0, max: 1}     # communication startup
    sr_com: {start: 0.1, min: 0, max: 5}      # communication transfer (× g(p))
    s0_io:  {start: 0.001, min: 0, max: 1}    # I/O startup
    sr_io:  {start: 0.01, min: 0, max: 1}     # I/O transfer on one disk
    w:      {start: 0.5, min: 0, max: 1}      # contention level
    g_exponent: -1                            # g(p) = p^e (r = ∞: −1)
    # n_io (default 1) and s0_com_exponent (default 0) can be given too

Ranges (values, starts and bounds): times 0 … 1e9 (a fitted time below 1e-12 is taken as 0),
exponents −4 … 4, w 0 … 1, n_io 1 … 1e6; unbounded parameters get these as bounds.

The data file is CSV with a header: p, optionally d (default 1) and run (repetition id), and
either time (seconds) or speedup. Repeated runs of one (p, d) are all used.`

// paramRange is the allowed range of a fit parameter, its default bounds: the ranges of
// spmd (times 0 … spmd.MaxTime; exponents ±spmd.MaxExponent; n_io 1 … spmd.MaxNIO; w 0 … 1),
// so that every model the fit visits evaluates to finite numbers.
func paramRange(name string) (lo, hi float64) {
	switch name {
	case "g_exponent", "s0_com_exponent":
		return -spmd.MaxExponent, spmd.MaxExponent
	case "w":
		return 0, 1
	case "n_io":
		return 1, spmd.MaxNIO
	}
	return 0, spmd.MaxTime
}

// ParseSpec decodes a fit model file.
func ParseSpec(file string, data []byte) (Spec, error) {
	d, root, err := spec.Parse(file, data)
	if err != nil {
		return Spec{}, err
	}
	sp := Spec{Arch: "auto", C: 1, Reference: 1, Starts: 20, Seed: 1}
	f := root.Decode(
		spec.Text("name", &sp.Name),
		spec.Parsed("architecture", &sp.Arch, parseArch),
		spec.Int("c", &sp.C, 1, 1<<20),
		spec.Parsed("sync", &sp.Sync, spmd.ParseSync),
		spec.Bool("no_comm_at_p1", &sp.NoCommAtOne),
		spec.Enum("objective", &sp.Objective, Objectives()...),
		spec.Float("reference_time", &sp.Reference, spec.Between(spmd.MinTime, spmd.MaxTime)),
		spec.Int("starts", &sp.Starts, 1, 10000),
		spec.Func("seed", func(n spec.Node) { sp.Seed = uint64(n.Int(0, math.MaxInt32)) }),
		spec.Int("bootstrap", &sp.Bootstrap, 0, 100000),
		spec.Func("parameters", func(n spec.Node) { sp.Params = decodeParams(n) }).Required("missing parameters (each fixed, or {start, min, max})"),
	)
	if err := d.Err(); err != nil {
		return Spec{}, err
	}
	if len(sp.freeIdx()) == 0 {
		return Spec{}, &spec.Error{File: file, Line: f["parameters"].Line(), Msg: "no free parameter: give at least one as {start, min, max}"}
	}
	return sp, nil
}

// parseArch reads an spmd architecture name or auto (lower case).
func parseArch(s string) (string, error) {
	a := strings.ToLower(s)
	if a == "auto" {
		return a, nil
	}
	if _, err := spmd.ParseArchitecture(a); err != nil {
		return a, fmt.Errorf("%v (or auto)", err)
	}
	return a, nil
}

// decodeParams reads the parameters: each fixed (a number) or free ({start, min, max}),
// within paramRange, in the order of paramNames.
func decodeParams(ps spec.Node) []Param {
	out := make([]Param, 0, len(paramNames))
	fields := make([]spec.Field, len(paramNames))
	for i, name := range paramNames {
		fields[i] = spec.Func(name, func(n spec.Node) { out = append(out, decodeParam(name, n)) })
	}
	ps.Decode(fields...)
	return out
}

// decodeParam reads one parameter: a number (fixed) or {start, min, max} (free; the bounds
// default to the parameter's range and the start must lie within them).
func decodeParam(name string, n spec.Node) Param {
	lo, hi := paramRange(name)
	p := Param{Name: name, Min: lo, Max: hi}
	if !n.IsMap() {
		p.Value = n.Range(lo, hi)
		return p
	}
	p.Free = true
	n.Decode(
		spec.Float("start", &p.Value, spec.Number).Required("a free parameter needs start (and optional min, max)"),
		spec.Float("min", &p.Min, spec.Between(lo, hi)),
		spec.Float("max", &p.Max, spec.Between(lo, hi)),
	)
	if !(p.Min <= p.Value && p.Value <= p.Max) {
		n.Errorf("start %v must lie within [min, max] = [%v, %v]", p.Value, p.Min, p.Max)
	}
	return p
}

// Inference describes what limits the fitted program, in the words of 000 §5.2: the share
// of computation and I/O in the one-processor time, and the largest overhead at the largest
// measured configuration.
func Inference(r *SPMDResult, p, d int) string {
	ph := r.model.Phases[0]
	cpu := ph.NIO * (ph.SPar + ph.SSer)
	io := ph.S0IO + ph.SRIO
	com := ph.NIO * (ph.S0Com + ph.SRCom)
	kind := "CPU-intensive"
	if io > cpu {
		kind = "I/O-intensive"
	}
	e, err := spmd.NewEvaluator(r.model)
	if err != nil {
		return ""
	}
	pt, err := e.Evaluate(p, d)
	if err != nil {
		return ""
	}
	c := pt.Components
	over := map[string]float64{"synchronisation": c.Sync, "communication (startup + transfer + contention)": c.CommStartup + c.CommTransfer + c.Contention, "I/O": c.IO}
	worst, wv := "", -1.0
	for k, v := range over {
		if v > wv {
			worst, wv = k, v
		}
	}
	return fmt.Sprintf("%s: on one processor computation is %.3g and I/O %.3g (communication %.3g, in the same units); at p = %d, d = %d the largest overhead is %s, %.0f %% of the time (computation %.0f %%)",
		kind, cpu, io, com, p, d, worst, 100*wv/pt.Time, 100*c.CPU/pt.Time)
}
