package queue_test

import (
	"fmt"

	"github.com/clusterperf/clusterperf/queue"
)

// Four servers, 30 arrivals per second, 0.1 s of service each: 75 % busy; half the jobs wait.
func ExampleSolve() {
	r, err := queue.Solve(queue.Spec{Kind: queue.KindMMm, Lambda: 30, Mu: 10, Servers: 4, Percentiles: []float64{0.95}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s: U %.2f, P(wait) %.4f, R %.4f s, R95 %.4f s\n", r.Model, r.Utilization, *r.PWait, r.ResponseTime, r.Percentiles[0].ResponseTime)
	// Output: M/M/4: U 0.75, P(wait) 0.5094, R 0.1509 s, R95 0.4128 s
}
