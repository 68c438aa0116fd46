package tpn

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestTicks: the checked conversion accepts exactly the finite durations in [0, MaxSeconds]
// and rounds to the nearest nanosecond; toTicks saturates instead of wrapping.
func TestTicks(t *testing.T) {
	for _, tc := range []struct {
		s    float64
		want int64
		ok   bool
	}{
		{0, 0, true}, {1e-9, 1, true}, {0.4e-9, 0, true}, {1.5, 1_500_000_000, true},
		{MaxSeconds, MaxTicks, true}, {MaxSeconds * 1.0000001, 0, false}, {1e300, 0, false},
		{-1e-9, 0, false}, {math.NaN(), 0, false}, {math.Inf(1), 0, false}, {math.Inf(-1), 0, false},
	} {
		got, err := Ticks(tc.s)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("Ticks(%g) = %d, %v; want %d, ok %v", tc.s, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, fault.ErrInput) {
			t.Errorf("Ticks(%g): %v is not fault.ErrInput", tc.s, err)
		}
	}
	for _, tc := range []struct {
		s    float64
		want int64
	}{{math.NaN(), 0}, {-5, 0}, {1e300, MaxTicks}, {math.Inf(1), MaxTicks}, {2, 2e9}} {
		if got := toTicks(tc.s); got != tc.want {
			t.Errorf("toTicks(%g) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

// TestClockOverflow: a cycle of 4e9 s per firing reaches the horizon (2^62 ns ≈ 4.61e9 s)
// on its second firing: the run stops with an input error naming the transition, instead of
// wrapping to a negative time.
func TestClockOverflow(t *testing.T) {
	n := &Net{FinalSet: true}
	a := n.AddPlace(Place{Name: "a", Initial: 1})
	n.AddPlace(Place{Name: "never", Final: 1})
	n.AddTransition(Transition{Name: "slow", Delay: toTicks(4e9), In: []Arc{{a, 1}}, Out: []Arc{{a, 1}}, Source: "x.yaml:7"})
	r, err := n.Run(Options{})
	if err == nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `x.yaml:7: transition "slow" would end at t = 4e+09 s`) {
		t.Fatalf("%v, %v", r, err)
	}
}

// TestSharedStaticOverflow: on a shared static medium the k-th simultaneous transfer takes
// t_s + n·k/B: 1e9 s each alone, so the fifth (5e9 s) passes the horizon and is refused,
// while each alone is representable.
func TestSharedStaticOverflow(t *testing.T) {
	n := &Net{FinalSet: true, Media: []Medium{{Name: "eth", Bandwidth: 1, Shared: true}}}
	src := n.AddPlace(Place{Name: "src", Initial: 5})
	dst := n.AddPlace(Place{Name: "dst", Final: 5})
	n.AddTransition(Transition{Name: "x", Servers: InfiniteServers, Medium: 1, Bytes: 1e9, In: []Arc{{src, 1}}, Out: []Arc{{dst, 1}}})
	if _, err := n.Run(Options{}); err == nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "would take 5e+09 s") {
		t.Fatalf("%v", err)
	}
	n.Places[src].Initial, n.Places[dst].Final = 4, 4 // 4e9 s: representable
	r, err := n.Run(Options{})
	if err != nil || r.Time != toTicks(4e9) {
		t.Fatalf("%v %v", r, err)
	}
}

// TestSharedBoolean: four 1 MB messages leave at t = 0 on a 1 MB/s network with a 1 ms
// startup. Shared (static at start), the k-th counts k transfers: t_s + k·n/B, the last
// ending at 4.001 s; dedicated, all end at 1.001 s (002 §3, shared media). Issue 12: `True`
// and `yes` were read as false (1.001 s); `1` and `treu` are now errors.
func TestSharedBoolean(t *testing.T) {
	prog := []byte("processes:\n  - name: A\n    segments: [{send: {to: B, bytes: 1e6, count: 4}}]\n  - name: B\n    segments: [{recv: {from: A, count: 4}}]\n")
	p, err := ParseProgram("p.yaml", prog)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		v    string
		want float64
		err  string
	}{{"true", 4.001, ""}, {"True", 4.001, ""}, {"TRUE", 4.001, ""}, {"yes", 4.001, ""}, {"false", 1.001, ""}, {"no", 1.001, ""},
		{"1", 0, `c.yaml:2: network.shared: "1" is not a boolean`}, {"treu", 0, `"treu" is not a boolean`}} {
		c, err := ParseCluster("c.yaml", []byte("workstations: [{name: w, power: 1}]\nnetwork: {startup: 1ms, bandwidth: 1MB/s, shared: "+tc.v+"}\n"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, fault.ErrInput) {
				t.Errorf("shared: %s: %v, want %q", tc.v, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		n := build(t, p, c)
		r, err := n.Run(Options{})
		if err != nil || r.Time != toTicks(tc.want) {
			t.Errorf("shared: %s: %v at %g s, want %g", tc.v, err, Seconds(r.Time), tc.want)
		}
	}
}

// TestEstimate: the unrolled size of a program in closed form. Two processes: A = compute,
// loop 3 × (send 2 messages to B, compute), B = loop 6 × recv. Loops are counter-place
// subnets (loopnet.go): each adds enter and exit transitions and 4 places (gate, todo, count,
// the place after it), 2 firings per entry. Transitions: A compute 1 + loop 2 + send 1 +
// compute 1, B loop 2 + recv 1, channel sites 2 (A's send, B's recv: an upper bound) = 10;
// places: 2 initial + A (1 + 4 + 1 + 1) + B (4 + 1) + 4 channel = 18; firings: A 1 + 2 + 3·2,
// B 2 + 6, messages 3·2 = 6: 23. Built, the net has 9 transitions (one channel) and the run
// fires 17 steps and 6 transfers = 23 times: the estimate holds.
func TestEstimate(t *testing.T) {
	p := &Program{Processes: []Process{
		{Name: "A", Segments: []Segment{{Compute: 1}, {Loop: &Loop{Count: 3, Body: []Segment{{Send: &Message{Peer: "B", Bytes: 1, Count: 2}}, {Compute: 1}}}}}},
		{Name: "B", Segments: []Segment{{Loop: &Loop{Count: 6, Body: []Segment{{Recv: &Message{Peer: "A", Count: 1}}}}}}},
	}}
	z := Estimate(p)
	if z.Transitions != 10 || z.Places != 18 || z.Messages != 6 || z.Firings != 23 {
		t.Errorf("estimate %+v", z)
	}
	c := &Cluster{Workstations: []Workstation{{Name: "w", Power: 1}}, Network: Medium{Bandwidth: 1}}
	n := build(t, p, c)
	r := runCompleted(t, n, Options{})
	if float64(len(n.Transitions)) > z.Transitions || float64(r.Firings) > z.Firings {
		t.Errorf("net %d transitions, %d firings above the estimate %+v", len(n.Transitions), r.Firings, z)
	}
	_, err := BuildWith(p, c, BuildOptions{MaxTransitions: 9})
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "about 10 transitions") || !strings.Contains(err.Error(), "the limit is 9 transitions") {
		t.Errorf("budget 9: %v", err)
	}
	_, err = BuildWith(p, c, BuildOptions{MaxFirings: 22})
	if !errors.Is(err, fault.ErrTooLarge) || !strings.Contains(err.Error(), "about 23 firings") {
		t.Errorf("budget 22 firings: %v", err)
	}
}

// TestFindings: a deadlock is fault.ErrDeadlock, a cut-off run fault.ErrFinding, a completed
// run no error.
func TestFindings(t *testing.T) {
	n := gather2()
	n.Transitions[2].In[0].Weight = 3
	r, _ := n.Run(Options{})
	if err := r.Err(); !errors.Is(err, fault.ErrDeadlock) || !errors.Is(err, fault.ErrFinding) || fault.ExitCode(err) != 3 {
		t.Errorf("deadlock: %v", err)
	}
	r, _ = gather2().Run(Options{})
	if err := r.Err(); err != nil {
		t.Errorf("completed: %v", err)
	}
	c := &Net{FinalSet: true}
	a := c.AddPlace(Place{Name: "a", Initial: 1})
	c.AddPlace(Place{Name: "never", Final: 1})
	c.AddTransition(Transition{Name: "loop", Delay: 1, In: []Arc{{a, 1}}, Out: []Arc{{a, 1}}})
	r, _ = c.Run(Options{MaxFirings: 1000})
	if err := r.Err(); r.Outcome != CutOff || !errors.Is(err, fault.ErrFinding) || r.Firings != 999 { // the 1000th started, the budget is spent before it ends
		t.Errorf("cut off: %v after %d", err, r.Firings)
	}
}

// TestInfiniteServerBudget: 2^40 tokens before an infinite-server transition would start
// 2^40 firings at once (terabytes of heap): the run is cut off at its firing budget instead.
func TestInfiniteServerBudget(t *testing.T) {
	n := &Net{FinalSet: true}
	a := n.AddPlace(Place{Name: "a", Initial: MaxTokens})
	b := n.AddPlace(Place{Name: "b", Final: MaxTokens})
	n.AddTransition(Transition{Name: "x", Servers: InfiniteServers, Delay: 1, In: []Arc{{a, 1}}, Out: []Arc{{b, 1}}})
	r, err := n.Run(Options{MaxFirings: 100000})
	if err != nil || r.Outcome != CutOff || !errors.Is(r.Err(), fault.ErrFinding) {
		t.Fatalf("%v %v", r.Outcome, err)
	}
}

// TestBoundedErrors: a program with 100 bad sends lists 20 and counts the rest.
func TestBoundedErrors(t *testing.T) {
	var b strings.Builder
	b.WriteString("processes:\n  - name: A\n    segments:\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "      - send: {to: X%d, bytes: 1}\n", i)
	}
	p := parseProgram(t, b.String())
	c := &Cluster{Workstations: []Workstation{{Name: "w", Power: 1}}, Network: Medium{Bandwidth: 1}}
	_, err := Build(p, c)
	if err == nil || !strings.Contains(err.Error(), "… and 80 more") || strings.Count(err.Error(), "\n") != 20 || !errors.Is(err, fault.ErrInput) {
		t.Errorf("%v", err)
	}
}
