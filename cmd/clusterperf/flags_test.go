package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestFlagRanges (issue 12): every flag outside its range is refused with exit 2 before any
// work, naming the flag and what is allowed; nothing is written to stdout.
func TestFlagRanges(t *testing.T) {
	qnm := ex + "keck/cg-a-4.yaml"
	sp := ex + "spmd/fig59-bus.yaml"
	fm, fd := ex+"fit/qcrd.yaml", ex+"fit/qcrd.csv"
	mp := ex + "mpip/hpc-mpip__driver.8.253.1.mpiP"
	prog, cl := ex+"tpn/matmul.yaml", ex+"tpn/cluster.yaml"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "--tol", "NaN", qnm}, "--tol NaN: want a finite number ≥ 0"},
		{[]string{"solve", "--tol", "-1", qnm}, "--tol -1"},
		{[]string{"solve", "--max-iter", "-5", qnm}, "--max-iter -5: want a whole number ≥ 0"},
		{[]string{"solve", "--validate", "--reps", "1", qnm}, "--reps 1: want a whole number ≥ 2"},
		{[]string{"solve", "--validate", "--events", "-10", qnm}, "--events -10"},
		{[]string{"solve", "--validate", "--precision", "NaN", qnm}, "--precision NaN: want a number in (0, 1]"},
		{[]string{"solve", "--solver", "magic", qnm}, `unknown solver "magic"`},
		{[]string{"solve", "--csv-table", "stations", qnm}, "--csv-table \"stations\" needs --format csv"},
		{[]string{"simulate", "--reps", "1", qnm}, "--reps 1"},
		{[]string{"simulate", "--reps", "-3", qnm}, "--reps -3"},
		{[]string{"simulate", "--batches", "-2", qnm}, "--batches -2: want 0 (off) or a whole number ≥ 2"},
		{[]string{"simulate", "--batches", "1", qnm}, "--batches 1"},
		{[]string{"simulate", "--cycles", "-1", sp}, "--cycles -1"},
		{[]string{"simulate", "--precision", "2", qnm}, "--precision 2"},
		{[]string{"simulate", "--p", "0", sp}, "--p 0"},
		{[]string{"speedup", "--efficiency", "2", sp}, "--efficiency 2: want a number in (0, 1]"},
		{[]string{"speedup", "--efficiency", "NaN", sp}, "--efficiency NaN"},
		{[]string{"speedup", "--p", "5:2", sp}, "TO = 2 is less than FROM = 5"},
		{[]string{"speedup", "--validate", "--reps", "1", sp}, "--reps 1"},
		{[]string{"fit", "--pmax", "-1", fm, fd}, "--pmax -1: want 0 (twice the largest measured p) or a whole number ≥ 1"},
		{[]string{"fit", "--dmax", "-1", fm, fd}, "--dmax -1"},
		{[]string{"fit", "--efficiency", "2", fm, fd}, "--efficiency 2"},
		{[]string{"fit", "--pmax", "2000000000", fm, fd}, "more than 1000000 points (the sizing limit)"},
		{[]string{"fit", "--bootstrap", "-7", fm, fd}, "--bootstrap -7"},
		{[]string{"mpip", "--latency", "5us", "--bandwidth", "1GB/s", "--samples", "-1", mp}, "--samples -1"},
		{[]string{"mpip", "--latency", "5us", "--bandwidth", "1GB/s", "--samples", "100000000", mp}, "--samples 100000000: at most"},
		{[]string{"mpip", "--latency", "5us", "--bandwidth", "1GB/s", "--wait-ops", "Waitt", mp}, `--wait-ops: Waitt: no report has this MPI operation (the reports contain: Allreduce, Barrier`},
		{[]string{"tpn", "--cluster", cl, "--budget", "-1", prog}, "--budget -1"},
		{[]string{"tpn", "--cluster", cl, "--max-time", "-1", prog}, `"--max-time" flag: "-1": a time must be ≥ 0`},
		{[]string{"tpn", "--cluster", cl, "--max-time", "NaN", prog}, `"--max-time" flag: "NaN"`},
		{[]string{"tpn", "--cluster", cl, "--max-time", "1e300", prog}, "representable horizon"},
		{[]string{"pipeline", "--p", "0:3", ex + "pipeline/sort.yaml"}, "--p \"0:3\""},
		{[]string{"solve", "--format", "csv", "--csv-table", "nosuch", qnm}, "--csv-table \"nosuch\": this result has the tables classes, stations"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), c.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("clusterperf %v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errb.String(), c.want)
		}
		if out.Len() > 0 {
			t.Errorf("clusterperf %v: wrote %q to stdout before refusing", c.args, out.String())
		}
	}
}

