package qn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// integralDiff is the largest relative difference of a from b (the reference) over class
// throughputs and per-station queue lengths (the measures Integral computes; response
// times follow from them).
func integralDiff(a, b *Result) float64 {
	worst := 0.0
	for c := range b.Throughput {
		if b.Throughput[c] == 0 {
			continue
		}
		worst = math.Max(worst, math.Abs(a.Throughput[c]-b.Throughput[c])/b.Throughput[c])
		for k := range b.QueueLength {
			if q := b.QueueLength[k][c]; q > 0 {
				worst = math.Max(worst, math.Abs(a.QueueLength[k][c]-q)/q)
			}
		}
	}
	return worst
}

// checkIntegral compares Integral with exact MVA on m: the difference must be within the
// result's error estimate (ten times its spread), which is at most 1e-9, and within issue
// 20's 1e-10.
func checkIntegral(t *testing.T, name string, m *Model) bool {
	t.Helper()
	ri, err := Integral(context.Background(), m, IntegralMaxPoints)
	if errors.Is(err, fault.ErrNotConverged) {
		t.Logf("%s: %v", name, err)
		return false
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rm := solveWith(t, mvaMulti, m)
	d := integralDiff(ri, rm)
	t.Logf("%s: %d points, spread %.1e, estimate %.1e, difference from exact MVA %.1e", name, ri.Status.Iterations, ri.ErrorEstimate.Spread, ri.ErrorEstimate.RelError, d)
	if d > 1e-10 || d > ri.ErrorEstimate.RelError+1e-14 {
		t.Errorf("%s: differs from exact MVA by %.2e (estimate %.2e, spread %.2e)", name, d, ri.ErrorEstimate.RelError, ri.ErrorEstimate.Spread)
	}
	if ri.Exact || ri.Method != "integral" {
		t.Errorf("%s: method %q exact %v, want integral, approximate", name, ri.Method, ri.Exact)
	}
	return true
}

// TestIntegralThesisScaled: the thesis network (001 §6.1.4) with populations divided by
// 16, 8 and 4, against exact MVA (MVAMulti, itself checked against Octave's qncmmva).
func TestIntegralThesisScaled(t *testing.T) {
	for _, f := range []int{16, 8, 4} {
		if !checkIntegral(t, fmt.Sprintf("thesis/%d", f), thesisScaled(f)) {
			t.Errorf("thesis/%d did not converge", f)
		}
	}
}

// TestIntegralRandom: seeded random networks with 100–400 jobs per class on 2–3 queues and
// a delay, against exact MVA. Most converge (the others must say so with
// fault.ErrNotConverged, never a number).
func TestIntegralRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	ok := 0
	const n = 16
	for i := 0; i < n; i++ {
		m := randomClosed(rng, 2+rng.IntN(2), 3+rng.IntN(2), 300)
		for c := range m.Classes {
			m.Classes[c].Population += 100
		}
		if checkIntegral(t, "random", m) {
			ok++
		}
	}
	if ok < n*2/3 {
		t.Errorf("only %d of %d random networks converged", ok, n)
	}
}

// TestIntegralClosedForms: one class at one queue and a delay (the machine-repairman model),
// and two classes on two queues, against exact MVA to 1e-13.
func TestIntegralClosedForms(t *testing.T) {
	for _, m := range []*Model{
		{Classes: []Class{{Name: "a", Population: 50, ThinkTime: 10}}, Stations: []Station{{Name: "q", Kind: Queue}}, Demand: [][]float64{{0.1}}},
		{Classes: []Class{{Name: "a", Population: 500, ThinkTime: 1}}, Stations: []Station{{Name: "q", Kind: Queue}, {Name: "r", Kind: Queue}}, Demand: [][]float64{{0.1, 0.05}}},
		{Classes: []Class{{Name: "a", Population: 500, ThinkTime: 1}, {Name: "b", Population: 300, ThinkTime: 1}}, Stations: []Station{{Name: "q", Kind: Queue}, {Name: "r", Kind: Queue}}, Demand: [][]float64{{0.1, 0.05}, {0.1, 0.08}}},
		{Classes: []Class{{Name: "a", Population: 40}, {Name: "b", Population: 0, ThinkTime: 1}}, Stations: []Station{{Name: "q", Kind: Queue, Count: 3}, {Name: "d", Kind: Delay}}, Demand: [][]float64{{0.1, 1}, {0.2, 0.5}}},
		// a class without jobs: its response time is one arriving job's, D·(1 + Q) (new-user
		// review: integral gave the bare demand, 0.05 for 0.153)
		{Classes: []Class{{Name: "a", Population: 0}, {Name: "b", Population: 3}}, Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}}, Demand: [][]float64{{0.04, 0.01}, {0.05, 0.02}}},
	} {
		ri, err := Integral(context.Background(), m, IntegralMaxPoints)
		if err != nil {
			t.Fatal(err)
		}
		rm := solveWith(t, mvaMulti, m)
		if d := integralDiff(ri, rm); d > 1e-13 {
			t.Errorf("%v: differs from exact MVA by %.2e", m.Classes, d)
		}
		if d := relDiffAll(m, ri, rm); d > 1e-13 {
			t.Errorf("%v: response times differ from exact MVA by %.2e", m.Classes, d)
		}
	}
}

