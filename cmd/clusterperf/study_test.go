package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/app/tpnapp"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

// cli runs clusterperf with args and returns the exit code, stdout and stderr.
func cli(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestSimulateShardMerge (issue 18): simulate --reps 120 over 8 shards, merged, prints
// exactly what the one-machine run with the same seed prints — in table, JSON and CSV —
// because replication k is Run(seed, k) wherever it is computed (package shard's contract).
// A missing shard is reported by merge --status and refused by merge.
func TestSimulateShardMerge(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	study := []string{"simulate", "--seed", "11", "--reps", "120", "--events", "20000", model}
	dir := t.TempDir()
	for i := 0; i < 8; i++ {
		if i == 5 {
			continue // missing for now
		}
		if code, _, errs := cli(append(study, "--shard", fmt.Sprintf("%d/8", i), "--out", dir)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errs)
		}
	}
	code, out, _ := cli("merge", "--status", dir)
	if code != 0 || !strings.Contains(out, "done 7, active 0, failed 0, missing 1") {
		t.Fatalf("status with shard 5 missing: exit %d\n%s", code, out)
	}
	if code, _, errs := cli("merge", dir); code != fault.ExitInput || !strings.Contains(errs, "missing: 5") {
		t.Fatalf("merge with shard 5 missing: exit %d: %s", code, errs)
	}
	// the same study spelt differently (flag order, = form) is the same plan
	if code, _, errs := cli("simulate", model, "--events=20000", "--reps=120", "--seed=11", "--format", "json", "--shard=5/8", "--out="+dir); code != 0 {
		t.Fatalf("shard 5: exit %d: %s", code, errs)
	}
	for _, format := range []string{"table", "json", "csv"} {
		code, local, errs := cli(append(study, "--format", format)...)
		if code != 0 {
			t.Fatalf("%s: one machine: exit %d: %s", format, code, errs)
		}
		code, merged, errs := cli("merge", "--format", format, dir)
		if code != 0 {
			t.Fatalf("%s: merge: exit %d: %s", format, code, errs)
		}
		if merged != local {
			t.Errorf("%s: merged output differs from the one-machine run\nmerged:\n%s\nlocal:\n%s", format, merged, local)
		}
	}
	if _, local, _ := cli(append(study, "--format", "json")...); !strings.Contains(local, `"replications": 120`) || !strings.Contains(local, `"exact": false`) {
		t.Errorf("the compared output is not a 120-replication simulation:\n%.600s", local)
	}
}

// TestSimulateStudyRefusals: what cannot be sharded is refused before any work, saying why
// (exit 2), and a directory holding another study is not overwritten.
func TestSimulateStudyRefusals(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--precision", "0.1", "--shard", "0/2", "--out", dir}, "--precision with --shard/--slurm"},
		{[]string{"--batches", "10", "--slurm", "--out", dir}, "--batches with --shard/--slurm"},
		{[]string{"--shard", "2/2", "--out", dir}, "--shard"},
		{[]string{"--shard", "0/2"}, "need --out DIR"},
		{[]string{"--out", dir}, "belong to --shard or --slurm"},
		{[]string{"--shard", "0/2", "--slurm", "--out", dir}, "give one of them"},
		{[]string{"--reps", "3", "--shard", "0/4", "--out", dir}, "shard"},
	} {
		code, _, errs := cli(append([]string{"simulate", "--events", "2000", model}, c.args...)...)
		if code != fault.ExitInput || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q (want exit 2 and %q)", c.args, code, errs, c.want)
		}
	}
	spmd := filepath.Join("..", "..", "examples", "spmd", "fig59-bus.yaml")
	if code, _, errs := cli("simulate", spmd, "--shard", "0/2", "--out", dir); code != fault.ExitInput || !strings.Contains(errs, "queueing network only") {
		t.Errorf("SPMD study: exit %d, %q", code, errs)
	}
	if code, _, errs := cli("simulate", "--events", "2000", "--reps", "4", model, "--shard", "0/2", "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := cli("simulate", "--events", "2000", "--reps", "4", "--seed", "2", model, "--shard", "1/2", "--out", dir); code != fault.ExitInput || !strings.Contains(errs, "another study") {
		t.Errorf("a second study in the same directory: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "shard-1-of-2.json")); err == nil {
		t.Error("the other study's shard was written")
	}
}

