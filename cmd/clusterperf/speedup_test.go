package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// runOut runs clusterperf with args and returns stdout (failing the test on a non-zero exit).
func runOut(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("clusterperf %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// TestSpeedupLargeGridSummary: issue 21 — the README tour's 64 × 256 hybrid grid prints a
// summary by default (not 16 000+ lines), every point with --all, and every point in CSV.
func TestSpeedupLargeGridSummary(t *testing.T) {
	const model = "../../examples/spmd/hybrid.yaml"
	txt := runOut(t, "speedup", model, "--p", "1:64", "--d", "1:256")
	if n := strings.Count(txt, "\n"); n > 400 {
		t.Errorf("default table has %d lines, want a summary (≤ 400)", n)
	}
	if !strings.Contains(txt, "--all") {
		t.Errorf("the summary does not say --all shows the grid:\n%s", txt)
	}
	all := runOut(t, "speedup", model, "--p", "1:64", "--d", "1:4", "--all")
	if n := strings.Count(all, "\n"); n < 256 {
		t.Errorf("--all prints %d lines, want every one of the 256 points", n)
	}
	csv := runOut(t, "speedup", model, "--p", "1:64", "--d", "1:4", "--format", "csv")
	if n := strings.Count(csv, "\n"); n != 257 {
		t.Errorf("CSV has %d lines, want header + 256 points", n)
	}
}
