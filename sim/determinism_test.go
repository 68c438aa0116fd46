package sim

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
)

// TestPrecisionDeterministic: under a precision target the number of replications and every
// estimate depend only on the seed and the data — the same with 1, 2 and 16 workers, and
// with GOMAXPROCS 1 and 16 (issue 12: 12/14/26 replications on 2/4/16 cores before).
func TestPrecisionDeterministic(t *testing.T) {
	m := randomNet(rand.New(rand.NewPCG(3, 4)), 1, 3)
	s, err := New(m, Config{Events: 4000})
	if err != nil {
		t.Fatal(err)
	}
	var ref *Result
	for _, procs := range []int{1, 16} {
		old := runtime.GOMAXPROCS(procs)
		for _, w := range []int{1, 2, 16, 0} {
			res, err := s.Replicate(Options{Seed: 11, Reps: 4, Precision: 0.03, MaxReps: 64, Workers: w})
			if err != nil && res == nil {
				runtime.GOMAXPROCS(old)
				t.Fatal(err)
			}
			res.Reps = nil
			if ref == nil {
				ref = res
				t.Logf("%d replications, precision %.3g", res.Replications, res.Precision)
				if res.Replications <= 4 {
					t.Errorf("the target 0.03 was met by the first round: the test does not exercise rounds")
				}
				continue
			}
			if !reflect.DeepEqual(res, ref) {
				t.Errorf("GOMAXPROCS %d, %d workers: %d replications, X %v; with 1 worker %d, X %v", procs, w, res.Replications, res.Throughput, ref.Replications, ref.Throughput)
			}
		}
		runtime.GOMAXPROCS(old)
	}
}
