package qn

import (
	"context"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
)

// TestParseClassSwitch: examples/qn/class-switch.yaml gives the visits a hand solution of its
// traffic equations gives (read: terminals 1, cpu 1 + 1.5 = 2.5, disk 0.6·2.5 = 1.5; write:
// disk 0.2·2.5 + 0.5·V_w,cpu with V_w,cpu = V_w,disk, so 1 and 1; back: 0.2·2.5 + 0.5·1 = 1 at
// the terminals), one chain of 5 jobs, and the result of ChainNetwork.Solve (checked against
// Octave's qncmmva in chains_test.go); ParseModel refuses the file rather than drop the
// switching.
func TestParseClassSwitch(t *testing.T) {
	data := readFile(t, "../examples/qn/class-switch.yaml")
	f := parseModelFile(t, "class-switch.yaml", data)
	want := [][]float64{{1, 2.5, 1.5}, {0, 1, 1}}
	for c := range want {
		for k := range want[c] {
			if math.Abs(f.Switch.Net.Visits[c][k]-want[c][k]) > 1e-12 || math.Abs(f.Model.Visits[c][k]-want[c][k]) > 1e-12 {
				t.Errorf("V[%d][%d] = %v (model %v), hand solution %v", c, k, f.Switch.Net.Visits[c][k], f.Model.Visits[c][k], want[c][k])
			}
		}
	}
	if ch := f.Switch.Net.Chain; ch[0] != ch[1] || f.Switch.Net.Model.Classes[0].Population != 5 {
		t.Errorf("chains %v, chain population %d; want one chain of 5", ch, f.Switch.Net.Model.Classes[0].Population)
	}
	res, err := f.Solve(context.Background(), "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// invariants: both classes share the chain's throughput; the jobs add up to 5 (Σ Q)
	q := 0.0
	for k := range res.QueueLength {
		q += res.QueueLength[k][0] + res.QueueLength[k][1]
	}
	if res.Throughput[0] != res.Throughput[1] || math.Abs(q-5) > 1e-9 || !res.Exact {
		t.Errorf("X %v, Σ Q %v, exact %v", res.Throughput, q, res.Exact)
	}
	// class-dependent service times at cpu and disk, declared type ps: the chain solution is
	// exact there (BCMP), so no caveat; the same stations declared fcfs get the caveat
	if n := strings.Join(res.Notes, "\n"); strings.Contains(n, "only approximate for FCFS") {
		t.Errorf("notes %q: type ps stations need no FCFS caveat", res.Notes)
	}
	if n := strings.Join(res.Notes, "\n"); !strings.Contains(n, "chain {read, write} holds 5 jobs") {
		t.Errorf("notes %q: want the chain population explained", res.Notes)
	}
	ff := parseModelFile(t, "class-switch-fcfs.yaml", []byte(strings.ReplaceAll(string(data), "type: ps", "type: fcfs")))
	rf, err := ff.Solve(context.Background(), "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Join(rf.Notes, "\n"); !strings.Contains(n, `"cpu", "disk"`) || !strings.Contains(n, "processor sharing") {
		t.Errorf("notes %q: want the class-dependent FCFS stations named", rf.Notes)
	}
	if _, _, err := ParseModel("class-switch.yaml", data); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "switch") {
		t.Errorf("ParseModel on a switching file: %v, want an input error naming switch", err)
	}
}

