package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/clusterperf/clusterperf/app/solveapp"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/jmva"
	"github.com/clusterperf/clusterperf/qn"
)

// autoCases are small models, one per choice qn.Solve's "auto" makes (qn/solve.go), with the
// method label and exact flag solve must print for each.
var autoCases = []struct {
	name, model string
	method      string // the "method" key
	exact       bool
}{
	{"single class", `classes: [{name: a, population: 5, think_time: 1}]
stations: [{name: cpu, demand: 0.2}, {name: disk, demand: 0.1}]`, "mva", true},
	{"multi-class exact", `classes: [{name: a, population: 3}, {name: b, population: 2}]
stations: [{name: cpu, demand: {a: 0.2, b: 0.1}}, {name: disk, demand: {a: 0.1, b: 0.3}}]`, "mva", true},
	// lattice 20001³ ≈ 8e12 > qn.MaxLattice = 2e9, and comom over its budget (its precision
	// grows with the populations): Integral (numerical integration), with its error estimate
	{"multi-class too large", `classes: [{name: a, population: 20000}, {name: b, population: 20000}, {name: c, population: 20000}]
stations: [{name: cpu, demand: {a: 0.2, b: 0.1, c: 0.1}}, {name: disk, demand: {a: 0.1, b: 0.3, c: 0.2}}]`, "integral", false},
	// the same with a two-server station, which neither comom nor integral solves: Linearizer
	{"multi-class too large, multi-server", `classes: [{name: a, population: 20000}, {name: b, population: 20000}, {name: c, population: 20000}]
stations: [{name: cpu, type: multiserver, servers: 2, demand: {a: 0.2, b: 0.1, c: 0.1}}, {name: disk, demand: {a: 0.1, b: 0.3, c: 0.2}}]`, "linearizer+marginal", false},
	{"multi-server multi-class exact", `classes: [{name: a, population: 3}, {name: b, population: 2}]
stations: [{name: cpu, type: multiserver, servers: 2, demand: {a: 0.2, b: 0.1}}, {name: disk, demand: {a: 0.1, b: 0.3}}]`, "mva-load-dependent", true},
	{"open", `classes: [{name: o, arrival_rate: 2}]
stations: [{name: cpu, demand: 0.2}]`, "open", true},
	{"mixed", `classes: [{name: o, arrival_rate: 2}, {name: c, population: 3}]
stations: [{name: cpu, demand: 0.2}, {name: disk, demand: {c: 0.4}}]`, "mixed", true},
	{"fork/join", `classes: [{name: client, population: 4, think_time: 0.5}]
stations: [{name: mds, service_time: 0.004}, {name: o1, service_time: 0.05}, {name: o2, service_time: 0.09}]
fork_joins: [{name: stripe, branches: [o1, o2]}]
routing: {client: {reference: mds, from: {mds: {stripe: 1}, stripe: {mds: 1}}}}`, "forkjoin-mva", false},
	// few queues, many jobs: comom's estimate (tens of ms) beats MVA's lattice of 6.4e7
	{"multi-class comom", `classes: [{name: a, population: 400}, {name: b, population: 400}, {name: c, population: 400}]
stations: [{name: cpu, demand: {a: 0.2, b: 0.1, c: 0.1}}, {name: disk, demand: {a: 0.1, b: 0.3, c: 0.2}}]`, "comom", true},
}

// TestSolveAutoLabels: for every choice of auto, the JSON says the method, whether it is
// exact and why auto chose it; an approximate answer carries its error estimate (fork/join:
// measured against a seeded simulation) and the same account is on stderr; an exact one
// prints nothing on stderr.
func TestSolveAutoLabels(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range autoCases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.NewReplacer(" ", "-", "/", "-").Replace(tc.name)+".yaml")
			if err := os.WriteFile(path, []byte(tc.model), 0o644); err != nil {
				t.Fatal(err)
			}
			var v struct {
				Method        string            `json:"method"`
				Exact         bool              `json:"exact"`
				Reason        string            `json:"reason"`
				ErrorEstimate *qn.ErrorEstimate `json:"error_estimate"`
				Notes         []string          `json:"notes"`
			}
			stderr := runJSON(t, &v, "solve", "--format", "json", path)
			if v.Exact != tc.exact || (tc.method != "" && v.Method != tc.method) || v.Method == "" {
				t.Errorf("method %q exact %v, want %q exact %v", v.Method, v.Exact, tc.method, tc.exact)
			}
			if v.Reason == "" {
				t.Errorf("auto gave no reason for its choice")
			}
			if v.Exact {
				if stderr != "" || v.ErrorEstimate != nil {
					t.Errorf("exact result with an estimate %v or stderr %q", v.ErrorEstimate, stderr)
				}
				return
			}
			if !strings.Contains(stderr, "method "+v.Method+" (APPROXIMATE") {
				t.Errorf("approximate result without its account on stderr: %q", stderr)
			}
			if v.ErrorEstimate == nil {
				t.Fatalf("approximate result without an error estimate (notes %v)", v.Notes)
			}
			if e := v.ErrorEstimate.RelError; !(e >= 0) || math.IsInf(e, 0) || !strings.Contains(stderr, "estimated error") {
				t.Errorf("error estimate %v, stderr %q", e, stderr)
			}
		})
	}
}

