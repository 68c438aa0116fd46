// Package units parses quantities with unit suffixes as users type them on the command
// line: durations ("5us", "1.2 ms", "3e-6"), byte sizes ("64KB", "1.5MiB") and bandwidths
// ("200MB/s", "10Gb/s", "1.25e8"). Decimal prefixes are powers of 1000, binary ones (Ki, Mi,
// Gi) of 1024; a lower-case b means bits. A bare number is in seconds, bytes or bytes/s.
package units

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

func split(s string) (float64, string, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.' || t[i] == '-' || t[i] == '+' ||
		((t[i] == 'e' || t[i] == 'E') && i > 0 && i+1 < len(t) && (t[i+1] >= '0' && t[i+1] <= '9' || t[i+1] == '-' || t[i+1] == '+'))) {
		i++
	}
	v, err := strconv.ParseFloat(t[:i], 64)
	if err != nil && errors.Is(err, strconv.ErrRange) || math.IsInf(v, 0) {
		return 0, "", fmt.Errorf("%q is out of range (beyond the float64 range, about 1.8e308)", s)
	}
	if err != nil || math.IsNaN(v) {
		return 0, "", fmt.Errorf("%q does not start with a number", s)
	}
	if v == 0 && nonZeroDigit(t[:i]) || v != 0 && math.Abs(v) < minNormal {
		return 0, "", fmt.Errorf("%q is out of range (too small: below the smallest normal float64, about 2.2e-308)", s)
	}
	return v, strings.TrimSpace(t[i:]), nil
}

// nonZeroDigit reports whether the mantissa of a number literal (before any exponent) has a
// digit other than 0, so that a literal parsing to 0 underflowed rather than being zero.
func nonZeroDigit(lit string) bool {
	for _, r := range lit {
		if r == 'e' || r == 'E' {
			return false
		}
		if r >= '1' && r <= '9' {
			return true
		}
	}
	return false
}

var timeUnits = map[string]float64{"": 1, "s": 1, "sec": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ns": 1e-9, "min": 60, "h": 3600}

// Duration parses a time in seconds.
func Duration(s string) (float64, error) {
	v, u, err := split(s)
	if err != nil {
		return 0, err
	}
	f, ok := timeUnits[u]
	if !ok {
		return 0, fmt.Errorf("%q: unknown time unit %q (allowed: s, ms, us, µs, ns, min, h)", s, u)
	}
	if v < 0 {
		return 0, fmt.Errorf("%q: a time must be ≥ 0", s)
	}
	return finite(s, v*f)
}

// Rate parses a rate of events (jobs, messages) per second: a bare number is per second;
// "/s", "/ms", "/us", "/µs", "/ns", "/min" and "/h" divide by that time ("48/min" = 0.8/s).
// A rate must be finite and ≥ 0.
func Rate(s string) (float64, error) {
	v, u, err := split(s)
	if err != nil {
		return 0, err
	}
	per := 1.0
	if u != "" {
		t, ok := strings.CutPrefix(u, "/")
		f, known := timeUnits[strings.TrimSpace(t)]
		if !ok || !known || strings.TrimSpace(t) == "" {
			return 0, fmt.Errorf("%q: unknown rate unit %q (allowed: a number per second, or /s, /ms, /us, /µs, /ns, /min, /h)", s, u)
		}
		per = f
	}
	if v < 0 {
		return 0, fmt.Errorf("%q: a rate must be ≥ 0", s)
	}
	return finite(s, v/per)
}

// finite refuses a value the unit took beyond float64 ("1e308min", "1e308TB") and a
// non-zero value that came out 0 or subnormal (below math.SmallestNonzeroFloat64's normal
// range, about 2.2e-308: "1e-320/h", "1e-307ns"), where arithmetic on it loses all or most of
// its digits and products with it silently become 0.
func finite(s string, v float64) (float64, error) {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%q is out of range: beyond the float64 range (about 1.8e308) in base units", s)
	}
	if v != 0 && math.Abs(v) < minNormal {
		return 0, fmt.Errorf("%q is out of range: %g in base units is below the smallest normal float64 (about 2.2e-308)", s, v)
	}
	return v, nil
}

// minNormal is the smallest positive normal float64, 2^-1022.
const minNormal = 0x1p-1022

func byteFactor(u string) (float64, bool) {
	if u == "" {
		return 1, true
	}
	bits := false
	switch {
	case strings.HasSuffix(u, "bit"):
		bits, u = true, strings.TrimSuffix(u, "bit")
	case strings.HasSuffix(u, "B"):
		u = strings.TrimSuffix(u, "B")
	case strings.HasSuffix(u, "b"):
		bits, u = true, strings.TrimSuffix(u, "b")
	default:
		return 0, false
	}
	pre := map[string]float64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "Ti": 1 << 40}
	f, ok := pre[u]
	if !ok {
		return 0, false
	}
	if bits {
		f /= 8
	}
	return f, true
}

// Bytes parses a size in bytes.
func Bytes(s string) (float64, error) {
	v, u, err := split(s)
	if err != nil {
		return 0, err
	}
	f, ok := byteFactor(u)
	if !ok || v < 0 {
		return 0, fmt.Errorf("%q: want a size ≥ 0 such as 4096, 64KB, 1.5MiB", s)
	}
	return finite(s, v*f)
}

// Bandwidth parses a rate in bytes per second.
func Bandwidth(s string) (float64, error) {
	v, u, err := split(s)
	if err != nil {
		return 0, err
	}
	u = strings.TrimSuffix(strings.TrimSuffix(u, "/s"), "ps")
	f, ok := byteFactor(u)
	if !ok || !(v > 0) {
		return 0, fmt.Errorf("%q: want a bandwidth > 0 such as 200MB/s, 10Gb/s, 1.25e8", s)
	}
	return finite(s, v*f)
}
