package simapp

import (
	"errors"
	"testing"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// TestFlags: --max-memory 512MiB is 512·2^20 = 536870912 bytes in the options, --bursts
// geometric sets GeometricBursts; a sharded study refuses --precision and --batches, and
// batch means refuse a precision target; out-of-range counts are named.
func TestFlags(t *testing.T) {
	o := Flags{Seed: 7, Reps: 2, MaxMemory: "512MiB", Cycles: 1, Bursts: "geometric"}
	var c app.FlagCheck
	o.Check(&c, func(*app.FlagCheck) bool { return false })
	opt := o.Options(nil)
	if c.Err() != nil || opt.MaxMemoryBytes != 536870912 || !opt.GeometricBursts || opt.Seed != 7 {
		t.Fatalf("%v, %+v", c.Err(), opt)
	}
	var b app.FlagCheck
	Flags{Reps: 1, Events: 499, Precision: 0.1, Batches: 4, Cycles: 0, Bursts: "x", MaxMemory: "lots"}.Check(&b, func(*app.FlagCheck) bool { return true })
	// reps, events, max-memory, (precision ok), study×precision, study×batches, cycles, bursts, batches×precision
	if !errors.Is(b.Err(), fault.ErrInput) || len(b.Errs) != 8 {
		t.Errorf("got %d problems: %v", len(b.Errs), b.Errs)
	}
}
