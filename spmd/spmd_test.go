package spmd

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

func rel(a, b float64) float64 { return math.Abs(a-b) / math.Max(math.Abs(b), 1e-300) }

func sigmaModel(arch Architecture, sp, r0, r, n, w float64, c int, gexp float64) *Model {
	ph, _ := Normalized{SigmaP: sp, SigmaR0: r0, SigmaR: r, SigmaN: n}.Phase()
	ph.W, ph.C, ph.GExp = w, c, gexp
	return &Model{Arch: arch, Phases: []Phase{ph}}
}

func eval(t *testing.T, m *Model, p, d int) Point {
	t.Helper()
	e, err := NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	pt, err := e.Evaluate(p, d)
	if err != nil {
		t.Fatal(err)
	}
	if rel(pt.Components.Total(), pt.Time) > 1e-12 {
		t.Fatalf("components %+v do not add up to %g", pt.Components, pt.Time)
	}
	return pt
}

// TestOptimistic: 001 eqs. (5.1) and (5.3) in closed form.
func TestOptimistic(t *testing.T) {
	sp := 0.625
	aio := sigmaModel(OptimisticAIO, sp, 0, 0, 0, 0, 1, 0)
	sio := sigmaModel(OptimisticSIO, sp, 0, 0, 0, 0, 1, 0)
	for _, pd := range [][2]int{{1, 1}, {4, 2}, {16, 8}, {64, 64}} {
		p, d := float64(pd[0]), float64(pd[1])
		if got, want := eval(t, aio, pd[0], pd[1]).Speedup, 1/(sp/p+(1-sp)/(d*p)); rel(got, want) > 1e-12 {
			t.Errorf("AIO s(%v,%v) = %g, eq. (5.1) %g", p, d, got, want)
		}
		h := 0.0
		for i := 1; i <= pd[0]; i++ {
			h += 1 / float64(i)
		}
		if got, want := eval(t, sio, pd[0], pd[1]).Speedup, 1/(h*sp/p+(1-sp)/d); rel(got, want) > 1e-12 {
			t.Errorf("SIO s(%v,%v) = %g, eq. (5.3) %g", p, d, got, want)
		}
	}
}

// TestNonRecursiveMatchesMVA: 001 appendix A against qn's exact MVA for small populations.
func TestNonRecursiveMatchesMVA(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 20; i++ {
		k := 1 + i%3
		n := 1 + rng.IntN(9)
		S := make([]float64, k)
		m := &qn.Model{Classes: []qn.Class{{Name: "c", Population: n}}, Demand: [][]float64{nil}}
		for j := range S {
			S[j] = 0.1 + rng.Float64()
			m.Stations = append(m.Stations, qn.Station{Name: "q", Kind: qn.Queue})
			m.Demand[0] = append(m.Demand[0], S[j])
		}
		Z := rng.Float64() * 2
		m.Stations = append(m.Stations, qn.Station{Name: "z", Kind: qn.Delay})
		m.Demand[0] = append(m.Demand[0], Z)
		r, err := qn.MVASingle(context.Background(), m)
		if err != nil {
			t.Fatal(err)
		}
		got := NonRecursiveR(n, S, Z)
		for j := range S {
			if rel(got[j], r.Residence[j][0]) > 1e-10 {
				t.Errorf("n=%d k=%d: appendix A R_%d = %g, MVA %g", n, k, j, got[j], r.Residence[j][0])
			}
		}
	}
}

