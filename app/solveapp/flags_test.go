package solveapp

import (
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/simapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// TestFlagsCheckRequest: --ms-method is read in any case (Seidmann → qn.MSSeidmann), the
// options reach the request unchanged; the contradictions (--measured with --validate of
// one model, --sweep with --distribution) and unknown names or negative limits are named.
func TestFlagsCheckRequest(t *testing.T) {
	o := Flags{Solver: "MVA", MSMethod: "Seidmann", Tol: 1e-8, MaxIter: 50, Exact: true, Sweep: "population=1:5"}
	var c app.FlagCheck
	o.Check(&c, true)
	if c.Err() != nil {
		t.Fatal(c.Err())
	}
	q := o.Request(nil, true, simapp.Options{Reps: 3}, nil, nil, nil)
	if q.Options.MultiServer != qn.MSSeidmann || q.Options.Tol != 1e-8 || q.Options.MaxIter != 50 || !q.Options.RequireExact || !q.Validate || q.Sim.Reps != 3 || q.Sweep != o.Sweep {
		t.Errorf("%+v", q)
	}
	var b app.FlagCheck
	Flags{Solver: "fast", MSMethod: "x", Tol: -1, MaxIter: -1, Measured: "m.csv", Distribution: "cpu", Sweep: "population=1:2"}.Check(&b, false)
	if !errors.Is(b.Err(), fault.ErrInput) || len(b.Errs) != 6 {
		t.Errorf("got %v, want 6 problems", b.Errs)
	}
}
