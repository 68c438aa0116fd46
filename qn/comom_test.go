package qn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// randomComomModel draws a closed network of C classes on K stations (the last one a delay
// when delay is set) with demands uniform in [0.05, 1), populations uniform in 1..nmax and,
// when think is set, think times uniform in [0, 2).
func randomComomModel(rng *rand.Rand, C, K, nmax int, think, delay bool) *Model {
	m := &Model{}
	for k := 0; k < K; k++ {
		m.Stations = append(m.Stations, Station{Name: "k", Kind: Queue})
	}
	if delay {
		m.Stations[K-1].Kind = Delay
	}
	for c := 0; c < C; c++ {
		cl := Class{Name: "c", Population: 1 + rng.IntN(nmax)}
		if think {
			cl.ThinkTime = 2 * rng.Float64()
		}
		m.Classes = append(m.Classes, cl)
		row := make([]float64, K)
		for k := range row {
			row[k] = 0.05 + 0.95*rng.Float64()
		}
		m.Demand = append(m.Demand, row)
	}
	return m
}

// comomAgainstMVA checks Comom against exact MVA (MVAMulti: Reiser & Lavenberg 1980, the
// reference solver of this package) on m: every throughput, response time and queue length
// to 1e-10 relative.
func comomAgainstMVA(t *testing.T, name string, m *Model) float64 {
	t.Helper()
	got, err := Comom(context.Background(), m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want, err := MVAMulti(m)
	if err != nil {
		t.Fatalf("%s: mva: %v", name, err)
	}
	if d := resultDiff(got, want); d > 1e-10 {
		t.Errorf("%s: comom differs from MVA by %.3g relative\ncomom X %v R %v\nmva   X %v R %v", name, d, got.Throughput, got.ResponseTime, want.Throughput, want.ResponseTime)
	}
	if got.Method != "comom" || !got.Exact {
		t.Errorf("%s: method %q exact %v, want comom, true", name, got.Method, got.Exact)
	}
	return resultDiff(got, want)
}

// TestComomMatchesMVA is the property test of issue 20: on random networks (2–4 classes,
// 2–5 stations, with and without a delay station and think times, small and mid
// populations) Comom agrees with exact MVA to 1e-10 relative. Random demands are distinct
// with probability 1, so no model here is singular for the method.
func TestComomMatchesMVA(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2026))
	type shape struct{ C, nmax int }
	shapes := []shape{{2, 6}, {2, 40}, {3, 5}, {3, 14}, {4, 3}, {4, 6}, {3, 25}, {2, 120}}
	if testing.Short() {
		shapes = shapes[:4]
	}
	worst, n := 0.0, 0
	for _, sh := range shapes {
		for i := 0; i < 16; i++ {
			K := 2 + rng.IntN(4)
			m := randomComomModel(rng, sh.C, K, sh.nmax, i%2 == 0, i%3 != 0)
			worst = math.Max(worst, comomAgainstMVA(t, "random", m))
			n++
		}
	}
	t.Logf("%d random networks, largest relative difference from MVA %.2g", n, worst)
}

// TestComomThesisScaled checks the thesis network (001 §6.1.4) at N/16 = (255, 11, 7)
// against exact MVA; at this size the recurrences need about 800 bits.
func TestComomThesisScaled(t *testing.T) {
	m := ThesisNetwork()
	for c := range m.Classes {
		m.Classes[c].Population /= 16
	}
	comomAgainstMVA(t, "thesis/16", m)
}

