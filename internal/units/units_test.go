package units

import (
	"math"
	"strings"
	"testing"
)

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		f    func(string) (float64, error)
		in   string
		want float64
	}{
		{Duration, "5us", 5e-6}, {Duration, "1.5 ms", 1.5e-3}, {Duration, "3e-6", 3e-6}, {Duration, "2s", 2}, {Duration, "8µs", 8e-6},
		{Bytes, "64KB", 64e3}, {Bytes, "1MiB", 1 << 20}, {Bytes, "4096", 4096}, {Bytes, "8Kb", 1000},
		{Bandwidth, "200MB/s", 200e6}, {Bandwidth, "10Gb/s", 1.25e9}, {Bandwidth, "1.25e8", 1.25e8}, {Bandwidth, "100Mbps", 12.5e6}, {Bandwidth, "1GiB/s", 1 << 30},
		{Duration, "2min", 120}, {Duration, "1h", 3600},
		{Rate, "0.8", 0.8}, {Rate, "0.8/s", 0.8}, {Rate, "48/min", 0.8}, {Rate, "2880 /h", 0.8}, {Rate, "5/ms", 5000}, {Rate, "0", 0},
	} {
		got, err := tc.f(tc.in)
		if err != nil || math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("%q: %v %v, want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "fast", "5 parsecs", "-1s", "1e999", "1e308min"} {
		if _, err := Duration(bad); err == nil {
			t.Errorf("Duration(%q) accepted", bad)
		}
	}
	for _, bad := range []string{"", "5/", "5/parsec", "5 ms", "-1/s", "1e999", "1e308/ns", "5//s"} {
		if _, err := Rate(bad); err == nil {
			t.Errorf("Rate(%q) accepted", bad)
		}
	}
	// out of range, with the reason in the message (hostile review: "1e400" said "does not start
	// with a number"; "1e-400s" silently became 0; "1e-320/h" became a subnormal 3e-324/s whose
	// products with anything are 0)
	for _, tc := range []struct {
		f  func(string) (float64, error)
		in string
	}{
		{Duration, "1e400"}, {Duration, "1e-400s"}, {Duration, "1e-400"}, {Duration, "1e-310"}, {Duration, "1e-305ns"},
		{Rate, "1e-320/h"}, {Rate, "1e-400"}, {Rate, "1e400/s"}, {Bytes, "1e-330"}, {Bandwidth, "1e-400MB/s"},
	} {
		if _, err := tc.f(tc.in); err == nil || !strings.Contains(err.Error(), "out of range") {
			t.Errorf("%q: error %v, want out of range", tc.in, err)
		}
	}
	// zero stays zero, in any spelling; the smallest normal value passes
	for _, ok := range []string{"0", "0ms", "0.000", "0e-400", "2.3e-308"} {
		if _, err := Duration(ok); err != nil {
			t.Errorf("Duration(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"0MB/s", "12 furlongs/s", "-5MB/s"} {
		if _, err := Bandwidth(bad); err == nil {
			t.Errorf("Bandwidth(%q) accepted", bad)
		}
	}
}

func FuzzUnits(f *testing.F) {
	for _, s := range []string{"5us", "200MB/s", "64KiB", "1e-3", "3 ms"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, fn := range []func(string) (float64, error){Duration, Bytes, Bandwidth, Rate} {
			if v, err := fn(s); err == nil && (math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v != 0 && v < 0x1p-1022) {
				t.Fatalf("%q → %v", s, v)
			}
		}
	})
}
