package qn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/ctmc"
)

// oracle solves m (closed classes only) as a CTMC (internal/ctmc), one node per copy of a
// station group, and returns a Result in the package's conventions.
func oracle(t *testing.T, m *Model, maxStates int) (*Result, error) {
	t.Helper()
	var capf []func(int) float64
	var owner []int
	for k, st := range m.Stations {
		st := st
		for i := 0; i < st.Copies(); i++ {
			capf = append(capf, func(n int) float64 { return st.alpha(n) })
			owner = append(owner, k)
		}
	}
	C := len(m.Classes)
	D := make([][]float64, C)
	Z := make([]float64, C)
	N := make([]int, C)
	for c, cl := range m.Classes {
		Z[c], N[c] = cl.ThinkTime, cl.Population
		for _, k := range owner {
			D[c] = append(D[c], m.Demand[c][k])
		}
	}
	sol, err := ctmc.Solve(ctmc.Demands(capf, D, Z, N), maxStates)
	if err != nil {
		return nil, err
	}
	if sol.Residual > 1e-12 {
		t.Fatalf("CTMC residual %g", sol.Residual)
	}
	res := newResult("ctmc", C, len(m.Stations))
	for c := range m.Classes {
		res.Throughput[c] = sol.ClassThroughput(c, D, Z)
	}
	seen := map[int]bool{}
	for node, k := range owner {
		if seen[k] { // copies are identical: read the first
			continue
		}
		seen[k] = true
		st := m.Stations[k]
		busy := 0.0
		for c := range m.Classes {
			res.QueueLength[k][c] = sol.QueueLength[node][c]
			if res.Throughput[c] > 0 {
				res.Residence[k][c] = sol.QueueLength[node][c] / res.Throughput[c]
			}
			busy += sol.Busy[node][c]
			res.Utilization[k][c] = res.Throughput[c] * m.Demand[c][k]
			if st.Kind == MultiServer {
				res.Utilization[k][c] /= float64(st.Servers)
			}
		}
		if st.Kind == LoadDependent {
			u := 1 - sol.Marginal[node][0]
			tot := 0.0
			for c := range m.Classes {
				tot += res.Throughput[c] * m.Demand[c][k]
			}
			for c := range m.Classes {
				if tot > 0 {
					res.Utilization[k][c] = u * res.Throughput[c] * m.Demand[c][k] / tot
				}
			}
		}
		_ = busy
	}
	for c, cl := range m.Classes {
		if res.Throughput[c] > 0 {
			res.ResponseTime[c] = float64(cl.Population)/res.Throughput[c] - cl.ThinkTime
		}
	}
	return res, nil
}

// randomLDModel draws a closed network of 2–3 classes and 2–3 stations of every kind
// (queue, delay, 1–4 servers, load-dependent with 1–4 rates), with one class-dominant
// bottleneck in about half the cases so that utilisations reach 0.95.
func randomLDModel(rng *rand.Rand) *Model {
	C := 2 + rng.IntN(2)
	K := 2 + rng.IntN(2)
	m := &Model{}
	for c := 0; c < C; c++ {
		z := 0.0
		if rng.IntN(2) == 0 {
			z = math.Exp(rng.Float64()*4 - 2)
		}
		m.Classes = append(m.Classes, Class{Name: fmt.Sprint("c", c), Population: 1 + rng.IntN(4), ThinkTime: z})
	}
	hasMarg := false
	for k := 0; k < K; k++ {
		st := Station{Name: fmt.Sprint("s", k)}
		switch rng.IntN(4) {
		case 0:
			st.Kind = Queue
		case 1:
			st.Kind = Delay
		case 2:
			st.Kind, st.Servers = MultiServer, 1+rng.IntN(4)
			hasMarg = hasMarg || st.Servers > 1
		case 3:
			st.Kind = LoadDependent
			a := 0.5 + rng.Float64()
			for j := 0; j <= rng.IntN(4); j++ {
				st.Rates = append(st.Rates, a)
				a *= 0.7 + rng.Float64() // not monotone in general
			}
			hasMarg = true
		}
		if rng.IntN(6) == 0 {
			st.Count = 2
		}
		m.Stations = append(m.Stations, st)
	}
	if !hasMarg {
		m.Stations[0].Kind, m.Stations[0].Servers = MultiServer, 2+rng.IntN(3)
	}
	bott := rng.IntN(K)
	for c := 0; c < C; c++ {
		row := make([]float64, K)
		for k := range row {
			if rng.IntN(5) > 0 {
				row[k] = math.Exp(rng.Float64()*3 - 1.5)
			}
		}
		if rng.IntN(2) == 0 {
			row[bott] *= 20
		}
		m.Demand = append(m.Demand, row)
	}
	for c := range m.Classes { // a class with no demand anywhere needs think time
		tot := 0.0
		for _, d := range m.Demand[c] {
			tot += d
		}
		if tot == 0 && m.Classes[c].ThinkTime == 0 {
			m.Classes[c].ThinkTime = 1
		}
	}
	return m
}

