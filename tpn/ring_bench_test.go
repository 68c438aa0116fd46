package tpn

import (
	"fmt"
	"testing"
)

// ringProgram is 002 §4's ring in its order (each process sends first, then iters times
// receives from its predecessor, computes and forwards, then receives the last block) with
// P processes, one per workstation of a dedicated network.
func ringProgram(P, iters int) (*Program, *Cluster) {
	p := &Program{Name: fmt.Sprintf("ring of %d, %d iterations", P, iters)}
	c := &Cluster{Network: Medium{Bandwidth: 1e8, Startup: 1e-5}}
	for i := 0; i < P; i++ {
		next, prev := fmt.Sprint("P", (i+1)%P), fmt.Sprint("P", (i+P-1)%P)
		body := []Segment{{Recv: &Message{Peer: prev}}, {Compute: 0.01}, {Send: &Message{Peer: next, Bytes: 1000}}}
		p.Processes = append(p.Processes, Process{Name: fmt.Sprint("P", i), Segments: []Segment{
			{Send: &Message{Peer: next, Bytes: 1000}}, {Loop: &Loop{Count: iters, Body: body}}, {Recv: &Message{Peer: prev}}}})
		c.Workstations = append(c.Workstations, Workstation{Name: fmt.Sprint("w", i), Power: 1})
	}
	return p, c
}

// BenchmarkRing64: a 64-process ring of 10³ … 10⁵ iterations, end to end (build the net,
// run it to its final marking, sum the per-process times); reports firings per second.
// Allocated bytes per op (-benchmem) show whether memory grows with the iteration count.
func BenchmarkRing64(b *testing.B) {
	for _, iters := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint("iters=", iters), func(b *testing.B) {
			p, c := ringProgram(64, iters)
			bo := BuildOptions{MaxTransitions: 1 << 40, MaxFirings: 1 << 40}
			if _, err := CheckSize(p, bo); err != nil {
				b.Skip(err)
			}
			b.ReportAllocs()
			var firings int64
			for b.Loop() {
				n, err := BuildWith(p, c, bo)
				if err != nil {
					b.Fatal(err)
				}
				r, err := n.Run(Options{MaxFirings: -1})
				if err != nil || r.Outcome != Completed {
					b.Fatal(err, r.Outcome)
				}
				Times(n, r)
				firings += r.Firings
			}
			b.ReportMetric(float64(firings)/b.Elapsed().Seconds(), "firings/s")
		})
	}
}