// autoModel is the model of the autoCases entry called name.
func autoModel(t *testing.T, name string) string {
	t.Helper()
	for _, c := range autoCases {
		if c.name == name {
			return c.model
		}
	}
	t.Fatalf("no auto case %q", name)
	return ""
}

// TestSolveExactRefuses: --exact refuses where auto would approximate (exit 2, the reason
// with the work estimate), and refuses a named approximate solver; --ms-method is labelled.
func TestSolveExactRefuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, model string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(model), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	large := write("large.yaml", autoModel(t, "multi-class too large"))
	ms := write("ms.yaml", autoModel(t, "multi-server multi-class exact"))
	fj := write("fj.yaml", autoModel(t, "fork/join"))
	for _, c := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"solve", "--exact", large}, 2, "8e+12 population vectors (limit 2e+09)"},
		{[]string{"solve", "--exact", "--solver", "linearizer", ms}, 2, "approximate and exact results were required"},
		{[]string{"solve", "--exact", fj}, 2, "fork/join"},
		{[]string{"solve", "--exact", "--sweep", "population.a=20000:20001", large}, 2, "population vectors (limit 2e+09)"},
		{[]string{"solve", "--exact", ms}, 0, ""},
		{[]string{"solve", "--solver", "schweitzer", "--ms-method", "seidmann", ms}, 0, "method schweitzer+seidmann (APPROXIMATE; estimated error"},
		{[]string{"solve", "--solver", "schweitzer", ms}, 0, "method schweitzer+marginal (APPROXIMATE; estimated error"},
		{[]string{"solve", "--ms-method", "rolia", ms}, 2, "allowed: marginal, seidmann"},
		// refused before any work: nothing printed
		{[]string{"solve", "--export-jmva", filepath.Join(dir, "fj.jmva"), fj}, 2, "JMVA has no fork/join nodes"},
		{[]string{"solve", "--measured", ms, ms}, 2, "compared with a sweep"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), c.args, &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errb.String(), c.code, c.want)
		}
		if c.code != 0 && out.Len() != 0 {
			t.Errorf("%v: refused but printed %q", c.args, out.String())
		}
	}
}

// TestSolveDistribution: P(n = j) at a station sums to 1 and its mean Σ j·P(j) is the
// station's queue length from MVA (two algorithms, one invariant); ln G is finite.
func TestSolveDistribution(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"solve", "--format", "json", "--distribution", "cpu", ex + "jmt/central.jmva"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v solveResult
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	d := v.Distribution
	if d == nil || math.IsNaN(d.LogNormalizingConstant) || math.IsInf(d.LogNormalizingConstant, 0) {
		t.Fatalf("distribution %+v", d)
	}
	sum, mean := 0.0, 0.0
	for _, p := range d.Probabilities {
		sum += p.Probability
		mean += float64(p.Jobs) * p.Probability
	}
	q := v.Stations[1].QueueLength // cpu
	if math.Abs(sum-1) > 1e-12 || math.Abs(mean-q) > 1e-10*q {
		t.Errorf("Σ P = %.15g (want 1), Σ j·P = %.15g, MVA queue length %.15g", sum, mean, q)
	}
	errb.Reset()
	if code := run(context.Background(), []string{"solve", "--distribution", "nosuch", ex + "jmt/central.jmva"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "no such station") {
		t.Errorf("unknown station: exit %d, %q", code, errb.String())
	}
}

// TestSolveExportJMVA: --export-jmva writes a file JMVA reads back to the same model, whose
// saved solution is the printed one; on a what-if file, one solution per point.
func TestSolveExportJMVA(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		model     string
		solutions int
	}{{ex + "jmt/central.jmva", 1}, {ex + "qn/central-server.yaml", 1}, {ex + "jmt/ld.jmva", 6}} {
		path := filepath.Join(dir, filepath.Base(c.model)+".jmva")
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"solve", "--export-jmva", path, c.model}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.model, code, errb.String())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		back, err := jmva.Read(path, data)
		if err != nil {
			t.Fatalf("%s: exported file does not read back: %v", c.model, err)
		}
		if len(back.Solutions) != c.solutions {
			t.Errorf("%s: %d solutions, want %d", c.model, len(back.Solutions), c.solutions)
		}
		in, err := solveapp.ParseInput(readInput, c.model)
		if err != nil {
			t.Fatal(err)
		}
		if len(back.Model.Classes) != len(in.Model.Classes) {
			t.Errorf("%s: %d classes read back, want %d", c.model, len(back.Model.Classes), len(in.Model.Classes))
		}
	}
}