// TestIntegralC4x1000: issue 20's target, 4 classes × 1 000 jobs on 4 queues and a delay
// (10¹² population vectors: no exact solver here can check it). Checked instead: the
// invariants every solution satisfies (Little's law over the cycle N_c = X_c·(R_c + Z_c),
// U ≤ 1 at each queue), the estimate below 1e-9, and agreement with Linearizer
// within twice Linearizer's own error estimate (a measurement, not a bound: measured 5e-5
// against its 5.4e-3).
func TestIntegralC4x1000(t *testing.T) {
	if testing.Short() {
		t.Skip("2–5 s")
	}
	m := MomentsNetworkC4(1000)
	ri, err := Integral(context.Background(), m, IntegralMaxPoints)
	if err != nil {
		t.Fatal(err)
	}
	if ri.ErrorEstimate.RelError > 1e-9 {
		t.Errorf("estimate %.2e", ri.ErrorEstimate.RelError)
	}
	for c, cl := range m.Classes {
		n := ri.Throughput[c] * (ri.ResponseTime[c] + cl.ThinkTime)
		if math.Abs(n-float64(cl.Population)) > 1e-9*float64(cl.Population) {
			t.Errorf("class %d: X·(R+Z) = %.12g, want %d", c, n, cl.Population)
		}
	}
	for k := range m.Stations {
		if u := ri.StationUtilization(k); m.Stations[k].Kind == Queue && u > 1+1e-12 {
			t.Errorf("station %d: U = %g", k, u)
		}
	}
	lin, err := Solve(context.Background(), m, "linearizer", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(m, lin, ri); d > 2*lin.ErrorEstimate.RelError {
		t.Errorf("Linearizer differs by %.2e, its estimate %.2e", d, lin.ErrorEstimate.RelError)
	}
	t.Logf("%d points, spread %.1e; Linearizer differs by %.1e (its estimate %.1e)", ri.Status.Iterations, ri.ErrorEstimate.Spread, relDiff(m, lin, ri), lin.ErrorEstimate.RelError)
}

// TestIntegralRefuses: what it does not solve is refused up front; a network whose grid does
// not converge within the budget returns fault.ErrNotConverged and no result.
func TestIntegralRefuses(t *testing.T) {
	m := thesisScaled(64)
	m.Stations[0] = Station{Name: "k1", Kind: MultiServer, Servers: 2}
	if _, err := Integral(context.Background(), m, IntegralMaxPoints); !errors.Is(err, ErrUnsupported) {
		t.Errorf("multi-server: %v", err)
	}
	m = thesisScaled(64)
	m.Classes[1] = Class{Name: "o", Open: true, ArrivalRate: 0.1}
	if _, err := Integral(context.Background(), m, IntegralMaxPoints); !errors.Is(err, ErrUnsupported) {
		t.Errorf("open class: %v", err)
	}
	// The thesis network at N/16 needs about 4e6 points; a budget of 1e4 cannot converge.
	r, err := Integral(context.Background(), thesisScaled(16), 1e4)
	if !errors.Is(err, fault.ErrNotConverged) || r != nil {
		t.Errorf("budget 1e4: %v, %v", r, err)
	}
}

// TestIntegralHostile: the hostile-input review's cases. Two queues with identical demand
// rows are one group (were asymmetric, 4.5 % off, with an estimate of 4e-10); demands 1e300
// apart must not panic (a Cholesky factor that failed was used); 8 distinct queue groups are
// refused before any grid (their grid needs ≥ 1e8 points); the budget holds inside a grid
// (one grid took 1.6e8 points against 3e7).
func TestIntegralHostile(t *testing.T) {
	ident := &Model{
		Classes:  []Class{{Name: "a", Population: 500, ThinkTime: 1}, {Name: "b", Population: 700, ThinkTime: 2}},
		Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}},
		Demand:   [][]float64{{0.1, 0.1}, {0.3, 0.3}},
	}
	checkIntegral(t, "identical rows", ident)
	ri := solveWith(t, integralDefault, ident)
	if ri.QueueLength[0][0] != ri.QueueLength[1][0] {
		t.Errorf("identical queues: Q = %v, %v", ri.QueueLength[0][0], ri.QueueLength[1][0])
	}
	for _, big := range []float64{1e300, 1e100} {
		m := &Model{
			Classes:  []Class{{Name: "a", Population: 10, ThinkTime: 1}, {Name: "b", Population: 10, ThinkTime: 1}},
			Stations: []Station{{Name: "q1", Kind: Queue}, {Name: "q2", Kind: Queue}},
			Demand:   [][]float64{{1e-300, big}, {2, 1}},
		}
		if r, err := Solve(context.Background(), m, "integral", AMVAOptions{}); err == nil {
			if d := integralDiff(r, solveWith(t, mvaMulti, m)); d > r.ErrorEstimate.RelError+1e-14 {
				t.Errorf("demand %g: differs from MVA by %.2e", big, d)
			}
		} else if !errors.Is(err, fault.ErrNotConverged) {
			t.Errorf("demand %g: %v", big, err)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	wide := randomClosed(rng, 2, 9, 50)
	if _, err := Integral(context.Background(), wide, IntegralMaxPoints); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("8 queue groups: %v", err)
	}
	five := randomClosed(rand.New(rand.NewPCG(9, 9)), 2, 6, 50)
	net, err := newIntNet(five)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := net.grid(context.Background(), net.plan(), intResAt(6), 2e5); !errors.Is(err, errIntegralBudget) {
		t.Errorf("a grid over its budget of 2e5 points: %v", err)
	}
}