// TestParseSwitchAndCapacityErrors: every refusal names the file, line and field.
func TestParseSwitchAndCapacityErrors(t *testing.T) {
	base := "classes:\n  - {name: a, population: 2}\n  - {name: b, population: 1}\nstations:\n  - {name: s, service_time: 1}\n  - {name: u, service_time: 2}\n"
	for _, tc := range []struct{ file, want string }{
		{base + "routing:\n  a:\n    from: {s: {u: 0.5}}\n    switch: {s: {c: {u: 0.5}}}\n  b: {from: {u: {s: 1}}}\n", `f.yaml:10: routing.a.switch.s.c: no class named "c"`},
		{base + "routing:\n  a:\n    from: {s: {u: 0.5}, u: {s: 1}}\n    switch: {s: {b: {u: 0.4}}}\n  b: {from: {u: {s: 1}}, switch: {s: {a: {u: 1}}}}\n", `sums to 0.9`},
		{base + "routing:\n  a:\n    from: {s: {u: 0.5}, u: {s: 1}}\n    switch: {s: {b: {u: 0.5}}}\n", `class "b" has no routing entry`},
		{"classes:\n  - {name: a, population: 2, think_time: 1}\n  - {name: b, population: 1}\nstations:\n  - {name: s, service_time: 1}\n  - {name: u, service_time: 2}\n" +
			"routing:\n  a: {from: {s: {u: 0.5}, u: {s: 1}}, switch: {s: {b: {u: 0.5}}}}\n  b: {from: {u: {s: 1}}, switch: {s: {a: {u: 1}}}}\n", "has a think time"},
		{"classes:\n  - {name: a, population: 2}\n  - {name: b, arrival_rate: 1}\nstations:\n  - {name: s, service_time: 1}\n  - {name: u, service_time: 2}\n" +
			"routing:\n  a: {from: {s: {u: 0.5}, u: {s: 1}}, switch: {s: {b: {u: 0.5}}}}\n  b: {arrivals: {s: 1}, from: {u: {s: 1}}}\n", `class "b" is open`},
		{"classes: [{name: a, population: 2}]\nstations:\n  - {name: s, service_time: 1, capacity: 0}\n", "stations[0].capacity: 0 is out of range"},
		{"classes: [{name: a, population: 2}, {name: b, population: 1}]\nstations:\n  - {name: s, demand: 1, capacity: 3}\n", "f.yaml:3: stations[0].capacity: capacity: finite capacities are solved for one closed class only"},
		{"classes: [{name: a, population: 2, think_time: 1}]\nstations:\n  - {name: s, service_time: 1, capacity: 3}\nrouting: {a: {from: {s: {s: 1}}}}\n", "has think_time"},
		{"classes: [{name: a, population: 2}]\nstations:\n  - {name: s, demand: 1, capacity: 3}\n", "need the class's routing: section"},
		{"classes: [{name: a, population: 2}]\nstations:\n  - {name: s, type: delay, service_time: 1, capacity: 3}\nrouting: {a: {from: {s: {s: 1}}}}\n", "single-server stations"},
		{"classes: [{name: a, population: 9}]\nstations:\n  - {name: s, service_time: 1, capacity: 3}\n  - {name: u, service_time: 1, capacity: 3}\nrouting: {a: {from: {s: {u: 1}, u: {s: 1}}}}\n", "population 9 exceeds the total capacity 6"},
	} {
		_, err := ParseModelFile("f.yaml", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("file\n%s\nerror %v, want it to contain %q", tc.file, err, tc.want)
			continue
		}
		var se *spec.Error
		if !errors.As(err, &se) {
			t.Errorf("error %v is not a *spec.Error", err)
		}
	}
}

// TestParseCapacity: capacity: reaches ModelFile.Capacity and Solve uses the blocking solver
// (exact here: a small chain); ParseModel refuses the file rather than drop the capacities.
func TestParseCapacity(t *testing.T) {
	src := "classes: [{name: a, population: 5}]\nstations:\n  - {name: s, service_time: 1, capacity: 3}\n  - {name: u, service_time: 0.5}\nrouting: {a: {from: {s: {u: 1}, u: {s: 1}}}}\n"
	f := parseModelFile(t, "f.yaml", []byte(src))
	if len(f.Capacity) != 2 || f.Capacity[0] != 3 || f.Capacity[1] != 0 {
		t.Fatalf("capacities %v", f.Capacity)
	}
	res, err := f.Solve(context.Background(), "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Exact || res.Method != "ctmc-blocking-after-service" || res.QueueLength[0][0] > 3 {
		t.Errorf("method %q exact %v Q %v", res.Method, res.Exact, res.QueueLength)
	}
	if _, _, err := ParseModel("f.yaml", []byte(src)); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "capacity") {
		t.Errorf("ParseModel with capacities: %v", err)
	}
}

