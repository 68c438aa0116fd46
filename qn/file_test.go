package qn

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/internal/spec"
)

const sampleModel = `name: sample
classes:
  - {name: a, population: 4, think_time: 1.5}
  - {name: w, arrival_rate: 0.2}
stations:
  - {name: cpu, demand: {a: 0.1, w: 0.3}}
  - {name: disk, type: multiserver, servers: 2, visits: {a: 3}, service_time: 0.02}
  - {name: ld, type: ld, rates: [1, 1.5], demand: 0.01, count: 3}
`

func TestParseModel(t *testing.T) {
	m, name, err := ParseModel("s.yaml", []byte(sampleModel))
	if err != nil {
		t.Fatal(err)
	}
	if name != "sample" || len(m.Classes) != 2 || len(m.Stations) != 3 {
		t.Fatalf("got %q %+v", name, m)
	}
	if m.Demand[0][1] != 0.06 || m.Demand[1][1] != 0 || m.Visits[0][1] != 3 {
		t.Errorf("visits × service_time: %v visits %v", m.Demand, m.Visits)
	}
	if m.Stations[2].Copies() != 3 || m.Stations[2].Kind != LoadDependent {
		t.Errorf("station 3: %+v", m.Stations[2])
	}
}

// TestParseErrors: each bad file gives an error naming the line and the field.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"classes: [{name: c, population: 2}]\nstations: [{name: s, demand: 1, bogus: 2}]\n", "f.yaml:2: stations[0].bogus: unknown field"},
		{"classes:\n  - {name: c, population: 2.5}\nstations: [{name: s, demand: 1}]\n", "f.yaml:2: classes[0].population: 2.5 is not a whole number"},
		{"classes:\n  - {name: c, population: 2}\nstations:\n  - {name: s, demand: x}\n", `f.yaml:4: stations[0].demand: "x" does not start with a number (a time such as 0.5, 150us, 2ms)`},
		{"classes:\n  - {name: c, population: 2}\nstations:\n  - {name: s, demand: {d: 1}}\n", `no class named "d"`},
		{"classes:\n  - {name: c}\nstations:\n  - {name: s, demand: 1}\n", "f.yaml:2: classes[0]: needs population"},
		{"classes:\n  - {name: c, population: 1}\nstations:\n  - {name: s, type: multiserver, demand: 1}\n", "needs servers"},
		{"classes: [\n", "f.yaml"},
		{"- 1\n- 2\n", "top level must be a mapping"},
		{"", "file is empty"},
		{"classes:\n  - {name: c, population: 1}\nstations:\n  - {name: s, demand: .nan}\n", `stations[0].demand: ".nan" does not start with a number`},
		{"classes:\n  - {name: c, population: 1}\nstations:\n  - {name: s, type: ld, rates: [1, 0], demand: 1}\n", "stations[0].rates[1]: 0 must be > 0"},
	} {
		_, _, err := ParseModel("f.yaml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("file %q: error %v, want it to contain %q", tc.file, err, tc.want)
		}
		var se *spec.Error
		if err != nil && !errors.As(err, &se) {
			t.Errorf("error %v is not a *spec.Error", err)
		}
	}
}

