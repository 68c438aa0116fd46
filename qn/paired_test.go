package qn

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

var pairedRuns = flag.Int("paired", 0, "TestPairedThesis: how many sequential/2-core pairs to run on the thesis network")

// TestPairedThesis times MVAMulti (sequential) against MVAMultiSplit (GOMAXPROCS workers)
// on the thesis network (001 §6.1.4, N = (4095, 177, 127), 9.3e7 population vectors) in
// interleaved pairs — sequential, split, sequential, split … — so that both see the same
// host (the VM's speed and the other tenants' load drift by tens of per cent within
// minutes). It prints each pair (wall and user CPU of each, the cores the host gave each
// = user/wall, the wall ratio, the split's per-worker wait), the median and min–max of each column and the load average, and checks
// every split result bit-identical to the sequential one. It runs only when asked:
//
//	go test ./qn -run TestPairedThesis -paired 7 -v -timeout 10m
func TestPairedThesis(t *testing.T) {
	if *pairedRuns <= 0 {
		t.Skip("give -paired N to time N sequential/2-core pairs on the thesis network")
	}
	m := ThesisNetwork()
	type run struct {
		wall, user time.Duration
		res        *Result
		st         *ParallelStats
	}
	timed := func(solve func() (*Result, *ParallelStats, error)) run {
		u0, t0 := userCPU(), time.Now()
		r, st, err := solve()
		if err != nil {
			t.Fatal(err)
		}
		return run{time.Since(t0), userCPU() - u0, r, st}
	}
	seq := func() (*Result, *ParallelStats, error) {
		r, err := MVAMulti(m)
		return r, nil, err
	}
	split := func() (*Result, *ParallelStats, error) { return MVAMultiSplit(context.Background(), m, 0) }
	var b strings.Builder
	fmt.Fprintf(&b, "load average before: %s\n", loadAvg())
	timed(seq) // warm-up (page faults, frequency), not counted
	timed(split)
	var sw, su, pw, pu, ratio []float64
	// cores = user CPU / wall: how much CPU the host gave the solve (≤ 1 sequential, ≤ 2 split)
	fmt.Fprintf(&b, "pair  seq wall  seq user  cores  split wall  split user  cores  seq/split  split wait per worker  rows per worker\n")
	for i := range *pairedRuns {
		s, p := timed(seq), timed(split)
		if d := sameResult(p.res, s.res); d != 0 {
			t.Fatalf("pair %d: the split result differs from MVAMulti's by %.3g", i+1, d)
		}
		var waits []string
		for _, w := range p.st.Wait {
			waits = append(waits, w.Round(time.Millisecond).String())
		}
		r := s.wall.Seconds() / p.wall.Seconds()
		fmt.Fprintf(&b, "%4d  %7.3fs  %7.3fs  %5.2f  %9.3fs  %9.3fs  %5.2f  %9.2f  %-21s  %v\n", i+1, s.wall.Seconds(), s.user.Seconds(), s.user.Seconds()/s.wall.Seconds(), p.wall.Seconds(), p.user.Seconds(), p.user.Seconds()/p.wall.Seconds(), r, strings.Join(waits, " "), p.st.Range)
		sw, su, pw, pu, ratio = append(sw, s.wall.Seconds()), append(su, s.user.Seconds()), append(pw, p.wall.Seconds()), append(pu, p.user.Seconds()), append(ratio, r)
	}
	stat := func(v []float64) string {
		v = slices.Sorted(slices.Values(v))
		med := v[len(v)/2]
		if len(v)%2 == 0 {
			med = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return fmt.Sprintf("%.3f (%.3f–%.3f)", med, v[0], v[len(v)-1])
	}
	fmt.Fprintf(&b, "median (min–max) over %d pairs:\n  sequential wall %s s, user %s s\n  split      wall %s s, user %s s\n  seq/split  %s\n", len(sw), stat(sw), stat(su), stat(pw), stat(pu), stat(ratio))
	fmt.Fprintf(&b, "load average after: %s\n", loadAvg())
	t.Log("\n" + b.String())
}
