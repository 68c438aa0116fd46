package tpn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomDAG builds an acyclic conflict-free net: transitions in topological order, each with
// an initially marked start place or places fed by earlier transitions (one per edge).
func randomDAG(rng *rand.Rand, T int) *Net {
	n := &Net{}
	for t := 0; t < T; t++ {
		var in []Arc
		for s := 0; s < t; s++ {
			if rng.Float64() < 0.3 {
				p := n.AddPlace(Place{Name: fmt.Sprintf("e%d_%d", s, t)})
				n.Transitions[s].Out = append(n.Transitions[s].Out, Arc{p, 1})
				in = append(in, Arc{p, 1})
			}
		}
		if len(in) == 0 {
			in = append(in, Arc{n.AddPlace(Place{Name: fmt.Sprintf("s%d", t), Initial: 1}), 1})
		}
		n.AddTransition(Transition{Name: fmt.Sprint("t", t), Delay: toTicks(float64(rng.IntN(1000)) / 100), In: in})
	}
	return n
}

// TestCriticalPathOracle: on 200 random acyclic conflict-free nets the simulation ends at
// exactly the PERT critical-path length.
func TestCriticalPathOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for i := 0; i < 200; i++ {
		n := randomDAG(rng, 2+rng.IntN(15))
		want, err := CriticalPathLength(n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := n.Run(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Time != want {
			t.Fatalf("net %d: simulated %v ticks, critical path %v", i, r.Time, want)
		}
	}
}

// randomMarkedGraph: a ring through all transitions (so it is strongly connected) plus random
// chords, each place between one producer and one consumer, a few tokens.
func randomMarkedGraph(rng *rand.Rand, T int) *Net {
	n := &Net{}
	for t := 0; t < T; t++ {
		n.AddTransition(Transition{Name: fmt.Sprint("t", t), Delay: toTicks(float64(1+rng.IntN(9)) / 4)})
	}
	link := func(a, b, tokens int) {
		p := n.AddPlace(Place{Name: fmt.Sprintf("p%d_%d", a, b), Initial: tokens})
		n.Transitions[a].Out = append(n.Transitions[a].Out, Arc{p, 1})
		n.Transitions[b].In = append(n.Transitions[b].In, Arc{p, 1})
	}
	for t := 0; t < T; t++ {
		tok := 0
		if t == T-1 || rng.Float64() < 0.3 {
			tok = 1 + rng.IntN(2)
		}
		link(t, (t+1)%T, tok)
	}
	for k := 0; k < T; k++ {
		a, b := rng.IntN(T), rng.IntN(T)
		if a != b {
			tok := 0
			if b <= a {
				tok = 1 + rng.IntN(2) // backward chords carry tokens: no token-free circuit
			}
			link(a, b, tok)
		}
	}
	return n
}

// TestCycleTimeOracle: on 100 random timed marked graphs the long-run firing period of a
// transition equals the maximum cycle ratio (Ramamoorthy & Ho), within 0.5 %.
func TestCycleTimeOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for i := 0; i < 100; i++ {
		n := randomMarkedGraph(rng, 2+rng.IntN(5))
		want, err := MaxCycleRatio(n)
		if err != nil {
			t.Fatal(err)
		}
		const K = 4000
		r, err := n.Run(Options{Record: true, MaxFirings: int64(K * len(n.Transitions))})
		if err != nil {
			t.Fatal(err)
		}
		var times []int64
		for _, f := range r.Log {
			if f.T == 0 && f.End >= 0 {
				times = append(times, f.End)
			}
		}
		m := len(times)
		got := Seconds(times[m-1]-times[m/2]) / float64(m-1-m/2)
		if math.Abs(got-want) > 0.005*want {
			t.Fatalf("net %d: period %.6g, max cycle ratio %.6g", i, got, want)
		}
	}
}
