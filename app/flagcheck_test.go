package app

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/sizing"
)

// TestFlagCheck: every range rule refuses the value just outside it and accepts the edge;
// all problems come back at once as bad input (exit 2), in the order they were found.
func TestFlagCheck(t *testing.T) {
	var ok FlagCheck
	ok.AtLeast("reps", 2, 2)
	ok.ZeroOrAtLeast("events", 0, 500, "default")
	ok.NonNegative("tol", 0, "default")
	ok.Fraction("efficiency", 1, 0, 1)
	ok.Format("json")
	ok.Output("plot", filepath.Join(t.TempDir(), "a.svg"), ".svg")
	if ps := ok.Range("p", "1:8:x2", ranges.Limits{Min: 1, Max: 64, MaxCount: 10}); len(ps) != 4 {
		t.Errorf("Range 1:8:x2 = %v, want 1 2 4 8", ps)
	}
	if err := ok.Err(); err != nil {
		t.Fatalf("edges refused: %v", err)
	}
	var c FlagCheck
	c.AtLeast("reps", 1, 2)
	c.ZeroOrAtLeast("events", 499, 500, "default")
	c.NonNegative("tol", -1, "default")
	c.Fraction("efficiency", 0, 0, 1)
	c.Format("xml")
	c.Output("plot", "a.txt", ".svg", ".png")
	c.Range("p", "0:4", ranges.Limits{Min: 1, Max: 64, MaxCount: 10})
	err := c.Err()
	if !errors.Is(err, fault.ErrInput) || len(c.Errs) != 7 {
		t.Fatalf("got %d problems, %v; want 7 as bad input", len(c.Errs), err)
	}
	for i, want := range []string{"--reps 1", "--events 499", "--tol -1", "--efficiency 0", "--format", `--plot "a.txt": the file name must end in .svg or .png`, "--p"} {
		if !strings.Contains(c.Errs[i].Error(), want) {
			t.Errorf("problem %d = %q, want %q", i, c.Errs[i], want)
		}
	}
}

// TestSizingFlags: the rule is read with - or _, the defaults pass, and out-of-range values
// are named.
func TestSizingFlags(t *testing.T) {
	s := SizingFlags{Rule: "core-hours", Efficiency: sizing.DefaultMinEfficiency, KneeGain: sizing.DefaultKneeGain, Within: sizing.DefaultWithinFastest}
	var c FlagCheck
	s.Check(&c)
	if c.Err() != nil || s.Options(nil).Rule != sizing.CoreHours {
		t.Fatalf("core-hours: %v, rule %q", c.Err(), s.Options(nil).Rule)
	}
	bad := SizingFlags{Rule: "cheap", Efficiency: 1.5, KneeGain: 1, Within: -0.1}
	var b FlagCheck
	bad.Check(&b)
	if len(b.Errs) != 4 {
		t.Errorf("got %v, want four problems", b.Errs)
	}
}
