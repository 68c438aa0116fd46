package spmd_test

import (
	"fmt"

	"github.com/clusterperf/clusterperf/spmd"
)

// Evaluate the BUS-AIO speedup model (000 §4, 001 eq. 5.11) of a program with S_par = 1 s
// of parallel CPU per cycle, communication SR_COM = 0.4 s with g(p) = 1/p all through the
// shared bus (w = 1), and I/O SR_IO = 0.2 s on d = 1 disk. At p = 2 the cycle is exact MVA
// of {delay z = S_par/2 = 0.5, queue x = w·g(2)·SR_COM = 0.2, queue E = SR_IO/(d·p) = 0.1}
// with 2 jobs: one job R = 0.8 (X = 1.25, Q = 0.25, 0.125); two jobs R = 0.5 + 0.2·1.25 +
// 0.1·1.125 = 0.8625 s, so T = 0.8625 s and s = T_ref/T = 1.2/0.8625 = 1.391304
// (T_ref = S_par + SR_IO, 000 eq. 3).
func ExampleNewEvaluator() {
	m := &spmd.Model{Arch: spmd.BusAIO, Phases: []spmd.Phase{{
		Cycles: 1, NIO: 1, SPar: 1, SRCom: 0.4, GExp: -1, W: 1, C: 1, SRIO: 0.2,
	}}}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		panic(err)
	}
	pt, err := e.Evaluate(2, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("p = %d, d = %d: T = %.6f s, speedup %.6f, bottleneck %s\n", pt.P, pt.D, pt.Time, pt.Speedup, pt.Bottleneck)
	// Output:
	// p = 2, d = 1: T = 0.862500 s, speedup 1.391304, bottleneck cpu
}
