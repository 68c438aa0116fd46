package main

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/report"
	"github.com/spf13/pflag"
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

// intRange parses FROM:TO (or one number) with whole numbers 1 ≤ FROM ≤ TO.
func (c *flagCheck) intRange(flag, s string) (int, int) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		b = a
	}
	from, err1 := strconv.Atoi(strings.TrimSpace(a))
	to, err2 := strconv.Atoi(strings.TrimSpace(b))
	if err1 != nil || err2 != nil || from < 1 || to < from {
		c.add("--%s %q: want FROM:TO with whole numbers 1 ≤ FROM ≤ TO", flag, s)
		return 1, 1
	}
	return from, to
}

// maxPredictions bounds the number of configurations a --predict range may name.
const maxPredictions = 4096

// unitFlag is a float flag that takes the one units rule of internal/units: a rate
// ("48/min", "0.8/s" or a bare number per second) or a time ("5ms", "2min" or a bare number
// of seconds), so flags accept the suffixes model files do.
type unitFlag struct {
	v     *float64
	parse func(string) (float64, error)
	kind  string
}

func (u unitFlag) String() string {
	if u.v == nil {
		return "0"
	}
	return strconv.FormatFloat(*u.v, 'g', -1, 64)
}
func (u unitFlag) Set(s string) error {
	x, err := u.parse(s)
	if err != nil {
		return err
	}
	*u.v = x
	return nil
}
func (u unitFlag) Type() string { return u.kind }

// rateVar and durationVar register unit flags (see unitFlag).
func rateVar(f *pflag.FlagSet, v *float64, name, usage string) {
	f.Var(unitFlag{v, units.Rate, "rate"}, name, usage)
}
func durationVar(f *pflag.FlagSet, v *float64, name, usage string) {
	f.Var(unitFlag{v, units.Duration, "time"}, name, usage)
}
