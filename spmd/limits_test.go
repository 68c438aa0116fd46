package spmd

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/clusterperf/clusterperf/fault"
)

// clampNoise zeroes only values within 64 ulps of the total and refuses anything more
// negative: a real negative is never hidden.
func TestClampNoise(t *testing.T) {
	total := 36.2
	tol := noiseULPs * epsilon * total
	c := Components{CPU: 34.9, Sync: -5.26e-15, Contention: 2.98e-15, IO: 1} // btio p = 1 (issue 12)
	if err := c.clampNoise(total); err != nil || c.Sync != 0 || c.Contention != 0 || c.CPU != 34.9 {
		t.Errorf("noise not clamped: %+v %v", c, err)
	}
	for _, v := range []float64{-2 * tol, -1e-9, -1} {
		c := Components{CPU: total, Sync: v}
		if err := c.clampNoise(total); err == nil {
			t.Errorf("a real negative %v was hidden", v)
		}
	}
	// a real small positive component above the tolerance stays
	c = Components{CPU: total, Contention: 2 * tol}
	if err := c.clampNoise(total); err != nil || c.Contention != 2*tol {
		t.Errorf("a real value was clamped: %+v", c)
	}
}

// Over the shipped examples at d = 1 (one disk, as T_ref assumes) every component is ≥ 0
// and the efficiency s/p ≤ 1 + rounding: T(p, 1) ≥ T_ref/p because each term of T_ref is at
// most divided by p (000 eq. 1–3).
func TestExamplesNoNegativeComponents(t *testing.T) {
	files, _ := filepath.Glob("../examples/spmd/*.yaml")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := ParseModel(f, data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		e, _ := NewEvaluator(m)
		for _, p := range []int{1, 2, 3, 4, 8, 16, 64} {
			pt, err := e.Evaluate(p, 1)
			var ce *ConfigError
			if errors.As(err, &ce) {
				continue
			}
			if err != nil {
				t.Fatalf("%s p = %d: %v", f, p, err)
			}
			c := pt.Components
			for _, v := range []float64{c.CPU, c.Sync, c.CommStartup, c.CommTransfer, c.Contention, c.IO} {
				if v < 0 {
					t.Errorf("%s p = %d: negative component %v", f, p, v)
				}
			}
			if pt.Efficiency > 1+1e-12 {
				t.Errorf("%s p = %d: efficiency %v > 1", f, p, pt.Efficiency)
			}
		}
	}
}

// Tiny but valid parameters (every time at MinTime) give finite, non-negative results.
func TestTinyParameters(t *testing.T) {
	for _, a := range Architectures() {
		m := &Model{Arch: a, Phases: []Phase{{NIO: 1, SPar: MinTime, SSer: MinTime, S0Com: MinTime, SRCom: MinTime, S0IO: MinTime, SRIO: MinTime, W: 0.5, C: 1}}}
		e, err := NewEvaluator(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []int{1, 2, 16} {
			pt, err := e.Evaluate(p, 1)
			if err != nil {
				t.Fatalf("%v p = %d: %v", a, p, err)
			}
			if !(pt.Time > 0) || math.IsInf(pt.Time, 0) || pt.Efficiency > 1+1e-12 {
				t.Errorf("%v p = %d: %+v", a, p, pt)
			}
		}
	}
}

// Work budgets: refused before allocating, with the estimate and the option named.
func TestWorkBudget(t *testing.T) {
	m := &Model{Arch: BusSIO, Phases: []Phase{{NIO: 1, SPar: 1, SRCom: 1, SRIO: 1, C: 1}}}
	e, _ := NewEvaluator(m)
	e.MaxWork = 1e6
	_, err := e.Evaluate(2_000_000, 1)
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "MaxWork") {
		t.Errorf("Evaluate: %v", err)
	}
	ps := make([]int, 2000)
	for i := range ps {
		ps[i] = i + 1
	}
	// Σ_{p=1}^{2000} (p + 1) = 2 003 000 > 1e6
	_, _, err = e.Surface(ps, []int{1}, nil)
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "2e+06") {
		t.Errorf("Surface: %v", err)
	}
	_, err = e.Evaluate(MaxP+1, 1)
	if !errors.Is(err, fault.ErrInput) {
		t.Errorf("p > MaxP: %v", err)
	}
}

