package qn

import (
	"bytes"
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
		{"classes:\n  - {name: c, population: 2}\nstations:\n  - {name: s, demand: x}\n", `f.yaml:4: stations[0].demand: "x" is not a finite number`},
		{"classes:\n  - {name: c, population: 2}\nstations:\n  - {name: s, demand: {d: 1}}\n", `no class named "d"`},
		{"classes:\n  - {name: c}\nstations:\n  - {name: s, demand: 1}\n", "f.yaml:2: classes[0]: needs population"},
		{"classes:\n  - {name: c, population: 1}\nstations:\n  - {name: s, type: multiserver, demand: 1}\n", "needs servers"},
		{"classes: [\n", "f.yaml"},
		{"- 1\n- 2\n", "top level must be a mapping"},
		{"", "file is empty"},
		{"classes:\n  - {name: c, population: 1}\nstations:\n  - {name: s, demand: .nan}\n", "not a finite number"},
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

// FuzzParseModel: no input panics; whatever parses is valid and survives a write/re-parse
// round trip unchanged.
func FuzzParseModel(f *testing.F) {
	f.Add([]byte(sampleModel))
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
			if r, err := Solve(m, "auto", AMVAOptions{MaxIter: 1000}); err == nil {
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
