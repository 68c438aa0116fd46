package qn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomClosed builds a seeded random closed model with queue and delay stations.
func randomClosed(rng *rand.Rand, C, K int, maxN int) *Model {
	m := &Model{}
	for k := 0; k < K; k++ {
		st := Station{Name: fmt.Sprintf("k%d", k), Kind: Queue}
		if k == K-1 && K > 2 {
			st.Kind = Delay
		}
		m.Stations = append(m.Stations, st)
	}
	for c := 0; c < C; c++ {
		m.Classes = append(m.Classes, Class{Name: fmt.Sprintf("c%d", c), Population: 1 + rng.IntN(maxN), ThinkTime: rng.Float64() * 2})
		row := make([]float64, K)
		for k := range row {
			row[k] = 0.01 + rng.Float64()
		}
		m.Demand = append(m.Demand, row)
	}
	return m
}

// solveWith solves m with solve (MVASingle, MVAMulti, MVALD, …), failing t on an error.
func solveWith(t testing.TB, solve func(*Model) (*Result, error), m *Model) *Result {
	t.Helper()
	r, err := solve(m)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkInvariants verifies Little's law per station and class, N_c = X_c·(Z_c + R_c), and
// U = X·D at queue stations.
func checkInvariants(t *testing.T, m *Model, r *Result, tol float64) {
	t.Helper()
	for c, cl := range m.Classes {
		sumR := 0.0
		for k, s := range m.Stations {
			if e := relErr(r.QueueLength[k][c], r.Throughput[c]*r.Residence[k][c]); e > tol {
				t.Errorf("Little at %s/%s: Q=%g X·R=%g", s.Name, cl.Name, r.QueueLength[k][c], r.Throughput[c]*r.Residence[k][c])
			}
			if s.Kind == Queue {
				if e := relErr(r.Utilization[k][c], r.Throughput[c]*m.Demand[c][k]); e > tol {
					t.Errorf("U = X·D at %s/%s: U=%g X·D=%g", s.Name, cl.Name, r.Utilization[k][c], r.Throughput[c]*m.Demand[c][k])
				}
			}
			sumR += float64(s.Copies()) * r.Residence[k][c]
		}
		if e := relErr(r.ResponseTime[c], sumR); e > tol {
			t.Errorf("R_c = Σ residence: %g vs %g", r.ResponseTime[c], sumR)
		}
		if !cl.Open {
			if e := relErr(float64(cl.Population), r.Throughput[c]*(cl.ThinkTime+r.ResponseTime[c])); e > tol {
				t.Errorf("class %s: N=%d but X·(Z+R)=%g", cl.Name, cl.Population, r.Throughput[c]*(cl.ThinkTime+r.ResponseTime[c]))
			}
		}
	}
}

func TestInvariantsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 40; i++ {
		C := 1 + i%3
		m := randomClosed(rng, C, 2+i%5, 12)
		for _, solve := range []func(*Model) (*Result, error){
			func(m *Model) (*Result, error) { return Solve(context.Background(), m, "mva", AMVAOptions{}) },
			func(m *Model) (*Result, error) { return Schweitzer(m, AMVAOptions{}) },
			func(m *Model) (*Result, error) { return Linearizer(m, AMVAOptions{}) },
		} {
			r, err := solve(m)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, m, r, 1e-9)
		}
	}
}