// TestPlotFiles (issue 12): a --plot into a missing directory is refused before any
// result is printed; a plot gets the umask's mode, not 0600; a sweep whose every point is
// saturated is a finding (exit 3) and leaves an existing plot alone.
func TestPlotFiles(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := []string{"solve", "--sweep", "population=1:3", "--plot", filepath.Join(dir, "missing", "p.svg"), ex + "keck/cg-a-4.yaml"}
	if code := run(context.Background(), args, &out, &errb); code != 2 || out.Len() > 0 || !strings.Contains(errb.String(), "does not exist") {
		t.Errorf("missing directory: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	plot := filepath.Join(dir, "p.svg")
	args = []string{"solve", "--sweep", "population=1:3", "--plot", plot, ex + "keck/cg-a-4.yaml"}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	fi, err := os.Stat(plot)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("plot mode %v (err %v), want 0644 under umask 022", fi.Mode().Perm(), err)
	}
	sat := filepath.Join(dir, "sat.yaml")
	os.WriteFile(sat, []byte("classes: [{name: c, arrival_rate: 20}]\nstations: [{name: cpu, demand: 0.1}]\n"), 0o644)
	before, _ := os.ReadFile(plot)
	out.Reset()
	errb.Reset()
	args = []string{"solve", "--sweep", "arrival_rate.c=20:30:n3", "--plot", plot, sat}
	if code := run(context.Background(), args, &out, &errb); code != 3 || out.Len() > 0 {
		t.Errorf("all points saturated: exit %d, stdout %q, stderr %q; want exit 3 and nothing printed", code, out.String(), errb.String())
	}
	if after, _ := os.ReadFile(plot); !bytes.Equal(before, after) {
		t.Error("the existing plot was replaced")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".clusterperf-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestVersion: --version prints the module version from the build information.
func TestVersion(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"--version"}, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "clusterperf ") || !strings.Contains(out.String(), "go1.") {
		t.Errorf("exit %d, %q", code, out.String())
	}
}

// TestHelpExitCodes: "clusterperf help" documents the exit codes.
func TestHelpExitCodes(t *testing.T) {
	var out, errb bytes.Buffer
	run(context.Background(), []string{"help"}, &out, &errb)
	for _, s := range []string{"Exit codes:", "  3  a model finding"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("help lacks %q", s)
		}
	}
}

// TestSameSeedAnyCores (issue 12): the seeded commands print byte-identical output on 1, 2
// and 16 cores (replication i uses stream i; nothing depends on scheduling).
func TestSameSeedAnyCores(t *testing.T) {
	for _, args := range [][]string{
		{"simulate", "--format", "csv", "--reps", "4", "--events", "3000", ex + "qn/central-server.yaml"},
		{"solve", "--format", "json", "--validate", "--reps", "3", "--events", "3000", ex + "keck/cg-a-4.yaml"},
		{"simulate", "--format", "csv", "--reps", "3", "--cycles", "50", "--p", "4", "--d", "2", ex + "spmd/fig59-bus.yaml"},
	} {
		first := runOnCores(t, 1, args)
		for _, procs := range []int{2, 16} {
			if runOnCores(t, procs, args) != first {
				t.Errorf("%v: output on %d cores differs from 1 core", args, procs)
			}
		}
	}
}

// runOnCores runs args with GOMAXPROCS = procs and returns stdout, failing the test on a
// non-zero exit.
func runOnCores(t *testing.T, procs int, args []string) string {
	t.Helper()
	prev := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(prev)
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("%v on %d cores: exit %d: %s", args, procs, code, clip(errb.String()))
	}
	return out.String()
}

// TestRepeatedFlagsRefused: a scalar flag given twice was last-wins (pflag sets it again):
// "solve --solver mva --solver comom" quietly used comom. Every command now refuses a
// repeated scalar flag — string, number, bool, unit-valued, in any spelling — with exit 2
// naming the flag and both values, before any work; flags meant to repeat (string arrays)
// still take every value.
func TestRepeatedFlagsRefused(t *testing.T) {
	model := filepath.Join("..", "..", "examples", "qn", "central-server.yaml")
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"solve", model, "--solver", "mva", "--solver", "comom"}, "--solver given twice (mva, then comom)"},
		{[]string{"solve", model, "--solver=mva", "--solver=mva"}, "--solver given twice (mva, then mva)"},
		{[]string{"solve", model, "--validate", "--validate"}, "--validate given twice"},
		{[]string{"simulate", model, "--reps", "4", "--reps=5"}, "--reps given twice (4, then 5)"},
		{[]string{"queue", "--lambda", "1", "--mu", "2", "--lambda", "3"}, "--lambda given twice (1, then 3)"},
		{[]string{"solve", model, "--format", "json", "--format", "csv"}, "--format given twice (json, then csv)"},
		{[]string{"merge", "--status", "--status", "."}, "--status given twice"},
	} {
		code, out, errs := cli(tc.args...)
		if code != fault.ExitInput || !strings.Contains(errs, tc.flag) || !strings.Contains(errs, "give it once") || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %s", tc.args, code, out, errs)
		}
	}
	// a repeatable flag keeps every value: both --slurm-opt lines are in the batch script
	code, out, errs := cli("simulate", "--reps", "40", model, "--slurm", "--slurm-dry-run", "--out", t.TempDir(), "--slurm-opt", "partition=debug", "--slurm-opt", "time=00:05:00")
	if code != 0 || !strings.Contains(out, "#SBATCH --partition=debug\n") || !strings.Contains(out, "#SBATCH --time=00:05:00\n") {
		t.Errorf("repeated --slurm-opt: exit %d: %s\n%s", code, errs, out)
	}
	// each run is a fresh command line: a flag given once in two runs is not "repeated"
	for range 2 {
		if code, _, errs := cli("solve", model, "--solver", "mva"); code != 0 {
			t.Errorf("solve --solver mva: exit %d: %s", code, errs)
		}
	}
}
