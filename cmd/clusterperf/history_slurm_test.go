package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// requireAccounting skips the test when sbatch or sacct is absent or sacct does not answer
// (no slurmdbd), unless CLUSTERPERF_REQUIRE_SLURM=1 (CI), where that is a failure.
func requireAccounting(t *testing.T) {
	t.Helper()
	why := ""
	for _, c := range []string{"sbatch", "sacct", "scancel", "squeue"} {
		if _, err := exec.LookPath(c); err != nil {
			why = c + " not on PATH: no local Slurm"
			break
		}
	}
	if why == "" {
		if out, err := exec.Command("sacct", "-n", "-X", "-S", "now-1hour").CombinedOutput(); err != nil {
			why = fmt.Sprintf("sacct does not answer (no slurmdbd?): %v: %s", err, strings.TrimSpace(string(out)))
		}
	}
	if why == "" {
		return
	}
	if os.Getenv("CLUSTERPERF_REQUIRE_SLURM") == "1" {
		t.Fatal("CLUSTERPERF_REQUIRE_SLURM=1 but " + why + ": run scripts/slurm-up.sh first (it starts MariaDB and slurmdbd too)")
	}
	t.Skip(why + " (start Slurm with accounting as root with scripts/slurm-up.sh; CI sets CLUSTERPERF_REQUIRE_SLURM=1 to make this a failure)")
}

// workScript is the small program the jobs run: it sleeps 2 + SCALE/p² seconds with p =
// SLURM_NTASKS, and crashes (exit 1) at p = 3.
const workScript = `#!/bin/sh
p=${SLURM_NTASKS:-1}
if [ "$p" = 3 ]; then echo "crash at 3 tasks" >&2; exit 1; fi
sleep $(awk -v s="$1" -v p="$p" 'BEGIN { print 2 + s / (p * p) }')
`

