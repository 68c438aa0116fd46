package jmva_test

import (
	"context"
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
	r, err := qn.Solve(context.Background(), m, "mva", qn.AMVAOptions{})
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

// Read a JMVA file with its what-if analysis: the model (service time × visits = demand per
// station) and the analysis JMT would run, here the population 1 … 6 of class users.
func ExampleRead() {
	data, err := os.ReadFile("../examples/jmt/ld.jmva")
	if err != nil {
		panic(err)
	}
	d, err := jmva.Read("ld.jmva", data)
	if err != nil {
		panic(err)
	}
	m := d.Model
	for k, s := range m.Stations {
		fmt.Printf("%-8s %-5v demand %.4g s (%g visits)\n", s.Name, s.Kind, m.Demand[0][k], m.Visits[0][k])
	}
	fmt.Printf("what-if: %s of %s over %v\n", d.WhatIf.Type, d.WhatIf.Class, d.WhatIf.Values)
	// Output:
	// terminal delay demand 2.5 s (1 visits)
	// cpu      queue demand 0.4 s (10 visits)
	// array    ld    demand 0.6 s (2 visits)
	// what-if: Customer Numbers of users over [1 2 3 4 5 6]
}
