package modelfile_test

import (
	"fmt"

	"github.com/clusterperf/clusterperf/modelfile"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/spmd"
)

// A program outside the module reads a model file once, tells its kind by its top-level
// keys and decodes it with that kind's decoder; only exported types are involved.
func ExampleParse() {
	data := []byte("name: one queue\nclasses: [{name: jobs, population: 3, think_time: 1s}]\nstations: [{name: cpu, demand: 20ms}]\n")
	doc, err := modelfile.Parse("m.yaml", data)
	if err != nil {
		fmt.Println(err)
		return
	}
	switch {
	case doc.Has("stations"):
		m, name, err := qn.DecodeModel(doc)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %d class, %d station, demand %g s\n", name, len(m.Classes), len(m.Stations), m.Demand[0][0])
	case doc.Has("architecture"):
		m, err := spmd.DecodeModel(doc)
		fmt.Println(m, err)
	}
	// A problem names the file and the line.
	doc, _ = modelfile.Parse("bad.yaml", []byte("classes: [{name: jobs, population: 3}]\nstations: [{name: cpu, demand: 20 parsecs}]\n"))
	_, _, err = qn.DecodeModel(doc)
	fmt.Println(err)
	// Output:
	// one queue: 1 class, 1 station, demand 0.02 s
	// bad.yaml:2: stations[0].demand: "20 parsecs": unknown time unit "parsecs" (allowed: s, ms, us, µs, ns, min, h) (a time such as 0.5, 150us, 2ms)
}