func closeTo(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))+1e-300
}

// compareResults checks X, R_c, and per station Q, residence and U of got against want.
func compareResults(t *testing.T, name string, m *Model, got, want *Result, tol float64) float64 {
	t.Helper()
	worst := 0.0
	chk := func(what string, g, w float64) {
		e := math.Abs(g-w) / math.Max(math.Max(math.Abs(g), math.Abs(w)), 1e-300)
		if math.Abs(g-w) < 1e-15 {
			e = 0
		}
		worst = math.Max(worst, e)
		if !(e <= tol) {
			t.Errorf("%s: %s = %.15g, want %.15g (rel %.2g)", name, what, g, w, e)
		}
	}
	for c := range m.Classes {
		chk(fmt.Sprintf("X[%d]", c), got.Throughput[c], want.Throughput[c])
		if m.Classes[c].Population > 0 {
			chk(fmt.Sprintf("R[%d]", c), got.ResponseTime[c], want.ResponseTime[c])
		}
		for k := range m.Stations {
			chk(fmt.Sprintf("Q[%d][%d]", k, c), got.QueueLength[k][c], want.QueueLength[k][c])
			chk(fmt.Sprintf("U[%d][%d]", k, c), got.Utilization[k][c], want.Utilization[k][c])
			if m.Classes[c].Population > 0 {
				chk(fmt.Sprintf("Res[%d][%d]", k, c), got.Residence[k][c], want.Residence[k][c])
			}
		}
	}
	return worst
}

// Exact multi-class MVA with multi-server and load-dependent stations against the CTMC
// oracle (internal/ctmc) on random small networks, 1e-9 relative (issue 13).
func TestMVAMultiLDvsCTMC(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 2026))
	cases, high, worst := 0, 0, 0.0
	for tries := 0; cases < 40 && tries < 1000; tries++ {
		m := randomLDModel(rng)
		want, err := oracle(t, m, 700)
		if errors.Is(err, ctmc.ErrTooLarge) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got, err := MVAMulti(m)
		if err != nil {
			t.Fatalf("case %d: %v", cases, err)
		}
		cases++
		umax := 0.0
		for k, st := range m.Stations {
			if st.Kind != Delay {
				umax = math.Max(umax, want.StationUtilization(k))
			}
		}
		if umax >= 0.9 {
			high++
		}
		worst = math.Max(worst, compareResults(t, fmt.Sprintf("case %d", cases), m, got, want, 1e-9))
	}
	t.Logf("%d networks, %d with a station at U ≥ 0.9; worst relative difference %.2g", cases, high, worst)
	if cases < 30 || high < 5 {
		t.Fatalf("only %d networks (%d at U ≥ 0.9): the generator no longer produces the test set", cases, high)
	}
}

// One class: the multi-class code must agree with MVASingle (itself checked against
// Octave's qncsmva/qncsmvald) on multi-server and load-dependent stations at large N and
// high utilisation, where the textbook p(0|n) = 1 − Σ goes negative.
func TestMVAMultiLDvsSingleLargeN(t *testing.T) {
	for _, N := range []int{1, 10, 500, 3000} {
		m := &Model{
			Classes: []Class{{Name: "a", Population: N, ThinkTime: 2}},
			Stations: []Station{
				{Name: "ms", Kind: MultiServer, Servers: 8},
				{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 1.8, 2.4, 2.8}},
				{Name: "q", Kind: Queue},
			},
			Demand: [][]float64{{4, 1.1, 0.2}},
		}
		want := solveWith(t, bg(MVASingle), m)
		got, err := mvaMultiLD(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		compareResults(t, fmt.Sprint("N=", N), m, got, want, 1e-10)
	}
}

