package tpn

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestSeveralNetworks: 002 §3 allows several networks with their own t_s and B. A sends 1 MB
// to B and 1 MB to C at t = 0, each received at once. Closed forms t_s + k·n/B (k the
// transfers in progress on that network, static at start):
//   - B over eth (1 ms, 1 MB/s), C over myri (10 µs, 100 MB/s): B at 1.001 s, C at 0.01001 s;
//   - both over the shared eth: k = 1 then 2: 1.001 s and 2.001 s;
//   - over two shared networks of the same speed: no contention, both 1.001 s.
func TestSeveralNetworks(t *testing.T) {
	cluster := "workstations: [{name: w, power: 1}]\nnetworks:\n  - {name: eth, startup: 1ms, bandwidth: 1MB/s, shared: true}\n  - {name: myri, startup: 10us, bandwidth: 100MB/s, shared: true}\n  - {name: eth2, startup: 1ms, bandwidth: 1MB/s, shared: true}\n"
	c, err := ParseCluster("c.yaml", []byte(cluster))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		nb, nc string
		b, c   float64
	}{{"eth", "myri", 1.001, 0.01001}, {"eth", "eth", 1.001, 2.001}, {"eth", "eth2", 1.001, 1.001}, {"", "myri", 1.001, 0.01001}} {
		netB := ""
		if tc.nb != "" {
			netB = ", network: " + tc.nb
		}
		prog := "processes:\n  - name: A\n    segments: [{send: {to: B, bytes: 1e6" + netB + "}}, {send: {to: C, bytes: 1e6, network: " + tc.nc + "}}]\n  - name: B\n    segments: [{recv: {from: A}}]\n  - name: C\n    segments: [{recv: {from: A}}]\n"
		p := parseProgram(t, prog)
		n := build(t, p, c)
		r := runCompleted(t, n, Options{Record: true})
		got := map[string]int64{}
		for _, f := range r.Log {
			if tr := n.Transitions[f.T]; tr.Kind == "recv" {
				got[tr.Process] = f.End
			}
		}
		if got["B"] != toTicks(tc.b) || got["C"] != toTicks(tc.c) {
			t.Errorf("B on %q, C on %q: received at %g and %g s; want %g and %g", tc.nb, tc.nc, Seconds(got["B"]), Seconds(got["C"]), tc.b, tc.c)
		}
	}
	p := parseProgram(t, "processes:\n  - name: A\n    segments: [{send: {to: A, bytes: 1, network: wifi}}, {recv: {from: A}}]\n")
	if _, err := Build(p, c); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `p.yaml:3: process "A": network "wifi" is not one of the cluster's (eth, myri, eth2)`) {
		t.Errorf("unknown network: %v", err)
	}
	for _, bad := range []struct{ file, want string }{
		{"workstations: [{name: w, power: 1}]\nnetwork: {bandwidth: 1MB/s}\nnetworks: [{name: a, bandwidth: 1MB/s}]\n", "c.yaml:3: networks: give network or networks, not both"},
		{"workstations: [{name: w, power: 1}]\nnetworks: [{name: a, bandwidth: 1MB/s}, {name: a, bandwidth: 2MB/s}]\n", `network "a" defined twice`},
		{"workstations: [{name: w, power: 1}]\nnetworks: [{bandwidth: 1MB/s}]\n", "a network in a list needs a name"},
	} {
		if _, err := ParseCluster("c.yaml", []byte(bad.file)); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.file, err, bad.want)
		}
	}
}