// TestThroughputWithinBounds: exact X(n) lies within ABA and BJB for every n (QSP ch. 5).
func TestThroughputWithinBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 30; i++ {
		m := randomClosed(rng, 1, 2+i%6, 60)
		xs, rs, err := MVASingleTrajectory(m)
		if err != nil {
			t.Fatal(err)
		}
		for n := 1; n < len(xs); n++ {
			b, err := BoundsAt(m, n)
			if err != nil {
				t.Fatal(err)
			}
			eps := 1e-12 * xs[n]
			if xs[n] > b.XUpperABA+eps || xs[n] < b.XLowerABA-eps || xs[n] > b.XUpperBJB+eps || xs[n] < b.XLowerBJB-eps {
				t.Fatalf("model %d n=%d: X=%g outside ABA [%g,%g] or BJB [%g,%g]", i, n, xs[n], b.XLowerABA, b.XUpperABA, b.XLowerBJB, b.XUpperBJB)
			}
			reps := 1e-12 * rs[n]
			if rs[n] < b.RLowerBJB-reps || rs[n] > b.RUpperBJB+reps || rs[n] < b.RLowerABA-reps || rs[n] > b.RUpperABA+reps {
				t.Fatalf("model %d n=%d: R=%g outside BJB [%g,%g] / ABA [%g,%g]", i, n, rs[n], b.RLowerBJB, b.RUpperBJB, b.RLowerABA, b.RUpperABA)
			}
			if n > 1 && xs[n] < xs[n-1]*(1-1e-12) {
				t.Fatalf("throughput not monotone in N: X(%d)=%g < X(%d)=%g", n, xs[n], n-1, xs[n-1])
			}
		}
	}
}

// TestApproximateExactAtOne: with one customer there is no queueing, so Schweitzer and
// Linearizer equal exact MVA.
func TestApproximateExactAtOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 10; i++ {
		m := randomClosed(rng, 1, 3+i%4, 1)
		ex, _ := MVASingle(context.Background(), m)
		for _, f := range []func(*Model, AMVAOptions) (*Result, error){Schweitzer, Linearizer} {
			ap, err := f(m, AMVAOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(ap.Throughput[0], ex.Throughput[0]); e > 1e-12 {
				t.Errorf("%s at N=1: X=%g exact %g", ap.Solver, ap.Throughput[0], ex.Throughput[0])
			}
		}
	}
}

// TestLinearizerAccuracy measures the approximate solvers against exact multi-class MVA.
// Linearizer's worst relative throughput error must stay below 1 % and below Schweitzer's.
func TestLinearizerAccuracy(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	worstBS, worstLin := 0.0, 0.0
	for i := 0; i < 30; i++ {
		m := randomClosed(rng, 2+i%2, 3+i%3, 15)
		ex := solveWith(t, mvaMulti, m)
		bs, _ := Schweitzer(m, AMVAOptions{})
		lin, _ := Linearizer(m, AMVAOptions{})
		if !bs.Status.Converged || !lin.Status.Converged {
			t.Fatalf("not converged: %+v %+v", bs.Status, lin.Status)
		}
		for c := range m.Classes {
			worstBS = math.Max(worstBS, relErr(bs.Throughput[c], ex.Throughput[c]))
			worstLin = math.Max(worstLin, relErr(lin.Throughput[c], ex.Throughput[c]))
		}
	}
	t.Logf("worst relative throughput error over 30 random networks: Schweitzer %.3g, Linearizer %.3g", worstBS, worstLin)
	if worstLin > 0.01 || worstLin >= worstBS {
		t.Errorf("Linearizer worst error %.3g (Schweitzer %.3g)", worstLin, worstBS)
	}
}

// TestGroupEqualsCopies: a station with Count = P gives the same answer as P separate
// identical stations.
func TestGroupEqualsCopies(t *testing.T) {
	for _, kind := range []Kind{Queue, MultiServer, LoadDependent} {
		const P = 4
		grouped := &Model{Classes: []Class{{Name: "c", Population: 9, ThinkTime: 0.5}}}
		grouped.Stations = []Station{{Name: "net", Kind: Delay}, {Name: "cpu", Kind: kind, Servers: 2, Rates: []float64{1, 1.5, 1.8}, Count: P}}
		grouped.Demand = [][]float64{{0.3, 0.2}}
		sep := &Model{Classes: grouped.Classes, Stations: []Station{{Name: "net", Kind: Delay}}, Demand: [][]float64{{0.3}}}
		for i := 0; i < P; i++ {
			s := grouped.Stations[1]
			s.Count = 1
			s.Name = fmt.Sprint("cpu", i)
			sep.Stations = append(sep.Stations, s)
			sep.Demand[0] = append(sep.Demand[0], 0.2)
		}
		a := solveWith(t, bg(MVASingle), grouped)
		b := solveWith(t, bg(MVASingle), sep)
		if e := relErr(a.Throughput[0], b.Throughput[0]); e > 1e-12 {
			t.Errorf("%v: grouped X=%.15g separate %.15g", kind, a.Throughput[0], b.Throughput[0])
		}
		if e := relErr(a.QueueLength[1][0], b.QueueLength[1][0]); e > 1e-12 {
			t.Errorf("%v: grouped Q=%.15g separate %.15g", kind, a.QueueLength[1][0], b.QueueLength[1][0])
		}
	}
}

