package queue

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestTextbook checks values printed in textbooks and in Octave's own test blocks.
func TestTextbook(t *testing.T) {
	// Octave qsmmmk.m test blocks ("an example I found on the web"): M/M/3/7, λ = 40, μ = 30:
	// p0 = 0.255037, R = 0.036517; M/M/2/5, λ = 3, μ = 2: p0 = 0.179334, pK = 0.085113,
	// Q = 2.00595, W = R − 1/μ = 0.230857.
	r, err := MMmK(40, 30, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.PEmpty-0.255037) > 1e-6 || math.Abs(r.ResponseTime-0.036517) > 1e-6 {
		t.Errorf("M/M/3/7: p0 %.7g R %.7g, want 0.255037 0.036517", r.PEmpty, r.ResponseTime)
	}
	r, err = MMmK(3, 2, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.PEmpty-0.179334) > 1e-6 || math.Abs(*r.PBlock-0.085113) > 1e-6 || math.Abs(r.Jobs-2.00595) > 1e-5 || math.Abs(r.WaitingTime-0.230857) > 1e-6 {
		t.Errorf("M/M/2/5: p0 %.7g pK %.7g Q %.7g W %.7g", r.PEmpty, *r.PBlock, r.Jobs, r.WaitingTime)
	}
	// Octave qsammm.m test block: λ = 73, μ = (10, 15, 20, 20, 25): U ≈ 0.81, Q = 6.5278.
	r, err = MMmHetero(73, []float64{10, 15, 20, 20, 25})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.Jobs-6.5278) > 1e-4 || r.Exact {
		t.Errorf("qsammm example: Q %.6g exact %v, want 6.5278 and an approximation", r.Jobs, r.Exact)
	}
}

// TestInvariants: Little's law, U = X/(mμ), M/M/1/K → M/M/1 as K grows, M/M/m at m = 1 is
// M/M/1, M/G/1 with c² = 1 is M/M/1, Erlang B is M/M/m/m blocking, heterogeneous with equal
// rates is M/M/m and exact.
func TestInvariants(t *testing.T) {
	for _, lm := range [][2]float64{{0.3, 1}, {0.9, 1}, {4, 5}, {0, 2}} {
		l, mu := lm[0], lm[1]
		a, _ := MM1(l, mu)
		b, _ := MMm(l, mu, 1)
		c, _ := MG1(l, mu, 1)
		d, _ := MMmK(l, mu, 1, 4000)
		h, _ := MMmHetero(l, []float64{mu})
		for _, r := range []*Result{b, c, d, h} {
			for _, p := range [][2]float64{{r.Jobs, a.Jobs}, {r.ResponseTime, a.ResponseTime}, {r.PEmpty, a.PEmpty}, {r.Utilization, a.Utilization}} {
				if !relClose(p[0], p[1], 1e-12) {
					t.Errorf("λ=%v μ=%v %s: %v, M/M/1 %v", l, mu, r.Model, p[0], p[1])
				}
			}
		}
	}
	rs := []*Result{}
	for _, f := range []func() (*Result, error){
		func() (*Result, error) { return MMm(7, 2, 4) },
		func() (*Result, error) { return MMmK(7, 2, 4, 9) },
		func() (*Result, error) { return MMmK(70, 2, 4, 9) },
		func() (*Result, error) { return MMInf(3, 0.5) },
		func() (*Result, error) { return MG1(0.7, 1, 0) },
		func() (*Result, error) { return MMmHetero(5, []float64{1, 2, 3}) },
	} {
		r, err := f()
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	for _, r := range rs {
		if !relClose(r.Jobs, r.Throughput*r.ResponseTime, 1e-12) || !relClose(r.JobsWaiting, r.Throughput*r.WaitingTime, 1e-12) {
			t.Errorf("%s: Little fails: Q %v X·R %v", r.Model, r.Jobs, r.Throughput*r.ResponseTime)
		}
		if r.Servers > 0 && !relClose(r.Utilization, r.Throughput/(float64(r.Servers)*r.ServiceRate), 1e-12) {
			t.Errorf("%s: U %v ≠ X/(mμ)", r.Model, r.Utilization)
		}
	}
	for _, am := range []struct {
		a float64
		m int
	}{{5, 10}, {0.5, 1}, {120, 100}} {
		b, _ := ErlangB(am.a, am.m)
		r, _ := MMmK(am.a, 1, am.m, am.m)
		if !relClose(b, *r.PBlock, 1e-12) {
			t.Errorf("Erlang B(%d, %v) = %v, M/M/m/m blocking %v", am.m, am.a, b, *r.PBlock)
		}
	}
	h, _ := MMmHetero(2.5, []float64{3, 3, 3})
	if !h.Exact {
		t.Error("equal rates: the heterogeneous result is M/M/m and exact")
	}
}

// TestLargeServers: the recursions stay finite and sound at m = 10⁶ (factorials would overflow
// at m = 171): Erlang C between 0 and 1, p₀ underflows to 0 without NaN.
func TestLargeServers(t *testing.T) {
	r, err := MMm(999_000, 1, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	if !(*r.PWait >= 0 && *r.PWait <= 1) || math.IsNaN(r.PEmpty) || r.ResponseTime < 1 {
		t.Errorf("m = 10⁶: C %v p0 %v R %v", *r.PWait, r.PEmpty, r.ResponseTime)
	}
	r, err = MMmK(2e6, 1, 1_000_000, 1_000_100)
	if err != nil {
		t.Fatal(err)
	}
	// Overloaded twice: about half the arrivals are lost.
	if math.Abs(*r.PBlock-0.5) > 1e-3 {
		t.Errorf("M/M/10⁶/… at a = 2m: blocking %v, want ≈ 1 − m/a = 0.5", *r.PBlock)
	}
}

// TestErrors: every bad input is refused with the class the command maps to an exit code.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func() error
		want error
	}{
		{"negative λ", func() error { _, e := MM1(-1, 1); return e }, fault.ErrInput},
		{"NaN λ", func() error { _, e := MM1(math.NaN(), 1); return e }, fault.ErrInput},
		{"zero μ", func() error { _, e := MMm(1, 0, 2); return e }, fault.ErrInput},
		{"Inf μ", func() error { _, e := MMInf(1, math.Inf(1)); return e }, fault.ErrInput},
		{"m = 0", func() error { _, e := MMm(1, 1, 0); return e }, fault.ErrInput},
		{"K < m", func() error { _, e := MMmK(1, 1, 3, 2); return e }, fault.ErrInput},
		{"K huge", func() error { _, e := MM1K(1, 1, MaxStates+1); return e }, fault.ErrTooLarge},
		{"m huge", func() error { _, e := ErlangB(1, MaxStates+1); return e }, fault.ErrTooLarge},
		{"negative scv", func() error { _, e := MG1(0.5, 1, -0.1); return e }, fault.ErrInput},
		{"no rates", func() error { _, e := MMmHetero(1, nil); return e }, fault.ErrInput},
		{"bad rate", func() error { _, e := MMmHetero(1, []float64{1, -2}); return e }, fault.ErrInput},
		{"M/M/1 saturated", func() error { _, e := MM1(1, 1); return e }, fault.ErrSaturated},
		{"M/M/m saturated", func() error { _, e := MMm(4, 1, 4); return e }, fault.ErrSaturated},
		{"M/G/1 saturated", func() error { _, e := MG1(2, 1, 0.5); return e }, fault.ErrSaturated},
		{"hetero saturated", func() error { _, e := MMmHetero(3, []float64{1, 2}); return e }, fault.ErrSaturated},
		{"Erlang C saturated", func() error { _, e := ErlangC(5, 5); return e }, fault.ErrSaturated},
		{"percentile 1", func() error { r, _ := MM1(0.5, 1); return AddPercentiles(r, []float64{1}) }, fault.ErrInput},
	} {
		if err := c.f(); !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.want)
		}
	}
}