// TestSolveIdleStation: issue 13's idle M/M/1 (arrival rate 0, demand 1 s): by
// qn.ZeroConvention the class response time is D/(1 − U) = 1 s, and the station's
// residence_time_s in the JSON is the same 1 s (it was 0).
func TestSolveIdleStation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "idle.yaml")
	if err := os.WriteFile(path, []byte("classes: [{name: o, arrival_rate: 0}]\nstations: [{name: q, demand: 1}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"solve", "--format", "json", path}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v solveResult
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if v.Classes[0].ResponseTime != 1 || v.Stations[0].ResidenceTime != 1 || v.Classes[0].Throughput != 0 {
		t.Errorf("idle M/M/1: class R %g, station residence %g, X %g; want 1, 1, 0", v.Classes[0].ResponseTime, v.Stations[0].ResidenceTime, v.Classes[0].Throughput)
	}
}

// TestSweepMeasured: --measured puts each measurement beside the sweep's value at the same
// swept value with rel_error = (model − measured)/measured; a value the sweep does not
// have, an unknown class, or a missing class column is refused with the file's line.
func TestSweepMeasured(t *testing.T) {
	dir := t.TempDir()
	write := tempWriter(t, dir)
	good := write("good.csv", "value,throughput_per_s,response_time_s\n2,280,0.0072\n4,540,\n")
	var out, errb bytes.Buffer
	svg := filepath.Join(dir, "m.svg")
	args := []string{"solve", "--format", "json", "--sweep", "population=1:6", "--measured", good, "--plot", svg, ex + "keck/cg-a-4.yaml"}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v solveapp.SweepResult
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Measured) != 2 {
		t.Fatalf("%d measured points, want 2", len(v.Measured))
	}
	for _, c := range v.Measured {
		pt := v.Points[int(c.Value)-1] // population 1..6: point i has N = i+1
		if *c.ModelThroughput != pt.Classes[0].Throughput || *c.ThroughputRelError != (pt.Classes[0].Throughput-*c.MeasuredThroughput) / *c.MeasuredThroughput {
			t.Errorf("N = %g: model %g rel_error %g, sweep X %g", c.Value, *c.ModelThroughput, *c.ThroughputRelError, pt.Classes[0].Throughput)
		}
	}
	if c := v.Measured[1]; c.MeasuredResponseTime != nil || c.ResponseTimeRelError != nil {
		t.Errorf("empty response time cell compared: %+v", c)
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.Contains(b, []byte("measured X messages")) || !bytes.Contains(b, []byte("measured R messages")) {
		t.Errorf("plot without the measured series in its legend (%v)", err)
	}
	multi := write("multi.yaml", autoCases[1].model)
	for _, c := range []struct {
		csv, model, want string
	}{
		{"value,throughput_per_s\n2,280\n2.5,300\n", ex + "keck/cg-a-4.yaml", "bad.csv:3: value 2.5 is not a point of the sweep"},
		{"value,class,throughput_per_s\n2,web,280\n", ex + "keck/cg-a-4.yaml", `bad.csv:2: class = "web" is not a class`},
		{"value,throughput_per_s\n2,1\n", multi, "bad.csv:1: the model has 2 classes: want a column class"},
		{"value,throughput_per_s\n2,-1\n", ex + "keck/cg-a-4.yaml", "bad.csv:2: throughput_per_s = \"-1\" must be a finite number > 0"},
	} {
		bad := write("bad.csv", c.csv)
		out.Reset()
		errb.Reset()
		sweep := "population=1:6"
		if c.model == multi {
			sweep = "population.a=1:6"
		}
		code := run(context.Background(), []string{"solve", "--sweep", sweep, "--measured", bad, c.model}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) || out.Len() != 0 {
			t.Errorf("%q: exit %d, stderr %q, want exit 2 and %q", c.csv, code, errb.String(), c.want)
		}
	}
}

// TestSolveJMVAOctave: `solve FILE.jmva` gives GNU Octave's answers for the example files
// (testdata/octave/jmva.json, written by testdata/octave/jmva.m): central.jmva by qncmmva
// (class throughput = X at the CPU / its visits), ld.jmva's what-if over N = 1..6 by
// qncsmvald (class throughput = X at the terminal, one visit).
func TestSolveJMVAOctave(t *testing.T) {
	b, err := os.ReadFile("../../testdata/octave/jmva.json")
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		Name string          `json:"name"`
		X    json.RawMessage `json:"X"`
		V    json.RawMessage `json:"V"`
	}
	if err := json.Unmarshal(b, &refs); err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, r := range refs {
		byName[r.Name] = i
	}
	solveJSON := func(path string, v any) {
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"solve", "--format", "json", path}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", path, code, errb.String())
		}
		if err := json.Unmarshal(out.Bytes(), v); err != nil {
			t.Fatal(err)
		}
	}
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-10*math.Abs(want) }
	var sr solveResult
	solveJSON(ex+"jmt/central.jmva", &sr)
	var x, v [][]float64
	c := refs[byName["central"]]
	if json.Unmarshal(c.X, &x) != nil || json.Unmarshal(c.V, &v) != nil {
		t.Fatal("central: X, V not matrices")
	}
	for cl := range sr.Classes {
		if want := x[cl][1] / v[cl][1]; !near(sr.Classes[cl].Throughput, want) {
			t.Errorf("central.jmva class %s: X %.15g, Octave qncmmva %.15g", sr.Classes[cl].Name, sr.Classes[cl].Throughput, want)
		}
	}
	var sw solveapp.SweepResult
	solveJSON(ex+"jmt/ld.jmva", &sw)
	if len(sw.Points) != 6 {
		t.Fatalf("ld.jmva what-if: %d points, want 6", len(sw.Points))
	}
	for i, pt := range sw.Points {
		var xs []float64
		if err := json.Unmarshal(refs[byName[fmt.Sprintf("ld-N%d", i+1)]].X, &xs); err != nil {
			t.Fatal(err)
		}
		if !near(pt.Classes[0].Throughput, xs[0]) || !pt.Status.Exact {
			t.Errorf("ld.jmva N = %g: X %.15g (exact %v), Octave qncsmvald %.15g", pt.Value, pt.Classes[0].Throughput, pt.Status.Exact, xs[0])
		}
	}
}

