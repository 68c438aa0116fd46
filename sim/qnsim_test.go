package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/qn"
)

func randomNet(rng *rand.Rand, C, K int) *qn.Model {
	m := &qn.Model{}
	kinds := []qn.Kind{qn.Queue, qn.Delay, qn.MultiServer, qn.Queue}
	for k := 0; k < K; k++ {
		st := qn.Station{Name: fmt.Sprint("k", k), Kind: kinds[k%len(kinds)]}
		if st.Kind == qn.MultiServer {
			st.Servers = 2
			if C > 1 {
				st.Kind = qn.Queue // exact multi-class MVA: queue and delay only
			}
		}
		m.Stations = append(m.Stations, st)
	}
	for c := 0; c < C; c++ {
		m.Classes = append(m.Classes, qn.Class{Name: fmt.Sprint("c", c), Population: 2 + rng.IntN(6), ThinkTime: rng.Float64()})
		row := make([]float64, K)
		for k := range row {
			row[k] = 0.05 + 0.3*rng.Float64()
		}
		m.Demand = append(m.Demand, row)
	}
	return m
}

// TestAgreesWithMVA: on product-form networks (exponential service; FCFS with
// class-independent service time per station, or PS, or IS, multi-server) the exact MVA
// values lie inside the simulation's 95 % intervals in about 95 % of the (network, metric)
// cases; we require at least 85 % over 12 seeded networks (throughputs, response times,
// utilisations).
func TestAgreesWithMVA(t *testing.T) {
	rng := rand.New(rand.NewPCG(99, 1))
	inside, total := 0, 0
	for i := 0; i < 12; i++ {
		C := 1 + i%2
		m := randomNet(rng, C, 3+i%3)
		cfg := Config{Events: 40000, Discipline: map[string]Discipline{}}
		if C > 1 { // multi-class FCFS with class-dependent times is not product form: use PS
			for _, st := range m.Stations {
				cfg.Discipline[st.Name] = PS
			}
		}
		exact, err := qn.Solve(context.Background(), m, "mva", qn.AMVAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(m, cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Replicate(Options{Seed: uint64(i + 1), Reps: 10})
		if err != nil {
			t.Fatal(err)
		}
		check := func(what string, e Estimate, v float64) {
			total++
			if e.Contains(v) {
				inside++
			} else if testing.Verbose() {
				t.Logf("net %d %s: exact %.5g, simulated %.5g ± %.3g", i, what, v, e.Mean, e.Half)
			}
		}
		for c := range m.Classes {
			check(fmt.Sprint("X", c), res.Throughput[c], exact.Throughput[c])
			check(fmt.Sprint("R", c), res.ResponseTime[c], exact.ResponseTime[c])
		}
		for k := range m.Stations {
			check(fmt.Sprint("U", k), res.Utilization[k], exact.StationUtilization(k))
		}
	}
	share := float64(inside) / float64(total)
	t.Logf("exact MVA inside the 95 %% interval in %d of %d cases (%.0f %%)", inside, total, 100*share)
	if share < 0.85 {
		t.Errorf("coverage %.2f", share)
	}
}

// TestReproducible: the same seed gives the same numbers.
func TestReproducible(t *testing.T) {
	m := randomNet(rand.New(rand.NewPCG(1, 2)), 1, 4)
	s, _ := New(m, Config{Events: 5000})
	a, _ := s.Replicate(Options{Seed: 7, Reps: 4})
	b, _ := s.Replicate(Options{Seed: 7, Reps: 4, Workers: 1})
	if a.Throughput[0] != b.Throughput[0] || a.ResponseTime[0] != b.ResponseTime[0] {
		t.Errorf("seed 7 gave %v and %v", a.Throughput[0], b.Throughput[0])
	}
}

// BenchmarkEvents: a closed network of 10 stations, one replication on one core; reports
// events per second.
func BenchmarkEvents(b *testing.B) {
	m := &qn.Model{Classes: []qn.Class{{Name: "c", Population: 20, ThinkTime: 1}}}
	row := make([]float64, 10)
	for k := 0; k < 10; k++ {
		kind := qn.Queue
		if k == 9 {
			kind = qn.Delay
		}
		m.Stations = append(m.Stations, qn.Station{Name: fmt.Sprint("k", k), Kind: kind})
		row[k] = 0.01 * float64(k+1)
	}
	m.Demand = [][]float64{row}
	s, _ := New(m, Config{Events: 1_000_000})
	var events int64
	for b.Loop() {
		r, err := s.Run(1, uint64(b.N))
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

func benchReplicate(b *testing.B, workers int) {
	m := &qn.Model{Classes: []qn.Class{{Name: "c", Population: 20, ThinkTime: 1}}}
	row := make([]float64, 10)
	for k := 0; k < 10; k++ {
		m.Stations = append(m.Stations, qn.Station{Name: fmt.Sprint("k", k), Kind: qn.Queue})
		row[k] = 0.01 * float64(k+1)
	}
	m.Demand = [][]float64{row}
	s, _ := New(m, Config{Events: 200_000})
	var events int64
	for b.Loop() {
		r, err := s.Replicate(Options{Seed: 1, Reps: 8, Workers: workers})
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkReplicate1 and BenchmarkReplicate2: 8 replications on one and on two workers.
func BenchmarkReplicate1(b *testing.B) { benchReplicate(b, 1) }
func BenchmarkReplicate2(b *testing.B) { benchReplicate(b, 2) }
