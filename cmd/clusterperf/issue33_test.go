package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestMpipNoEmptyColumnBlock (issue 33): `mpip keck_cg_a.csv` (collected values, no
// extrapolation) printed a third block of the across-P table with only its header
// ("part 3 of 3: at_high_s"): the interval columns are now left out when nothing is
// extrapolated, and every column block of every table has rows.
func TestMpipNoEmptyColumnBlock(t *testing.T) {
	code, out, errs := cli("mpip", "../../examples/mpip/keck_cg_a.csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "at_high_s") || strings.Contains(out, "part 3 of 3") {
		t.Errorf("empty interval columns printed:\n%s", out)
	}
	// a block title followed by a header line and then a blank line: a block without rows
	if m := regexp.MustCompile(`\(continued, part \d of \d: [^)]*\)\n[^\n]*\n\n`).FindString(out); m != "" {
		t.Errorf("a column block without rows:\n%s", m)
	}
}
