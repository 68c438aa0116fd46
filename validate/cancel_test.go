package validate

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/sim"
	"github.com/clusterperf/clusterperf/spmd"
)

// TestSPMDContextCancelled: cancelled the moment the first of three points has ticked all
// its cycles (reps × CyclesPerReplication), SPMDContext returns exactly SPMD's report of
// that point alone — the same rows, replications and seed — plus Partial and the partial
// note, with an error wrapping fault.ErrInterrupted; progress is serialised, only grows and
// never passes its total (3 points × reps × cycles). Cancelled before any replication
// finishes there is no report.
func TestSPMDContextCancelled(t *testing.T) {
	// one phase of sim's runlength_test.go BUS-AIO program (c = 1, n_IO = 1)
	m := &spmd.Model{Arch: spmd.BusAIO, Phases: []spmd.Phase{{C: 1, NIO: 1, SPar: 1, SRIO: 0.1, S0IO: 0.01}}}
	e, err := spmd.NewEvaluator(m)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sim.SPMDConfig{Cycles: 3000}
	const reps = 4
	pds := [][2]int{{4, 2}, {8, 2}, {2, 1}}
	per := int(reps * cfg.CyclesPerReplication())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	last := 0
	progress := func(done, total int) {
		if total != 3*per || done < last || done > total {
			t.Errorf("progress %d/%d after %d, want growing within %d", done, total, last, 3*per)
		}
		last = done
		if done >= per {
			cancel()
		}
	}
	got, err := SPMDContext(ctx, m, e, pds, cfg, 9, reps, progress)
	if !errors.Is(err, fault.ErrInterrupted) || !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want ErrInterrupted wrapping context.Canceled", err)
	}
	want, err := SPMD(m, e, pds[:1], cfg, 9, reps)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || !got.Partial || !reflect.DeepEqual(got.Rows, want.Rows) || got.Simulation != want.Simulation {
		t.Fatalf("partial report %+v, want SPMD's of the first point %+v", got, want)
	}
	if n := got.Notes[len(got.Notes)-1]; !strings.HasPrefix(n, "partial: interrupted at p=8 d=2 after 0 of its 4 replications planned (point 2 of 3; the 1 after it not simulated)") {
		t.Errorf("last note %q", n)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if rep, err := SPMDContext(ctx, m, e, pds, cfg, 9, reps, nil); rep != nil || !errors.Is(err, fault.ErrInterrupted) {
		t.Errorf("cancelled before: report %+v, error %v; want none and ErrInterrupted", rep, err)
	}
}