// repairman returns the throughput of the finite-source M/M/m//N queue (m servers with
// demand D, N customers thinking Z), from the closed form
// p(n) ∝ N!/(N−n)! · (D/Z)^n / Π_{i≤n} min(i, m), X = Σ p(n)·min(n, m)/D, in log space.
func repairman(N, m int, D, Z float64) float64 {
	logw := make([]float64, N+1)
	mx := 0.0
	for n := 1; n <= N; n++ {
		logw[n] = logw[n-1] + math.Log(float64(N-n+1)) + math.Log(D/Z) - math.Log(float64(min(n, m)))
		mx = math.Max(mx, logw[n])
	}
	num, den := 0.0, 0.0
	for n := 0; n <= N; n++ {
		w := math.Exp(logw[n] - mx)
		den += w
		num += w * float64(min(n, m)) / D
	}
	return num / den
}

// textbookMultiServerP0 runs the textbook recursion p(0|n) = 1 − Σ_{j≥1} p(j|n) for the
// same repairman model and returns the smallest p(0|n) it produced: it goes negative.
func textbookMultiServerP0(N, m int, D, Z float64) float64 {
	p := make([]float64, N+1)
	p[0] = 1
	minP0 := 1.0
	for n := 1; n <= N; n++ {
		sum := 0.0
		for j := 1; j <= n; j++ {
			sum += float64(j) / float64(min(j, m)) * p[j-1]
		}
		x := float64(n) / (Z + D*sum)
		tot := 0.0
		for j := n; j >= 1; j-- {
			p[j] = D * x / float64(min(j, m)) * p[j-1]
			tot += p[j]
		}
		p[0] = 1 - tot
		minP0 = math.Min(minP0, p[0])
	}
	return minP0
}

// TestMultiServerLargeN: the marginal recursion stays exact at N = 10⁴ where the textbook
// form cancels to a negative probability. Expected values: closed form of M/M/m//N.
func TestMultiServerLargeN(t *testing.T) {
	for _, tc := range []struct {
		N, m int
		D, Z float64
	}{{10000, 64, 1, 100}, {10000, 8, 0.01, 1}, {2000, 16, 0.5, 30}, {10000, 2, 0.3, 1000}} {
		m := &Model{
			Classes:  []Class{{Name: "c", Population: tc.N, ThinkTime: tc.Z}},
			Stations: []Station{{Name: "ms", Kind: MultiServer, Servers: tc.m}},
			Demand:   [][]float64{{tc.D}},
		}
		r := solveWith(t, bg(MVASingle), m)
		want := repairman(tc.N, tc.m, tc.D, tc.Z)
		if e := relErr(r.Throughput[0], want); e > 1e-9 {
			t.Errorf("N=%d m=%d: X=%.15g closed form %.15g (rel %.2g)", tc.N, tc.m, r.Throughput[0], want, e)
		}
		// Load-dependent form of the same station: α(j) = min(j, m).
		ld := m.Clone()
		ld.Stations[0] = Station{Name: "ld", Kind: LoadDependent}
		for j := 1; j <= tc.m; j++ {
			ld.Stations[0].Rates = append(ld.Stations[0].Rates, float64(j))
		}
		if tc.N <= 2000 {
			r2 := solveWith(t, bg(MVASingle), ld)
			if e := relErr(r2.Throughput[0], want); e > 1e-9 {
				t.Errorf("LD form N=%d: X=%.15g closed form %.15g", tc.N, r2.Throughput[0], want)
			}
		}
	}
	if p0 := textbookMultiServerP0(3000, 64, 1, 100); p0 >= 0 {
		t.Logf("textbook recursion stayed non-negative here (min p0 = %g)", p0)
	} else {
		t.Logf("textbook recursion p(0|n) reaches %g: the cancellation this solver avoids", p0)
	}
}