// TestComomSpecialStructure: models the method has to reduce before it applies, each
// against exact MVA.
func TestComomSpecialStructure(t *testing.T) {
	base := func() *Model {
		return &Model{
			Classes:  []Class{{Name: "a", Population: 7, ThinkTime: 1}, {Name: "b", Population: 5}, {Name: "c", Population: 4, ThinkTime: 0.5}},
			Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}, {Name: "q3", Kind: Queue}, {Name: "z", Kind: Delay}},
			Demand:   [][]float64{{0.3, 0.5, 0.2, 1}, {0.4, 0.1, 0.6, 0}, {0.25, 0.35, 0.45, 2}},
		}
	}
	cases := map[string]func(m *Model){
		"plain": func(m *Model) {},
		// Two identical queues (same demand in every class) are merged into one group of 2.
		"identical queues": func(m *Model) {
			m.Stations = append(m.Stations, Station{Name: "q4", Kind: Queue})
			for c := range m.Demand {
				m.Demand[c] = append(m.Demand[c], m.Demand[c][1])
			}
		},
		// A station group with Count copies.
		"copies": func(m *Model) { m.Stations[2].Count = 3 },
		// An empty class: X = 0, R as an arriving job would see.
		"empty class": func(m *Model) { m.Classes[1].Population = 0 },
		// A class that visits no queue cycles through the delay only.
		"delay-only class": func(m *Model) {
			m.Classes = append(m.Classes, Class{Name: "d", Population: 3, ThinkTime: 0.7})
			m.Demand = append(m.Demand, []float64{0, 0, 0, 0.4})
		},
		// A queue no class with jobs visits.
		"unvisited queue": func(m *Model) {
			m.Stations = append(m.Stations, Station{Name: "idle", Kind: Queue})
			for c := range m.Demand {
				m.Demand[c] = append(m.Demand[c], 0)
			}
		},
		// One class only: CoMoM reduces to the single-class recursion.
		"one class": func(m *Model) { m.Classes, m.Demand = m.Classes[:1], m.Demand[:1] },
		// A zero demand in a later class only (the earlier classes still tell the queues apart).
		"zero demand in last class": func(m *Model) { m.Demand[2][0] = 0 },
		// Times in microseconds: per-class power-of-two scaling keeps the arithmetic near 1.
		"tiny times": func(m *Model) {
			for c := range m.Demand {
				for k := range m.Demand[c] {
					m.Demand[c][k] *= 1e-6
				}
				m.Classes[c].ThinkTime *= 1e-6
			}
		},
	}
	for name, mod := range cases {
		m := base()
		mod(m)
		comomAgainstMVA(t, name, m)
	}
}

// TestComomRefuses: what the method does not model is refused with ErrUnsupported (so
// Solve's auto keeps the other solvers), bad input with fault.ErrInput.
func TestComomRefuses(t *testing.T) {
	mk := func(s Station) *Model {
		return &Model{
			Classes:  []Class{{Name: "a", Population: 3}, {Name: "b", Population: 2}},
			Stations: []Station{s, {Name: "q", Kind: Queue}},
			Demand:   [][]float64{{0.2, 0.3}, {0.1, 0.4}},
		}
	}
	for name, m := range map[string]*Model{
		"multi-server":   mk(Station{Name: "ms", Kind: MultiServer, Servers: 2}),
		"load-dependent": mk(Station{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 2}}),
	} {
		if _, err := Comom(context.Background(), m); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", name, err)
		}
	}
	open := mk(Station{Name: "q0", Kind: Queue})
	open.Classes[1] = Class{Name: "o", Open: true, ArrivalRate: 0.1}
	if _, err := Comom(context.Background(), open); !errors.Is(err, ErrUnsupported) {
		t.Errorf("open class: %v, want ErrUnsupported", err)
	}
	// Two queues with equal demands in the first class but different ones later cannot be
	// told apart by the class-1 step, in any class order here: refused, not a wrong number.
	sing := &Model{
		Classes:  []Class{{Name: "a", Population: 9}, {Name: "b", Population: 8}},
		Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}, {Name: "q3", Kind: Queue}},
		Demand:   [][]float64{{0.2, 0.2, 0.5}, {0.1, 0.1, 0.3}},
	}
	sing.Demand[1][1] = 0.4
	sing.Demand[0][2] = 0.2
	if r, err := Comom(context.Background(), sing); err == nil {
		ref, _ := MVAMulti(sing)
		if d := resultDiff(r, ref); d > 1e-10 {
			t.Errorf("degenerate model answered %.3g from MVA", d)
		}
	} else if !errors.Is(err, ErrUnsupported) {
		t.Errorf("degenerate model: %v, want ErrUnsupported or a correct answer", err)
	}
	zero := mk(Station{Name: "q0", Kind: Queue})
	zero.Demand[0] = []float64{0, 0}
	if _, err := Comom(context.Background(), zero); !errors.Is(err, fault.ErrInput) {
		t.Errorf("zero demand, zero think time: %v, want fault.ErrInput", err)
	}
}

