// Package units parses quantities with unit suffixes as users type them on the command
// line: durations ("5us", "1.2 ms", "3e-6"), byte sizes ("64KB", "1.5MiB") and bandwidths
// ("200MB/s", "10Gb/s", "1.25e8"). Decimal prefixes are powers of 1000, binary ones (Ki, Mi,
// Gi) of 1024; a lower-case b means bits. A bare number is in seconds, bytes or bytes/s.
package units

import (
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
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, "", fmt.Errorf("%q does not start with a number", s)
	}
	return v, strings.TrimSpace(t[i:]), nil
}

var timeUnits = map[string]float64{"": 1, "s": 1, "sec": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6, "ns": 1e-9, "min": 60}

// Duration parses a time in seconds.
func Duration(s string) (float64, error) {
	v, u, err := split(s)
	if err != nil {
		return 0, err
	}
	f, ok := timeUnits[u]
	if !ok {
		return 0, fmt.Errorf("%q: unknown time unit %q (allowed: s, ms, us, µs, ns, min)", s, u)
	}
	if v < 0 {
		return 0, fmt.Errorf("%q: a time must be ≥ 0", s)
	}
	return v * f, nil
}

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
	return v * f, nil
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
	return v * f, nil
}
