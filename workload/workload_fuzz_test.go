package workload

import (
	"bytes"
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzReadJobs: any input is read or refused as input (fault.ErrInput), never a panic, and
// what is read classifies.
func FuzzReadJobs(f *testing.F) {
	f.Add([]byte("arrival_time,cpu_demand\n0,1\n1,20\n2,1\n"))
	f.Add([]byte("cpu_demand,x,arrival_time\n1,a,0\n2,b,1e300\n"))
	f.Add([]byte("arrival_time,cpu_demand\n0,\"1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := ReadJobs("f.csv", bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("unclassified: %v", err)
			}
			return
		}
		if _, err := Classify(jobs, 0); err != nil && !errors.Is(err, fault.ErrInput) {
			t.Fatalf("classify: %v", err)
		}
	})
}