// Two classes at high population: invariants (Σ Q = N with no think time; U ≤ 1; p ≥ 0)
// and symmetry: two identical classes of N/2 jobs each equal one class of N jobs split in
// half (the network is the same).
func TestMVAMultiLDSymmetricClasses(t *testing.T) {
	N := 300
	st := []Station{
		{Name: "ms", Kind: MultiServer, Servers: 4},
		{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 1.5, 1.9}},
		{Name: "d", Kind: Delay},
	}
	two := &Model{
		Classes:  []Class{{Name: "a", Population: N / 2, ThinkTime: 1}, {Name: "b", Population: N / 2, ThinkTime: 1}},
		Stations: st,
		Demand:   [][]float64{{1, 0.3, 5}, {1, 0.3, 5}},
	}
	one := &Model{Classes: []Class{{Name: "a", Population: N, ThinkTime: 1}}, Stations: st, Demand: [][]float64{{1, 0.3, 5}}}
	r2 := solveWith(t, mvaMulti, two)
	r1 := solveWith(t, bg(MVASingle), one)
	for c := 0; c < 2; c++ {
		if !closeTo(r2.Throughput[c], r1.Throughput[0]/2, 1e-10) {
			t.Errorf("X[%d] = %.15g, want half of %.15g", c, r2.Throughput[c], r1.Throughput[0])
		}
		for k := range st {
			if !closeTo(r2.QueueLength[k][c], r1.QueueLength[k][0]/2, 1e-10) {
				t.Errorf("Q[%d][%d] = %.15g, want half of %.15g", k, c, r2.QueueLength[k][c], r1.QueueLength[k][0])
			}
		}
	}
	if u := r2.StationUtilization(0); !(u > 0.99 && u <= 1+1e-12) {
		t.Errorf("multi-server utilization %v, want in (0.99, 1]", u)
	}
}

func TestMVAMultiLDTooLarge(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "a", Population: 100000}, {Name: "b", Population: 100000}, {Name: "c", Population: 1000}},
		Stations: []Station{{Name: "ms", Kind: MultiServer, Servers: 4}},
		Demand:   [][]float64{{1}, {1}, {1}},
	}
	if _, err := MVAMulti(m); !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("err = %v, want fault.ErrTooLarge", err)
	}
}

// Issue 13's benchmark: one 4-server station, C = 2, N = (200, 200), under 1 s.
func BenchmarkMVAMultiLD200x200(b *testing.B) {
	m := benchLDModel() // with a plain queue for the disk
	m.Classes[0].Population, m.Classes[1].Population = 200, 200
	m.Stations[1] = Station{Name: "disk", Kind: Queue}
	benchSolve(b, m, mvaMulti)
}

func benchLDModel() *Model {
	return &Model{
		Classes: []Class{{Name: "a", Population: 60, ThinkTime: 10}, {Name: "b", Population: 40, ThinkTime: 5}},
		Stations: []Station{
			{Name: "cpu", Kind: MultiServer, Servers: 4},
			{Name: "disk", Kind: LoadDependent, Rates: []float64{1, 1.6, 2}},
			{Name: "net", Kind: Delay},
		},
		Demand: [][]float64{{0.2, 0.05, 1}, {0.1, 0.08, 2}},
	}
}

func BenchmarkQueueLengthDistribution(b *testing.B) {
	m := benchLDModel()
	benchSolve(b, m, func(m *Model) (*Result, error) {
		_, err := QueueLengthDistribution(m, 0)
		return nil, err
	})
}

func BenchmarkNormalizingConstant(b *testing.B) {
	m := benchLDModel()
	benchSolve(b, m, func(m *Model) (*Result, error) {
		_, err := NormalizingConstant(m)
		return nil, err
	})
}

func BenchmarkLinearizerMarginal(b *testing.B) {
	m := benchLDModel()
	benchSolve(b, m, withDefaults(Linearizer))
}

// BenchmarkSolveAutoApprox is auto's approximate path with its error estimate (Linearizer,
// Schweitzer for the spread, exact MVA and Linearizer at a smaller population).
func BenchmarkSolveAutoApprox(b *testing.B) {
	m := benchLDModel()
	m.Classes[0].Population, m.Classes[1].Population = 30000, 30000
	benchSolve(b, m, func(m *Model) (*Result, error) { return Solve(context.Background(), m, "auto", AMVAOptions{}) })
}

// A class that visits only a multi-server station and has no think time cannot exist
// without that station: the reduced network's G is 0 for it, so p_k(0|n) = 0 whenever one
// of its jobs is present (the "dead class" branch of the p(0) ratio). Against the CTMC.
func TestMVAMultiLDDeadClass(t *testing.T) {
	m := &Model{
		Classes: []Class{{Name: "a", Population: 3, ThinkTime: 1}, {Name: "b", Population: 2}},
		Stations: []Station{
			{Name: "ms", Kind: MultiServer, Servers: 2},
			{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 1.7}},
			{Name: "q", Kind: Queue},
		},
		Demand: [][]float64{{0.4, 0.3, 0.2}, {0.5, 0, 0}},
	}
	want, err := oracle(t, m, 5000)
	if err != nil {
		t.Fatal(err)
	}
	got := solveWith(t, mvaMulti, m)
	compareResults(t, "dead class", m, got, want, 1e-9)
}
