package tpn

import (
	"testing"
)

// TestMatMulDocumentOrder: 002 §4's ring sends first, then computes. On four workstations of
// power 1 with dedicated links (t_s = 1 ms, B = 1.25 MB/s, so a 320 000-byte block takes
// τ = 0.001 + 0.256 = 0.257 s) and c = 0.25 s per block product, with m = max(c, τ):
//   - document order, examples/tpn/matmul.yaml (send, compute, 3 × (recv, send, compute),
//     recv): the k-th receive is at
//     k·m, so T = 4·m = 1.028 s;
//   - testdata/matmul-compute-first.yaml (compute, send, …): the first block leaves at c, so
//     T = c + τ + 3·m = 1.278 s.
//
// Sending first hides one block transfer behind the first product: min(c, τ) = 0.25 s.
func TestMatMulDocumentOrder(t *testing.T) {
	c := &Cluster{Network: Medium{Startup: 0.001, Bandwidth: 1.25e6}}
	for _, w := range []string{"ws1", "ws2", "ws3", "ws4"} {
		c.Workstations = append(c.Workstations, Workstation{Name: w, Power: 1})
	}
	tau, comp := 0.001+320000/1.25e6, 0.25
	m := max(comp, tau)
	for _, tc := range []struct {
		file string
		want float64
	}{{"../examples/tpn/matmul.yaml", 4 * m}, {"testdata/matmul-compute-first.yaml", comp + tau + 3*m}} {
		p, _ := load(t, tc.file, "../examples/tpn/cluster.yaml")
		if w := CountMessages(p); len(w) > 0 {
			t.Errorf("%s: %v", tc.file, w)
		}
		n := build(t, p, c)
		r, err := n.Run(Options{})
		if err != nil || r.Outcome != Completed || r.Time != toTicks(tc.want) {
			t.Errorf("%s: %v %v at %.9g s, want %.9g", tc.file, err, r.Outcome, Seconds(r.Time), tc.want)
		}
		// on the example cluster (heterogeneous, background load, shared Ethernet): reported
		p2, c2 := load(t, tc.file, "../examples/tpn/cluster.yaml")
		n2 := build(t, p2, c2)
		r2 := runCompleted(t, n2, Options{})
		t.Logf("%s on examples/tpn/cluster.yaml: %.6g s", tc.file, Seconds(r2.Time))
	}
}