// TestBusAIOAgainstDirectQN: the BUS-AIO cycle time equals a direct qn solve of
// {delay Z, queue D, queue E} with p/c jobs (001 eqs. 5.4, 5.5, 5.11), and the
// non-recursive formula (001 eqs. 5.12–5.13) for small p.
func TestBusAIOAgainstDirectQN(t *testing.T) {
	m := sigmaModel(BusAIO, 0.8, 0.001, 0.05, 0.002, 0.4, 2, -0.5)
	for _, pd := range [][2]int{{2, 1}, {4, 2}, {8, 3}, {12, 4}} {
		p, d := pd[0], pd[1]
		pt := eval(t, m, p, d)
		ph := m.Phases[0]
		g := math.Pow(float64(p), -0.5)
		Z := ph.Sync.H(2)*0.8/float64(p) + 0.001 + 0.6*0.05*g
		D := 0.4 * 0.05 * g
		E := 2 * (0.002 + 0.2/float64(d*p))
		nr := NonRecursiveR(p/2, []float64{D, E}, Z)
		if want := Z + nr[0] + nr[1]; rel(pt.Time, want) > 1e-10 {
			t.Errorf("p=%d d=%d: τ = %.12g, eqs. (5.12)+(5.13) %.12g", p, d, pt.Time, want)
		}
		qm := &qn.Model{Classes: []qn.Class{{Name: "g", Population: p / 2}},
			Stations: []qn.Station{{Name: "z", Kind: qn.Delay}, {Name: "net", Kind: qn.Queue}, {Name: "io", Kind: qn.Queue}},
			Demand:   [][]float64{{Z, D, E}}}
		qr, err := qn.MVASingle(context.Background(), qm)
		if err != nil {
			t.Fatal(err)
		}
		if rel(pt.Time, qr.ResponseTime[0]) > 1e-12 {
			t.Errorf("p=%d d=%d: τ = %.15g, qn.MVASingle %.15g", p, d, pt.Time, qr.ResponseTime[0])
		}
	}
}

// TestSIOSpecialCases: with one group (c = p) the fork/join sum is R(1) = z + x exactly;
// with w = 0 it is h(p/c)·z.
func TestSIOSpecialCases(t *testing.T) {
	m := sigmaModel(BusSIO, 0.7, 0.002, 0.03, 0.01, 0.5, 8, 0)
	pt := eval(t, m, 8, 2)
	z := (1+1.0/2+1.0/3+1.0/4+1.0/5+1.0/6+1.0/7+1.0/8)*0.7/8 + 0.002 + 0.5*0.03
	if want := z + 0.5*0.03 + 0.01 + 0.3/2; rel(pt.Time, want) > 1e-12 {
		t.Errorf("c = p: %g want %g", pt.Time, want)
	}
	m = sigmaModel(BusSIO, 0.7, 0.002, 0.03, 0.01, 0, 1, 0)
	pt = eval(t, m, 6, 3)
	h6 := 1 + 1.0/2 + 1.0/3 + 1.0/4 + 1.0/5 + 1.0/6
	if want := h6*(0.7/6+0.002+0.03) + 0.01 + 0.3/3; rel(pt.Time, want) > 1e-12 {
		t.Errorf("w = 0: %g want %g", pt.Time, want)
	}
}

// TestContentionBounds: w = 0 and w = 1 are the optimistic and pessimistic models (000
// §3.1): time is non-decreasing in w, for every architecture.
func TestContentionBounds(t *testing.T) {
	for _, arch := range []Architecture{BusSIO, CluSIO, BusAIO, CluAIO} {
		for _, pd := range [][2]int{{4, 2}, {8, 4}, {16, 4}, {32, 2}} {
			prev := 0.0
			for _, w := range []float64{0, 0.25, 0.5, 0.75, 1} {
				t1 := eval(t, sigmaModel(arch, 0.8, 0.001, 0.02, 0.001, w, 1, 0), pd[0], pd[1]).Time
				if t1 < prev*(1-1e-12) {
					t.Errorf("%v p=%d d=%d: T(w=%g) = %g < T at smaller w %g", arch, pd[0], pd[1], w, t1, prev)
				}
				prev = t1
			}
		}
	}
}

// TestSyncCosts: h(c) exponential ≥ uniform ≥ deterministic = 1 (000 §3.5), and so are the times.
func TestSyncCosts(t *testing.T) {
	for c := 1; c <= 64; c *= 2 {
		he, hu, hd := Exponential.H(c), Uniform.H(c), Deterministic.H(c)
		if !(he >= hu-1e-15 && hu >= hd-1e-15 && hd == 1) {
			t.Errorf("c=%d: h = %g, %g, %g", c, he, hu, hd)
		}
	}
	if rel(Exponential.H(4), 1+0.5+1.0/3+0.25) > 1e-15 || Uniform.H(3) != 1.5 {
		t.Error("h(c) formulas")
	}
	var prev float64 = math.Inf(1)
	for _, s := range []SyncCost{Exponential, Uniform, Deterministic} {
		m := sigmaModel(BusAIO, 0.8, 0.001, 0.02, 0.001, 0.3, 4, 0)
		m.Phases[0].Sync = s
		tm := eval(t, m, 16, 2).Time
		if tm > prev {
			t.Errorf("%v: %g > %g", s, tm, prev)
		}
		prev = tm
	}
}

