// Package ranges parses the one range syntax of every integer sweep flag (processors p,
// disks d, cluster sizes P, populations): a comma-separated list of items, each
//
//	N             a single value                       8
//	FROM:TO       every whole number FROM … TO         1:64
//	FROM:TO:STEP  FROM, FROM+STEP, … up to TO          4:64:4      (4, 8, …, 64)
//	FROM:TO:xK    FROM, FROM·K, FROM·K², … up to TO    1:1024:x2   (1, 2, 4, …, 1024)
//
// for example "1,2,4,8", "1:16", "2:64:2", "1:1024:x2", "1:8,16:128:x2". Numbers are whole
// numbers, written plainly or in exponent form when whole ("1e3"). The result is sorted
// ascending with duplicates removed. TO must be ≥ FROM; STEP ≥ 1; K ≥ 2 and FROM ≥ 1 for powers. The values must lie
// in [Limits.Min, Limits.Max] and their count must not exceed Limits.MaxCount: the count is
// computed from the items before any value is generated, and a larger sweep is refused with
// an error wrapping fault.ErrTooLarge that names the count and the limit. Every other problem
// wraps fault.ErrInput and names the flag.
package ranges

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Limits bound a range. The zero value means DefaultLimits().
type Limits struct {
	Min, Max int // allowed values (default 1 … 2^30)
	MaxCount int // most values in the range (default 1 000 000)
}

// DefaultLimits are the limits of the zero Limits: values 1 … 2^30, at most a million of
// them.
func DefaultLimits() Limits { return Limits{Min: 1, Max: 1 << 30, MaxCount: 1_000_000} }

// MaxText is the longest range text accepted, in bytes.
const MaxText = 4096

func (l Limits) orDefault() Limits {
	if l == (Limits{}) {
		return DefaultLimits()
	}
	if l.MaxCount <= 0 {
		l.MaxCount = DefaultLimits().MaxCount
	}
	if l.Max <= 0 {
		l.Max = DefaultLimits().Max
	}
	return l
}

type item struct {
	from, to, step int
	geometric      bool // step is the factor K
}

func (it item) count() float64 {
	if it.geometric {
		// values from·K^i ≤ to: ⌊log_K(to/from)⌋ + 1, computed without overflow
		n := 0.0
		for v := it.from; v <= it.to; {
			n++
			if v > it.to/it.step {
				break
			}
			v *= it.step
		}
		return n
	}
	return float64((it.to-it.from)/it.step) + 1
}

// Parse reads text, the value of the flag or field named name (used in messages, e.g. "--p").
func Parse(name, text string, lim Limits) ([]int, error) {
	lim = lim.orDefault()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s %q: %s (ranges: N, FROM:TO, FROM:TO:STEP, FROM:TO:xK, comma-separated)", fault.ErrInput, name, clip(text), fmt.Sprintf(format, args...))
	}
	if len(text) > MaxText {
		return nil, bad("longer than %d characters", MaxText)
	}
	if strings.TrimSpace(text) == "" {
		return nil, bad("empty")
	}
	var items []item
	total := 0.0
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		fields := strings.Split(part, ":")
		if len(fields) > 3 || part == "" {
			return nil, bad("item %q is not N, FROM:TO, FROM:TO:STEP or FROM:TO:xK", part)
		}
		var it item
		var err error
		if it.from, err = whole(fields[0], lim); err != nil {
			return nil, bad("%v", err)
		}
		it.to, it.step = it.from, 1
		if len(fields) >= 2 {
			if it.to, err = whole(fields[1], lim); err != nil {
				return nil, bad("%v", err)
			}
			if it.to < it.from {
				return nil, bad("in %q TO = %d is less than FROM = %d", part, it.to, it.from)
			}
		}
		if len(fields) == 3 {
			s := strings.TrimSpace(fields[2])
			if k, ok := strings.CutPrefix(s, "x"); ok {
				it.geometric = true
				f, err := strconv.Atoi(k)
				if err != nil || f < 2 {
					return nil, bad("factor %q: want x followed by a whole number ≥ 2 (x2 doubles)", s)
				}
				if it.from < 1 {
					return nil, bad("powers FROM:TO:xK need FROM ≥ 1, not %d", it.from)
				}
				it.step = f
			} else {
				f, err := strconv.Atoi(s)
				if err != nil || f < 1 {
					return nil, bad("step %q: want a whole number ≥ 1, or xK for powers", s)
				}
				it.step = f
			}
		}
		total += it.count()
		if total > float64(lim.MaxCount) {
			return nil, fmt.Errorf("%w: %s %q has %.0f or more values; the limit is %d", fault.ErrTooLarge, name, clip(text), total, lim.MaxCount)
		}
		items = append(items, it)
	}
	out := make([]int, 0, int(total))
	for _, it := range items {
		for v := it.from; v <= it.to; {
			out = append(out, v)
			if it.geometric {
				if v > it.to/it.step {
					break
				}
				v *= it.step
			} else {
				if v > it.to-it.step {
					break
				}
				v += it.step
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// whole reads a whole number within the limits: 64, 1e3 (exponent form when whole).
func whole(s string, lim Limits) (int, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || strings.ContainsAny(s, "xXpP_") {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if v != math.Trunc(v) {
		return 0, fmt.Errorf("%s is not a whole number", s)
	}
	if v < float64(lim.Min) || v > float64(lim.Max) || math.Abs(v) >= 1<<62 {
		return 0, fmt.Errorf("%s is out of range; allowed %d … %d", s, lim.Min, lim.Max)
	}
	return int(v), nil
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "…"
	}
	return s
}
