package slurm

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The studies below drive the real clusterperf binary, as a user does: "clusterperf
// simulate … --slurm --out DIR" submits the array, each task runs "clusterperf simulate …
// --shard i/n --out DIR", and "clusterperf merge DIR" prints the result, which must be
// byte-identical to the one-machine run. (TestSlurmSimulateStudy keeps the test binary as
// its worker: it needs a shard that stops mid-run to be cancelled, a hook the real command
// has no business having.)

// TestSlurmClusterperfSimulate: simulate --reps 120 as 8 array tasks of the real binary,
// merged, prints in table, JSON and CSV exactly what simulate --reps 120 prints on one
// machine with the same seed; tpn --advise (256 mappings over 4 tasks), speedup --validate
// (3 × 8 replications over 4 tasks), solve --sweep population=1:16 --validate (16 points
// over 8 tasks, the model named relative to the submit directory) and solve --validate (40
// replications over 8 tasks) and fit --bootstrap 16 (the QCRD surface of examples/fit, 16
// residual-bootstrap refits over 4 tasks) likewise. Every merge
// runs in another directory than the submission (the plan records where the inputs are).
func TestSlurmClusterperfSimulate(t *testing.T) {
	c := requireSlurm(t)
	t.Parallel()
	exe := buildCLI(t)
	work := t.TempDir()      // the model files and the study directories, as on a shared file system
	elsewhere := t.TempDir() // where merge runs
	if err := os.WriteFile(filepath.Join(work, "disk-group.yaml"), []byte(workerModel), 0o644); err != nil {
		t.Fatal(err)
	}
	ex, err := filepath.Abs("../examples/tpn")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	studies := []struct {
		name  string
		args  []string
		n     string
		forms [][]string
	}{
		{"simulate", []string{"simulate", "--seed", "20261122", "--reps", "120", "--events", "20000", "disk-group.yaml"}, "8",
			[][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv"}}},
		{"advise", []string{"tpn", "--advise", "--cluster", filepath.Join(ex, "cluster.yaml"), filepath.Join(ex, "matmul.yaml")}, "4",
			[][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv", "--csv-table", "advice"}}},
		{"validate", []string{"speedup", filepath.Join(ex, "..", "spmd", "fig59-bus.yaml"), "--p", "1:16", "--validate", "--reps", "8", "--cycles", "300"}, "4",
			[][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv", "--csv-table", "validation"}}},
		{"sweep-validate", []string{"solve", "disk-group.yaml", "--sweep", "population=1:16", "--validate", "--seed", "3", "--reps", "4", "--events", "5000"}, "8",
			[][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv"}, {"--format", "csv", "--csv-table", "validation"}}},
		{"solve-validate", []string{"solve", "disk-group.yaml", "--validate", "--seed", "5", "--reps", "40", "--events", "5000"}, "8",
			[][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv", "--csv-table", "validation"}}},
		{"fit-bootstrap", []string{"fit", filepath.Join(ex, "..", "fit", "qcrd.yaml"), filepath.Join(ex, "..", "fit", "qcrd.csv"), "--bootstrap", "16"}, "4",
			[][]string{{"--format", "table"}, {"--format", "json"}, {"--format", "csv"}}},
	}
	for _, s := range studies {
		dir := filepath.Join(work, s.name)
		t0 := time.Now()
		cliOut(t, exe, work, append(s.args, "--slurm", "--slurm-array-size", s.n, "--out", dir)...)
		st := waitAllDone(ctx, t, c, dir)
		t.Logf("%s: %d items over %s array tasks of the clusterperf binary, submission to all done: %v", s.name, st.Plan.Items, s.n, time.Since(t0).Round(time.Millisecond))
		for _, f := range s.forms {
			local := cliOut(t, exe, work, append(s.args, f...)...)
			merged := cliOut(t, exe, elsewhere, append([]string{"merge", dir}, f...)...)
			if !bytes.Equal(local, merged) {
				t.Errorf("%s %v: merged output differs from the one-machine run\nmerged:\n%s\nlocal:\n%s", s.name, f, merged, local)
			}
		}
	}
}

// TestSlurmStudiesProgram: the studies program of docs/studies.md (-quick: 54 cells) as 8
// array tasks of its binary, merged from another directory, writes exactly the document
// of the one-machine run.
func TestSlurmStudiesProgram(t *testing.T) {
	c := requireSlurm(t)
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "studies")
	if out, err := exec.Command("go", "build", "-o", bin, "../examples/studies").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work, elsewhere := t.TempDir(), t.TempDir()
	btio, err := os.ReadFile("../examples/spmd/btio.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, "examples", "spmd"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "examples", "spmd", "btio.yaml"), btio, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := filepath.Join(work, "study")
	t0 := time.Now()
	cliOut(t, bin, work, "-quick", "-seed", "5", "-slurm", "-slurm-array-size", "8", "-out", dir)
	st := waitAllDone(ctx, t, c, dir)
	cliOut(t, bin, elsewhere, "-merge", dir, "-out", filepath.Join(work, "merged.md"))
	sharded := time.Since(t0)
	t1 := time.Now()
	cliOut(t, bin, work, "-quick", "-seed", "5", "-out", filepath.Join(work, "local.md"))
	local := time.Since(t1)
	a, _ := os.ReadFile(filepath.Join(work, "local.md"))
	b, _ := os.ReadFile(filepath.Join(work, "merged.md"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("merged document differs from the one-machine run\nmerged:\n%s\nlocal:\n%s", b, a)
	}
	t.Logf("studies -quick: %d cells; local %v, over %d array tasks (submission, run, merge) %v", st.Plan.Items, local.Round(time.Millisecond), st.Plan.N, sharded.Round(time.Millisecond))
}