// TestAsymptotes: 001 §5.2.1, §5.3.1, §5.5.1.
func TestAsymptotes(t *testing.T) {
	// BUS-SIO with w = 0, r > 1 (here r = ∞), no startup: τ_comp → 0, s → 1/τ_IO = 1/(σ_n + σ_d/d).
	m := sigmaModel(BusSIO, 0.8, 0, 0.01, 0.01, 0, 1, -1)
	e, _ := NewEvaluator(m)
	l, err := e.LimitP(4, 1<<22)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 / (0.01 + 0.2/4); rel(l.Speedup, want) > 0.02 {
		t.Errorf("BUS-SIO s(∞, 4) = %g (%+v), 001: 1/τ_IO = %g", l.Speedup, l, want)
	}
	// With a startup the speedup vanishes.
	m = sigmaModel(BusSIO, 0.8, 0.001, 0.01, 0.01, 0, 1, -1)
	e, _ = NewEvaluator(m)
	if l, _ = e.LimitP(4, 1<<20); l.Speedup != 0 {
		t.Errorf("BUS-SIO with σ_r0 > 0: s(∞) = %g, want 0 (%s)", l.Speedup, l.Note)
	}
	// d → ∞: s = 1/(τ_comp + σ_n).
	e, _ = NewEvaluator(sigmaModel(BusSIO, 0.8, 0.001, 0.01, 0.01, 0.3, 1, 0))
	ld, _ := e.LimitD(16)
	pt, _ := e.Evaluate(16, 1)
	tauComp := pt.Time - (0.01 + 0.2)
	if want := 1 / (tauComp + 0.01); rel(ld.Speedup, want) > 1e-6 {
		t.Errorf("s(16, ∞) = %g want %g", ld.Speedup, want)
	}
	// BUS-AIO: σ_n > 0 makes the I/O queue's demand c·σ_n constant while p/c jobs grow: s → 0.
	e, _ = NewEvaluator(sigmaModel(BusAIO, 0.8, 0.001, 0.01, 0.01, 0.2, 1, 0))
	if l, _ = e.LimitP(4, 1<<20); l.Speedup != 0 {
		t.Errorf("BUS-AIO s(∞) = %g, want 0", l.Speedup)
	}
	// CLU-AIO with w = 0: s → d/σ_d.
	e, _ = NewEvaluator(sigmaModel(CluAIO, 0.8, 0, 0, 0, 0, 1, 0))
	if l, _ = e.LimitP(2, 1<<11); rel(l.Speedup, 2/0.2) > 0.02 {
		t.Errorf("CLU-AIO w=0 s(∞, 2) = %g, 001: d/σ_d = %g", l.Speedup, 2/0.2)
	}
}

