package speedupapp

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagsPrepare: examples/spmd/hybrid.yaml over --p 1:40 --d 1:6 is 240 points, more
// than SummaryRows (200): in table format the result is condensed and says so; with --all
// in JSON a note says --all changes nothing; --validate picks the points to simulate (the
// best and the grid's ends, at most three). Bad options are each named, the simulation's
// only with --validate.
func TestFlagsPrepare(t *testing.T) {
	sz := app.DefaultSizingFlags()
	noStudy := func(*app.FlagCheck) bool { return false }
	o := Flags{P: "1:40", D: "1:6", Solver: "recursive", Sizing: sz, Validate: true}
	var c app.FlagCheck
	ps, ds := o.Check(&c, func(*app.FlagCheck) {}, noStudy)
	if c.Err() != nil || len(ps) != 40 || len(ds) != 6 {
		t.Fatalf("%d × %d, %v", len(ps), len(ds), c.Err())
	}
	const path = "../../examples/spmd/hybrid.yaml"
	sp, err := o.Prepare(context.Background(), os.ReadFile, path, ps, ds, Output{Format: "table"}, nil)
	if err != nil || !sp.Out.Condensed || len(sp.PDs) == 0 || len(sp.PDs) > 3 {
		t.Fatalf("table: condensed %v, validation points %v, %v", sp != nil && sp.Out.Condensed, sp.PDs, err)
	}
	o.All, o.Validate = true, false
	sp, err = o.Prepare(context.Background(), os.ReadFile, path, ps, ds, Output{Format: "json"}, nil)
	if err != nil || sp.Out.Condensed || sp.PDs != nil || !strings.Contains(strings.Join(sp.Out.Notes, "\n"), "--all changes nothing here") {
		t.Fatalf("json --all: %+v, %v", sp, err)
	}
	var b app.FlagCheck
	simChecked := false
	Flags{P: "0", D: "1", Solver: "fast", Sizing: sz}.Check(&b, func(*app.FlagCheck) { simChecked = true }, func(*app.FlagCheck) bool { return true })
	if !errors.Is(b.Err(), fault.ErrInput) || len(b.Errs) != 3 || simChecked {
		t.Errorf("got %v (simulation options checked: %v), want 3 problems", b.Errs, simChecked)
	}
}
