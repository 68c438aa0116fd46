package qn

import (
	"context"
	"encoding/json"
	"flag"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

var updateSingle = flag.Bool("update-single", false, "rewrite testdata/mva-single-golden.json from the current single-class solver")

// singleGolden is one random network's exact single-class MVA result through Solve "mva".
type singleGolden struct {
	Model       *Model    `json:"model"`
	Throughput  float64   `json:"throughput"`
	Response    float64   `json:"response"`
	Residence   []float64 `json:"residence"`
	QueueLength []float64 `json:"queue_length"`
	Utilization []float64 `json:"utilization"`
}

// randomSingle draws a single-class closed network: 1–12 stations (queues, delays, multi-
// server with 1–8 servers, load-dependent with 1–4 rates, sometimes several copies, now and
// then a zero demand), population 0–300 (every tenth network 1000–5000 jobs on up to 60
// queue/delay stations, the suite's shape), think time 0 or random, and all times scaled
// by 10^e, e in [−6, 6] (Solve's power-of-two time scaling).
func randomSingle(rng *rand.Rand, i int) *Model {
	K, N, big := 1+rng.IntN(12), rng.IntN(301), i%10 == 9
	if big {
		K, N = 1+rng.IntN(60), 1000+rng.IntN(4001)
	}
	scale := math.Pow(10, float64(rng.IntN(13)-6))
	m := &Model{Classes: []Class{{Name: "c", Population: N}}, Demand: [][]float64{make([]float64, K)}}
	if rng.IntN(2) == 0 {
		m.Classes[0].ThinkTime = scale * rng.Float64()
	}
	for k := 0; k < K; k++ {
		st := Station{Name: "s", Kind: Queue}
		switch u := rng.IntN(10); {
		case u < 2:
			st.Kind = Delay
		case u == 2 && !big:
			st.Kind, st.Servers = MultiServer, 1+rng.IntN(8)
		case u == 3 && !big:
			st.Kind = LoadDependent
			for j := 0; j <= rng.IntN(4); j++ {
				st.Rates = append(st.Rates, 0.5+2*rng.Float64())
			}
		}
		if rng.IntN(5) == 0 {
			st.Count = 1 + rng.IntN(3)
		}
		m.Stations = append(m.Stations, st)
		if rng.IntN(15) != 0 {
			m.Demand[0][k] = scale * rng.Float64() * 0.1
		}
	}
	if m.Classes[0].ThinkTime == 0 && m.Demand[0][0] == 0 {
		m.Demand[0][0] = scale * 0.05
	}
	return m
}

func solveGolden(t *testing.T, m *Model) singleGolden {
	t.Helper()
	r, err := Solve(context.Background(), m, "mva", AMVAOptions{})
	if err != nil {
		t.Fatalf("%+v: %v", m, err)
	}
	g := singleGolden{Throughput: r.Throughput[0], Response: r.ResponseTime[0]}
	for k := range m.Stations {
		g.Residence = append(g.Residence, r.Residence[k][0])
		g.QueueLength = append(g.QueueLength, r.QueueLength[k][0])
		g.Utilization = append(g.Utilization, r.Utilization[k][0])
	}
	return g
}

// TestSingleClassGolden: exact single-class MVA through Solve "mva" on 150 random networks
// (randomSingle, seeded) gives the results of the solver as it was at commit 3f74893
// (before issue 20's speed-up of the public path), stored in testdata/mva-single-golden.json
// (written with -update-single by that solver; JSON floats round-trip exactly): every
// number within 1e-15 relative (bit-identical on amd64; another architecture may fuse
// multiply-adds differently).
func TestSingleClassGolden(t *testing.T) {
	path := filepath.Join("testdata", "mva-single-golden.json")
	rng := rand.New(rand.NewPCG(20, 1123))
	var got []singleGolden
	var models []*Model
	for i := 0; i < 150; i++ {
		models = append(models, randomSingle(rng, i))
		got = append(got, solveGolden(t, models[i]))
	}
	if *updateSingle {
		b, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []singleGolden
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) != len(got) {
		t.Fatalf("%d golden networks, %d solved", len(want), len(got))
	}
	worst, differ, total := 0.0, 0, 0
	for i := range got {
		g, w := got[i], want[i]
		gs := append([]float64{g.Throughput, g.Response}, append(append(g.Residence, g.QueueLength...), g.Utilization...)...)
		ws := append([]float64{w.Throughput, w.Response}, append(append(w.Residence, w.QueueLength...), w.Utilization...)...)
		if len(gs) != len(ws) {
			t.Fatalf("network %d: %d numbers, golden %d", i, len(gs), len(ws))
		}
		for j := range gs {
			total++
			if gs[j] == ws[j] {
				continue
			}
			differ++
			d := math.Abs(gs[j]-ws[j]) / math.Abs(ws[j])
			worst = math.Max(worst, d)
			if !(d <= 1e-15) {
				t.Errorf("network %d (N=%d, K=%d), number %d: %.17g, golden %.17g (rel. diff %.2g)", i, models[i].Classes[0].Population, len(models[i].Stations), j, gs[j], ws[j], d)
			}
		}
	}
	t.Logf("%d numbers, %d not bit-identical, worst rel. diff %.2g", total, differ, worst)
}