// TestSimulateSlurmDryRun: --slurm-dry-run prints the batch script that runs this binary's
// simulate with the study's arguments (no --shard, --out or Slurm flags among them) and
// the sbatch options given, and submits nothing.
func TestSimulateSlurmDryRun(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	dir := t.TempDir()
	code, out, errs := cli("simulate", "--reps", "40", model, "--slurm", "--slurm-dry-run", "--out", dir, "--slurm-opt", "partition=debug", "--slurm-opt", "time=00:05:00", "--slurm-array-size", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"#SBATCH --array=0-7", "#SBATCH --partition=debug", "#SBATCH --time=00:05:00", "'simulate' '--reps=40' '" + model + "' --shard \"${SLURM_ARRAY_TASK_ID}/8\""} {
		if !strings.Contains(out, want) {
			t.Errorf("script lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "plan.json")); err == nil {
		t.Error("a dry run wrote the plan")
	}
}

// TestSimulateLibraryErrors: simulate no longer calls every library error bad input — sim
// classifies them: an open class at 1.25 times the capacity of its station (λ·D = 5 · 0.25,
// utilization above 1 in closed form) is a saturation finding (exit 3); times beyond float64 are refused (exit 2); --reps 1 and a bad or
// too small --max-memory are refused (exit 2); without --events the default length is used.
func TestSimulateLibraryErrors(t *testing.T) {
	dir := t.TempDir()
	write := tempWriter(t, dir)
	sat := write("sat.yaml", "classes: [{name: o, arrival_rate: 5}]\nstations: [{name: cpu, service_time: 0.25}]\n")
	if code, _, errs := cli("simulate", "--reps", "2", sat); code != fault.ExitFinding || !strings.Contains(errs, "satur") {
		t.Errorf("saturated: exit %d, %q (want 3)", code, errs)
	}
	// three jobs cycling through 1e308 s of service: R ≈ 3e308 s overflows float64 — sim
	// refuses it as input (exit 2) rather than print +Inf
	huge := write("huge.yaml", "classes: [{name: a, population: 3, think_time: 1e-300}]\nstations: [{name: cpu, service_time: 1e308}, {name: d, service_time: 1e-300}]\n")
	if code, _, errs := cli("simulate", "--reps", "2", "--events", "20000", huge); code != fault.ExitInput || !strings.Contains(errs, "float64 range") {
		t.Errorf("1e308 s: exit %d, %q (want 2)", code, errs)
	}
	ok := write("ok.yaml", "classes: [{name: o, arrival_rate: 2}]\nstations: [{name: cpu, service_time: 0.25}]\n")
	if code, _, errs := cli("simulate", "--reps", "1", ok); code != fault.ExitInput || !strings.Contains(errs, "--reps 1") {
		t.Errorf("--reps 1: exit %d, %q (want 2)", code, errs)
	}
	if code, _, errs := cli("simulate", "--max-memory", "lots", ok); code != fault.ExitInput || !strings.Contains(errs, "--max-memory") {
		t.Errorf("--max-memory lots: exit %d, %q (want 2)", code, errs)
	}
	if code, _, errs := cli("simulate", "--max-memory", "1KB", ok); code != fault.ExitInput || !strings.Contains(errs, "--max-memory") {
		t.Errorf("--max-memory 1KB: exit %d, %q (want 2: too large for the limit)", code, errs)
	}
	if code, out, errs := cli("simulate", "--reps", "2", "--format", "json", ok); code != 0 || !strings.Contains(out, `"events_per_replication": 200000`) || !strings.Contains(out, "MSER-5") {
		t.Errorf("default length (sim.MinEvents = 200000 for an open network): exit %d, %s %s", code, out, errs)
	}
}

// TestTpnAdviseShardMerge (issue 18): the exhaustive search of tpn --advise over the 4^4 =
// 256 mappings of matmul, in 3 shards and merged, prints exactly the one-machine result in
// table, JSON and CSV (the advice table).
func TestTpnAdviseShardMerge(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "tpn")
	study := []string{"tpn", "--advise", "--cluster", filepath.Join(ex, "cluster.yaml"), filepath.Join(ex, "matmul.yaml")}
	shardMergeSame(t, study, 3, [][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv", "--csv-table", "advice"}})
	if code, _, errs := cli("tpn", "--cluster", filepath.Join(ex, "cluster.yaml"), filepath.Join(ex, "matmul.yaml"), "--shard", "0/3", "--out", t.TempDir()); code != fault.ExitInput || !strings.Contains(errs, "--advise") {
		t.Errorf("a study without --advise: exit %d, %q", code, errs)
	}
}

// TestTpnRunFlags: a net exported as PNML runs by itself to the program's time; budgets and
// --max-time are checked at the edge; a run cut off by --max-firings is a finding (exit 3).
func TestTpnRunFlags(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "tpn")
	cluster, prog := filepath.Join(ex, "cluster.yaml"), filepath.Join(ex, "matmul.yaml")
	net := filepath.Join(t.TempDir(), "matmul.pnml")
	code, out, errs := cli("tpn", "--format", "json", "--export-pnml", net, "--cluster", cluster, prog)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, outNet, errs := cli("tpn", "--format", "json", net)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", net, code, errs)
	}
	var a, b tpnapp.Result
	if json.Unmarshal([]byte(out), &a) != nil || json.Unmarshal([]byte(outNet), &b) != nil || a.TimeS != b.TimeS || a.Firings != b.Firings || a.TimeS <= 0 {
		t.Errorf("the PNML net does not reproduce the program's run: %v s / %d firings vs %v s / %d", b.TimeS, b.Firings, a.TimeS, a.Firings)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--max-time", "-1", "--cluster", cluster, prog}, fault.ExitInput, "--max-time"},
		{[]string{"--max-time", "1e10", "--cluster", cluster, prog}, fault.ExitInput, "--max-time"},
		{[]string{"--budget", "0", "--cluster", cluster, prog}, fault.ExitInput, "--budget"},
		{[]string{"--max-firings", "-3", "--cluster", cluster, prog}, fault.ExitInput, "--max-firings"},
		{[]string{"--max-transitions", "10", "--cluster", cluster, prog}, fault.ExitInput, "transitions"},
		{[]string{"--max-time", "0.5", "--cluster", cluster, prog}, fault.ExitFinding, "cut off"},
		{[]string{"--cluster", cluster, net}, fault.ExitInput, "is a net"},
		{[]string{prog}, fault.ExitInput, "--cluster"},
	} {
		code, _, errs := cli(append([]string{"tpn"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q (want %d and %q)", c.args, code, errs, c.code, c.want)
		}
	}
}

// TestSpeedupShardMerge (issue 18): speedup --validate's 3 (p, d) × 8 replications over 5
// shards, merged, print exactly the one-machine result in table, JSON and CSV (the
// validation table); without --validate there is no study.
func TestSpeedupShardMerge(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "spmd", "fig59-bus.yaml")
	study := []string{"speedup", model, "--p", "1:16", "--validate", "--reps", "8", "--cycles", "300", "--seed", "4"}
	shardMergeSame(t, study, 5, [][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv", "--csv-table", "validation"}})
	if code, _, errs := cli("speedup", model, "--shard", "0/2", "--out", t.TempDir()); code != fault.ExitInput || !strings.Contains(errs, "--validate") {
		t.Errorf("a study without --validate: exit %d, %q", code, errs)
	}
}

// shardAll runs every shard of the study args into dir, failing t on an error.
func shardAll(t *testing.T, dir string, n int, args ...string) {
	t.Helper()
	for i := 0; i < n; i++ {
		if code, _, errs := cli(append(args, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir)...); code != 0 {
			t.Fatalf("shard %d/%d: exit %d: %s", i, n, code, errs)
		}
	}
}

// sameAsLocal checks that merge DIR prints, in each form (format flags), what the
// one-machine run of args prints, on stdout and on stderr.
func sameAsLocal(t *testing.T, dir string, args []string, forms ...[]string) {
	t.Helper()
	for _, f := range forms {
		code, local, lerr := cli(append(args, f...)...)
		if code != 0 {
			t.Fatalf("%v: one machine: exit %d: %s", f, code, lerr)
		}
		code, merged, merr := cli(append([]string{"merge", dir}, f...)...)
		if code != 0 {
			t.Fatalf("%v: merge: exit %d: %s", f, code, merr)
		}
		if merged != local || merr != lerr {
			t.Errorf("%v: merged output differs from the one-machine run\nmerged:\n%s%s\nlocal:\n%s%s", f, merged, merr, local, lerr)
		}
	}
}

// TestSolveSweepValidateShardMerge (issue 18): solve --sweep population=1:16 --validate
// (16 points, each solved by exact MVA and simulated by 4 replications on streams 0–3 of the
// seed) over 8 shards, run in one directory and merged from another, prints exactly the
// one-machine result in table, JSON, every CSV table and the plot (byte for byte). The
// disk-group network is product form, so exact MVA is the simulated system's mean: the
// model lies inside most 95 % intervals (a check that the points were really simulated).
// Then the model file changes: merge refuses, naming it.
func TestSolveSweepValidateShardMerge(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "models", "disk-group.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	work, elsewhere := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "dg.yaml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work) // the study names its model relative to the submit directory
	args := []string{"solve", "dg.yaml", "--sweep", "population=1:16", "--validate", "--seed", "7", "--reps", "4", "--events", "4000"}
	dir := filepath.Join(work, "study")
	shardAll(t, dir, 8, args...)
	plan, err := shard.ReadPlan(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Inputs) != 1 || plan.Inputs[0].Arg != "dg.yaml" || plan.Inputs[0].Path != filepath.Join(work, "dg.yaml") || plan.Items != 16 || plan.N != 8 {
		t.Errorf("plan: %d items over %d shards, inputs %+v; want 16 over 8, dg.yaml at %s", plan.Items, plan.N, plan.Inputs, work)
	}
	code, local, errs := cli(append(args, "--format", "json", "--plot", filepath.Join(work, "local.svg"))...)
	if code != 0 {
		t.Fatalf("one machine: exit %d: %s", code, errs)
	}
	t.Chdir(elsewhere) // merge reads dg.yaml where the plan recorded it
	code, merged, errs := cli("merge", dir, "--format", "json", "--plot", filepath.Join(work, "merged.svg"))
	if code != 0 || merged != local {
		t.Fatalf("merge from another directory: exit %d: %s\nmerged:\n%.400s\nlocal:\n%.400s", code, errs, merged, local)
	}
	a, _ := os.ReadFile(filepath.Join(work, "local.svg"))
	b, _ := os.ReadFile(filepath.Join(work, "merged.svg"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("merge --plot differs from solve --plot (%d and %d bytes)", len(b), len(a))
	}
	t.Chdir(work)
	sameAsLocal(t, dir, args, []string{"--format", "table"}, []string{"--format", "csv"},
		[]string{"--format", "csv", "--csv-table", "validation"}, []string{"--format", "csv", "--csv-table", "sweep_bounds"})
	var res struct {
		Points     []json.RawMessage
		Validation []struct {
			Value float64
			Rows  []struct {
				Quantity string
				Inside   *bool `json:"analytic_inside"`
			}
		}
	}
	if err := json.Unmarshal([]byte(local), &res); err != nil {
		t.Fatal(err)
	}
	inside, rows := 0, 0
	for _, v := range res.Validation {
		for _, r := range v.Rows {
			rows++
			if r.Inside != nil && *r.Inside {
				inside++
			}
		}
	}
	if len(res.Points) != 16 || len(res.Validation) != 16 || rows != 16*6 || inside < rows*3/4 {
		t.Errorf("%d points, %d validated, %d of %d rows inside their 95 %% interval", len(res.Points), len(res.Validation), inside, rows)
	}
	// the model changes after the study: merge refuses rather than mix two models
	if err := os.WriteFile(filepath.Join(work, "dg.yaml"), append(src, "# edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := cli("merge", dir); code != fault.ExitInput || !strings.Contains(errs, "dg.yaml") || !strings.Contains(errs, "changed since the study was planned") {
		t.Errorf("merge after the model changed: exit %d: %s", code, errs)
	}
	if code, _, errs := cli(append(args, "--shard", "0/8", "--out", dir)...); code != fault.ExitInput || !strings.Contains(errs, "another study") {
		t.Errorf("a shard of the changed model into the old study: exit %d: %s", code, errs)
	}
}

// TestSolveShardMerge (issue 18): solve --validate of one model (the fork/join striped
// write: its error estimate is measured against the same simulation) with 16 replications
// over 8 shards, and solve --sweep without --validate over 5 shards (fork/join points, each
// with its simulated error estimate), merge to exactly the one-machine output, stderr's
// account of the approximation included; what is not a study is refused.
func TestSolveShardMerge(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "striped-write.yaml")
	validateArgs := []string{"solve", model, "--validate", "--seed", "3", "--reps", "16", "--events", "3000"}
	dir := t.TempDir()
	shardAll(t, dir, 8, validateArgs...)
	sameAsLocal(t, dir, validateArgs, []string{"--format", "table"}, []string{"--format", "json"}, []string{"--format", "csv", "--csv-table", "validation"})

	sweepArgs := []string{"solve", model, "--sweep", "population=1:5", "--seed", "3", "--reps", "3", "--events", "3000"}
	dir = t.TempDir()
	shardAll(t, dir, 5, sweepArgs...)
	sameAsLocal(t, dir, sweepArgs, []string{"--format", "table"}, []string{"--format", "json"}, []string{"--format", "csv", "--csv-table", "sweep_bounds"})

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", model, "--shard", "0/2", "--out", t.TempDir()}, "solving one model is not a study"},
		{[]string{"solve", model, "--sweep", "population=1:4", "--plot", "x.svg", "--shard", "0/2", "--out", t.TempDir()}, "merge DIR --plot FILE"},
		{[]string{"solve", model, "--validate", "--precision", "0.1", "--shard", "0/2", "--out", t.TempDir()}, "precision"},
		{[]string{"solve", model, "--sweep", "population=1:4", "--shard", "0/5", "--out", t.TempDir()}, "5 shards for 4 items"},
	} {
		if code, _, errs := cli(c.args...); code != fault.ExitInput || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d: %s (want exit 2 naming %q)", c.args, code, errs, c.want)
		}
	}
}

// TestShardInterrupted: a shard whose command is cancelled (Ctrl-C) stops before its next
// item, leaves a failure marker saying it was interrupted and no shard file; merge --status
// lists it as failed.
func TestShardInterrupted(t *testing.T) {
	model := filepath.Join("..", "..", "testdata", "models", "disk-group.yaml")
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"solve", model, "--validate", "--reps", "4", "--events", "3000", "--shard", "1/2", "--out", dir}, &out, &errb)
	if code == 0 || !strings.Contains(errb.String(), "interrupted before item 2") {
		t.Fatalf("cancelled shard: exit %d: %s", code, errb.String())
	}
	if _, err := os.Stat(filepath.Join(dir, shard.FileName(1, 2))); err == nil {
		t.Error("the interrupted shard left a result file")
	}
	code, status, _ := cli("merge", "--status", dir)
	if code != 0 || !strings.Contains(status, "failed 1, missing 1") || !strings.Contains(status, "interrupted") {
		t.Errorf("merge --status: exit %d\n%s", code, status)
	}
}