// Issue 21, one units rule: the btio benchmark block with unit suffixes gives the same model
// as with plain numbers (150us = 150e-6 s, 27MB/s = 27e6 B/s, 10MB = 10e6 B, 64kB = 64e3 B).
func TestBenchmarkUnits(t *testing.T) {
	plain := "architecture: bus-sio\nw: 0.23\nbenchmark: {cpu_rate: 120e6, flop_parallel: 828e6, flop_serial: 9.6e6, bursts_per_io: 5, startup: 150e-6, bandwidth: 27e6, disk_bandwidth: 10e6, io_bytes: 10e6, io_startup: 0, messages: [{p: 9, count: 18}, {p: 64, count: 48}], message_bytes: [{p: 9, bytes: 64e3}, {p: 64, bytes: 18e3}]}\n"
	units := "architecture: bus-sio\nw: 0.23\nbenchmark: {cpu_rate: 120e6, flop_parallel: 828e6, flop_serial: 9.6e6, bursts_per_io: 5, startup: 150us, bandwidth: 27MB/s, disk_bandwidth: 80Mb/s, io_bytes: 10MB, io_startup: 0ms, messages: [{p: 9, count: 18}, {p: 64, count: 48}], message_bytes: [{p: 9, bytes: 64kB}, {p: 64, bytes: 18kB}]}\n"
	a, err := ParseModel("plain.yaml", []byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseModel("units.yaml", []byte(units))
	if err != nil {
		t.Fatal(err)
	}
	pa, pb := a.Phases[0], b.Phases[0]
	for _, c := range [][2]float64{{pa.S0Com, pb.S0Com}, {pa.SRCom, pb.SRCom}, {pa.SRIO, pb.SRIO}, {pa.GExp, pb.GExp}, {pa.S0Exp, pb.S0Exp}} {
		if math.Abs(c[0]-c[1]) > 1e-12*math.Abs(c[0]) {
			t.Errorf("plain %+v\nunits %+v", pa, pb)
			break
		}
	}
}

// Conventions: 000 Table 4 (QCRD) gives s(1, 1) = 1/(0.71 + 0.049 + 0.41 + 0.001) = 0.855
// with g(1) = 1 and 1/(0.71 + 0.001) = 1.406 with g(1) = 0 (seeds README errata): both warn.
func TestConventionsQCRD(t *testing.T) {
	for _, c := range []struct {
		noComm bool
		s11    string
		conv   string
	}{{false, "s(1, 1) = 0.8547", "g(1) = 1"}, {true, "s(1, 1) = 1.406", "g(1) = 0"}} {
		m := &Model{Arch: BusAIO, Phases: []Phase{{NIO: 1, SPar: 0.71, S0Com: 0.049, SRCom: 0.41, SRIO: 0.001, W: 0.19, C: 1, GExp: -1, Ref: 1, NoCommAtOne: c.noComm}}}
		e, _ := NewEvaluator(m)
		notes, err := e.Conventions()
		all := strings.Join(notes, "\n")
		if err != nil || !strings.Contains(all, "warning: "+c.s11) || !strings.Contains(all, c.conv) {
			t.Errorf("no_comm_at_p1 %v: %q %v", c.noComm, all, err)
		}
	}
	// a normalised model without communication at p = 1 has s(1, 1) = 1 exactly: no warning
	m := &Model{Arch: BusSIO, Phases: []Phase{{NIO: 1, SPar: 0.8, SRIO: 0.2, C: 1, Ref: 1}}}
	e, _ := NewEvaluator(m)
	if notes, _ := e.Conventions(); strings.Contains(strings.Join(notes, ""), "warning") {
		t.Errorf("warned: %q", notes)
	}
}

// TestSurfaceAllocatesOnce: Surface allocates its []Point once, at len(ps)·len(ds) (4
// million points: 480 MB), not by appending (copies of the growing slice: the CLI's
// 2000 × 2000 table reached 1.95 GB resident, 0.99 GB with one allocation). Bound: the
// bytes the same evaluations allocate alone, plus the points' own bytes and 10 %.
func TestSurfaceAllocatesOnce(t *testing.T) {
	data, err := os.ReadFile("../examples/spmd/hybrid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseModel("hybrid.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	ps, ds := []int{1, 2}, make([]int, 20000)
	for i := range ds {
		ds[i] = i + 1
	}
	allocated := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	evals := allocated(func() {
		for _, p := range ps {
			for _, d := range ds {
				if _, err := e.Evaluate(p, d); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
	var n int
	surf := allocated(func() {
		pts, _, err := e.Surface(ps, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		n = len(pts)
	})
	pointsBytes := uint64(n) * uint64(unsafe.Sizeof(Point{}))
	if surf > evals+pointsBytes+pointsBytes/10 {
		t.Errorf("Surface of %d points allocated %d bytes; the evaluations alone %d and the points %d: the slice is copied as it grows", n, surf, evals, pointsBytes)
	}
}
