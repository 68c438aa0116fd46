package slurm

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/shard"
)

// The helpers every Slurm integration test shares: the workers the test binary becomes in
// an array task, the Slurm check, submit-wait-merge of a study of workers, and the real
// clusterperf binary.

// workers are the shard workers this test binary runs as, started by an array task as
// "<test binary> NAME ARGS… --shard i/n --out DIR" (the Job's Command is NAME).
var workers = map[string]func(args []string) error{
	"simulate":       simulateWorker,
	"sweep-validate": sweepWorker,
	"tpn-advise":     adviseWorker,
}

// cliDir holds the clusterperf binary built once for the package's tests (buildCLI).
var cliDir string

func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		if w := workers[os.Args[1]]; w != nil {
			if err := w(os.Args[2:]); err != nil {
				fmt.Fprintln(os.Stderr, "shard worker:", err)
				os.Exit(1)
			}
			os.Exit(0)
		}
	}
	code := m.Run()
	if cliDir != "" {
		os.RemoveAll(cliDir)
	}
	os.Exit(code)
}

// controllerDown asks sinfo once per test binary (it takes seconds to time out) and returns
// why the controller cannot be used, or "".
var controllerDown = sync.OnceValue(func() string {
	if out, err := exec.Command("sinfo", "-h", "-o", "%T").CombinedOutput(); err != nil {
		return fmt.Sprintf("Slurm is installed but its controller does not answer (sinfo: %v: %s)", err, strings.TrimSpace(string(out)))
	}
	return ""
})

// requireSlurm skips the test when sbatch is absent, unless CLUSTERPERF_REQUIRE_SLURM=1 (as
// in CI), where a missing Slurm is a failure.
func requireSlurm(t *testing.T) Client {
	t.Helper()
	c := Client{}
	why := ""
	if !c.Available() {
		why = "sbatch not on PATH: no local Slurm"
	} else {
		why = controllerDown()
	}
	if why != "" {
		if os.Getenv("CLUSTERPERF_REQUIRE_SLURM") == "1" {
			t.Fatal("CLUSTERPERF_REQUIRE_SLURM=1 but " + why + ": run scripts/slurm-up.sh first")
		}
		t.Skip(why + " (start one as root with scripts/slurm-up.sh; CI sets CLUSTERPERF_REQUIRE_SLURM=1 to make this a failure)")
	}
	return c
}

// waitAllDone waits until no task of the study in dir is queued or running and requires
// every shard done (else fails t with the states and the first unfinished task's logs).
func waitAllDone(ctx context.Context, t *testing.T, c Client, dir string) *StudyStatus {
	t.Helper()
	st, err := c.Wait(ctx, dir, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if done := st.Indices(StateDone); len(done) != st.Plan.N {
		first := 0
		for _, sh := range st.Shards {
			if sh.State != StateDone {
				first = sh.Index
				break
			}
		}
		t.Fatalf("%s: done %v of %d shards: %+v\n%s", dir, done, st.Plan.N, st.Shards, logs(dir, first))
	}
	return st
}

// submitWaitMerge runs the study of plan as a job array of this test binary (the worker
// workers[plan.Command], with args) in a new directory, waits for every shard, and returns
// the merged study and the wall time from submission to the merged items.
func submitWaitMerge(t *testing.T, c Client, plan shard.Plan, args []string) (*shard.Merged, time.Duration) {
	t.Helper()
	if workers[plan.Command] == nil {
		t.Fatalf("no worker for %q", plan.Command)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	t0 := time.Now()
	if _, err := c.SubmitStudy(ctx, plan, Job{Executable: exe, Command: plan.Command, Args: args, Dir: dir, Shards: plan.N}); err != nil {
		t.Fatal(err)
	}
	waitAllDone(ctx, t, c, dir)
	m, err := shard.Merge(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m, time.Since(t0)
}

// logs returns the Slurm output of task i, for failure messages.
func logs(dir string, i int) string {
	var b bytes.Buffer
	for _, ext := range []string{"out", "err"} {
		data, _ := os.ReadFile(filepath.Join(logDir(dir), fmt.Sprintf("task-%d.%s", i, ext)))
		fmt.Fprintf(&b, "task-%d.%s: %s\n", i, ext, data)
	}
	return b.String()
}

var buildOnce struct {
	sync.Mutex
	exe string
}

// buildCLI builds cmd/clusterperf once for the package's tests and returns its path.
func buildCLI(t *testing.T) string {
	t.Helper()
	buildOnce.Lock()
	defer buildOnce.Unlock()
	if buildOnce.exe != "" {
		return buildOnce.exe
	}
	dir, err := os.MkdirTemp("", "clusterperf-cli-")
	if err != nil {
		t.Fatal(err)
	}
	cliDir = dir
	exe := filepath.Join(dir, "clusterperf")
	if out, err := exec.Command("go", "build", "-o", exe, "../cmd/clusterperf").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	buildOnce.exe = exe
	return exe
}

// cli runs the clusterperf binary in dir and returns its exit code, stdout and stderr.
func cli(exe, dir string, args ...string) (int, []byte, string) {
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if err != nil {
		code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
	}
	return code, out.Bytes(), errb.String()
}

// cliOut runs the binary in dir and returns its standard output, failing t on an error.
func cliOut(t *testing.T, exe, dir string, args ...string) []byte {
	t.Helper()
	code, out, errs := cli(exe, dir, args...)
	if code != 0 {
		t.Fatalf("clusterperf %v: exit %d\n%s", args, code, errs)
	}
	return out
}

// cancelTask cancels one array task (scancel JOB_i): how the integration test kills a task.
func cancelTask(ctx context.Context, c Client, jobID string, index int) error {
	_, err := c.run(ctx, "scancel", fmt.Sprintf("%s_%d", jobID, index))
	return err
}
