package qn

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/clusterperf/clusterperf/internal/ctmc"
)

// bruteG sums the product form over every state (BGdMT eq. 8.3 with the BCMP factors):
// G(N) = Σ Π_k F_k(n_k) · Π_c Z_c^{m_c}/m_c!, F_k(n) = |n|!·Π_c D^{n_c}/n_c! / Π_{j≤|n|} α(j).
// It also returns the distribution of the total number of jobs at station dk.
func bruteG(m *Model, dk int) (float64, []float64) {
	K, C := len(m.Stations), len(m.Classes)
	total := 0
	for _, cl := range m.Classes {
		total += cl.Population
	}
	dist := make([]float64, total+1)
	n := make([][]int, K+1) // n[k][c], k = K: thinking
	for k := range n {
		n[k] = make([]int, C)
	}
	fact := func(i int) float64 { return math.Gamma(float64(i + 1)) }
	G := 0.0
	var rec func(c, k, left int)
	rec = func(c, k, left int) {
		if c == C {
			w := 1.0
			for kk := 0; kk < K; kk++ {
				tot := 0
				for cc := 0; cc < C; cc++ {
					tot += n[kk][cc]
					w *= math.Pow(m.Demand[cc][kk], float64(n[kk][cc])) / fact(n[kk][cc])
				}
				w *= fact(tot)
				for j := 1; j <= tot; j++ {
					w /= m.Stations[kk].alpha(j)
				}
			}
			for cc := 0; cc < C; cc++ {
				w *= math.Pow(m.Classes[cc].ThinkTime, float64(n[K][cc])) / fact(n[K][cc])
			}
			G += w
			tk := 0
			for cc := 0; cc < C; cc++ {
				tk += n[dk][cc]
			}
			dist[tk] += w
			return
		}
		if k == K {
			n[K][c] = left
			rec(c+1, 0, m.Classes[min(c+1, C-1)].Population)
			n[K][c] = 0
			return
		}
		for j := 0; j <= left; j++ {
			n[k][c] = j
			rec(c, k+1, left-j)
		}
		n[k][c] = 0
	}
	rec(0, 0, m.Classes[0].Population)
	for j := range dist {
		dist[j] /= G
	}
	return G, dist
}

// ln G(N) against brute-force summation of the product form, and P(n_k = j) against both
// the brute force and the CTMC oracle, on random small networks with every station kind.
func TestNormalizingConstantAndDistribution(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	done := 0
	for tries := 0; done < 25 && tries < 500; tries++ {
		m := randomLDModel(rng)
		for k := range m.Stations {
			m.Stations[k].Count = 0
		}
		k := rng.IntN(len(m.Stations))
		want, ctmcOK := oracleMarginal(t, m, k)
		if !ctmcOK {
			continue
		}
		done++
		G, dist := bruteG(m, k)
		lg, err := NormalizingConstant(m)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(lg-math.Log(G)) > 1e-12*math.Max(1, math.Abs(lg)) {
			t.Errorf("case %d: ln G = %.15g, brute force %.15g", done, lg, math.Log(G))
		}
		got, err := QueueLengthDistribution(m, k)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(dist) {
			t.Fatalf("case %d: %d probabilities, want %d", done, len(got), len(dist))
		}
		for j := range got {
			if !(math.Abs(got[j]-dist[j]) <= 1e-12*dist[j]+1e-300) {
				t.Errorf("case %d (%v): P(n=%d) = %.15g, brute force %.15g", done, m.Stations[k].Kind, j, got[j], dist[j])
			}
			if !(math.Abs(got[j]-want[j]) <= 1e-9*want[j]+1e-15) {
				t.Errorf("case %d (%v): P(n=%d) = %.15g, CTMC %.15g", done, m.Stations[k].Kind, j, got[j], want[j])
			}
		}
	}
	if done < 20 {
		t.Fatalf("only %d cases", done)
	}
}

func oracleMarginal(t *testing.T, m *Model, k int) ([]float64, bool) {
	t.Helper()
	var capf []func(int) float64
	for _, st := range m.Stations {
		st := st
		capf = append(capf, func(n int) float64 { return st.alpha(n) })
	}
	Z := make([]float64, len(m.Classes))
	N := make([]int, len(m.Classes))
	for c, cl := range m.Classes {
		Z[c], N[c] = cl.ThinkTime, cl.Population
	}
	sol, err := ctmc.Solve(ctmc.Demands(capf, m.Demand, Z, N), 500)
	if errors.Is(err, ctmc.ErrTooLarge) {
		return nil, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return sol.Marginal[k], true
}

// Closed form: one queue, two classes, no think time: G = (N₁+N₂)!/(N₁!N₂!)·D₁^N₁·D₂^N₂
// (all jobs at the queue), at populations where G itself overflows float64.
func TestNormalizingConstantLarge(t *testing.T) {
	N1, N2 := 400, 300
	m := &Model{Classes: []Class{{Name: "a", Population: N1}, {Name: "b", Population: N2}},
		Stations: []Station{{Name: "q", Kind: Queue}}, Demand: [][]float64{{20}, {7}}}
	lg, err := NormalizingConstant(m)
	if err != nil {
		t.Fatal(err)
	}
	lf := func(n int) float64 { v, _ := math.Lgamma(float64(n + 1)); return v }
	want := lf(N1+N2) - lf(N1) - lf(N2) + float64(N1)*math.Log(20) + float64(N2)*math.Log(7)
	if math.Abs(lg-want) > 1e-12*want {
		t.Errorf("ln G = %.15g, closed form %.15g", lg, want)
	}
}

// At large populations and a saturated station, the distribution stays a distribution
// (p ≥ 0, Σ p = 1) and its mean is the queue length exact MVA gives (invariant).
func TestQueueLengthDistributionLarge(t *testing.T) {
	m := &Model{
		Classes: []Class{{Name: "a", Population: 120, ThinkTime: 5}, {Name: "b", Population: 80, ThinkTime: 1}},
		Stations: []Station{
			{Name: "ms", Kind: MultiServer, Servers: 4},
			{Name: "q", Kind: Queue},
			{Name: "d", Kind: Delay},
		},
		Demand: [][]float64{{0.2, 0.05, 1}, {0.1, 0.02, 2}},
	}
	r, err := MVAMulti(m)
	if err != nil {
		t.Fatal(err)
	}
	for k := range m.Stations {
		p, err := QueueLengthDistribution(m, k)
		if err != nil {
			t.Fatal(err)
		}
		sum, mean := 0.0, 0.0
		for j, v := range p {
			if !(v >= 0) {
				t.Fatalf("station %d: P(n=%d) = %g", k, j, v)
			}
			sum += v
			mean += float64(j) * v
		}
		if math.Abs(sum-1) > 1e-12 || !closeTo(mean, r.StationQueueLength(k), 1e-10) {
			t.Errorf("station %d: Σp = %.15g, mean %.15g, MVA Q %.15g", k, sum, mean, r.StationQueueLength(k))
		}
	}
	if u := r.StationUtilization(0); u < 0.99 {
		t.Fatalf("test network no longer saturates the 4-server station (U = %g)", u)
	}
}
