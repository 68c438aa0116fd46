package app

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/report"
)

// FlagCheck collects range errors of a command's options so a run refuses all its bad
// options at once, before any work, with messages that name the flag and the allowed range
// (Err: fault.ErrInput, exit 2). The request builders of the app packages (Flags.Check)
// and the command line's own checks add to the same FlagCheck.
type FlagCheck struct{ Errs []error }

// Add records a problem.
func (c *FlagCheck) Add(format string, args ...any) {
	c.Errs = append(c.Errs, fmt.Errorf(format, args...))
}

// AtLeast requires a whole number v ≥ lo.
func (c *FlagCheck) AtLeast(flag string, v int64, lo int64) {
	if v < lo {
		c.Add("--%s %d: want a whole number ≥ %d", flag, v, lo)
	}
}

// ZeroOrAtLeast requires v = 0 (the flag's "off" or "default", said by zero) or v ≥ lo.
func (c *FlagCheck) ZeroOrAtLeast(flag string, v int64, lo int64, zero string) {
	if v != 0 && v < lo {
		c.Add("--%s %d: want 0 (%s) or a whole number ≥ %d", flag, v, zero, lo)
	}
}

// NonNegative requires a finite v ≥ 0 (0 meaning zero).
func (c *FlagCheck) NonNegative(flag string, v float64, zero string) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		c.Add("--%s %v: want a finite number ≥ 0 (0: %s)", flag, v, zero)
	}
}

// Fraction requires lo < v ≤ hi (open below, closed above), finite.
func (c *FlagCheck) Fraction(flag string, v, lo, hi float64) {
	if !(v > lo && v <= hi) {
		c.Add("--%s %v: want a number in (%g, %g]", flag, v, lo, hi)
	}
}

// Format checks --format.
func (c *FlagCheck) Format(f string) {
	if err := report.CheckFormat(f); err != nil {
		c.Add("--format: %v", err)
	}
}

// Output checks an output file's destination (--plot, --report, …) before any work: the
// extension (one of exts, when given), and that the directory exists and a file can be
// created in it. An empty path is no file.
func (c *FlagCheck) Output(flag, path string, exts ...string) {
	if path == "" {
		return
	}
	if len(exts) > 0 {
		ok := false
		for _, e := range exts {
			ok = ok || strings.EqualFold(filepath.Ext(path), e)
		}
		if !ok {
			c.Add("--%s %q: the file name must end in %s", flag, path, strings.Join(exts, " or "))
			return
		}
	}
	if err := report.CheckWritable(path); err != nil {
		c.Add("--%s %q: %v", flag, path, err)
	}
}

// Range parses the range of flag --name (internal/ranges), recording an error ([1] then).
func (c *FlagCheck) Range(name, text string, lim ranges.Limits) []int {
	v, err := ranges.Parse("--"+name, text, lim)
	if err != nil {
		c.Errs = append(c.Errs, err)
		return []int{1}
	}
	return v
}

// Err is nil or every collected problem, classified as bad input.
func (c *FlagCheck) Err() error {
	if len(c.Errs) == 0 {
		return nil
	}
	return Input(errors.Join(c.Errs...))
}

// RangeSyntax describes what FlagCheck.Range accepts, for flag help.
const RangeSyntax = "N, FROM:TO, FROM:TO:STEP, FROM:TO:xK (powers of K), comma-separated"

// MaxPredictions bounds the number of configurations a --predict range may name.
const MaxPredictions = 4096
