package solveapp

import (
	"errors"
	"github.com/clusterperf/clusterperf/qn"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestSweepMeasurementUnits: measured throughputs take rate units and response times time
// units, as every rate and time field does (internal/units): 120/min = 2/s, 250ms = 0.25 s;
// a unit of the wrong kind is refused naming the line.
func TestSweepMeasurementUnits(t *testing.T) {
	m := &qn.Model{Classes: []qn.Class{{Name: "a", Population: 2}}, Stations: []qn.Station{{Name: "q"}}, Demand: [][]float64{{1}}}
	ms, err := ReadSweepMeasurements("m.csv", strings.NewReader("value,throughput_per_s,response_time_s\n1,120/min,250ms\n2,3,0.5\n"), m)
	if err != nil {
		t.Fatal(err)
	}
	if *ms[0].Throughput != 2 || *ms[0].ResponseTime != 0.25 || *ms[1].Throughput != 3 {
		t.Errorf("measurements %v %v %v", *ms[0].Throughput, *ms[0].ResponseTime, *ms[1].Throughput)
	}
	for _, bad := range []string{"value,response_time_s\n1,5/s\n", "value,throughput_per_s\n1,5ms\n"} {
		if _, err := ReadSweepMeasurements("m.csv", strings.NewReader(bad), m); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "m.csv:2") {
			t.Errorf("%q: %v, want an input error at m.csv:2", bad, err)
		}
	}
}

// FuzzReadSweepMeasurements: any bytes are either read into finite, positive measurements of
// the model's classes or refused with an error wrapping fault.ErrInput; never a panic.
func FuzzReadSweepMeasurements(f *testing.F) {
	for _, s := range []string{"value,throughput_per_s\n1,2\n", "value,class,response_time_s\n1,b,0.5\n", "x,r_s\n1e308,1e-300\n", "value\n1\n", "", "value,throughput\nNaN,1\n", "value,throughput_per_s,response_time_s\n1,120/min,250ms\n"} {
		f.Add(s)
	}
	m := &qn.Model{Classes: []qn.Class{{Name: "a", Population: 2}, {Name: "b", Population: 1}}, Stations: []qn.Station{{Name: "q"}}, Demand: [][]float64{{1}, {2}}}
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ReadSweepMeasurements("f.csv", strings.NewReader(s), m)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("error not classified as input: %v", err)
			}
			return
		}
		for _, p := range ms {
			if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) || p.Class < 0 || p.Class >= len(m.Classes) || (p.Throughput == nil && p.ResponseTime == nil) {
				t.Fatalf("bad measurement %+v", p)
			}
			for _, v := range []*float64{p.Throughput, p.ResponseTime} {
				if v != nil && !(*v > 0 && !math.IsInf(*v, 0)) {
					t.Fatalf("measured value %g", *v)
				}
			}
		}
	})
}
