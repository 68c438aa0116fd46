package cubeapp

import (
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsRequest: --fix y=1,z=2, --values 1,2,4 and the network 2us, 10GB/s (2e-6 s,
// 1e10 B/s by internal/units) are read; malformed pairs, numbers and a lone --latency are
// each named.
func TestFlagsRequest(t *testing.T) {
	var c app.FlagCheck
	q, err := Flags{Fix: "y=1, z=2", Values: "1,2,4", Metrics: "time,visits", Latency: "2us", Bandwidth: "10GB/s"}.Request(&c, []string{"a.cubex"})
	if err != nil || q.Fix["z"] != 2 || len(q.Values) != 3 || q.Values[2] != 4 || len(q.Metrics) != 2 || !q.Network || q.Latency != 2e-6 || q.Bandwidth != 1e10 {
		t.Fatalf("%+v, %v", q, err)
	}
	var b app.FlagCheck
	_, err = Flags{Fix: "y", Values: "1,x", Latency: "2us"}.Request(&b, nil)
	if !errors.Is(err, fault.ErrInput) || len(b.Errs) != 3 {
		t.Errorf("got %v (%d problems), want 3 as bad input", err, len(b.Errs))
	}
}
