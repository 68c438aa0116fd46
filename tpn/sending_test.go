package tpn

import (
	"os"
	"strings"
	"testing"
)

// TestSendingUnion (issue 33): sending_s is the time a process has at least one message on
// the network, not the sum of its transfers' durations. By hand: P0 sends two 1 MB messages
// back to back (asynchronous sends take no time) on dedicated links of 1 MB/s with t_s = 0,
// so both are on the network over [0, 1] s: sending_s = 1 s (the sum was 2 s). On a shared
// static medium the second starts with k = 2 (1 MB·2/B = 2 s) and the first with k = 1:
// [0, 1] ∪ [0, 2] = 2 s (the sum was 3 s). The three-stage pipeline of examples/tpn at 1 000
// items on the shared Ethernet (it had sending_s ≈ 2.8e6 s at 10 000 items, above the
// makespan, because the stretched transfers overlap): every process's sending_s ≤ makespan.
func TestSendingUnion(t *testing.T) {
	const prog = `processes:
  - name: P0
    segments: [{send: {to: P1, bytes: 1000000}}, {send: {to: P1, bytes: 1000000}}]
  - name: P1
    segments: [{recv: {from: P0}}, {recv: {from: P0}}]
`
	for _, tc := range []struct {
		shared    bool
		want, sum float64
	}{{false, 1, 2}, {true, 2, 3}} {
		p, err := ParseProgram("two.yaml", []byte(prog))
		if err != nil {
			t.Fatal(err)
		}
		c := &Cluster{Workstations: []Workstation{{Name: "a", Power: 1}, {Name: "b", Power: 1}}, Network: Medium{Bandwidth: 1e6, Shared: tc.shared}}
		n := build(t, p, c)
		r := runCompleted(t, n, Options{Record: true})
		times, _ := Times(n, r)
		var busy float64
		for ti, tr := range n.Transitions {
			if tr.Kind == "transfer" && tr.Process == "P0" {
				busy += Seconds(r.Stats[ti].Busy)
			}
		}
		if times[0].Name != "P0" || times[0].Sending != tc.want || busy != tc.sum {
			t.Errorf("shared=%v: %s sending_s %g (want %g), Σ transfer durations %g (want %g)", tc.shared, times[0].Name, times[0].Sending, tc.want, busy, tc.sum)
		}
	}
	data := strings.ReplaceAll(string(readFile(t, "../examples/tpn/pipeline.yaml")), "count: 10,", "count: 1000,")
	p, err := ParseProgram("pipeline-1000.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	_, c := load(t, "../examples/tpn/pipeline.yaml", "../examples/tpn/cluster.yaml")
	n := build(t, p, c)
	r := runCompleted(t, n, Options{Record: true})
	times, _ := Times(n, r)
	for _, pt := range times {
		if pt.Sending > Seconds(r.Time) {
			t.Errorf("%s: sending_s %g > makespan %g", pt.Name, pt.Sending, Seconds(r.Time))
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
