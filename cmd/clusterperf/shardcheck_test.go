package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// vModel is the hostile-input review's sweep model (two queueing stations, one class).
const vModel = `classes:
  - {name: a, population: 5, think_time: 1s}
stations:
  - {name: cpu, type: queue, demand: 50ms}
  - {name: disk, type: queue, demand: 30ms}
`

// tamper rewrites item i of shard file name in dir (copied first to a fresh directory):
// edit gets the item's result and returns its replacement.
func tamper(t *testing.T, src, name string, i int, edit func(r any) any) string {
	t.Helper()
	return copyStudy(t, src, func(file string, b []byte) []byte {
		if file != name {
			return b
		}
		var f map[string]any
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		it := f["items"].([]any)[i].(map[string]any)
		it["result"] = edit(it["result"])
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

// copyStudy copies the study directory src into a new temporary directory, each file's
// bytes passed through change (given the file's name) on the way.
func copyStudy(t *testing.T, src string, change func(name string, b []byte) []byte) string {
	t.Helper()
	dir := t.TempDir()
	es, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), change(e.Name(), b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// set returns an edit that sets key (a path of map keys) of the item's result to v.
func set(v any, keys ...string) func(any) any {
	return func(r any) any {
		m := r.(map[string]any)
		for _, k := range keys[:len(keys)-1] {
			m = m[k].(map[string]any)
		}
		m[keys[len(keys)-1]] = v
		return r
	}
}

func to(v any) func(any) any { return func(any) any { return v } }

// row sets field key of row i of a sweep item's validation to v.
func row(i int, key string, v any) func(any) any {
	return func(r any) any {
		r.(map[string]any)["validation"].(map[string]any)["rows"].([]any)[i].(map[string]any)[key] = v
		return r
	}
}

// saturated replaces a sweep item's result by a saturation at station with utilization u.
func saturated(station string, u float64) func(any) any {
	return func(r any) any {
		m := r.(map[string]any)
		delete(m, "result")
		m["saturation"] = map[string]any{"Station": station, "Utilization": u}
		return r
	}
}

// TestMergeRefusesTamperedShards (hostile-input review): every kind of shard item is checked
// for shape (the model's classes and stations, the fit's free parameters) and range before
// use; a tampered item is refused with exit 2 naming the shard file, the item and what was
// expected — never a panic (a short replicate, an empty throughput vector were index
// panics) or a negative/empty number with exit 0. Each study first merges untampered.
func TestMergeRefusesTamperedShards(t *testing.T) {
	work := t.TempDir()
	v := filepath.Join(work, "v.yaml")
	if err := os.WriteFile(v, []byte(vModel), 0o644); err != nil {
		t.Fatal(err)
	}
	ex := filepath.Join("..", "..", "examples")
	fitDir, sweepDir, simDir, tpnDir, spDir := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	shardAll(t, fitDir, 3, "fit", filepath.Join(ex, "fit", "qcrd.yaml"), filepath.Join(ex, "fit", "qcrd.csv"), "--bootstrap", "6")
	shardAll(t, sweepDir, 2, "solve", v, "--sweep", "population=1:4", "--validate", "--events", "20000")
	shardAll(t, simDir, 2, "simulate", "--reps", "4", "--events", "20000", v)
	shardAll(t, tpnDir, 3, "tpn", "--advise", "--cluster", filepath.Join(ex, "tpn", "cluster.yaml"), filepath.Join(ex, "tpn", "matmul.yaml"))
	shardAll(t, spDir, 2, "speedup", filepath.Join(ex, "spmd", "fig59-bus.yaml"), "--p", "1:4", "--validate", "--reps", "4", "--cycles", "100")
	for _, d := range []string{fitDir, sweepDir, simDir, tpnDir, spDir} {
		if code, _, errs := cli("merge", d); code != 0 {
			t.Fatalf("untampered %s: exit %d: %s", d, code, errs)
		}
	}
	trunc := func(r any) any { return r.([]any)[:3] }
	cases := []struct {
		name, dir, file string
		item            int
		edit            func(any) any
		want            string
	}{
		{"fit short replicate", fitDir, "shard-2-of-3.json", 0, trunc, "want one per free parameter"},
		{"fit negative", fitDir, "shard-1-of-3.json", 1, func(r any) any { r.([]any)[0] = -5.0; return r }, "want a finite value in"},
		{"fit huge", fitDir, "shard-0-of-3.json", 0, func(r any) any { r.([]any)[1] = 1e300; return r }, "want a finite value in"},
		{"fit null value", fitDir, "shard-0-of-3.json", 1, func(r any) any { r.([]any)[2] = nil; return r }, "is null"},
		{"fit not numbers", fitDir, "shard-0-of-3.json", 1, to(map[string]any{}), "want an array of numbers"},
		{"sweep empty throughput", sweepDir, "shard-0-of-2.json", 0, set([]any{}, "result", "throughput_per_s"), "want 1 (one per class)"},
		{"sweep negative response", sweepDir, "shard-1-of-2.json", 0, set([]any{-1.0}, "result", "response_time_s"), "want a finite value ≥ 0"},
		{"sweep null result", sweepDir, "shard-0-of-2.json", 1, set(nil, "result"), "neither a result nor a saturation"},
		{"sweep queue shape", sweepDir, "shard-0-of-2.json", 0, set([]any{[]any{1.0}}, "result", "queue_length"), "want 2 (one per station)"},
		{"sweep overfull", sweepDir, "shard-1-of-2.json", 1, set([]any{[]any{1.5}, []any{0.1}}, "result", "utilization"), "want at most 1"},
		{"sweep no validation", sweepDir, "shard-1-of-2.json", 1, set(nil, "validation"), "no validation"},
		{"sweep null item", sweepDir, "shard-1-of-2.json", 1, to(nil), "null"},
		{"sim short", simDir, "shard-1-of-2.json", 0, set([]any{}, "throughput_per_s"), "want 1 (one per class)"},
		{"sim negative time", simDir, "shard-0-of-2.json", 1, set(-3.0, "time_s"), "want a finite value ≥ 0"},
		{"sim overfull", simDir, "shard-0-of-2.json", 0, set([]any{2.0, 0.1}, "utilization"), "want at most 1"},
		{"sim unknown key", simDir, "shard-1-of-2.json", 1, set(1.0, "Throughput"), "unknown key"},
		{"speedup null", spDir, "shard-1-of-2.json", 0, to(nil), "null"},
		{"speedup negative", spDir, "shard-0-of-2.json", 1, to(-2.0), "want a finite time ≥ 0"},
		{"tpn empty", tpnDir, "shard-1-of-3.json", 0, to(map[string]any{}), "want both completed"},
		{"tpn null", tpnDir, "shard-2-of-3.json", 2, to(nil), "null"},
		{"tpn negative", tpnDir, "shard-0-of-3.json", 3, to(map[string]any{"completed": true, "time_ns": -5}), "want 0 …"},
		{"tpn not completed", tpnDir, "shard-1-of-3.json", 4, to(map[string]any{"completed": false, "time_ns": 0}), "completes when simulated again"},
		{"sweep validation half-width", sweepDir, "shard-0-of-2.json", 1, row(0, "half_width_95", -0.01), "rows[0].half_width_95"},
		{"sweep validation U above 1", sweepDir, "shard-1-of-2.json", 0, row(4, "simulated", 1.7), "rows[4].simulated"},
		{"sweep validation forged rel_error", sweepDir, "shard-1-of-2.json", 1, row(1, "rel_error", 0.5), "rows[1].rel_error"},
		{"sweep validation no replications", sweepDir, "shard-0-of-2.json", 0, func(r any) any {
			r.(map[string]any)["validation"].(map[string]any)["simulation"].(map[string]any)["replications"] = 0.0
			return r
		}, "simulation.replications"},
		// hostile review: numbers the model cannot give, and a forged method or status
		{"sweep X 1e300", sweepDir, "shard-1-of-2.json", 0, set([]any{1e300}, "result", "throughput_per_s"), "Little's law"},
		{"sweep X 0", sweepDir, "shard-1-of-2.json", 0, set([]any{0.0}, "result", "throughput_per_s"), "Little's law"},
		{"sweep R 1e300", sweepDir, "shard-0-of-2.json", 1, set([]any{1e300}, "result", "response_time_s"), "Little's law"},
		{"sweep Q above N", sweepDir, "shard-0-of-2.json", 0, set([]any{[]any{1e300}, []any{0.1}}, "result", "queue_length"), "at most the population"},
		{"sweep U not X·D", sweepDir, "shard-0-of-2.json", 1, set([]any{[]any{0.01}, []any{0.01}}, "result", "utilization"), "utilization law"},
		{"sweep not converged", sweepDir, "shard-1-of-2.json", 0, set(false, "result", "status", "converged"), "always converges"},
		{"sweep method script", sweepDir, "shard-1-of-2.json", 1, func(r any) any {
			m := r.(map[string]any)["result"].(map[string]any)
			m["method"], m["exact"] = "<script>alert(1)</script>", false
			return r
		}, "want one of the solvers' method names"},
		{"sweep exact called approximate", sweepDir, "shard-1-of-2.json", 1, set(false, "result", "exact"), "is exact exactly when the model is product form"},
		{"sim R 1.7e308", simDir, "shard-1-of-2.json", 0, set([]any{1.7e308}, "response_time_s"), "want at most population"},
		{"sim Q 1e308", simDir, "shard-0-of-2.json", 1, set([]any{[]any{1e308}, []any{1e308}}, "queue_length"), "at most the population 5"},
		{"sim R null", simDir, "shard-0-of-2.json", 0, set([]any{nil}, "response_time_s"), "response_time_s[0] = null; want"},
		{"sim X 0", simDir, "shard-1-of-2.json", 1, set([]any{0.0}, "throughput_per_s"), "want a throughput > 0"},
		// issue 32: a forged replication with zero events and a positive time was accepted
		{"sim zero events", simDir, "shard-0-of-2.json", 1, set(0.0, "events"), "events = 0 with time_s"},
		{"sim too few events", simDir, "shard-1-of-2.json", 0, set(3.0, "events"), "want at least one event per completion"},
		{"sweep saturation elsewhere", sweepDir, "shard-0-of-2.json", 0, saturated("nowhere", 2), "want a station of the model"},
		{"sweep saturation below 1", sweepDir, "shard-1-of-2.json", 1, saturated("cpu", 0.4), "want a finite utilization ≥ 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := tamper(t, c.dir, c.file, c.item, c.edit)
			code, out, errs := cli("merge", d)
			if code != fault.ExitInput || !strings.Contains(errs, c.file) || !strings.Contains(errs, "items[") || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d (want %d), stderr %q (want %s, the item and %q)\n%.300s", code, fault.ExitInput, errs, c.file, c.want, out)
			}
		})
	}
}

// TestStudyOutIsAFile: --out naming an existing regular file is refused before any work,
// naming --out (it was "mkdir ofile: not a directory", exit 1).
func TestStudyOutIsAFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "ofile")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ex := filepath.Join("..", "..", "examples", "fit")
	code, _, errs := cli("fit", filepath.Join(ex, "qcrd.yaml"), filepath.Join(ex, "qcrd.csv"), "--bootstrap", "4", "--shard", "0/2", "--out", f)
	if code != fault.ExitInput || !strings.Contains(errs, "--out") || !strings.Contains(errs, "not a directory") {
		t.Errorf("exit %d, %q", code, errs)
	}
}

// TestMergeApproximateUtilAboveOne: Linearizer gives a utilization of 1.00014 at station s1
// of qn/testdata/linearizer-u-above-1.yaml at population.c0 = 2 (an approximation, noted
// "approximation infeasible" by qn and not clamped), so the merge of a sharded --solver
// linearizer sweep accepts it and prints the one-machine result (it was refused: "sums to
// 1.0001427…; want at most 1"); an exact result above 1 is still refused ("sweep overfull"
// in TestMergeRefusesTamperedShards).
func TestMergeApproximateUtilAboveOne(t *testing.T) {
	dir := t.TempDir()
	args := []string{"solve", filepath.Join("..", "..", "qn", "testdata", "linearizer-u-above-1.yaml"),
		"--solver", "linearizer", "--sweep", "population.c0=1:2"}
	shardAll(t, dir, 2, args...)
	sameAsLocal(t, dir, args, []string{"--format", "json"})
}
