package jmva_test

import (
	"fmt"
	"os"

	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
)

// Read a JMVA file and solve it exactly.
func ExampleReadModel() {
	data, err := os.ReadFile("../examples/jmt/central.jmva")
	if err != nil {
		panic(err)
	}
	m, err := jmva.ReadModel("central.jmva", data)
	if err != nil {
		panic(err)
	}
	r, err := qn.Solve(m, "mva", qn.AMVAOptions{})
	if err != nil {
		panic(err)
	}
	for c, cl := range m.Classes {
		fmt.Printf("%s: X %.6f jobs/s\n", cl.Name, r.Throughput[c])
	}
	// Output:
	// interactive: X 0.354458 jobs/s
	// batch: X 0.314111 jobs/s
}
