package tpn

import (
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// A program whose estimate equals the firing limit is refused before it runs (hostile review
// of issue 33: a loop count at the limit ran for seconds — 4.7 s for 9 999 998 iterations at
// the default 10 000 000 — and was then cut off by the run's limit, exit 3, because the
// engine cuts a run off when its firings reach the limit). Here the limit is 1 000 firings:
// a loop of 998 compute steps (1 000 firings with its enter and exit) is refused at once;
// one of 997 (999 firings) runs to its final marking.
func TestFiringLimitRefusedBeforeRunning(t *testing.T) {
	c := &Cluster{Workstations: []Workstation{{Name: "w", Power: 1}}, Network: Medium{Bandwidth: 1}}
	loop := func(n int) *Program {
		return &Program{Processes: []Process{{Name: "A", Segments: []Segment{{Loop: &Loop{Count: n, Body: []Segment{{Compute: 1}}}}}}}}
	}
	if _, err := BuildWith(loop(998), c, BuildOptions{MaxFirings: 1000}); !errors.Is(err, fault.ErrTooLarge) {
		t.Errorf("estimate at the limit: %v, want refused as too large", err)
	}
	n, err := BuildWith(loop(997), c, BuildOptions{MaxFirings: 1000})
	if err != nil {
		t.Fatal(err)
	}
	r, err := n.Run(Options{MaxFirings: 1000})
	if err != nil || r.Outcome != Completed || r.Firings != 999 {
		t.Errorf("999 firings under a limit of 1000: %+v %v", r, err)
	}
}
