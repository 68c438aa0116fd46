package qn

import (
	"fmt"
	"testing"
)

// Benchmarks named in issue 2. Run:
//   go test ./qn -run '^$' -bench . -benchmem
// BenchmarkMVAMultiThesis takes seconds per iteration; add -benchtime=1x for one run.

// benchSolve is the body of the solver benchmarks: solve m once per iteration.
func benchSolve(b *testing.B, m *Model, solve func(*Model) (*Result, error)) {
	b.Helper()
	for b.Loop() {
		if _, err := solve(m); err != nil {
			b.Fatal(err)
		}
	}
}

// mvaMulti is MVAMulti with its default options, for benchSolve and tables of solvers.
func mvaMulti(m *Model) (*Result, error) { return MVAMulti(m) }

// withDefaults is an approximate solver with its default options.
func withDefaults(solve func(*Model, AMVAOptions) (*Result, error)) func(*Model) (*Result, error) {
	return func(m *Model) (*Result, error) { return solve(m, AMVAOptions{}) }
}

// onWorkers is a parallel exact solver on w workers (≤ 0: GOMAXPROCS), without its stats.
func onWorkers(solve func(*Model, int, ...ExactOption) (*Result, *ParallelStats, error), w int) func(*Model) (*Result, error) {
	return func(m *Model) (*Result, error) {
		r, _, err := solve(m, w)
		return r, err
	}
}

func benchSingle(N, K int) *Model {
	m := &Model{Classes: []Class{{Name: "c", Population: N, ThinkTime: 1}}}
	row := make([]float64, K)
	for k := 0; k < K; k++ {
		m.Stations = append(m.Stations, Station{Name: "k", Kind: Queue})
		row[k] = 0.01 * float64(k+1)
	}
	m.Stations[K-1].Kind = Delay
	m.Demand = [][]float64{row}
	return m
}

func BenchmarkMVASingleN1e6K10(b *testing.B) {
	m := benchSingle(1_000_000, 10)
	benchSolve(b, m, bg(MVASingle))
}

// KeckModel is the 004 model: switch delay, P identical CPU queues, computation delay.
func KeckModel(P int, d0, dk, dc float64) *Model {
	return &Model{
		Classes: []Class{{Name: "messages", Population: P}},
		Stations: []Station{
			{Name: "switch", Kind: Delay},
			{Name: "cpu", Kind: Queue, Count: P},
			{Name: "compute", Kind: Delay},
		},
		Demand: [][]float64{{d0, dk, dc}},
	}
}

func BenchmarkKeckP65536(b *testing.B) {
	m := KeckModel(65536, 144.133e-6, 254.474e-9, 221.995e-6)
	benchSolve(b, m, bg(MVASingle))
}

func BenchmarkMultiServerN1e4(b *testing.B) {
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 10000, ThinkTime: 100}},
		Stations: []Station{{Name: "ms", Kind: MultiServer, Servers: 64}, {Name: "q", Kind: Queue}},
		Demand:   [][]float64{{1, 0.001}},
	}
	benchSolve(b, m, bg(MVASingle))
}

func BenchmarkLoadDependentN1e4(b *testing.B) {
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 10000, ThinkTime: 100}},
		Stations: []Station{{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 1.8, 2.5, 3}}, {Name: "q", Kind: Queue}},
		Demand:   [][]float64{{0.03, 0.001}},
	}
	benchSolve(b, m, bg(MVASingle))
}

// ThesisNetwork is the benchmark network of 001 §6.1.4: C = 3, K = 5,
// N = (4095, 177, 127). The thesis does not print its demands; these are fixed, arbitrary
// values (the cost of exact MVA does not depend on them).
func ThesisNetwork() *Model {
	return &Model{
		Classes: []Class{{Name: "c1", Population: 4095}, {Name: "c2", Population: 177}, {Name: "c3", Population: 127, ThinkTime: 2}},
		Stations: []Station{
			{Name: "k1", Kind: Queue}, {Name: "k2", Kind: Queue}, {Name: "k3", Kind: Queue},
			{Name: "k4", Kind: Queue}, {Name: "k5", Kind: Delay},
		},
		Demand: [][]float64{
			{0.010, 0.020, 0.015, 0.005, 0.5},
			{0.030, 0.010, 0.020, 0.025, 1.0},
			{0.020, 0.040, 0.010, 0.030, 0.2},
		},
	}
}

func BenchmarkMVAMultiThesis(b *testing.B) {
	m := ThesisNetwork()
	benchSolve(b, m, mvaMulti)
}

func BenchmarkLinearizerThesis(b *testing.B) {
	m := ThesisNetwork()
	benchSolve(b, m, withDefaults(Linearizer))
}

func BenchmarkSchweitzerThesis(b *testing.B) {
	m := ThesisNetwork()
	benchSolve(b, m, withDefaults(Schweitzer))
}

// MomentsNetworkC4 is the issue-20 network of 4 classes with n jobs each (no think time) on
// the thesis network's K = 5 stations (4 queues and a delay); its lattice at n = 1000 has
// 10¹² population vectors, out of reach of exact MVA. Demands: the thesis network's three
// rows and a fourth of fixed, arbitrary values in their range.
func MomentsNetworkC4(n int) *Model {
	m := ThesisNetwork()
	m.Demand = append(m.Demand, []float64{0.015, 0.025, 0.035, 0.010, 0.8})
	m.Classes = nil
	for c := range m.Demand {
		m.Classes = append(m.Classes, Class{Name: fmt.Sprintf("c%d", c+1), Population: n})
	}
	return m
}

// BenchmarkComomThesis: the thesis network by the class-oriented Method of Moments
// (exact, verified precision); compare BenchmarkMVAMultiThesis.
func BenchmarkComomThesis(b *testing.B) {
	m := ThesisNetwork()
	benchSolve(b, m, bg(Comom))
}

// BenchmarkMomentsC3x400: 3 classes × 400 jobs on 2 queues and a delay (comomAutoModel),
// where Solve's auto picks Comom over exact MVA (6.5e7 population vectors).
func BenchmarkMomentsC3x400(b *testing.B) {
	m := comomAutoModel()
	benchSolve(b, m, bg(Comom))
}

// BenchmarkMVAMultiC3x400 is exact MVA on the same network, for comparison.
func BenchmarkMVAMultiC3x400(b *testing.B) {
	m := comomAutoModel()
	benchSolve(b, m, mvaMulti)
}

// BenchmarkMomentsThesisQuarter: the thesis network at N/4 = (1023, 44, 31).
func BenchmarkMomentsThesisQuarter(b *testing.B) {
	m := ThesisNetwork()
	for c := range m.Classes {
		m.Classes[c].Population /= 4
	}
	benchSolve(b, m, bg(Comom))
}

// BenchmarkMomentsC4x1000: 4 classes × 1000 jobs on 5 stations (issue 20's second target),
// here with 2 queues and 3 delays (MomentsNetworkC4 with k3, k4 as delays): 10¹² population
// vectors. With 3 or 4 queues Comom does not settle within its budget (ComomMaxWork).
func BenchmarkMomentsC4x1000(b *testing.B) {
	m := MomentsNetworkC4(1000)
	m.Stations[2].Kind, m.Stations[3].Kind = Delay, Delay
	benchSolve(b, m, bg(Comom))
}