// TestHistoryRealSlurm submits real jobs of workScript 100 at 1, 2, 4 and 8 tasks (-O: one
// CPU per job, so 8 tasks fit the 2-CPU node): p = 1 with a 1-minute limit would run 102 s
// and times out; a p = 2 job is cancelled once running; p = 3 fails. It waits for them in sacct, then
// checks that `clusterperf history` finds the one study, treats each state as specified
// (TIMEOUT censored at its limit, FAILED and CANCELLED left out and counted), and that its
// elapsed times, limits, node counts and queue waits equal what sacct reports.
func TestHistoryRealSlurm(t *testing.T) {
	requireAccounting(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	dir := t.TempDir()
	script := filepath.Join(dir, "work.sh")
	if err := os.WriteFile(script, []byte(workScript), 0o755); err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-time.Minute)
	t0 := time.Now()
	submit := func(args ...string) string {
		cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable", "-O", "-o", filepath.Join(dir, "slurm-%j.out")}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sbatch %v: %v: %s", args, err, out)
		}
		id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
		return id
	}
	ids := map[string]string{} // job id → what it is
	ids[submit("--ntasks=1", "--time=1", "-J", "hist-timeout", script, "100")] = "timeout"
	victim := submit("--ntasks=2", "--time=5", "-J", "hist-cancel", script, "100")
	ids[victim] = "cancelled"
	waitRunning(ctx, t, victim, 20*time.Second)
	if out, err := exec.CommandContext(ctx, "scancel", victim).CombinedOutput(); err != nil {
		t.Fatalf("scancel %s: %v: %s", victim, err, out)
	}
	for _, p := range []int{8, 4, 2} {
		ids[submit(fmt.Sprintf("--ntasks=%d", p), "--time=5", "-J", "hist-ok", script, "100")] = fmt.Sprintf("completed p=%d", p)
	}
	ids[submit("--ntasks=3", "--time=5", "-J", "hist-fail", script, "100")] = "failed"
	raw := waitFinished(ctx, t, ids)
	t.Logf("all %d jobs finished in sacct after %.0f s", len(ids), time.Since(t0).Seconds())

	var out, errb bytes.Buffer
	args := []string{"history", "--format", "json", "--command", dir, "--since", since.Format("2006-01-02T15:04:05")}
	if code := run(ctx, args, &out, &errb); code != 0 {
		t.Fatalf("clusterperf %v: exit %d: %s\n%s", args, code, errb.String(), out.String())
	}
	var res struct {
		Studies []struct {
			Completed int
			TimedOut  int `json:"timed_out"`
			Excluded  []struct {
				State string
				Jobs  int
			}
			Jobs []struct {
				JobID      string `json:"job_id"`
				Tasks      int
				Nodes      int
				ElapsedS   int64  `json:"elapsed_s"`
				TimeLimitS *int64 `json:"time_limit_s"`
				QueueWaitS *int64 `json:"queue_wait_s"`
				State      string
				Outcome    string
			}
		}
		Analysis struct {
			Fit struct {
				Observed     int
				CensoredRuns int `json:"censored"`
				Runs         []struct {
					JobID       string   `json:"job_id"`
					Censored    bool     `json:"censored"`
					LowerBoundS *float64 `json:"lower_bound_s"`
				}
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Studies) != 1 {
		t.Fatalf("%d studies, want 1 (one program, one argument): %s", len(res.Studies), out.String())
	}
	st := res.Studies[0]
	if len(st.Jobs) != len(ids) || st.Completed != 3 || st.TimedOut != 1 || len(st.Excluded) != 2 {
		t.Errorf("study: %d jobs, %d completed, %d timed out, excluded %+v; want %d, 3, 1, CANCELLED and FAILED", len(st.Jobs), st.Completed, st.TimedOut, st.Excluded, len(ids))
	}
	wantOutcome := map[string]string{"timeout": "censored", "failed": "excluded", "cancelled": "excluded"}
	for _, j := range st.Jobs {
		what, ok := ids[j.JobID]
		if !ok {
			t.Errorf("job %s is not one of ours", j.JobID)
			continue
		}
		w := wantOutcome[what]
		if w == "" {
			w = "observed"
		}
		if j.Outcome != w {
			t.Errorf("job %s (%s): outcome %s, want %s", j.JobID, what, j.Outcome, w)
		}
		r := raw[j.JobID]
		if j.ElapsedS != r.elapsed || j.Nodes != r.nodes || !strings.HasPrefix(r.state, j.State) {
			t.Errorf("job %s: elapsed %d s, nodes %d, state %s; sacct: %d s, %d, %s", j.JobID, j.ElapsedS, j.Nodes, j.State, r.elapsed, r.nodes, r.state)
		}
		if j.TimeLimitS == nil || *j.TimeLimitS != r.limitMin*60 {
			t.Errorf("job %s: limit %v, sacct TimelimitRaw %d min", j.JobID, j.TimeLimitS, r.limitMin)
		}
		if r.wait >= 0 && (j.QueueWaitS == nil || *j.QueueWaitS != r.wait) {
			t.Errorf("job %s: queue wait %v, sacct Start − Submit %d s", j.JobID, j.QueueWaitS, r.wait)
		}
		if what != "failed" && what != "cancelled" && j.Tasks != r.want {
			t.Errorf("job %s: %d tasks, want %d", j.JobID, j.Tasks, r.want)
		}
	}
	f := res.Analysis.Fit
	if f.Observed != 3 || f.CensoredRuns != 1 {
		t.Errorf("fit: %d observed, %d censored; want 3, 1", f.Observed, f.CensoredRuns)
	}
	for _, r := range f.Runs {
		if r.Censored && (r.LowerBoundS == nil || *r.LowerBoundS != 60) {
			t.Errorf("timed-out job %s: bound %v, want its 60 s limit", r.JobID, r.LowerBoundS)
		}
	}
	t.Logf("history: %s", firstLines(errb.String()+summaryOf(ctx, dir, since), 40))
}

// sacctRow is what sacct itself says of a job.
type sacctRow struct {
	state          string
	elapsed        int64
	limitMin       int64
	nodes          int
	wait           int64 // −1 when not started
	want           int   // the --ntasks given
	submit, starts string
}

func waitRunning(ctx context.Context, t *testing.T, id string, d time.Duration) {
	t.Helper()
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		out, _ := exec.CommandContext(ctx, "squeue", "-h", "-j", id, "-o", "%T").Output()
		if strings.TrimSpace(string(out)) == "RUNNING" {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("job %s not running after %v: cancelling it while pending", id, d)
}

// waitFinished polls sacct until every job has a final state, and returns sacct's rows.
func waitFinished(ctx context.Context, t *testing.T, ids map[string]string) map[string]sacctRow {
	t.Helper()
	var list []string
	for id := range ids {
		list = append(list, id)
	}
	for {
		out, err := exec.CommandContext(ctx, "sacct", "-n", "-X", "-P", "-j", strings.Join(list, ","),
			"-o", "JobID,State,ElapsedRaw,TimelimitRaw,NNodes,Submit,Start,SubmitLine").Output()
		if err != nil {
			t.Fatalf("sacct: %v", err)
		}
		rows := map[string]sacctRow{}
		done := 0
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(l, "|")
			if len(f) < 8 {
				continue
			}
			r := sacctRow{state: f[1], wait: -1, submit: f[5], starts: f[6]}
			r.elapsed, _ = strconv.ParseInt(f[2], 10, 64)
			r.limitMin, _ = strconv.ParseInt(f[3], 10, 64)
			r.nodes, _ = strconv.Atoi(f[4])
			a, e1 := time.Parse("2006-01-02T15:04:05", f[5])
			b, e2 := time.Parse("2006-01-02T15:04:05", f[6])
			if e1 == nil && e2 == nil {
				r.wait = int64(b.Sub(a) / time.Second)
			}
			if i := strings.Index(f[7], "--ntasks="); i >= 0 {
				r.want, _ = strconv.Atoi(strings.Fields(f[7][i+len("--ntasks="):])[0])
			}
			rows[f[0]] = r
			switch strings.Fields(f[1] + " x")[0] {
			case "COMPLETED", "TIMEOUT", "FAILED", "CANCELLED", "NODE_FAIL", "OUT_OF_MEMORY":
				done++
			}
		}
		if done == len(ids) {
			return rows
		}
		select {
		case <-ctx.Done():
			t.Fatalf("jobs not finished in time: %s", out)
		case <-time.After(2 * time.Second):
		}
	}
}

// summaryOf is the table output of the same query, for the log.
func summaryOf(ctx context.Context, dir string, since time.Time) string {
	var out, errb bytes.Buffer
	run(ctx, []string{"history", "--command", dir, "--since", since.Format("2006-01-02T15:04:05")}, &out, &errb)
	return out.String() + errb.String()
}

func firstLines(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[:n]
	}
	return strings.Join(l, "\n")
}