// TestParseUnits: times (think_time, demand, service_time) take the unit suffixes of
// internal/units.Duration and arrival_rate those of units.Rate, one rule for files and flags
// (issue 21); the file with units gives the same model as the one in plain seconds (the
// factors are the SI prefixes: 1 ms = 1e-3 s, 1 min = 60 s, 48/min = 0.8/s).
func TestParseUnits(t *testing.T) {
	plain := `classes:
  - {name: a, population: 4, think_time: 90}
  - {name: w, arrival_rate: 0.8}
stations:
  - {name: cpu, demand: {a: 0.005, w: 0.0003}}
  - {name: disk, visits: {a: 3}, service_time: 0.00002}
`
	withUnits := `classes:
  - {name: a, population: 4, think_time: 1.5min}
  - {name: w, arrival_rate: 48/min}
stations:
  - {name: cpu, demand: {a: 5ms, w: 300us}}
  - {name: disk, visits: {a: 3}, service_time: 20 µs}
`
	want, _, err := ParseModel("plain.yaml", []byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := ParseModel("units.yaml", []byte(withUnits))
	if err != nil {
		t.Fatal(err)
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-15*math.Max(math.Abs(a), math.Abs(b)) }
	for c := range want.Classes {
		if !close(got.Classes[c].ThinkTime, want.Classes[c].ThinkTime) || !close(got.Classes[c].ArrivalRate, want.Classes[c].ArrivalRate) {
			t.Errorf("class %d: %+v, want %+v", c, got.Classes[c], want.Classes[c])
		}
		for k := range want.Stations {
			if !close(got.Demand[c][k], want.Demand[c][k]) {
				t.Errorf("demand[%d][%d] = %v, want %v", c, k, got.Demand[c][k], want.Demand[c][k])
			}
		}
	}
}

// TestParseUnitsHostile: a unit of the wrong kind, an unknown one, a negative time, a value
// that a unit takes beyond float64, and a unit on a count are refused naming the line and
// the field.
func TestParseUnitsHostile(t *testing.T) {
	head := "classes:\n  - {name: c, population: 2}\n  - {name: o, arrival_rate: 1}\nstations:\n"
	for _, tc := range []struct{ station, want string }{
		{"  - {name: s, demand: 5/s}", `f.yaml:5: stations[0].demand: "5/s": unknown time unit "/s"`},
		{"  - {name: s, demand: 5 parsecs}", `stations[0].demand: "5 parsecs": unknown time unit`},
		{"  - {name: s, demand: -5ms}", `stations[0].demand: "-5ms": a time must be ≥ 0`},
		{"  - {name: s, demand: 1e308min}", `stations[0].demand: "1e308min" is out of range: beyond the float64 range`},
		{"  - {name: s, demand: {c: 2MB}}", `stations[0].demand.c: "2MB": unknown time unit`},
		{"  - {name: s, service_time: 1ms, visits: 3ms}", `stations[0].visits: "3ms" is not a finite number`},
		{"  - {name: s, demand: [1ms]}", `stations[0].demand`},
	} {
		_, _, err := ParseModel("f.yaml", []byte(head+tc.station+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.station, err, tc.want)
		}
	}
	for _, tc := range []struct{ class, want string }{
		{"{name: o, arrival_rate: 5ms}", `classes[0].arrival_rate: "5ms": unknown rate unit "ms"`},
		{"{name: o, arrival_rate: -1/s}", `a rate must be ≥ 0`},
		{"{name: o, arrival_rate: 1e308/ns}", `beyond the float64 range`},
		{"{name: o, arrival_rate: [1]}", `classes[0].arrival_rate: must be a rate`},
		{"{name: c, population: 1, think_time: 3/s}", `classes[0].think_time: "3/s": unknown time unit`},
	} {
		_, _, err := ParseModel("f.yaml", []byte("classes:\n  - "+tc.class+"\nstations:\n  - {name: s, demand: 1ms}\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.class, err, tc.want)
		}
	}
}

// FuzzParseModel: no input panics; whatever parses is valid and survives a write/re-parse
// round trip unchanged.
func FuzzParseModel(f *testing.F) {
	f.Add([]byte(sampleModel))
	f.Add([]byte("classes: [{name: c, population: 3, think_time: 2min}, {name: o, arrival_rate: 48/min}]\nstations: [{name: cpu, demand: {c: 5ms, o: 300us}}]\n"))
	f.Add([]byte("classes: [{name: c, population: 3}]\nstations: [{name: cpu, demand: 0.1}]\n"))
	f.Add([]byte("{\"classes\": [{\"name\": \"x\", \"arrival_rate\": 1}], \"stations\": [{\"name\": \"s\", \"type\": \"is\", \"demand\": 2}]}"))
	f.Add([]byte("classes: &a [1]\nstations: *a\n"))
	f.Add([]byte("classes: [{name: b, population: 2}, {name: w, arrival_rate: 1}]\nstations: [{name: a, service_time: 0.1}, {name: d, service_time: 0.2}]\n" +
		"routing:\n  b: {reference: d, from: {a: {d: 1}, d: {a: 0.5, d: 0.5}}}\n  w: {arrivals: {a: 1}, from: {a: {d: 0.5}, d: {a: 1}}}\n"))
	f.Add([]byte("classes: [{name: j, population: 4}]\nstations: [{name: c, service_time: 0.05}, {name: a, service_time: 0.2}, {name: b, service_time: 0.3}]\n" +
		"fork_joins: [{name: s, branches: [a, b]}]\nrouting:\n  j: {from: {c: {s: 1}, s: {c: 1}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, name, err := ParseModel("fuzz.yaml", data)
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("parsed model does not validate: %v", err)
		}
		if LatticeSize(m) <= 1e4 { // whatever "auto" answers is finite (or an error)
			if r, err := Solve(context.Background(), m, "auto", AMVAOptions{MaxIter: 1000}); err == nil {
				for c, x := range r.Throughput {
					if math.IsNaN(x) || math.IsInf(x, 0) || math.IsNaN(r.ResponseTime[c]) {
						t.Fatalf("%s: class %d X = %v, R = %v", r.Solver, c, x, r.ResponseTime[c])
					}
				}
			}
		}
		var buf bytes.Buffer
		if err := WriteModel(&buf, name, m); err != nil {
			if len(m.ForkJoins) > 0 && errors.Is(err, ErrUnsupported) {
				return
			}
			t.Fatal(err)
		}
		m2, name2, err := ParseModel("again.yaml", buf.Bytes())
		if err != nil {
			t.Fatalf("re-parse of\n%s\nfailed: %v", buf.String(), err)
		}
		if name2 != name || len(m2.Classes) != len(m.Classes) || len(m2.Stations) != len(m.Stations) {
			t.Fatalf("round trip changed the model")
		}
		for c := range m.Demand {
			if m.Classes[c] != m2.Classes[c] {
				t.Fatalf("class %d: %+v became %+v", c, m.Classes[c], m2.Classes[c])
			}
			for k := range m.Demand[c] {
				if m.Demand[c][k] != m2.Demand[c][k] {
					t.Fatalf("demand[%d][%d]: %v became %v", c, k, m.Demand[c][k], m2.Demand[c][k])
				}
			}
		}
	})
}

// TestParseDemandRange: a closed class with no demand and no think time, and a demand
// visits × service_time that leaves the float64 range, are refused at their line as input
// (hostile review, session 3: both exited 1 without file or line).
func TestParseDemandRange(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"classes: [{name: a, population: 3}]\nstations: [{name: cpu, demand: 0}]\n", `f.yaml:1: classes[0]: class "a" has zero think time and zero demand`},
		{"classes: [{name: a, population: 3}]\nstations: [{name: cpu, demand: 0ms}, {name: d, demand: {a: 0}}]\n", `f.yaml:1: classes[0]`},
		{"classes: [{name: a, population: 3}]\nstations: [{name: cpu, service_time: 1e-300, visits: 1e-300}]\n", `f.yaml:2: stations[0]: class "a": demand = visits 1e-300 × service_time 1e-300 s = 0 is out of the float64 range`},
		{"classes: [{name: a, population: 3}]\nstations: [{name: cpu, service_time: 1e300, visits: 1e10}]\n", `f.yaml:2: stations[0]: class "a": demand = visits 1e+10 × service_time 1e+300 s = +Inf`},
	} {
		_, _, err := ParseModel("f.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.yaml, err, tc.want)
		}
	}
	// zero population or a think time makes a zero-demand class fine (X = 0, or X = N/Z)
	for _, ok := range []string{
		"classes: [{name: a, population: 0}]\nstations: [{name: cpu, demand: 0}]\n",
		"classes: [{name: a, population: 2, think_time: 1s}]\nstations: [{name: cpu, demand: 0}]\n",
	} {
		if _, _, err := ParseModel("f.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

// TestSolveArrivalOverflow: an open arrival rate that the time scaling of Solve takes beyond
// float64 is a saturation finding (λ·D overflows), not an exit-1 "must be finite".
func TestSolveArrivalOverflow(t *testing.T) {
	m, _, err := ParseModel("f.yaml", []byte("classes: [{name: a, arrival_rate: 1e308}]\nstations: [{name: cpu, demand: 10s}, {name: disk, demand: 20s}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Solve(context.Background(), m, "auto", AMVAOptions{})
	var sat *SaturationError
	if !errors.As(err, &sat) || sat.Station != "disk" {
		t.Fatalf("error %v, want saturation at disk", err)
	}
}
