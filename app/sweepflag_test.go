package app

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/qn"
)

// TestSweepRangeUnits: a real sweep range takes the swept field's units (times for demand,
// rates for arrival_rate; internal/units) and the populations' FROM:TO:STEP syntax, with nN
// for N points (hostile review: "1ms" was "not a number ≥ 0"; 0.01:0.2:20 meant 20 points
// while population=10:100:10 means a step of 10). Expected values: the unit factors
// (ms = 1e-3 s, /min = 1/60 per s), FROM + STEP·i ≤ TO, FROM·K^i ≤ TO and the evenly
// spaced FROM + (TO − FROM)·i/(N − 1).
func TestSweepRangeUnits(t *testing.T) {
	m, _, err := qn.ParseModel("f.yaml", []byte("classes: [{name: a, population: 2, think_time: 1s}, {name: o, arrival_rate: 1}]\nstations: [{name: cpu, demand: 5ms}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sweep string
		want  []float64
	}{
		{"demand.cpu=1ms:50ms:n5", []float64{0.001, 0.01325, 0.0255, 0.03775, 0.05}},
		{"demand.cpu=0.001:0.002:n2", []float64{0.001, 0.002}},
		{"arrival_rate.o=60/min:180/min:n3", []float64{1, 2, 3}},
		// FROM:TO:STEP as for populations (FROM + STEP·i ≤ TO), STEP in the field's units
		{"demand.cpu=10ms:50ms:10ms", []float64{0.01, 0.02, 0.03, 0.04, 0.05}},
		{"demand.cpu=0.01:0.05:0.01", []float64{0.01, 0.02, 0.03, 0.04, 0.05}},
		{"demand.cpu=0.01:0.045:0.01", []float64{0.01, 0.02, 0.03, 0.04}},
		{"arrival_rate.o=1:100:20/s", []float64{1, 21, 41, 61, 81}},
		{"arrival_rate.o=60/min:180/min:60/min", []float64{1, 2, 3}},
		// FROM:TO:xK: FROM·K^i ≤ TO
		{"arrival_rate.o=1:1000:x10", []float64{1, 10, 100, 1000}},
		{"demand.cpu=1ms:10ms:x2", []float64{0.001, 0.002, 0.004, 0.008}},
	} {
		_, vals, err := ParseSweep(tc.sweep, m)
		if err != nil || len(vals) != len(tc.want) {
			t.Fatalf("%s: %v %v", tc.sweep, vals, err)
		}
		for i, v := range vals {
			if math.Abs(v-tc.want[i]) > 1e-12 {
				t.Errorf("%s: value %d = %v, want %v", tc.sweep, i, v, tc.want[i])
			}
		}
	}
	for _, tc := range []struct{ sweep, want string }{
		{"demand.cpu=1/s:2/s", "unknown time unit"},
		{"arrival_rate.o=1ms:2ms", "unknown rate unit"},
		{"demand.cpu=1e400:2", "out of range"},
		{"demand.cpu=1ms:2ms:3ms", "larger than TO − FROM"},
		// the old FROM:TO:POINTS spelling is refused, naming both new ones (hostile review)
		{"arrival_rate.o=1:100:10", "1:100:n10 for 10 evenly spaced values, or 1:100:10/s"},
		// … offering only the readings the range can take: a step of 20 s does not fit in
		// 0.01 … 0.2 s (it was offered, then refused on its own), 1 point is no sweep
		{"demand.cpu=0.01:0.2:20", "write 0.01:0.2:n20 for 20 evenly spaced values (a step of 20s is larger than TO − FROM = 0.19s)"},
		{"demand.cpu=1:10:1", "write 1:10:1s for a step of 1s (n1 is outside n2 … n100000)"},
		{"demand.cpu=0:1e6:200000", "write 0:1e6:200000s for a step of 200000s (n200000 is outside"},
		{"demand.cpu=0.1:0.1:5", "write 0.1:0.1:n5 for 5 evenly spaced values, or 0.1:0.1:5s"},
		{"demand.cpu=0.1:0.3:1", "STEP 1 is ambiguous (it used to mean 1 point), and neither reading fits this range (n1 is outside n2 … n100000; a step of 1s is larger than TO − FROM = 0.2s)"}, // 0.3 − 0.1 = 0.19999999999999998 shown to 6 digits
		{"demand.cpu=0.01:0.2:1", "neither reading fits this range (n1 is outside n2 … n100000; a step of 1s is larger than TO − FROM = 0.19s)"},
		{"demand.cpu=0.01:0.2:n1", "want n followed by a whole number in 2"},
		{"demand.cpu=0.01:0.2:x1", "want x followed by a number > 1"},
		{"demand.cpu=0:0.2:x2", "FROM > 0"},
		{"demand.cpu=0.01:0.2:-0.01", "want a value > 0"},
		{"demand.cpu=0:1:1e-9", "values; the limit is 100000"},
	} {
		if _, _, err := ParseSweep(tc.sweep, m); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.sweep, err, tc.want)
		}
	}
}

// FuzzRealRange: parseRealRange never panics, and what it accepts is 1 … qn.MaxSweepPoints
// finite values, non-decreasing, from FROM within [FROM, TO] (the invariants of its doc).
func FuzzRealRange(f *testing.F) {
	for _, s := range []string{"0.01:0.2", "1ms:50ms:n5", "0.01:0.05:0.01", "1:1000:x10", "60/min:180/min:60/min", "0.01:0.2:20", "1:1:x2", "0:1:1e-9", "1e308:1e308:1e-300"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, u := range []struct {
			unit func(string) (float64, error)
			base string
		}{{units.Duration, "s"}, {units.Rate, "/s"}} {
			vals, err := parseRealRange(s, u.unit, u.base)
			if err != nil {
				continue
			}
			if len(vals) < 1 || len(vals) > qn.MaxSweepPoints {
				t.Fatalf("%q: %d values", s, len(vals))
			}
			for i, v := range vals {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < vals[0] || (i > 0 && v < vals[i-1]) || v > vals[len(vals)-1] {
					t.Fatalf("%q: value %d = %v in %v", s, i, v, vals[:min(len(vals), 10)])
				}
			}
		}
	})
}

// Review P3: --sweep demand.cpu=0:1e308:1000 (now written 0:1e308:n1000) said "demand +Inf must be finite": FROM +
// (TO − FROM)·i/(POINTS − 1) overflowed in (TO − FROM)·i. The values must be finite, end at
// TO exactly, and equal the old formula wherever it did not overflow (so other sweeps keep
// their values bit for bit).
func TestParseRangeNearMaxFloat(t *testing.T) {
	vals, err := parseRange("0:1e308:n1000", false, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) != 1000 || vals[999] != 1e308 || vals[0] != 0 {
		t.Fatalf("%d values, first %v last %v; want 1000 from 0 to 1e308", len(vals), vals[0], vals[len(vals)-1])
	}
	for i, v := range vals {
		if math.IsInf(v, 0) || (i > 0 && !(v > vals[i-1])) {
			t.Fatalf("value %d = %v: not finite and increasing", i, v)
		}
	}
	small, err := parseRange("0.01:0.2:n20", false, func(s string) (float64, error) { return strconv.ParseFloat(s, 64) }, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range small {
		if want := 0.01 + (0.2-0.01)*float64(i)/19; v != want {
			t.Errorf("value %d = %v, want %v (unchanged formula)", i, v, want)
		}
	}
}