// FuzzParseModelFile: no input panics ParseModelFile or ModelFile.Solve; what solves is finite.
func FuzzParseModelFile(f *testing.F) {
	if data, err := os.ReadFile("../examples/qn/class-switch.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("classes: [{name: a, population: 5}]\nstations:\n  - {name: s, service_time: 1, capacity: 3}\n  - {name: u, service_time: 0.5}\nrouting: {a: {from: {s: {u: 1}, u: {s: 1}}}}\n"))
	f.Add([]byte("classes: [{name: a, population: 1}, {name: b, population: 1}]\nstations: [{name: s, service_time: 1}]\nrouting:\n  a: {switch: {s: {b: {s: 1}}}}\n  b: {switch: {s: {a: {s: 1}}}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		mf, err := ParseModelFile("fuzz.yaml", data)
		if err != nil {
			return
		}
		if LatticeSize(mf.Model) > 1e4 {
			return
		}
		for _, c := range mf.Model.Classes {
			if c.Population > 12 { // keeps the exact CTMC (GTH, O(S³)) cheap under coverage instrumentation
				return
			}
		}
		r, err := mf.Solve(context.Background(), "auto", AMVAOptions{MaxIter: 1000})
		if err != nil {
			return
		}
		for c, x := range r.Throughput {
			if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || math.IsNaN(r.ResponseTime[c]) {
				t.Fatalf("%s: class %d X = %v, R = %v", r.Method, c, x, r.ResponseTime[c])
			}
		}
	})
}

// TestClassSwitchExampleOctave: examples/qn/class-switch.yaml through ParseModelFile and
// ModelFile.Solve against GNU Octave's qncmvisits and qncmmva on the same network
// (../testdata/octave/class_switch_example.m → class_switch_example.json, queueing 1.2.7):
// visits to 1e-12, per class and station throughput, utilisation, queue length and per-visit
// residence time to 1e-9.
func TestClassSwitchExampleOctave(t *testing.T) {
	var cs []chainCase
	readOctaveJSON(t, "class_switch_example.json", &cs)
	data := readFile(t, "../examples/qn/class-switch.yaml")
	f := parseModelFile(t, "class-switch.yaml", data)
	res, err := f.Solve(context.Background(), "auto", AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	o := cs[0]
	for c := range f.Model.Classes {
		for k := range f.Model.Stations {
			v := f.Switch.Net.Visits[c][k]
			if !closeTo(v, o.V[c][k], 1e-12) {
				t.Errorf("V[%d][%d] = %.15g, Octave %.15g", c, k, v, o.V[c][k])
			}
			if v == 0 {
				continue
			}
			x := res.Throughput[c] * v
			if !closeTo(x, o.X[c][k], 1e-9) || !closeTo(res.Utilization[k][c], o.U[c][k], 1e-9) ||
				!closeTo(res.QueueLength[k][c], o.Q[c][k], 1e-9) || !closeTo(res.Residence[k][c]/v, o.Rt[c][k], 1e-9) {
				t.Errorf("class %d station %d: X %.12g U %.12g Q %.12g R %.12g; Octave %.12g %.12g %.12g %.12g", c, k,
					x, res.Utilization[k][c], res.QueueLength[k][c], res.Residence[k][c]/v, o.X[c][k], o.U[c][k], o.Q[c][k], o.Rt[c][k])
			}
		}
	}
}

// readFile reads path, failing t on an error.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// parseModelFile parses the model file text data (as file name), failing t on an error.
func parseModelFile(t testing.TB, name string, data []byte) *ModelFile {
	t.Helper()
	f, err := ParseModelFile(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// solveFile parses the model file at path (ParseModel) and solves it with method, failing t
// on an error.
func solveFile(t testing.TB, path, method string) (*Model, *Result) {
	t.Helper()
	m, _, err := ParseModel(path, readFile(t, path))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Solve(context.Background(), m, method, AMVAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return m, r
}
