package qn_test

import (
	"context"
	"fmt"

	"github.com/clusterperf/clusterperf/qn"
)

// Solve a closed network exactly: 2 jobs with think time Z = 1 s visiting a CPU (demand
// 0.2 s) and a disk (0.1 s). Exact MVA by hand (Lazowska et al., Quantitative System
// Performance, ch. 6): with one job R = 0.3 s,
// X = 1/1.3, Q = (0.2, 0.1)/1.3; with two R_cpu = 0.2·(1 + 0.2/1.3), R_disk =
// 0.1·(1 + 0.1/1.3), R = 0.338462 s and X = 2/(1 + R) = 1.494253 jobs/s.
func ExampleSolve() {
	m := &qn.Model{
		Classes:  []qn.Class{{Name: "users", Population: 2, ThinkTime: 1}},
		Stations: []qn.Station{{Name: "cpu", Kind: qn.Queue}, {Name: "disk", Kind: qn.Queue}},
		Demand:   [][]float64{{0.2, 0.1}},
	}
	r, err := qn.Solve(context.Background(), m, "auto", qn.AMVAOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Printf("method %s, exact %v\n", r.Method, r.Exact)
	fmt.Printf("X = %.6f jobs/s, R = %.6f s\n", r.Throughput[0], r.ResponseTime[0])
	fmt.Printf("U_cpu = X·D = %.6f\n", r.Utilization[0][0])
	// Output:
	// method mva, exact true
	// X = 1.494253 jobs/s, R = 0.338462 s
	// U_cpu = X·D = 0.298851
}
