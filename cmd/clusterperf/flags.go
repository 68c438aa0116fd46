package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/report"
)

// flagCheck collects range errors of flags so a command refuses all its bad flags at once,
// before any work, with messages that name the flag and the allowed range (exit 2).
type flagCheck struct{ errs []error }

func (c *flagCheck) add(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// atLeast requires a whole number v ≥ lo.
func (c *flagCheck) atLeast(flag string, v int64, lo int64) {
	if v < lo {
		c.add("--%s %d: want a whole number ≥ %d", flag, v, lo)
	}
}

// zeroOrAtLeast requires v = 0 (the flag's "off" or "default") or v ≥ lo.
func (c *flagCheck) zeroOrAtLeast(flag string, v int64, lo int64, zero string) {
	if v != 0 && v < lo {
		c.add("--%s %d: want 0 (%s) or a whole number ≥ %d", flag, v, zero, lo)
	}
}

// nonNegative requires a finite v ≥ 0 (0 meaning zero).
func (c *flagCheck) nonNegative(flag string, v float64, zero string) {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		c.add("--%s %v: want a finite number ≥ 0 (0: %s)", flag, v, zero)
	}
}

// fraction requires lo < v ≤ hi (open below, closed above), finite.
func (c *flagCheck) fraction(flag string, v, lo, hi float64) {
	if !(v > lo && v <= hi) {
		c.add("--%s %v: want a number in (%g, %g]", flag, v, lo, hi)
	}
}

// format checks --format and --csv-table's companion.
func (c *flagCheck) format(f string) {
	if err := report.CheckFormat(f); err != nil {
		c.add("--format: %v", err)
	}
}

// plotPath checks a --plot (or other output file) destination before any work: the
// extension, and that the directory exists and a file can be created in it.
func (c *flagCheck) output(flag, path string, exts ...string) {
	if path == "" {
		return
	}
	if len(exts) > 0 {
		ok := false
		for _, e := range exts {
			ok = ok || strings.EqualFold(filepath.Ext(path), e)
		}
		if !ok {
			c.add("--%s %q: the file name must end in %s", flag, path, strings.Join(exts, " or "))
			return
		}
	}
	if err := report.CheckWritable(path); err != nil {
		c.add("--%s %q: %v", flag, path, err)
	}
}

// err is nil or every collected problem, classified as bad input.
func (c *flagCheck) err() error {
	if len(c.errs) == 0 {
		return nil
	}
	return badInput(errors.Join(c.errs...))
}

// readInput reads a file named on the command line ("-": stdin) with the one input reader
// (internal/input: at most input.MaxBytes, read so that devices, pipes and FIFOs are bounded
// and nothing blocks on a FIFO); a missing, unreadable or too large file is bad input (exit 2).
func readInput(path string) ([]byte, error) { return input.Read(path) }

// maxPredictions bounds the number of configurations a --predict range may name.
const maxPredictions = 4096