// TestSweepForkJoinEstimates: a sweep of a fork/join model prints no point without an
// error estimate (each measured against a seeded simulation at that point).
func TestSweepForkJoinEstimates(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"solve", "--format", "json", "--sweep", "population=1:3", "--events", "20000", "--reps", "4", ex + "qn/striped-write.yaml"}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v solveapp.SweepResult
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	for _, pt := range v.Points {
		if s := pt.Status; s == nil || s.Exact || s.ErrorEstimate == nil || !strings.HasPrefix(s.ErrorEstimate.SpreadMethod, "simulation (4 replications of 20000 events") {
			t.Errorf("N = %g: status %+v", pt.Value, pt.Status)
		}
	}
	if !strings.Contains(errb.String(), "3 of 3 points APPROXIMATE") {
		t.Errorf("stderr %q", errb.String())
	}
}

// TestModelFileFeatures: the two model files with what a bare qn.Model cannot hold (class
// switching, issue 13; a finite capacity, issue 14) are solved through qn.ModelFile.Solve with
// an exact method (the chain MVA of a PS network is exact by BCMP; the blocking network's
// 14-state CTMC is exact), and simulate, which moves jobs by the (class, station) routing and
// blocks them after service, agrees with that answer: every compared quantity lies within
// four 95 % half-widths, or 1 % (relative), of the simulated mean. The answers must also be
// the ones the library gives for the same file (no second path in the CLI).
func TestModelFileFeatures(t *testing.T) {
	for _, tc := range []struct{ file, method string }{
		{"class-switch", "mva"},
		{"finite-capacity", "ctmc-blocking-after-service"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := ex + "qn/" + tc.file + ".yaml"
			var sv struct {
				Method string  `json:"method"`
				Exact  bool    `json:"exact"`
				X      float64 `json:"system_throughput_per_s"`
				Bounds []any   `json:"bounds"`
			}
			runJSON(t, &sv, "solve", "--format", "json", path)
			if sv.Method != tc.method || !sv.Exact || len(sv.Bounds) != 0 {
				t.Errorf("solve: method %q exact %v, %d bounds; want %q, exact, none (they assume unlimited capacities and independent classes)", sv.Method, sv.Exact, len(sv.Bounds), tc.method)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			mf, err := qn.ParseModelFile(path, data)
			if err != nil {
				t.Fatal(err)
			}
			lib, err := mf.Solve(context.Background(), "auto", qn.AMVAOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if want := lib.SystemThroughput(); math.Abs(sv.X-want) > 1e-12*want {
				t.Errorf("solve X = %.15g, ModelFile.Solve %.15g", sv.X, want)
			}
			args := []string{"simulate", "--format", "json", "--reps", "5", "--events", "40000", "--seed", "7"}
			if tc.file == "class-switch" { // the file's stations are PS already; say so explicitly
				args = append(args, "--discipline", "cpu=ps", "--discipline", "disk=ps")
			}
			var rep struct {
				Rows []struct {
					Quantity            string
					Analytic, Simulated float64
					Half                float64 `json:"half_width_95"`
				} `json:"rows"`
			}
			runJSON(t, &rep, append(args, path)...)
			if len(rep.Rows) == 0 {
				t.Fatal("no rows")
			}
			for _, r := range rep.Rows {
				if d := math.Abs(r.Analytic - r.Simulated); d > max(4*r.Half, 0.01*math.Abs(r.Simulated)) {
					t.Errorf("%s: analytic %.6g, simulated %.6g ± %.3g", r.Quantity, r.Analytic, r.Simulated, r.Half)
				}
			}
		})
	}
}

// TestSweepCompactTable: the table format of a sweep shows the bounds at the first and last
// swept value only (4 named bounds × 1 class × 2 values = 8 rows for cg-a-4, a single-class
// closed network where all four apply), --all every value (4 × 20 = 80), and JSON always
// every value; the always-empty est_rel_error and note columns of an exact sweep are left out
// of the table but stay in the JSON points.
func TestSweepCompactTable(t *testing.T) {
	model := ex + "keck/cg-a-4.yaml"
	count := func(args ...string) (boundRows int, text string) {
		var out, errb bytes.Buffer
		if code := run(context.Background(), append(append([]string{"solve", "--sweep", "population=1:20"}, args...), model), &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		in := false
		for _, l := range strings.Split(out.String(), "\n") {
			switch {
			case strings.HasPrefix(l, "Bounds at"):
				in = true
			case in && strings.Contains(l, " bounds ("):
				boundRows++
			}
		}
		return boundRows, out.String()
	}
	if n, txt := count(); n != 8 || strings.Contains(txt, "est_rel_error") || !strings.Contains(txt, "80 rows at 20 values") {
		t.Errorf("default table: %d bound rows (want 8), est_rel_error column or summary title wrong:\n%s", n, txt)
	}
	if n, _ := count("--all"); n != 80 {
		t.Errorf("--all: %d bound rows, want 80", n)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"solve", "--sweep", "population=1:20", "--format", "json", model}, &out, &errb); code != 0 {
		t.Fatalf("json: exit %d: %s", code, errb.String())
	}
	var v struct {
		Points []struct {
			Bounds []json.RawMessage `json:"bounds"`
		} `json:"points"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range v.Points {
		n += len(p.Bounds)
	}
	if len(v.Points) != 20 || n != 80 {
		t.Errorf("json: %d points, %d bounds; want 20 and 80", len(v.Points), n)
	}
}

// TestModelFileFeaturesRefused: what cannot carry class switching or capacities is refused
// (exit 2, naming the flag and the feature), never answered for the model without them;
// the blocking-only solvers are refused on an ordinary model.
func TestModelFileFeaturesRefused(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--sweep", "population=1:4", ex + "qn/finite-capacity.yaml"}, "--sweep population=1:4: " + ex + "qn/finite-capacity.yaml has finite capacities"},
		{[]string{"--sweep", "population=1:4", ex + "qn/class-switch.yaml"}, "has class switching"},
		{[]string{"--distribution", "cpu", ex + "qn/class-switch.yaml"}, "--distribution cpu"},
		{[]string{"--export-jmva", filepath.Join(t.TempDir(), "x.jmva"), ex + "qn/finite-capacity.yaml"}, "JMVA files cannot express"},
		{[]string{"--solver", "mvablo", ex + "keck/cg-a-4.yaml"}, "solves networks with finite capacities"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"solve"}, tc.args...), &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("solve %q: exit %d, stderr %q; want exit 2 saying %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

// TestSweepInterrupted: a sweep cancelled mid-way (Ctrl-C cancels the root context) prints
// the points solved so far, marked partial with a note, and exits 130. population=1:30000
// takes tens of seconds here; the context ends after 1.5 s.
func TestSweepInterrupted(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.yaml")
	if err := os.WriteFile(model, []byte("classes:\n  - {name: u, population: 8, think_time: 1}\nstations:\n  - {name: cpu, demand: 0.1}\n  - {name: disk, demand: 5ms}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	out, _ := runInterrupted(t, 1500*time.Millisecond, "solve", model, "--sweep", "population=1:30000", "--format", "json")
	var v struct {
		Partial bool       `json:"partial"`
		Points  []struct{} `json:"points"`
		Notes   []string   `json:"notes"`
	}
	decodeJSON(t, out, &v)
	if !v.Partial || len(v.Points) == 0 || len(v.Points) >= 30000 || !slices.ContainsFunc(v.Notes, func(n string) bool { return strings.HasPrefix(n, "partial: interrupted after") }) {
		t.Errorf("partial %v, %d points, notes %q", v.Partial, len(v.Points), v.Notes)
	}
}

// TestSweepPointNotes: a sweep point keeps its own solver notes (session 4's review: the
// sweep dropped Linearizer's "approximation infeasible" note). Linearizer on the
// reviewer's c8 model (qn/testdata/linearizer-u-above-1.yaml, s1 U = 1.00013 at c0 = 2)
// gives each swept point the notes a single solve at that value gives; the JSON point
// carries them, the table lists each once with its value, the CSV's note cell has them.
func TestSweepPointNotes(t *testing.T) {
	model := "../../qn/testdata/linearizer-u-above-1.yaml"
	runOut := func(args ...string) string {
		var out, errb bytes.Buffer
		if code := run(context.Background(), append(args, model), &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		return out.String()
	}
	var sweep struct {
		Points []struct {
			Value float64  `json:"value"`
			Notes []string `json:"notes"`
		} `json:"points"`
	}
	if err := json.Unmarshal([]byte(runOut("solve", "--solver", "linearizer", "--sweep", "population.c0=1:2", "--format", "json")), &sweep); err != nil {
		t.Fatal(err)
	}
	table := runOut("solve", "--solver", "linearizer", "--sweep", "population.c0=1:2")
	csv := runOut("solve", "--solver", "linearizer", "--sweep", "population.c0=1:2", "--format", "csv")
	if len(sweep.Points) != 2 {
		t.Fatalf("%d points, want 2", len(sweep.Points))
	}
	// the single solve at c0 = 2 (the model file's own population)
	var single struct {
		Notes []string `json:"notes"`
	}
	if err := json.Unmarshal([]byte(runOut("solve", "--solver", "linearizer", "--format", "json")), &single); err != nil {
		t.Fatal(err)
	}
	var infeasible string
	for _, n := range single.Notes {
		if strings.Contains(n, "infeasible") {
			infeasible = n
		}
	}
	if infeasible == "" {
		t.Fatalf("the single solve has no infeasible note any more (the case lost its point): %q", single.Notes)
	}
	for _, p := range sweep.Points {
		if !slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "infeasible") }) {
			t.Errorf("point %g: notes %q, want the infeasible note", p.Value, p.Notes)
		}
	}
	if !slices.Contains(sweep.Points[1].Notes, infeasible) {
		t.Errorf("point 2: notes %q, want the single solve's %q", sweep.Points[1].Notes, infeasible)
	}
	if !strings.Contains(table, "note: at population.c0 = 2: "+infeasible) || !strings.Contains(table, "see notes") {
		t.Errorf("table lacks the point's note (or the row's pointer to it):\n%s", table)
	}
	if !strings.Contains(csv, strings.ReplaceAll(infeasible, `"`, `""`)) { // CSV doubles a quote
		t.Errorf("csv lacks the point's note:\n%s", csv)
	}
}
