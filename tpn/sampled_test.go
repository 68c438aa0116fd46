package tpn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/sim"
)

// onePS is one process of compute segments (seconds) on one workstation of power 1 with one
// background class at utilization U (mean demand 1 s).
func onePS(t testing.TB, segs []float64, U float64, arr, dem sim.Dist) *Net {
	t.Helper()
	pr := Process{Name: "A"}
	for _, s := range segs {
		pr.Segments = append(pr.Segments, Segment{Compute: s})
	}
	c := &Cluster{Workstations: []Workstation{{Name: "w", Power: 1, Background: []BgClass{{ArrivalRate: U, Demand: 1, Arrivals: arr, Demands: dem}}}}}
	n, err := Build(&Program{Processes: []Process{pr}}, c)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSampledNoBackgroundExact: with no background load (or streams of rate 0) a sampled run
// is the deterministic run, to the tick, on 002's matrix-multiplication ring in both segment
// orders (heterogeneous powers, shared Ethernet): the processor-sharing CPU serves a lone
// compute step at full speed, so its end is the same Ticks(dedicated time).
func TestSampledNoBackgroundExact(t *testing.T) {
	for _, file := range []string{"../examples/tpn/matmul.yaml", "testdata/matmul-compute-first.yaml"} {
		p, c := load(t, file, "../examples/tpn/cluster.yaml")
		for i := range c.Workstations {
			for k := range c.Workstations[i].Background {
				c.Workstations[i].Background[k].ArrivalRate = 0 // U = 0, expansion 1
			}
		}
		n := build(t, p, c)
		det := runCompleted(t, n, Options{})
		for rep := uint64(0); rep < 3; rep++ {
			r, err := n.Run(Options{Sample: &Sample{Seed: 7, Rep: rep}})
			if err != nil || r.Outcome != Completed || r.Time != det.Time || r.Firings != det.Firings {
				t.Errorf("%s rep %d: %v %v at %d ticks, %d firings; deterministic %d ticks, %d firings", file, rep, err, r.Outcome, r.Time, r.Firings, det.Time, det.Firings)
			}
		}
		st, err := Replicate(context.Background(), n, ReplicateOptions{Reps: 4, Seed: 1})
		if err != nil || st.MeanS != Seconds(det.Time) || st.StdDevS != 0 || st.HalfWidthS != 0 {
			t.Errorf("%s: %v %+v, want mean %g exactly with no spread", file, err, st, Seconds(det.Time))
		}
	}
}

// TestSampledProcessorSharing: the sampled mean converges to the closed forms of a
// processor-sharing CPU with Poisson background arrivals (M/G/1-PS; Kleinrock 1976,
// Queueing Systems vol. 2, §4.4): a job needing x seconds alone takes x/(1 − U) on average
// whatever the demand distribution (insensitivity) — 002's expansion factor; and k segments
// back to back take k·x/(1 − U) (a closed class of one job with no think time in a mixed
// BCMP network: residence D_c/(1 − U_open)). Accepted: within 3.29 standard errors (99.9 %).
func TestSampledProcessorSharing(t *testing.T) {
	reps := 1500
	if testing.Short() {
		reps = 400
	}
	for _, tc := range []struct {
		name string
		segs []float64
		U    float64
		dem  sim.Dist
	}{
		{"exp U=0.2", []float64{5}, 0.2, nil},
		{"exp U=0.5", []float64{5}, 0.5, nil},
		{"exp U=0.8", []float64{5}, 0.8, nil},
		{"gamma:0.5 U=0.5", []float64{5}, 0.5, sim.Gamma{Shape: 0.5}},
		{"hyperexp:4 U=0.5", []float64{5}, 0.5, sim.HyperExp{C2: 4}},
		{"erlang:4 U=0.8", []float64{5}, 0.8, sim.Erlang{K: 4}},
		{"3 segments, gamma:0.5 U=0.5", []float64{1, 2, 2}, 0.5, sim.Gamma{Shape: 0.5}},
	} {
		n := onePS(t, tc.segs, tc.U, nil, tc.dem)
		r, err := Replicate(context.Background(), n, ReplicateOptions{Reps: reps, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		x := 0.0
		for _, s := range tc.segs {
			x += s
		}
		want := x / (1 - tc.U)
		se := r.HalfWidthS / 1.96 // ≈ s/√n for these n
		if math.Abs(r.MeanS-want) > 3.29*se {
			t.Errorf("%s: sampled mean %.4f ± %.4f (95 %%), closed form x/(1 − U) = %.4f", tc.name, r.MeanS, r.HalfWidthS, want)
		}
	}
}

// TestSampledVariability: 002's qualitative findings, §4 and §5 — the run-to-run spread of
// the execution time grows with the coefficient of variation of the background. With
// Poisson arrivals at U = 0.5 the mean is the same for exponential and gamma (shape 0.25,
// SCV 4) demands (insensitivity), but gamma's standard deviation is larger (F test of the
// variances, 99.9 %: F(0.999; 1499, 1499) ≈ 1.17). Gamma inter-arrival times (shape 0.5,
// SCV 2) at the same U raise the mean above 1/(1 − U) (docs/studies.md §1 finds the same
// sign) and the spread too; smoother ones (shape 4, SCV 0.25) lower both.
func TestSampledVariability(t *testing.T) {
	if testing.Short() {
		t.Skip("1500 replications per case")
	}
	run := func(arr, dem sim.Dist) *Replications {
		r, err := Replicate(context.Background(), onePS(t, []float64{5}, 0.5, arr, dem), ReplicateOptions{Reps: 1500, Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	exp, gd := run(nil, nil), run(nil, sim.Gamma{Shape: 0.25})
	if d, se := gd.MeanS-exp.MeanS, math.Hypot(gd.HalfWidthS, exp.HalfWidthS)/1.96; math.Abs(d) > 3.29*se {
		t.Errorf("gamma demands moved the mean: %.4f against %.4f (insensitivity says equal)", gd.MeanS, exp.MeanS)
	}
	if f := (gd.StdDevS * gd.StdDevS) / (exp.StdDevS * exp.StdDevS); !(f > 1.17) {
		t.Errorf("gamma:0.25 demands: variance ratio %.3f against exponential, want > 1.17 (F test)", f)
	}
	bursty, smooth := run(sim.Gamma{Shape: 0.5}, nil), run(sim.Gamma{Shape: 4}, nil)
	for _, c := range []struct {
		name   string
		r      *Replications
		higher bool
	}{{"gamma:0.5 arrivals", bursty, true}, {"gamma:4 arrivals", smooth, false}} {
		d := c.r.MeanS - 10
		if (d > 0) != c.higher || math.Abs(d) < c.r.HalfWidthS {
			t.Errorf("%s: mean %.4f ± %.4f against 1/(1 − U)·5 = 10 (want %s)", c.name, c.r.MeanS, c.r.HalfWidthS, map[bool]string{true: "above", false: "below"}[c.higher])
		}
		if f := (c.r.StdDevS * c.r.StdDevS) / (exp.StdDevS * exp.StdDevS); (f > 1.17) != c.higher || (f < 1/1.17) == c.higher {
			t.Errorf("%s: variance ratio %.3f against Poisson arrivals", c.name, f)
		}
	}
}

// TestReplicateDeterministic (on the compute-first ring, whose makespan the background
// changes; the document order is bound by the shared Ethernet): a seed gives the same
// replications whatever the number of
// workers; another seed gives others.
func TestReplicateDeterministic(t *testing.T) {
	p, c := load(t, "testdata/matmul-compute-first.yaml", "../examples/tpn/cluster.yaml")
	n := build(t, p, c)
	a, err1 := Replicate(context.Background(), n, ReplicateOptions{Reps: 20, Seed: 5, Workers: 1})
	b, err2 := Replicate(context.Background(), n, ReplicateOptions{Reps: 20, Seed: 5, Workers: 3})
	d, err3 := Replicate(context.Background(), n, ReplicateOptions{Reps: 20, Seed: 6, Workers: 3})
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	for i := range a.TimesS {
		if a.TimesS[i] != b.TimesS[i] {
			t.Fatalf("replication %d: %v with 1 worker, %v with 3", i, a.TimesS[i], b.TimesS[i])
		}
	}
	if a.MeanS == d.MeanS || a.StdDevS == 0 {
		t.Errorf("seeds 5 and 6 gave mean %v and %v (sd %v): the background is not sampled", a.MeanS, d.MeanS, a.StdDevS)
	}
}

// TestReplicateCancel: a cancelled study returns the replications that finished, marked
// partial, with the context's error; one cancelled before it starts runs none.
func TestReplicateCancel(t *testing.T) {
	n := onePS(t, []float64{5}, 0.5, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Replicate(ctx, n, ReplicateOptions{Reps: 1000, Seed: 1, Workers: 1, Progress: func(done, _ int) {
		if done == 5 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || r == nil || !r.Partial || r.Done < 5 || r.Done >= 1000 || math.IsNaN(r.MeanS) {
		t.Fatalf("%v %+v: want a partial result of ≥ 5 replications", err, r)
	}
	r, err = Replicate(ctx, n, ReplicateOptions{Reps: 10, Seed: 1})
	if !errors.Is(err, context.Canceled) || r.Done != 0 || !r.Partial {
		t.Errorf("cancelled before the start: %v %+v", err, r)
	}
}

// TestSampledRefusals: budgets and what a sampled run cannot do are input errors.
func TestSampledRefusals(t *testing.T) {
	n := onePS(t, []float64{5}, 0.5, nil, nil)
	if _, err := Replicate(context.Background(), n, ReplicateOptions{Reps: 1000, Seed: 1, MaxEvents: 1e4}); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("over the event budget: %v", err)
	}
	if _, err := Replicate(context.Background(), n, ReplicateOptions{Reps: 1}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("one replication: %v", err)
	}
	if _, err := n.Run(Options{Sample: &Sample{}, AtomicFiring: true}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("atomic: %v", err)
	}
	bare := &Net{FinalSet: true}
	bare.AddPlace(Place{Name: "a", Initial: 1})
	if _, err := bare.Run(Options{Sample: &Sample{}}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("a net without CPUs: %v", err)
	}
}

// BenchmarkSampled: one sampled replication of the matrix-multiplication ring on the example
// cluster (ws4 loaded, U = 0.2), warm-up included.
func BenchmarkSampled(b *testing.B) {
	p, c := load(b, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
	n := build(b, p, c)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := n.Run(Options{Sample: &Sample{Seed: 1, Rep: uint64(i)}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplicate: 30 sampled replications of the matrix-multiplication ring with every
// workstation loaded at U = 0.5 (the study's set-up) on all cores.
func BenchmarkReplicate(b *testing.B) {
	p, _ := load(b, "../examples/tpn/matmul.yaml", "../examples/tpn/cluster.yaml")
	c := &Cluster{Network: Medium{Startup: 0.001, Bandwidth: 12.5e6}}
	for _, w := range []string{"ws1", "ws2", "ws3", "ws4"} {
		c.Workstations = append(c.Workstations, Workstation{Name: w, Power: 1, Background: []BgClass{{ArrivalRate: 1, Demand: 0.5}}})
	}
	n := build(b, p, c)
	ev := 0.0
	for i := 0; b.Loop(); i++ {
		r, err := Replicate(context.Background(), n, ReplicateOptions{Reps: 30, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		ev += r.EventsEstimate
	}
	b.ReportMetric(ev/b.Elapsed().Seconds(), "est-events/s")
}

// burstDist draws exponential values for its first `after` draws, then 0 forever: a stream
// whose arrivals collapse onto one instant (what gamma:1e-6 did before ParseDist's bounds),
// which the engine handles in its same-instant loop without advancing the clock.
type burstDist struct {
	draws *int
	after int
}

func (b burstDist) Sample(r *rand.Rand, m float64) float64 {
	if *b.draws++; *b.draws > b.after {
		return 0
	}
	return m * r.ExpFloat64()
}
func (burstDist) SCV() float64   { return 1 }
func (burstDist) String() string { return "burst" }

// burstNet: a 1000 s compute step on a CPU at U = 0.5 whose arrivals collapse to gaps of 0
// after 300 draws (the warm-up takes ≈ 117 of them, λ·Warmup = 0.5·233 s), i.e. during
// the run.
func burstNet(t *testing.T) *Net {
	draws := 0
	return onePS(t, []float64{1000}, 0.5, burstDist{&draws, 300}, nil)
}

// TestSampledBurstBounded (hostile review item 1c): a burst of zero-gap arrivals is stopped
// by Options.MaxEvents — each event charged 1 + jobs/8 — with fault.ErrTooLarge, instead
// of looping at one instant with the CPU's job list growing.
func TestSampledBurstBounded(t *testing.T) {
	start := time.Now()
	_, err := burstNet(t).Run(Options{Sample: &Sample{Seed: 1}, MaxEvents: 1e6})
	if !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("%v: want fault.ErrTooLarge from the event cap", err)
	}
	t.Logf("stopped after %v: %v", time.Since(start), err)
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v to hit a cap of 1e6 events", d)
	}
}

// TestSampledBurstCancel (hostile review item 1a): with no event cap, closing Options.Cancel
// stops a run looping at one instant (polled every cancelPoll events), and Replicate
// returns the context's error with a partial result.
func TestSampledBurstCancel(t *testing.T) {
	ch := make(chan struct{})
	var closed time.Time
	go func() { time.Sleep(200 * time.Millisecond); closed = time.Now(); close(ch) }()
	_, err := burstNet(t).Run(Options{Sample: &Sample{Seed: 1}, Cancel: ch})
	if !errors.Is(err, ErrCancelled) {
		t.Fatalf("%v: want ErrCancelled", err)
	}
	t.Logf("stopped %v after Cancel was closed", time.Since(closed))
	if d := time.Since(closed); d > 3*time.Second {
		t.Errorf("stopped %v after Cancel was closed, want well under a second (loaded host: 3 s allowed)", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	r, err := Replicate(ctx, burstNet(t), ReplicateOptions{Reps: 4, Seed: 1, Workers: 1, Run: Options{MaxEvents: math.MaxInt64}})
	if !errors.Is(err, context.DeadlineExceeded) || r == nil || !r.Partial {
		t.Errorf("Replicate: %v %+v, want the context's error and a partial result", err, r)
	}
}

// TestSampledHeavyTailRefused (hostile review item 3): a background distribution whose SCV
// exceeds MaxSampledSCV (infinite for pareto:α ≤ 2) is refused by a sampled run and by
// Replicate, as input; pareto:3 (SCV 1/3, 1/(α(α−2))) and gamma:0.01 (SCV 100, the bound)
// are accepted.
func TestSampledHeavyTailRefused(t *testing.T) {
	for _, tc := range []struct {
		arr, dem sim.Dist
		ok       bool
	}{
		{nil, sim.Pareto{Alpha: 1.0000001}, false},
		{nil, sim.Pareto{Alpha: 2}, false},
		{nil, sim.Pareto{Alpha: 2.001}, false}, // SCV 1/(2.001·0.001) ≈ 500
		{sim.LogNormal{C2: 1000}, nil, false},
		{sim.HyperExp{C2: 101}, nil, false},
		{nil, sim.Pareto{Alpha: 3}, true},
		{sim.Gamma{Shape: 0.01}, nil, true},
	} {
		n := onePS(t, []float64{5}, 0.5, tc.arr, tc.dem)
		_, err := n.Run(Options{Sample: &Sample{Seed: 1}, MaxEvents: 1e7})
		_, rerr := Replicate(context.Background(), n, ReplicateOptions{Reps: 2, Seed: 1})
		if tc.ok && (err != nil || rerr != nil) {
			t.Errorf("%v/%v: %v, %v; want accepted", tc.arr, tc.dem, err, rerr)
		}
		if !tc.ok && (!errors.Is(err, fault.ErrInput) || !errors.Is(rerr, fault.ErrInput)) {
			t.Errorf("%v/%v: %v, %v; want fault.ErrInput", tc.arr, tc.dem, err, rerr)
		}
	}
}

// TestReplicateRunCapWithinBudget: one replication's event cap is at most the study's budget
// (ReplicateOptions.MaxEvents), so a replication caught in a zero-gap burst stops there with
// fault.ErrTooLarge naming that cap (RunEventsFactor·1e5 = 1e7 would be the cap otherwise).
func TestReplicateRunCapWithinBudget(t *testing.T) {
	_, err := Replicate(context.Background(), burstNet(t), ReplicateOptions{Reps: 2, Seed: 1, Workers: 1, MaxEvents: 2e6})
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "more than 2000000 ") {
		t.Errorf("%v: want fault.ErrTooLarge at the study's budget of 2e6 events", err)
	}
}
