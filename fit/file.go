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
	f := root.Map("name", "architecture", "c", "sync", "reference_time", "starts", "seed", "bootstrap", "parameters", "no_comm_at_p1", "objective")
	sp := Spec{Name: f["name"].String(), Arch: "auto", C: 1, Reference: 1, Starts: 20, Seed: 1}
	if a := f["architecture"]; a.Valid() {
		sp.Arch = strings.ToLower(a.String())
		if sp.Arch != "auto" {
			if _, err := spmd.ParseArchitecture(sp.Arch); err != nil {
				a.Errorf("%v (or auto)", err)
			}
		}
	}
	if v, ok := f["c"]; ok {
		sp.C = v.Int(1, 1<<20)
	}
	if v, ok := f["sync"]; ok {
		switch v.String() {
		case "exponential":
		case "uniform":
			sp.Sync = spmd.Uniform
		case "deterministic":
			sp.Sync = spmd.Deterministic
		default:
			v.Errorf("unknown sync %q (allowed: exponential, uniform, deterministic)", v.String())
		}
	}
	if v, ok := f["no_comm_at_p1"]; ok {
		sp.NoCommAtOne = v.Bool()
	}
	if v, ok := f["objective"]; ok {
		switch o := v.String(); o {
		case "relative", "absolute":
			sp.Objective = o
		default:
			v.Errorf("unknown objective %q (allowed: relative, absolute)", o)
		}
	}
	if v, ok := f["reference_time"]; ok {
		sp.Reference = v.Range(spmd.MinTime, spmd.MaxTime)
	}
	if v, ok := f["starts"]; ok {
		sp.Starts = v.Int(1, 10000)
	}
	if v, ok := f["seed"]; ok {
		sp.Seed = uint64(v.Int(0, math.MaxInt32))
	}
	if v, ok := f["bootstrap"]; ok {
		sp.Bootstrap = v.Int(0, 100000)
	}
	ps := f["parameters"]
	if !ps.Valid() {
		root.Errorf("missing parameters (each fixed, or {start, min, max})")
	}
	given := ps.Map(paramNames...)
	for _, name := range paramNames {
		n, ok := given[name]
		if !ok {
			continue
		}
		lo, hi := paramRange(name)
		p := Param{Name: name, Min: lo, Max: hi}
		if n.IsMap() {
			g := n.Map("start", "min", "max")
			p.Free = true
			if !g["start"].Valid() {
				n.Errorf("a free parameter needs start (and optional min, max)")
			}
			p.Value = g["start"].Float()
			if v, ok := g["min"]; ok {
				p.Min = v.Range(lo, hi)
			}
			if v, ok := g["max"]; ok {
				p.Max = v.Range(lo, hi)
			}
			if !(p.Min <= p.Value && p.Value <= p.Max) {
				n.Errorf("start %v must lie within [min, max] = [%v, %v]", p.Value, p.Min, p.Max)
			}
		} else {
			p.Value = n.Range(lo, hi)
		}
		sp.Params = append(sp.Params, p)
	}
	if err := d.Err(); err != nil {
		return Spec{}, err
	}
	if len(sp.freeIdx()) == 0 {
		return Spec{}, &spec.Error{File: file, Line: ps.Line(), Msg: "no free parameter: give at least one as {start, min, max}"}
	}
	return sp, nil
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
