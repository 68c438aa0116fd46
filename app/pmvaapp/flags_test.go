package pmvaapp

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/pmva"
)

// TestFlagsRequest: the command's defaults on the thesis network give p = 1, 2, both
// solvers, and the class order as names; --q 16us --k 1us are 1.6e-5 s and 1e-6 s (units);
// every bad option is named at once, before the model is read.
func TestFlagsRequest(t *testing.T) {
	const path = "../../pmva/testdata/thesis-network.yaml"
	o := Flags{Workers: "1,2", Algorithms: "pipelined,interleaved", Repeats: 3, Scale: 1, CalScale: 2, MaxPoints: pmva.MaxPoints, Q: "16us", K: "1us"}
	var c app.FlagCheck
	q, err := o.Request(&c, os.ReadFile, path, nil)
	if err != nil || len(q.Workers) != 2 || len(q.Algorithms) != 2 || !q.Given || q.Q != 16e-6 || q.K != 1e-6 || q.Model == nil {
		t.Fatalf("%+v, %v", q, err)
	}
	bad := Flags{Workers: "0", Algorithms: "fast", Repeats: 101, Scale: 0.5, CalScale: 1, MaxPoints: 0, Q: "16us"}
	var b app.FlagCheck
	if _, err := bad.Request(&b, os.ReadFile, path, nil); !errors.Is(err, fault.ErrInput) || len(b.Errs) != 7 {
		t.Fatalf("got %v (%d problems), want 7 as bad input", err, len(b.Errs))
	}
	if !strings.Contains(b.Errs[6].Error(), "--q and --k go together") {
		t.Errorf("last problem %q", b.Errs[6])
	}
}