// TestConfigErrors: invalid (p, d) say what is valid.
func TestConfigErrors(t *testing.T) {
	m := sigmaModel(CluAIO, 0.8, 0, 0.01, 0, 0.2, 2, 0)
	for _, tc := range []struct {
		p, d int
		want string
	}{{3, 1, "c = 2 must divide p"}, {6, 2, "multiple of d = 2 (valid p: multiples of c·d = 4)"}, {2, 4, "p must be ≥ d"}} {
		err := m.CheckConfig(tc.p, tc.d)
		var ce *ConfigError
		if !errors.As(err, &ce) || !contains(err.Error(), tc.want) {
			t.Errorf("p=%d d=%d: %v, want %q", tc.p, tc.d, err, tc.want)
		}
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// TestCLUAIOLarge: CLU-AIO is solved exactly by convolution at sizes exact multi-class MVA
// never reached ((p/(cd) + 1)^d lattice points: 17^64 at p = 1024, d = 64), and agrees with
// Linearizer, the approximation used there before, to its known accuracy: 1 % (its worst
// error against exact MVA was 0.69 % over 18 configurations, measured by the test this one
// replaced).
func TestCLUAIOLarge(t *testing.T) {
	m := sigmaModel(CluAIO, 0.8, 0.001, 0.05, 0, 0.5, 1, 0)
	pt := eval(t, m, 1024, 64)
	if pt.Solver != "convolution" || !(pt.Speedup > 0) || math.IsInf(pt.Speedup, 0) {
		t.Fatalf("p=1024 d=64: solver %q speedup %v", pt.Solver, pt.Speedup)
	}
	for _, dn := range [][2]int{{8, 8}, {16, 4}, {6, 12}} {
		d, n := dn[0], dn[1]
		lin, err := qn.Linearizer(cluNet(d, n, 0.3, 0.02, 1), qn.AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rd, rn, X := cluAIOSymmetric(d, n, 0.3, 0.02, 1)
		if rel(X, lin.Throughput[0]) > 0.01 || rel(rd, lin.Residence[0][0]) > 0.01 || rel(rn, lin.Residence[d][0]) > 0.01 {
			t.Errorf("d=%d n=%d: convolution X %v R %v %v, Linearizer X %v R %v %v", d, n, X, rd, rn,
				lin.Throughput[0], lin.Residence[0][0], lin.Residence[d][0])
		}
	}
}

func TestMultiPhaseAdds(t *testing.T) {
	a := sigmaModel(BusAIO, 0.8, 0.001, 0.02, 0.001, 0.3, 1, 0)
	b := sigmaModel(BusAIO, 0.5, 0.002, 0.01, 0.002, 0.1, 2, -1)
	a.Phases[0].Cycles, b.Phases[0].Cycles = 3, 5
	both := &Model{Arch: BusAIO, Phases: []Phase{a.Phases[0], b.Phases[0]}}
	ta, tb, tab := eval(t, a, 8, 2).Time, eval(t, b, 8, 2).Time, eval(t, both, 8, 2)
	if rel(tab.Time, ta+tb) > 1e-12 || rel(tab.Speedup, (3+5)/(ta+tb)) > 1e-12 {
		t.Errorf("phases: %g vs %g + %g; speedup %g", tab.Time, ta, tb, tab.Speedup)
	}
}

func benchSurface(b *testing.B, arch Architecture) {
	m := sigmaModel(arch, 0.8, 0.001, 0.01, 0.001, 0.2, 1, 0)
	ps := make([]int, 512)
	ds := make([]int, 64)
	for i := range ps {
		ps[i] = i + 1
	}
	for i := range ds {
		ds[i] = i + 1
	}
	for b.Loop() {
		e, _ := NewEvaluator(m)
		pts, _, err := e.Surface(ps, ds, nil)
		if err != nil || len(pts) != 512*64 {
			b.Fatal(err, len(pts))
		}
	}
}

// BenchmarkSurfaceBusAIO and BenchmarkSurfaceBusSIO: the 512 × 64 (p, d) surfaces of issue 3.
func BenchmarkSurfaceBusAIO(b *testing.B) { benchSurface(b, BusAIO) }
func BenchmarkSurfaceBusSIO(b *testing.B) { benchSurface(b, BusSIO) }

// BenchmarkSurfaceCluAIO: the CLU-AIO surface over p = 1…512, d = 1…64 (the points where
// p is a multiple of d; the others are skipped as invalid), every point exact.
// BenchmarkSurfaceCluAIOMid: p = 1…256 × d = 1…16, as `clusterperf speedup clu.yaml --p 1:256
// --d 1:16` — 0.25–0.27 s/op, 7.6 MB/op; the multi-class MVA + Linearizer version it
// replaced took 0.96 s/op, 128 MB/op (this benchmark run on commit f3e1aef, session 1 note).
func BenchmarkSurfaceCluAIO(b *testing.B)    { benchCluSurface(b, 512, 64) }
func BenchmarkSurfaceCluAIOMid(b *testing.B) { benchCluSurface(b, 256, 16) }

func benchCluSurface(b *testing.B, maxP, maxD int) {
	m := sigmaModel(CluAIO, 0.8, 0.001, 0.01, 0.001, 0.2, 1, 0)
	var ps, ds []int
	for p := 1; p <= maxP; p++ {
		ps = append(ps, p)
	}
	for d := 1; d <= maxD; d++ {
		ds = append(ds, d)
	}
	b.ReportAllocs()
	for b.Loop() {
		e, _ := NewEvaluator(m)
		pts, _, err := e.Surface(ps, ds, nil)
		if err != nil || len(pts) == 0 {
			b.Fatal(err, len(pts))
		}
	}
}