// TestOpenMultiClass checks the multi-class open solver against closed-form M/M/1, M/M/m
// and IS formulas (Octave's qnom is wrong for these, see docs/octave-queueing-notes).
func TestOpenMultiClass(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "a", Open: true, ArrivalRate: 2}, {Name: "b", Open: true, ArrivalRate: 1}},
		Stations: []Station{{Name: "q", Kind: Queue}, {Name: "mm3", Kind: MultiServer, Servers: 3}, {Name: "is", Kind: Delay}},
		Demand:   [][]float64{{0.1, 0.5, 2}, {0.3, 0.6, 1}},
	}
	r, err := Open(m)
	if err != nil {
		t.Fatal(err)
	}
	// queue: U = 2·0.1 + 1·0.3 = 0.5, R = D/(1−U)
	if e := relErr(r.Residence[0][0], 0.1/0.5); e > 1e-12 {
		t.Errorf("M/M/1 R: %g", r.Residence[0][0])
	}
	// M/M/3: a = 2·0.5 + 1·0.6 = 1.6; Erlang C(3, 1.6) from the explicit formula
	a, mm := 1.6, 3.0
	sum := 1 + a + a*a/2
	top := a * a * a / 6 * mm / (mm - a)
	ec := top / (sum + top)
	if e := relErr(r.Residence[1][1], 0.6*(1+ec/(mm-a))); e > 1e-12 {
		t.Errorf("M/M/3 R: %g want %g", r.Residence[1][1], 0.6*(1+ec/(mm-a)))
	}
	if r.Residence[2][0] != 2 || r.Residence[2][1] != 1 {
		t.Errorf("IS R = D: %v", r.Residence[2])
	}
	checkInvariants(t, m, r, 1e-12)
	m.Classes[0].ArrivalRate = 6
	_, err = Open(m)
	var se *SaturationError
	// mm3 carries 6·0.5 + 1·0.6 = 3.6 busy servers of 3: 1.2 per server; q only 0.9.
	if !errorsAs(err, &se) || se.Station != "mm3" || relErr(se.Utilization, 1.2) > 1e-12 {
		t.Errorf("want saturation at mm3 (1.2), got %v", err)
	}
}

// TestMixedWithDelay checks the mixed solver where Octave's qnmix crashes (delay centres):
// against an equivalent computation by hand of QSP §7.4.
func TestMixedWithDelay(t *testing.T) {
	m := &Model{
		Classes:  []Class{{Name: "o", Open: true, ArrivalRate: 0.5}, {Name: "c", Population: 3, ThinkTime: 1}},
		Stations: []Station{{Name: "cpu", Kind: Queue}, {Name: "term", Kind: Delay}},
		Demand:   [][]float64{{0.4, 1}, {0.2, 0.5}},
	}
	r, err := Mixed(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	uo := 0.5 * 0.4
	cm := &Model{Classes: []Class{m.Classes[1]}, Stations: m.Stations, Demand: [][]float64{{0.2 / (1 - uo), 0.5}}}
	cr, _ := MVASingle(context.Background(), cm)
	if e := relErr(r.Throughput[1], cr.Throughput[0]); e > 1e-12 {
		t.Errorf("closed X %g vs %g", r.Throughput[1], cr.Throughput[0])
	}
	wantR := 0.4*(1+cr.QueueLength[0][0])/(1-uo) + 1
	if e := relErr(r.ResponseTime[0], wantR); e > 1e-12 {
		t.Errorf("open R %g want %g", r.ResponseTime[0], wantR)
	}
	checkInvariants(t, m, r, 1e-12)
}

// bg is solver f run with context.Background(), as a func(*Model) for the tables of
// solvers the tests compare.
func bg(f func(context.Context, *Model) (*Result, error)) func(*Model) (*Result, error) {
	return func(m *Model) (*Result, error) { return f(context.Background(), m) }
}

// integralDefault is Integral with its default budget (IntegralMaxPoints).
func integralDefault(m *Model) (*Result, error) {
	return Integral(context.Background(), m, IntegralMaxPoints)
}