// tempWriter returns a function writing a file of the given text into dir (a test's
// temporary directory) and returning its path.
func tempWriter(t *testing.T, dir string) func(name, text string) string {
	return func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}

// shardMergeSame runs study as n shards into a temporary directory, merges them, and
// checks that every format's merged output equals the one-machine run's byte for byte.
func shardMergeSame(t *testing.T, study []string, n int, formats [][]string) {
	t.Helper()
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		if code, _, errs := cli(append(study, "--shard", fmt.Sprintf("%d/%d", i, n), "--out", dir)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errs)
		}
	}
	for _, f := range formats {
		code, local, errs := cli(append(study, f...)...)
		if code != 0 {
			t.Fatalf("%v: one machine: exit %d: %s", f, code, errs)
		}
		code, merged, errs := cli(append([]string{"merge", dir}, f...)...)
		if code != 0 || merged != local {
			t.Errorf("%v: merge (exit %d, %s) differs from the one-machine run\nmerged:\n%s\nlocal:\n%s", f, code, errs, merged, local)
		}
	}
}

// TestLegacySweepPlan: studies planned before the nN spelling hold a real sweep range as
// FROM:TO:N, N evenly spaced values (qn/sweep.go before fe17e32: FROM + (TO − FROM)·i/(N − 1),
// the last value not clamped to TO). Typed on a command line that form is now refused as
// ambiguous; read from a plan — data clusterperf wrote — it keeps its old meaning: the shards
// of such a study run (a Slurm task after merge --resubmit) and merge combines them, with
// the old values bit for bit. 0.04:0.11 is a range where the old last value,
// 0.04 + (0.11 − 0.04) = 0.11000000000000001, is not TO.
func TestLegacySweepPlan(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	if err := os.WriteFile("m.yaml", []byte("classes: [{name: a, population: 2, think_time: 1s}]\nstations: [{name: cpu, demand: 5ms}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, now := "demand.cpu=0.04:0.11:5", "demand.cpu=0.04:0.11:n5"
	if code, _, errs := cli("solve", "m.yaml", "--sweep", old); code != fault.ExitInput || !strings.Contains(errs, "ambiguous") {
		t.Fatalf("typed: exit %d: %s", code, errs)
	}
	// the plan an older version wrote: this version's plan of the nN study with the old
	// spelling in its arguments
	tmpl := filepath.Join(work, "tmpl")
	if code, _, errs := cli("solve", "m.yaml", "--sweep", now, "--shard", "0/2", "--out", tmpl); code != 0 {
		t.Fatalf("template: exit %d: %s", code, errs)
	}
	p, err := shard.ReadPlan(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range p.Args {
		p.Args[i] = strings.Replace(a, "--sweep="+now, "--sweep="+old, 1)
	}
	p.ArgsHash = shard.HashArgs(p.Command, p.Args)
	dir := filepath.Join(work, "study")
	if err := shard.WritePlan(dir, p); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if code, _, errs := cli("solve", "m.yaml", "--sweep", old, "--shard", fmt.Sprintf("%d/2", i), "--out", dir); code != 0 {
			t.Fatalf("shard %d of the old plan: exit %d: %s", i, code, errs)
		}
	}
	code, out, errs := cli("merge", dir, "--format", "json")
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	var got struct {
		Points []struct {
			Value float64 `json:"value"`
		} `json:"points"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	a, b := 0.04, 0.11
	if len(got.Points) != 5 {
		t.Fatalf("%d points, want 5", len(got.Points))
	}
	for i, pt := range got.Points {
		if want := a + (b-a)*float64(i)/4; math.Float64bits(pt.Value) != math.Float64bits(want) {
			t.Errorf("point %d = %v, want the old parser's %v", i, pt.Value, want)
		}
	}
	if got.Points[4].Value == b {
		t.Error("the test's range does not tell the old last value from TO")
	}
	// a shard of a plan that is not this command line still refuses the old form
	if code, _, errs := cli("solve", "m.yaml", "--sweep", old, "--shard", "0/2", "--out", filepath.Join(work, "fresh")); code != fault.ExitInput || !strings.Contains(errs, "ambiguous") {
		t.Errorf("no plan: exit %d: %s", code, errs)
	}
}
