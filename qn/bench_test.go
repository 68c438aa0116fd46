package qn

import (
	"fmt"
	"testing"
)

// Benchmarks named in issue 2. Run:
//   go test ./qn -run '^$' -bench . -benchmem
// BenchmarkMVAMultiThesis takes seconds per iteration; add -benchtime=1x for one run.

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
	for b.Loop() {
		if _, err := MVASingle(m); err != nil {
			b.Fatal(err)
		}
	}
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
	for b.Loop() {
		if _, err := MVASingle(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMultiServerN1e4(b *testing.B) {
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 10000, ThinkTime: 100}},
		Stations: []Station{{Name: "ms", Kind: MultiServer, Servers: 64}, {Name: "q", Kind: Queue}},
		Demand:   [][]float64{{1, 0.001}},
	}
	for b.Loop() {
		if _, err := MVASingle(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadDependentN1e4(b *testing.B) {
	m := &Model{
		Classes:  []Class{{Name: "c", Population: 10000, ThinkTime: 100}},
		Stations: []Station{{Name: "ld", Kind: LoadDependent, Rates: []float64{1, 1.8, 2.5, 3}}, {Name: "q", Kind: Queue}},
		Demand:   [][]float64{{0.03, 0.001}},
	}
	for b.Loop() {
		if _, err := MVASingle(m); err != nil {
			b.Fatal(err)
		}
	}
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
	for b.Loop() {
		if _, err := MVAMulti(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLinearizerThesis(b *testing.B) {
	m := ThesisNetwork()
	for b.Loop() {
		if _, err := Linearizer(m, AMVAOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSchweitzerThesis(b *testing.B) {
	m := ThesisNetwork()
	for b.Loop() {
		if _, err := Schweitzer(m, AMVAOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// MomentsNetworkC4 is the issue-20 network of 4 classes with n jobs each on K = 5 stations
// (4 queues and a delay); its lattice at n = 1000 has 10¹² population vectors, out of reach
// of exact MVA. Demands are fixed, arbitrary values in the thesis network's range.
func MomentsNetworkC4(n int) *Model {
	m := &Model{
		Stations: []Station{
			{Name: "k1", Kind: Queue}, {Name: "k2", Kind: Queue}, {Name: "k3", Kind: Queue},
			{Name: "k4", Kind: Queue}, {Name: "k5", Kind: Delay},
		},
		Demand: [][]float64{
			{0.010, 0.020, 0.015, 0.005, 0.5},
			{0.030, 0.010, 0.020, 0.025, 1.0},
			{0.020, 0.040, 0.010, 0.030, 0.2},
			{0.015, 0.025, 0.035, 0.010, 0.8},
		},
	}
	for c := 0; c < 4; c++ {
		m.Classes = append(m.Classes, Class{Name: fmt.Sprintf("c%d", c+1), Population: n})
	}
	return m
}

// BenchmarkComomThesis: the thesis network by the class-oriented Method of Moments
// (exact, verified precision); compare BenchmarkMVAMultiThesis.
func BenchmarkComomThesis(b *testing.B) {
	m := ThesisNetwork()
	for b.Loop() {
		if _, err := Comom(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMomentsC3x400: 3 classes × 400 jobs on 2 queues and a delay (comomAutoModel),
// where Solve's auto picks Comom over exact MVA (6.5e7 population vectors).
func BenchmarkMomentsC3x400(b *testing.B) {
	m := comomAutoModel()
	for b.Loop() {
		if _, err := Comom(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMVAMultiC3x400 is exact MVA on the same network, for comparison.
func BenchmarkMVAMultiC3x400(b *testing.B) {
	m := comomAutoModel()
	for b.Loop() {
		if _, err := MVAMulti(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMomentsThesisQuarter: the thesis network at N/4 = (1023, 44, 31).
func BenchmarkMomentsThesisQuarter(b *testing.B) {
	m := ThesisNetwork()
	for c := range m.Classes {
		m.Classes[c].Population /= 4
	}
	for b.Loop() {
		if _, err := Comom(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMomentsC4x1000: 4 classes × 1000 jobs on 5 stations (issue 20's second target),
// here with 2 queues and 3 delays (MomentsNetworkC4 with k3, k4 as delays): 10¹² population
// vectors. With 3 or 4 queues Comom does not settle within its budget (ComomMaxWork).
func BenchmarkMomentsC4x1000(b *testing.B) {
	m := MomentsNetworkC4(1000)
	m.Stations[2].Kind, m.Stations[3].Kind = Delay, Delay
	for b.Loop() {
		if _, err := Comom(m); err != nil {
			b.Fatal(err)
		}
	}
}