// TestComomBudget: a model whose estimated work exceeds ComomMaxWork is refused with
// fault.ErrTooLarge before anything is allocated: 6 classes of 5000 jobs on 6 queues
// (about 16 000 bits, 10^9 big.Float operations).
func TestComomBudget(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 5000))
	m := randomComomModel(rng, 6, 6, 1, false, false)
	for c := range m.Classes {
		m.Classes[c].Population = 5000
	}
	if _, err := ComomCost(m); !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("ComomCost: %v, want fault.ErrTooLarge", err)
	}
	if _, err := Comom(context.Background(), m); !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("Comom: %v, want fault.ErrTooLarge", err)
	}
}

// TestComomThesis: the thesis network (001 §6.1.4) N = (4095, 177, 127), the issue-20
// target, against exact MVA (about a second each on this host).
func TestComomThesis(t *testing.T) {
	if testing.Short() {
		t.Skip("thesis network: a few seconds")
	}
	comomAgainstMVA(t, "thesis", ThesisNetwork())
}

// comomAutoModel: 3 classes × 400 jobs on 2 queues and a delay, a shape (few queues, many
// jobs) where Comom is cheaper than exact MVA's lattice of 6.5e7 vectors.
func comomAutoModel() *Model {
	return &Model{
		Classes:  []Class{{Name: "a", Population: 400, ThinkTime: 1}, {Name: "b", Population: 400}, {Name: "c", Population: 400, ThinkTime: 3}},
		Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}, {Name: "z", Kind: Delay}},
		Demand:   [][]float64{{0.01, 0.02, 0.5}, {0.03, 0.015, 0.2}, {0.02, 0.01, 1}},
	}
}

// TestComomAutoChooses: Solve's auto picks Comom where its estimate beats exact MVA's, says
// why, and the result agrees with exact MVA to 1e-10.
func TestComomAutoChooses(t *testing.T) {
	m := comomAutoModel()
	r, err := Solve(context.Background(), m, "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != "comom" || !r.Exact || !strings.Contains(r.Reason, "Method of Moments") {
		t.Fatalf("auto chose %q (exact %v): %s", r.Method, r.Exact, r.Reason)
	}
	if testing.Short() {
		return
	}
	want, err := MVAMulti(m)
	if err != nil {
		t.Fatal(err)
	}
	if d := resultDiff(r, want); d > 1e-10 {
		t.Errorf("auto comom differs from MVA by %.3g", d)
	}
}

// TestComomLargeLattice: 4 classes × 1000 jobs on 2 queues and 3 delays (10¹² population
// vectors, no MVA reference possible). Checked against what every exact solution satisfies:
// Little's law per class, N_c = X_c·(Z_c + R_c) (the population constraint at N), U ≤ 1 at
// each queue, and the result settled at two precisions (verified).
func TestComomLargeLattice(t *testing.T) {
	if testing.Short() {
		t.Skip("a second or more")
	}
	m := MomentsNetworkC4(1000)
	m.Stations[2].Kind, m.Stations[3].Kind = Delay, Delay
	r, err := Comom(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	for c, cl := range m.Classes {
		n := r.Throughput[c] * (cl.ThinkTime + r.ResponseTime[c])
		if math.Abs(n-float64(cl.Population)) > 1e-9*float64(cl.Population) {
			t.Errorf("class %d: X·(Z + R) = %.12g, want %d", c, n, cl.Population)
		}
	}
	for k, s := range m.Stations {
		if s.Kind == Queue && r.StationUtilization(k) > 1 {
			t.Errorf("station %d: U = %v", k, r.StationUtilization(k))
		}
	}
	t.Logf("X %v; %v", r.Throughput, r.Notes)
}

// few2 is the reviewer's model (review P2-11, /work/s3/nu-outputs/few2.yaml) at population
// n per class: class a has equal demands at q1 and q2, classes b and c have proportional
// queue demands (b = 1.5·c at both queues).
func few2(n int) *Model {
	return &Model{
		Classes:  []Class{{Name: "a", Population: n, ThinkTime: 1}, {Name: "b", Population: n}, {Name: "c", Population: n, ThinkTime: 3}},
		Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}, {Name: "z", Kind: Delay}},
		Demand:   [][]float64{{0.01, 0.01, 0.5}, {0.03, 0.015, 0.2}, {0.02, 0.01, 1}},
	}
}

