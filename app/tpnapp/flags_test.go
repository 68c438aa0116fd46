package tpnapp

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsCheckRequest: a program needs --cluster; a net refuses it; --background sampled
// refuses a net, --atomic and a sharded study, and --reps 1 (an interval needs two); a
// program with its cluster reads into a request whose run records its log and whose
// --max-time 2s is 2e9 ticks of 1 ns.
func TestFlagsCheckRequest(t *testing.T) {
	sz := app.SizingFlags{Rule: "balanced", Efficiency: 0.5, KneeGain: 0.1, Within: 0.1}
	noStudy := func(*app.FlagCheck) bool { return false }
	study := func(*app.FlagCheck) bool { return true }
	for _, c := range []struct {
		f     Flags
		path  string
		study func(*app.FlagCheck) bool
		want  []string
	}{
		{Flags{Background: "mean", Budget: 1, Sizing: sz}, "p.yaml", noStudy, []string{"--cluster CLUSTER.yaml is required"}},
		{Flags{Cluster: "c.yaml", Background: "mean", Budget: 1, Sizing: sz}, "n.pnml", noStudy, []string{"is a net"}},
		{Flags{Background: "sampled", Reps: 1, Budget: 1, Sizing: sz}, "n.pnml", noStudy, []string{"--reps 1", "is a net"}},
		{Flags{Cluster: "c.yaml", Background: "sampled", Reps: 2, Atomic: true, Budget: 1, Sizing: sz}, "p.yaml", noStudy, []string{"--atomic"}},
		{Flags{Cluster: "c.yaml", Background: "sampled", Reps: 2, Budget: 1, Sizing: sz}, "p.yaml", study, []string{"not a study", "not sampled replications"}},
		{Flags{Cluster: "c.yaml", Background: "mean", SampleFlags: true, Budget: 0, Sizing: sz}, "p.yaml", noStudy, []string{"--budget 0", "belong to --background sampled"}},
	} {
		var fc app.FlagCheck
		c.f.Check(&fc, c.path, c.study)
		err := fc.Err()
		if !errors.Is(err, fault.ErrInput) || len(fc.Errs) != len(c.want) {
			t.Errorf("%+v %s: %v, want %d problems", c.f, c.path, err, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(fc.Errs[i].Error(), w) {
				t.Errorf("%+v %s: problem %d %q, want %q", c.f, c.path, i, fc.Errs[i], w)
			}
		}
	}
	const ex = "../../examples/tpn/"
	o := Flags{Cluster: ex + "cluster.yaml", Background: "mean", Budget: 1, MaxTime: 2, Sizing: sz}
	var fc app.FlagCheck
	o.Check(&fc, ex+"matmul.yaml", noStudy)
	q, err := o.Request(os.ReadFile, ex+"matmul.yaml")
	if fc.Err() != nil || err != nil || q.Program == nil || q.Cluster == nil || !q.Run.Record || q.Run.MaxTime != 2e9 || q.Sampled {
		t.Fatalf("%v, %+v, %v", fc.Err(), q, err)
	}
}