// TestIntegralCancel: a cancelled context stops it with an error wrapping context.Canceled.
func TestIntegralCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Integral(ctx, ThesisNetwork(), IntegralMaxPoints); !errors.Is(err, context.Canceled) {
		t.Errorf("got %v", err)
	}
}

// TestSolveIntegral: auto picks Integral where no exact solver fits (the 4 × 1 000 network
// of qn/testdata), says why, and --solver integral is refused when exact results are
// required.
func TestSolveIntegral(t *testing.T) {
	if testing.Short() {
		t.Skip("2–5 s")
	}
	data, err := os.ReadFile("testdata/c4x1000.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := ParseModel("testdata/c4x1000.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Solve(context.Background(), m, "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != "integral" || r.Exact || r.ErrorEstimate == nil {
		t.Errorf("auto: method %q exact %v estimate %v; reason %s", r.Method, r.Exact, r.ErrorEstimate, r.Reason)
	}
	ref := solveWith(t, integralDefault, MomentsNetworkC4(1000))
	if d := integralDiff(r, ref); d > 1e-12 {
		t.Errorf("the file differs from MomentsNetworkC4(1000) by %.2e", d)
	}
	if _, err := Solve(context.Background(), thesisScaled(64), "integral", AMVAOptions{RequireExact: true}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("exact required: %v", err)
	}
}

// BenchmarkIntegralThesis: the thesis network N = (4095, 177, 127) by Integral; compare
// BenchmarkMVAMultiSplitThesis and BenchmarkComomThesis (issue 20's goal: under 100 ms).
func BenchmarkIntegralThesis(b *testing.B) {
	benchSolve(b, ThesisNetwork(), integralDefault)
}

// BenchmarkIntegralC4x1000: 4 classes × 1 000 jobs on 4 queues and a delay (issue 20's
// goal: under 10 s; no exact solver here can do it).
func BenchmarkIntegralC4x1000(b *testing.B) {
	benchSolve(b, MomentsNetworkC4(1000), integralDefault)
}

// relDiffAll is relDiff over every class, those without jobs too.
func relDiffAll(m *Model, a, b *Result) float64 {
	d := 0.0
	for c := range m.Classes {
		for _, p := range [][2]float64{{a.Throughput[c], b.Throughput[c]}, {a.ResponseTime[c], b.ResponseTime[c]}} {
			if p[1] != 0 {
				d = math.Max(d, math.Abs(p[0]-p[1])/math.Abs(p[1]))
			} else if p[0] != 0 {
				d = math.Inf(1)
			}
		}
	}
	return d
}

// TestIntegralSmallPopulations: 1–6 jobs per class, where the density has exponential,
// not Gaussian, tails (an edge-bounded coordinate's tail piece catches them: before it,
// these differed from MVA by up to 7e-7 with a spread of 1e-14), against exact MVA.
func TestIntegralSmallPopulations(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20; i++ {
		m := randomClosed(rng, 2+rng.IntN(2), 2+rng.IntN(4), 6)
		checkIntegral(t, fmt.Sprintf("small %d", i), m)
	}
}
