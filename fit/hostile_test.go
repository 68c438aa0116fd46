package fit

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/internal/hostiletest"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/spmd"
)

// Every fit model (.yaml) and data file (.csv) in testdata/hostile is refused with an input
// error naming the file and containing the fragment of its first line "# want: …" (issue 12).
func TestHostileInputs(t *testing.T) {
	hostiletest.Run(t, "testdata/hostile/*", 15, func(f string, data []byte) error {
		if strings.HasSuffix(f, ".csv") {
			_, err := ReadData(f, bytes.NewReader(data))
			return err
		}
		_, err := ParseSpec(f, data)
		return err
	})
}

// Recommend refuses --pmax/--dmax < 1 as input and huge surfaces as too large, before
// allocating (issue 12: --pmax -1 panicked in makeslice; --pmax 2e9).
func TestRecommendLimits(t *testing.T) {
	r := &SPMDResult{Architecture: "bus-sio", model: &spmd.Model{Arch: spmd.BusSIO, Phases: []spmd.Phase{{NIO: 1, SPar: 1, SRCom: 0.1, SRIO: 0.1, C: 1}}}}
	for _, c := range []struct {
		pmax, dmax int
		eff        float64
		kind       error
		frag       string
	}{
		{-1, 1, 0.5, fault.ErrInput, "--pmax -1"},
		{1, 0, 0.5, fault.ErrInput, "--dmax 0"},
		{8, 1, 2, fault.ErrInput, "--efficiency 2"},
		{2_000_000_000, 1, 0.5, fault.ErrInput, "--pmax 2000000000"},
		{1_000_000, 8, 0.5, fault.ErrTooLarge, "8e+06 points"},
		{200_000, 1, 0.5, fault.ErrTooLarge, "MVA steps"}, // Σ_{p ≤ 2e5} (p + 1) ≈ 2e10 > 2e9
	} {
		_, err := Recommend(r, c.pmax, c.dmax, c.eff, 0)
		if !errors.Is(err, c.kind) || err == nil || !strings.Contains(err.Error(), c.frag) {
			t.Errorf("pmax %d dmax %d: %v, want %v with %q", c.pmax, c.dmax, err, c.kind, c.frag)
		}
	}
	rec, err := Recommend(r, 16, 2, 0.5, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Points) != 32 || rec.Best.Time <= 0 {
		t.Errorf("%d points, best %+v", len(rec.Points), rec.Best)
	}
}