// TestComomSingularEveryOrder (review P2-11): few2 is singular in all 6 class orders — with
// a before b or c, the step after a is singular (a's equal demands do not tell q1 from q2);
// with a last, the step of a is singular because b and c, added before it, have
// proportional demands. The pattern is checked directly: the same model with c's q2 demand
// changed (0.01 → 0.011, no longer proportional) is singular exactly in the orders that
// put a before another class, and Comom solves it (agreeing with exact MVA) in an order
// with a last. The refusal names both causes and the number of orders tried.
func TestComomSingularEveryOrder(t *testing.T) {
	m := few2(6)
	p, err := newComom(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range p.orders() {
		if _, _, _, err := p.nonSingular(o); !errors.Is(err, errComomSingular) {
			t.Errorf("order %v: %v, want singular", o, err)
		}
	}
	_, err = Comom(context.Background(), m)
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("few2: %v, want ErrUnsupported", err)
	}
	for _, want := range []string{"every one of the 6 class orders", "class a has equal demands at queues q1 and q2", "classes b and c have proportional queue demands"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q lacks %q", err, want)
		}
	}
	m.Demand[2][1] = 0.011
	p, _ = newComom(m)
	for _, o := range p.orders() {
		aBefore := o[0] == 0 || o[1] == 0 // class a (index 0) added before some other class
		_, _, _, err := p.nonSingular(o)
		if got := err != nil; got != aBefore {
			t.Errorf("c not proportional, order %v: singular %v, want %v", o, got, aBefore)
		}
	}
	comomAgainstMVA(t, "few2 with c not proportional to b", m)
}

// TestComomReasons (review P2-11, P3-12): auto's reason says why comom was not chosen
// (here: its refusal of few2; at 6 jobs per class: its estimate is not below MVA's), and comom chosen by name has a reason saying it is direct
// with N_1 + … + N_C population steps (3·6 = 18), not iterations.
func TestComomReasons(t *testing.T) {
	// at 150 jobs per class comom's estimate (0.017 s) is below exact MVA's (0.031 s), so
	// auto tries it and reports its refusal
	res, err := Solve(context.Background(), few2(150), "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Reason, "not comom: a class step's linear system is singular") {
		t.Errorf("auto reason %q does not say why not comom", res.Reason)
	}
	if res, err = Solve(context.Background(), few2(6), "auto", AMVAOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Reason, "not comom: estimated") {
		t.Errorf("auto at 6 jobs: reason %q: want comom's estimate against MVA's", res.Reason)
	}
	m := few2(6)
	m.Demand[2][1] = 0.011
	res, err = Solve(context.Background(), m, "comom", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Reason, "direct method (18 population steps") || res.Status.Iterations != 18 {
		t.Errorf("comom by name: reason %q, iterations %d; want a direct method of 18 steps", res.Reason, res.Status.Iterations)
	}
}

// TestComomNoActiveClass: a model in which no job visits a queue (population 0, or delays
// only) is answered in closed form, X = N/Z (Little's law at the delays), not a panic
// (hostile review: `solve --solver comom --sweep population=0:2` indexed order[-1]); the
// balanced job bounds of a delay-only model collapse onto X = N/Z instead of NaN (D = 0).
func TestComomNoActiveClass(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		x, r float64 // closed form: X = N/(Z + D_delay), R = D_delay
	}{
		{"population 0", "classes: [{name: c, population: 0, think_time: 1}]\nstations: [{name: cpu, demand: 0.1}]\n", 0, 0.1},
		{"delays only", "classes: [{name: c, population: 3, think_time: 1}]\nstations: [{name: z, type: delay, demand: 0.1}]\n", 3 / 1.1, 0.1},
	} {
		m, _, err := ParseModel(tc.name+".yaml", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Comom(context.Background(), m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if math.Abs(res.Throughput[0]-tc.x) > 1e-12 || (tc.x > 0 && math.Abs(res.ResponseTime[0]-tc.r) > 1e-12) {
			t.Errorf("%s: X %v R %v, want %v %v", tc.name, res.Throughput[0], res.ResponseTime[0], tc.x, tc.r)
		}
		if m.Classes[0].Population > 0 {
			b, err := BoundsAt(m, m.Classes[0].Population)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []float64{b.XLowerBJB, b.XUpperBJB, b.RLowerBJB, b.RUpperBJB} {
				if math.IsNaN(v) {
					t.Errorf("%s: BJB bounds %+v", tc.name, b)
				}
			}
			if math.Abs(b.XLowerBJB-tc.x) > 1e-12 || math.Abs(b.XUpperBJB-tc.x) > 1e-12 {
				t.Errorf("%s: BJB X bounds %v … %v, want %v", tc.name, b.XLowerBJB, b.XUpperBJB, tc.x)
			}
		}
	}
}