// TestPercentilesClosedForm: M/M/1's response time is Exp(μ − λ) and M/M/∞'s is Exp(μ), so
// the p-quantile is −ln(1 − p)/rate; the M/M/m/K mixture reaches M/M/1 as K grows; every
// percentile of M/M/m/K inverts its tail: tail(t_p) = 1 − p.
func TestPercentilesClosedForm(t *testing.T) {
	ps := []float64{0.5, 0.9, 0.99, 0.999}
	r, _ := MM1(0.8, 1)
	inf, _ := MMInf(3, 2)
	k, _ := MM1K(0.8, 1, 400)
	for _, x := range []*Result{r, inf, k} {
		if err := AddPercentiles(x, ps); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range ps {
		want := -math.Log(1-p) / 0.2
		if !relClose(r.Percentiles[i].ResponseTime, want, 1e-11) || !relClose(k.Percentiles[i].ResponseTime, want, 1e-9) {
			t.Errorf("p = %v: M/M/1 %v, M/M/1/400 %v, closed form %v", p, r.Percentiles[i].ResponseTime, k.Percentiles[i].ResponseTime, want)
		}
		if w := -math.Log(1-p) / 2; !relClose(inf.Percentiles[i].ResponseTime, w, 1e-11) {
			t.Errorf("M/M/∞ p = %v: %v want %v", p, inf.Percentiles[i].ResponseTime, w)
		}
	}
	// The mixture's mean (∫ tail) is the response time from Little's law.
	for _, q := range []*Result{must(MMmK(7, 2, 4, 9)), must(MMm(7, 2, 4)), must(MMmK(1, 1, 1, 5))} {
		tail := responseTail(q)
		mean, h := 0.0, q.ResponseTime/200
		for i := 0; i < 16000; i++ { // Simpson's rule to 80·R, where the tail is below 1e-20
			t0 := float64(i) * h
			mean += h / 6 * (tail(t0) + 4*tail(t0+h/2) + tail(t0+h))
		}
		if !relClose(mean, q.ResponseTime, 1e-8) {
			t.Errorf("%s: ∫ P(R > t) dt = %v, R = %v", q.Model, mean, q.ResponseTime)
		}
	}
}

func must(r *Result, err error) *Result {
	if err != nil {
		panic(err)
	}
	return r
}

// simulateFCFS runs n arrivals through an M/M/m/K FCFS queue (K = 0: unlimited) with a
// seeded stream and returns the accepted jobs' response times.
func simulateFCFS(lambda, mu float64, m, k, n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	free := make([]float64, m) // when each server is next free
	var inSys []float64        // departure times of jobs in the station
	var rts []float64
	t := 0.0
	for i := 0; i < n; i++ {
		t += rng.ExpFloat64() / lambda
		inSys = slices.DeleteFunc(inSys, func(d float64) bool { return d <= t })
		if k > 0 && len(inSys) >= k {
			continue
		}
		j := 0
		for s := range free {
			if free[s] < free[j] {
				j = s
			}
		}
		start := math.Max(t, free[j])
		dep := start + rng.ExpFloat64()/mu
		free[j] = dep
		inSys = append(inSys, dep)
		if i > n/10 { // leave out the start-up transient
			rts = append(rts, dep-t)
		}
	}
	slices.Sort(rts)
	return rts
}

// TestPercentilesSimulated compares the percentiles with an independent FCFS simulation
// (400 000 arrivals, seeded): the quantiles of the simulated response times agree within 3 %.
func TestPercentilesSimulated(t *testing.T) {
	ps := []float64{0.5, 0.9, 0.99}
	for _, c := range []struct {
		lambda, mu float64
		m, k       int
	}{{2.5, 1, 3, 0}, {2.5, 1, 3, 6}, {1.2, 1, 1, 4}, {9, 1, 4, 12}} {
		r, err := Solve(Spec{Kind: map[bool]Kind{true: KindMMm, false: KindMMmK}[c.k == 0], Lambda: c.lambda, Mu: c.mu, Servers: c.m, Capacity: c.k, Percentiles: ps})
		if err != nil {
			t.Fatal(err)
		}
		rts := simulateFCFS(c.lambda, c.mu, c.m, c.k, 400_000, 7)
		for i, p := range ps {
			got := rts[int(p*float64(len(rts)))]
			if want := r.Percentiles[i].ResponseTime; math.Abs(got-want) > 0.03*want {
				t.Errorf("%s: p%v simulated %.4g, formula %.4g", r.Model, 100*p, got, want)
			}
		}
	}
}

// TestFiniteQueueHugeLoad (hostile7 P2-000): M/M/m/K at a λ/μ far beyond 1 is finite and
// known in the limit (Kleinrock vol. 1 §3.7, the chain sits at K): P(block) → 1, Q → K,
// X → m·μ, U → 1, R → K/(m·μ). At λ/μ = 1e20 the old λ(1 − p_K) rounded to X = 0 and R = 1/μ
// at exit 0; λ/μ beyond float64 (1e200/1e-200) was exit 1. Now the former is the limit (to
// 1e-12 relative: the corrections are O(μ/λ) = 1e-20) and the latter is refused as input
// naming --lambda/--mu, as is M/M/∞ there and a Σμ_i that overflows (--mus).
func TestFiniteQueueHugeLoad(t *testing.T) {
	for _, c := range []struct {
		lambda, mu float64
		m, k       int
	}{{1e20, 1, 1, 5}, {1e20, 2, 2, 5}, {1e300, 1e-7, 3, 10}, {1e150, 1e-150, 1, 1}} {
		r, err := MMmK(c.lambda, c.mu, c.m, c.k)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		fm, fk := float64(c.m), float64(c.k)
		for _, g := range []struct {
			name      string
			got, want float64
		}{{"X", r.Throughput, fm * c.mu}, {"U", r.Utilization, 1}, {"Q", r.Jobs, fk}, {"R", r.ResponseTime, fk / (fm * c.mu)}, {"P(block)", *r.PBlock, 1}} {
			if math.Abs(g.got-g.want) > 1e-12*g.want {
				t.Errorf("%+v: %s = %v, want %v", c, g.name, g.got, g.want)
			}
		}
	}
	for _, c := range []struct {
		name string
		run  func() (*Result, error)
	}{
		{"M/M/2/5 1e200/1e-200", func() (*Result, error) { return MMmK(1e200, 1e-200, 2, 5) }},
		{"M/M/1/1 1e308/1e-300", func() (*Result, error) { return MMmK(1e308, 1e-300, 1, 1) }},
		{"M/M/inf 1e308/1e-300", func() (*Result, error) { return MMInf(1e308, 1e-300) }},
		{"hetero 1e308,1e308", func() (*Result, error) { return MMmHetero(1, []float64{1e308, 1e308}) }},
	} {
		if _, err := c.run(); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "--") {
			t.Errorf("%s: %v, want an input error naming the flag", c.name, err)
		}
	}
}
