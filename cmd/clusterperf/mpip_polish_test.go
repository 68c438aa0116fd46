package main

import (
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app/mpipapp"
)

// TestMpipReadableTables: issue 21 — a profile's label is its file's base name, not the
// path it was given by; the same evidence shows once per run in the text table (CSV keeps
// one row per finding with the views it explains).
func TestMpipReadableTables(t *testing.T) {
	const prof = "../../examples/mpip/hpc-mpip__driver.8.253.1.mpiP"
	out := runOut(t, "mpip", "--latency", "50us", "--bandwidth", "1GB/s", prof)
	if strings.Contains(out, "../../examples") {
		t.Errorf("label is the path:\n%s", out)
	}
	out = runOut(t, "mpip", "--latency", "5us", "--bandwidth", "1GB/s", "../../examples/mpip/keck_cg_a.csv")
	if n := strings.Count(flat(out), "grows 28 % from P = 4 to P = 64"); n != 1 {
		t.Errorf("the compute-scaling evidence shows %d times, want once:\n%s", n, out)
	}
	csv := runOut(t, "mpip", "--latency", "5us", "--bandwidth", "1GB/s", "../../examples/mpip/keck_cg_a.csv", "--format", "csv", "--csv-table", "explanations")
	if strings.Count(csv, "grows 28 %") != 1 || !strings.Contains(csv, "compute_scaling,\"1, 4, 16\"") {
		t.Errorf("CSV: want one row for the finding listing its runs' P:\n%s", csv)
	}
}

// TestMpipWeakScalingNotSized: AMG runs with a -P process grid that grows with P (weak
// scaling) are not sized as strong scaling (issue 21: the table held only p = 16, the
// frontier of times that grow with the problem); a note says why.
func TestMpipWeakScalingNotSized(t *testing.T) {
	out := runOut(t, append([]string{"mpip", "--calibrate", "--predict", "128"}, amgReports()...)...)
	if strings.Contains(out, "Sizing on measured") || !strings.Contains(out, "weak scaling") {
		t.Errorf("want no sizing and a weak-scaling note:\n%s", out)
	}
}

// TestMpipZeroWidthSpreadSaid: AMG's P = 128 wall-time forecast has one plausible model
// (spread 1.349 … 1.349); the table's notes say the zero width is no certainty (issue 21).
func TestMpipZeroWidthSpreadSaid(t *testing.T) {
	out := runOut(t, append([]string{"mpip", "--calibrate", "--predict", "128"}, amgReports()...)...)
	if !strings.Contains(out, "forecast P = 128: wall time") || !strings.Contains(out, "zero width") {
		t.Errorf("no note on the zero-width spread:\n%s", out)
	}
}

// TestMpipForecastMethodNames (review P2-10): the same wall-time forecast (the direct AT*
// extrapolation) was labelled "extrapolation" with --calibrate and "power_law" with
// --latency/--bandwidth. The forecasts table's second column now names how
// model_app_time_s was obtained (the route that differs), and the wall time is the same
// value under both routes.
func TestMpipForecastMethodNames(t *testing.T) {
	files := []string{}
	for _, p := range []string{"16.5362", "32.5386", "64.5412"} {
		files = append(files, "../../mpip/testdata/samples/mpiP_cm__amg2013."+p+".1.mpiP")
	}
	row := func(extra ...string) []string {
		args := append(append([]string{"mpip"}, files...), "--predict", "128", "--format", "csv", "--csv-table", "forecasts")
		lines := strings.Split(strings.TrimSpace(runOut(t, append(args, extra...)...)), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "p,model_method,wall_time_s,") {
			t.Fatalf("forecasts CSV %v:\n%s", extra, strings.Join(lines, "\n"))
		}
		return strings.Split(lines[1], ",")
	}
	cal, given := row("--calibrate"), row("--latency", "5us", "--bandwidth", "1GB/s")
	if cal[1] != mpipapp.MethodExtrapolated || given[1] != mpipapp.MethodPowerLaws {
		t.Errorf("model_method %q and %q, want %q and %q", cal[1], given[1], mpipapp.MethodExtrapolated, mpipapp.MethodPowerLaws)
	}
	if cal[2] != given[2] {
		t.Errorf("wall_time_s %s (calibrated) vs %s (given network): the same direct extrapolation should agree", cal[2], given[2])
	}
}

// TestMpipSharesUnsigned (review P3-14): shares and imbalances (max/mean − 1 ≥ 0) are
// magnitudes, printed without the sign of a relative error.
func TestMpipSharesUnsigned(t *testing.T) {
	out := runOut(t, "mpip", "../../mpip/testdata/samples/mpiP_cm__amg2013.16.5362.1.mpiP", "--format", "table")
	i := strings.Index(out, "Profiles")
	if i < 0 {
		t.Fatalf("no profiles table:\n%s", out)
	}
	// one profile: the table is written as a record (report.TextWidth), a line per column
	prof := out[i:]
	if strings.Contains(prof, "mpi_share: +") || !strings.Contains(prof, "mpi_share: 92.4%") || strings.Contains(prof, "imbalance: +") {
		t.Errorf("profile with a signed share (want 92.4%% unsigned):\n%s", prof)
	}
}

// amgReports are mpip's AMG2013 sample reports at P = 16, 32 and 64 (a -P grid that grows
// with P: weak scaling).
func amgReports() []string {
	var paths []string
	for _, p := range []string{"16.5362", "32.5386", "64.5412"} {
		paths = append(paths, "../../mpip/testdata/samples/mpiP_cm__amg2013."+p+".1.mpiP")
	}
	return paths
}
