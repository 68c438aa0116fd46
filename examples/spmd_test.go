package examples

import (
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/spmd"
)

func loadSPMD(t *testing.T, name string) *spmd.Evaluator {
	t.Helper()
	data, err := FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spmd.ParseModel(name, data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func at(t *testing.T, e *spmd.Evaluator, p, d int) spmd.Point {
	t.Helper()
	pt, err := e.Evaluate(p, d)
	if err != nil {
		t.Fatal(err)
	}
	return pt
}

// TestBTIO: 000 Table 3 model estimates, recomputed from the text's rounded inputs (seeds
// README errata: ≈ 12.9 s at p = 9 and ≈ 6.2 s at p = 64, against the printed 13.1 and 6.2;
// an independent recomputation in Python gave 12.954 and 6.203). Measured: 11.5 and 6.0 s;
// the model over-estimates at p = 9 as 000 says (exponential CPU bursts are pessimistic).
func TestBTIO(t *testing.T) {
	e := loadSPMD(t, "spmd/btio.yaml")
	for _, tc := range []struct {
		p        int
		want     float64
		measured float64
	}{{9, 12.954, 11.5}, {64, 6.203, 6.0}} {
		pt := at(t, e, tc.p, 3)
		if math.Abs(pt.Time-tc.want) > 0.005 {
			t.Errorf("p=%d: %.4g s, recomputation %.4g s", tc.p, pt.Time, tc.want)
		}
		if pt.Time < tc.measured {
			t.Errorf("p=%d: %.4g s below the measured %.4g s; 000 reports an over-estimate", tc.p, pt.Time, tc.measured)
		}
	}
}

// TestFig59: 001 Fig. 5.9 (d = 4). CLU-AIO overtakes BUS-AIO between p = 20 and p = 24; the
// caption's upper crossover at p = 52 does not reproduce — CLU-AIO stays ahead to p = 64
// (seeds README errata).
func TestFig59(t *testing.T) {
	bus, clu := loadSPMD(t, "spmd/fig59-bus.yaml"), loadSPMD(t, "spmd/fig59-clu.yaml")
	for p := 4; p <= 64; p += 4 {
		sb, sc := at(t, bus, p, 4).Speedup, at(t, clu, p, 4).Speedup
		if p <= 20 && sc >= sb {
			t.Errorf("p=%d: CLU-AIO %.4g ≥ BUS-AIO %.4g before the crossover", p, sc, sb)
		}
		if p >= 24 && sc <= sb {
			t.Errorf("p=%d: CLU-AIO %.4g ≤ BUS-AIO %.4g after the crossover", p, sc, sb)
		}
	}
}

// TestHybrid: 001 Fig. 5.8 — "a satisfactory speedup can be already obtained for p = 28 and
// d = 128": there the speedup is within 15 % of the best on the surface p ≤ 64, d ≤ 256, and
// a quarter of the disks (d = 32) would give much less.
func TestHybrid(t *testing.T) {
	e := loadSPMD(t, "spmd/hybrid.yaml")
	var ps, ds []int
	for p := 1; p <= 64; p++ {
		ps = append(ps, p)
	}
	for d := 1; d <= 256; d *= 2 {
		ds = append(ds, d)
	}
	pts, _, err := e.Surface(ps, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	best, _ := spmd.Best(pts)
	s := at(t, e, 28, 128).Speedup
	if s < 0.85*best.Speedup {
		t.Errorf("s(28,128) = %.4g, best %.4g at p=%d d=%d", s, best.Speedup, best.P, best.D)
	}
	if s32 := at(t, e, 28, 32).Speedup; s32 > 0.8*s {
		t.Errorf("s(28,32) = %.4g is not much below s(28,128) = %.4g", s32, s)
	}
	t.Logf("hybrid: s(28,128) = %.4g; best %.4g at p = %d, d = %d", s, best.Speedup, best.P, best.D)
}

// TestOptimisticSurfaces: Figs. 5.3/5.4 (σ_p = 0.625) — the optimistic surfaces bound the
// models with communication and σ_n of the same program from above.
func TestOptimisticSurfaces(t *testing.T) {
	aio, sio := loadSPMD(t, "spmd/optimistic-aio.yaml"), loadSPMD(t, "spmd/optimistic-sio.yaml")
	if s := at(t, aio, 64, 16).Speedup; math.Abs(s-64/(0.625+0.375/16)) > 1e-9 {
		t.Errorf("optimistic AIO s(64,16) = %g", s)
	}
	if s := at(t, sio, 1, 1).Speedup; math.Abs(s-1) > 1e-12 {
		t.Errorf("optimistic SIO s(1,1) = %g", s)
	}
	for _, arch := range []spmd.Architecture{spmd.BusAIO, spmd.BusSIO} {
		ph, _ := spmd.Normalized{SigmaP: 0.625, SigmaR0: 0.001, SigmaR: 0.01, SigmaN: 0.001}.Phase()
		ph.W = 0.3
		e, _ := spmd.NewEvaluator(&spmd.Model{Arch: arch, Phases: []spmd.Phase{ph}})
		bound := aio
		if arch == spmd.BusSIO {
			bound = sio
		}
		for _, pd := range [][2]int{{2, 1}, {8, 4}, {32, 8}, {64, 64}} {
			if s, b := at(t, e, pd[0], pd[1]).Speedup, at(t, bound, pd[0], pd[1]).Speedup; s > b {
				t.Errorf("%v s(%d,%d) = %g above the optimistic bound %g", arch, pd[0], pd[1], s, b)
			}
		}
	}
}

// TestPMVA: 001 §6.1.7. No I/O, c = 2, w = 0: τ = h(2)σ_p/p + σ_r0 + σ_r exactly (the delay
// alone, since the network queue has w = 0 and there is no I/O queue); checked against eqs.
// (6.12)–(6.13) for σ_r and σ_r0 with q(1)·(N_A+1) = 0.065536 s.
func TestPMVA(t *testing.T) {
	if sr, sr0 := 40/(115e6*0.065536), 46.9e-6/0.065536; math.Abs(sr-5.3074e-6) > 5e-10 || math.Abs(sr0-7.1564e-4) > 5e-8 {
		t.Errorf("σ_r = %g, σ_r0 = %g", sr, sr0)
	}
	e := loadSPMD(t, "spmd/pmva.yaml")
	for _, p := range []int{2, 8, 64, 256} {
		want := 1 / (1.5/float64(p) + 7.1564e-4 + 5.3074e-6)
		if s := at(t, e, p, 1).Speedup; math.Abs(s-want) > 1e-9*want {
			t.Errorf("p=%d: s = %g want %g", p, s, want)
		}
	}
}

// TestQCRD: 000 §5.2 with Table 4's parameters: I/O is negligible and the main bottleneck at
// scale is communication, as the paper infers ("CPU intensive … the main performance
// bottleneck lays in the communication phase").
func TestQCRD(t *testing.T) {
	e := loadSPMD(t, "spmd/qcrd.yaml")
	small, large := at(t, e, 2, 2), at(t, e, 64, 4)
	if small.Bottleneck != "cpu" {
		t.Errorf("p=2: bottleneck %s, want cpu", small.Bottleneck)
	}
	c := large.Components
	comm := c.CommStartup + c.CommTransfer + c.Contention
	if comm < c.CPU || c.IO > 0.001*large.Time {
		t.Errorf("p=64: communication %.4g vs CPU %.4g, I/O %.4g", comm, c.CPU, c.IO)
	}
}

// TestS11Stated: every SPMD example states its s(1, 1) on its first line ("# s(1, 1) = V")
// and V is what the model gives (spmd.Evaluator.Conventions), to the digits written; pmva.yaml
// has c = 2, where p = 1 is not a valid configuration.
func TestS11Stated(t *testing.T) {
	files, _ := fs.Glob(FS, "spmd/*.yaml")
	for _, f := range files {
		if f == "spmd/pmva.yaml" {
			continue
		}
		data, _ := FS.ReadFile(f)
		first, _, _ := strings.Cut(string(data), "\n")
		var stated float64
		if _, err := fmt.Sscanf(first, "# s(1, 1) = %g", &stated); err != nil {
			t.Errorf("%s: first line %q does not state s(1, 1)", f, first)
			continue
		}
		e := loadSPMD(t, f)
		pt, err := e.Evaluate(1, 1)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(pt.Speedup-stated) > 5e-4 {
			t.Errorf("%s: states s(1, 1) = %g, the model gives %.4g", f, stated, pt.Speedup)
		}
	}
}

// TestThesisCaseStudies: 001 §6.2's fitted parameter sets as printed in the captions of
// Figs. 6.10–6.12 (the surfaces themselves are figures, not tables, so only what the seeds
// README records is checked numerically).
func TestThesisCaseStudies(t *testing.T) {
	// seeds README errata: the thesis's QCRD-2 set gives s(64, 1) = 2.89, the journal's
	// (000 Table 4, spmd/qcrd.yaml) 12.57.
	if s := at(t, loadSPMD(t, "spmd/qcrd2-thesis.yaml"), 64, 1).Speedup; math.Abs(s-2.89) > 0.005 {
		t.Errorf("thesis QCRD-2 s(64, 1) = %.4g, README: 2.89", s)
	}
	if s := at(t, loadSPMD(t, "spmd/qcrd.yaml"), 64, 1).Speedup; math.Abs(s-12.57) > 0.005 {
		t.Errorf("journal QCRD-2 s(64, 1) = %.4g, README: 12.57", s)
	}
	// QCRD-4: r = 0.6985 < 1 as printed; g(p) = p^((1−r)/r), (1 − 0.6985)/0.6985 = 0.43164
	data, _ := FS.ReadFile("spmd/qcrd4-thesis.yaml")
	m, err := spmd.ParseModel("qcrd4-thesis.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if g := m.Phases[0].GExp; math.Abs(g-0.43164) > 1e-5 {
		t.Errorf("QCRD-4 g exponent %v, want 0.43164", g)
	}
	// ARGOS and QCRD-2: "r tends to infinite" (001 §6.2): g exponent −(r−1)/r within 1e-5 of −1
	for _, f := range []string{"spmd/argos.yaml", "spmd/qcrd2-thesis.yaml"} {
		data, _ := FS.ReadFile(f)
		m, err := spmd.ParseModel(f, data)
		if err != nil {
			t.Fatal(err)
		}
		if g := m.Phases[0].GExp; math.Abs(g+1) > 1e-5 {
			t.Errorf("%s: g exponent %v, want ≈ −1", f, g)
		}
	}
}

// TestCaveatsStated (issue 33): the caveats the QCRD examples print as notes state the
// figures the models give: s(1, 1) (0.855 journal, 0.684 thesis) and s(64, 1) (12.57 journal,
// 2.89 thesis; seeds README errata).
func TestCaveatsStated(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // each must appear in some caveat, computed from the model below
	}{
		{"spmd/qcrd.yaml", []string{"s(1, 1) = %.3f", "s(64, 1) = %.2f"}},
		{"spmd/qcrd2-thesis.yaml", []string{"s(1, 1) = %.3f", "s(64, 1) = %.2f"}},
	} {
		data, _ := FS.ReadFile(tc.file)
		m, err := spmd.ParseModel(tc.file, data)
		if err != nil {
			t.Fatal(err)
		}
		e := loadSPMD(t, tc.file)
		all := strings.Join(m.Caveats, "\n")
		for i, pd := range [][2]int{{1, 1}, {64, 1}} {
			s := fmt.Sprintf(tc.want[i], at(t, e, pd[0], pd[1]).Speedup)
			if !strings.Contains(all, s) {
				t.Errorf("%s: no caveat states %q:\n%s", tc.file, s, all)
			}
		}
	}
}
