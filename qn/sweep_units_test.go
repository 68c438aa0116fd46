package qn

import (
	"math"
	"strings"
	"testing"
)

// TestSweepRangeUnits: a real sweep range takes the swept field's units (times for demand,
// rates for arrival_rate; internal/units), POINTS stays a count (hostile review: "1ms" was
// "not a number ≥ 0"). Expected values: the unit factors (ms = 1e-3 s, /min = 1/60 per s)
// and the evenly spaced FROM + (TO − FROM)·i/(POINTS − 1).
func TestSweepRangeUnits(t *testing.T) {
	m, _, err := ParseModel("f.yaml", []byte("classes: [{name: a, population: 2, think_time: 1s}, {name: o, arrival_rate: 1}]\nstations: [{name: cpu, demand: 5ms}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sweep string
		want  []float64
	}{
		{"demand.cpu=1ms:50ms:5", []float64{0.001, 0.01325, 0.0255, 0.03775, 0.05}},
		{"demand.cpu=0.001:0.002:2", []float64{0.001, 0.002}},
		{"arrival_rate.o=60/min:180/min:3", []float64{1, 2, 3}},
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
		{"demand.cpu=1ms:2ms:3ms", "not a number"},
	} {
		if _, _, err := ParseSweep(tc.sweep, m); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.sweep, err, tc.want)
		}
	}
}
