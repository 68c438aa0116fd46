package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

func TestScript(t *testing.T) {
	j := Job{Executable: "/opt/cp/clusterperf", Command: "simulate", Args: []string{"model.yaml", "--reps", "100", "--label", "it's"},
		Dir: "/scratch/study", Shards: 8, Opts: []string{"partition=debug", "--account=proj1", "time=01:00:00", "exclusive"}}
	got, err := script(j)
	if err != nil {
		t.Fatal(err)
	}
	want := `#!/bin/bash
# clusterperf simulate as a Slurm job array: task i computes shard i of 8 into /scratch/study.
# Merge with: clusterperf merge /scratch/study   (progress: clusterperf merge --status /scratch/study)
#SBATCH --job-name=clusterperf-simulate
#SBATCH --array=0-7
#SBATCH --output=/scratch/study/slurm/task-%a.out
#SBATCH --error=/scratch/study/slurm/task-%a.err
#SBATCH --partition=debug
#SBATCH --account=proj1
#SBATCH --time=01:00:00
#SBATCH --exclusive
set -euo pipefail
exec '/opt/cp/clusterperf' 'simulate' 'model.yaml' '--reps' '100' '--label' 'it'\''s' --shard "${SLURM_ARRAY_TASK_ID}/8" --out '/scratch/study'
`
	if got != want {
		t.Errorf("script:\n%s\nwant:\n%s", got, want)
	}
}

// TestScriptWorkDir: with WorkDir every task changes to it (quoted) before it runs, so the
// study's relative file arguments name the files of the submission's directory.
func TestScriptWorkDir(t *testing.T) {
	j := Job{Executable: "/opt/cp/clusterperf", Command: "solve", Args: []string{"model.yaml"}, Dir: "/scratch/s", Shards: 2, WorkDir: "/home/me/it's"}
	got, err := script(j)
	if err != nil {
		t.Fatal(err)
	}
	want := "set -euo pipefail\ncd '/home/me/it'\\''s'\nexec '/opt/cp/clusterperf' 'solve' 'model.yaml' --shard"
	if !strings.Contains(got, want) {
		t.Errorf("script:\n%s\nwant it to contain:\n%s", got, want)
	}
}

func TestArraySpec(t *testing.T) {
	for _, c := range []struct {
		j    Job
		want string
	}{
		{Job{Shards: 1}, "0"},
		{Job{Shards: 8}, "0-7"},
		{Job{Shards: 8, MaxParallel: 2}, "0-7%2"},
		{Job{Shards: 8, Indices: []int{5, 1, 3, 4}}, "1,3-5"},
		{Job{Shards: 8, Indices: []int{7}}, "7"},
	} {
		if got := c.j.arraySpec(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.j, got, c.want)
		}
		// the index parser reads back what arraySpec writes
		idx, err := expandIndices(c.j.arraySpec())
		if err != nil {
			t.Fatal(err)
		}
		if c.j.Indices == nil && len(idx) != c.j.Shards || c.j.Indices != nil && len(idx) != len(c.j.Indices) {
			t.Errorf("%q expands to %v", c.want, idx)
		}
	}
}

func TestScriptRefused(t *testing.T) {
	ok := Job{Executable: "/bin/cp", Command: "simulate", Dir: "/d", Shards: 4}
	for _, c := range []struct {
		name string
		f    func(*Job)
	}{
		{"relative exe", func(j *Job) { j.Executable = "clusterperf" }},
		{"relative dir", func(j *Job) { j.Dir = "out" }},
		{"relative work dir", func(j *Job) { j.WorkDir = "src" }},
		{"control character in work dir", func(j *Job) { j.WorkDir = "/src\nrm -rf /" }},
		{"no shards", func(j *Job) { j.Shards = 0 }},
		{"too many", func(j *Job) { j.Shards = 1001 }},
		{"index out", func(j *Job) { j.Indices = []int{4} }},
		{"empty indices", func(j *Job) { j.Indices = []int{} }},
		{"array opt", func(j *Job) { j.Opts = []string{"array=0-3"} }},
		{"output opt", func(j *Job) { j.Opts = []string{"--output=x"} }},
		{"newline opt", func(j *Job) { j.Opts = []string{"comment=a\nrm -rf /"} }},
		{"bad name", func(j *Job) { j.Opts = []string{"Part ition=x"} }},
		{"newline arg", func(j *Job) { j.Args = []string{"a\nb"} }},
	} {
		j := ok
		c.f(&j)
		if _, err := script(j); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%s: %v, want an input error", c.name, err)
		}
	}
	if _, err := script(ok); err != nil {
		t.Fatal(err)
	}
}

func TestParseJobID(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"12345\n", "12345"}, {"12345;cluster\n", "12345"}, {"sbatch: warning: x\n678\n", "678"},
		{"Submitted batch job 5\n", ""}, {"", ""},
	} {
		got, err := parseJobID([]byte(c.out))
		if got != c.want || (c.want == "") != (err != nil) {
			t.Errorf("%q: %q %v", c.out, got, err)
		}
	}
}

func TestParsers(t *testing.T) {
	sacct := "77_0|COMPLETED|0:0\n77_1|FAILED|1:0\n77_2|CANCELLED by 0|0:15\n77_[3-4%2]|PENDING|0:0\n78_0|COMPLETED|0:0\n"
	ts, err := parseSacct("77", sacct)
	if err != nil {
		t.Fatal(err)
	}
	states := map[int]string{}
	for i, tk := range ts {
		states[i] = tk.State
	}
	if !reflect.DeepEqual(states, map[int]string{0: "COMPLETED", 1: "FAILED", 2: "CANCELLED", 3: "PENDING", 4: "PENDING"}) {
		t.Errorf("sacct: %v", states)
	}
	// the format of `scontrol show job -o` on Slurm 22.05 (Debian bookworm), trimmed
	sc := "JobId=80 ArrayJobId=77 ArrayTaskId=0 JobName=x JobState=COMPLETED Reason=None ExitCode=0:0\n" +
		"JobId=81 ArrayJobId=77 ArrayTaskId=1 JobName=x JobState=RUNNING Reason=None ExitCode=0:0\n" +
		"JobId=77 ArrayJobId=77 ArrayTaskId=2-4,6 JobName=x JobState=PENDING Reason=Resources ExitCode=0:0\n"
	ts, err = parseScontrol("77", sc)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 6 || ts[1].State != "RUNNING" || ts[6].State != "PENDING" || !ts[6].Active() || ts[0].Active() {
		t.Errorf("scontrol: %+v", ts)
	}
	for _, bad := range []string{"a-b", "5-3", "-1", "1,,2", "0-99999"} {
		if _, err := expandIndices(bad); err == nil {
			t.Errorf("index %q accepted", bad)
		}
	}
}

// fakeSlurm writes sbatch, sacct, scontrol and scancel scripts into a directory: sbatch logs
// its arguments and prints job id 77; sacct fails as on a cluster without accounting;
// scontrol prints the file scontrol.out of the directory.
func fakeSlurm(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	w := func(name, body string) {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w("sbatch", `echo "$@" >> "$(dirname "$0")/sbatch.log"; cp "$2" "$(dirname "$0")/last.sh"; echo "77;local"`+"\n")
	w("sacct", "echo 'Slurm accounting storage is disabled' >&2; exit 1\n")
	w("scontrol", `cat "$(dirname "$0")/scontrol.out"`+"\n")
	w("scancel", `echo "$@" >> "$(dirname "$0")/scancel.log"`+"\n")
	return bin
}

// TestSubmitStatusResubmit: with a fake Slurm, a study of 4 shards is submitted; shard 0 is
// done, 1 has a failure marker, Slurm says 2 was cancelled and 3 is running. Status says so
// (from scontrol, since sacct fails) and Resubmit submits exactly 1 and 2.
func TestSubmitStatusResubmit(t *testing.T) {
	bin := fakeSlurm(t)
	dir := t.TempDir()
	c := Client{Bin: bin}
	p, err := shard.NewPlan("toy", []string{"x"}, 1, shard.Spec{Items: 8, N: 4}, "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := shard.WritePlan(dir, p); err != nil {
		t.Fatal(err)
	}
	j := Job{Executable: "/usr/bin/true", Command: "toy", Args: []string{"x"}, Dir: dir, Shards: 4, Opts: []string{"partition=debug"}}
	sub, err := c.submit(context.Background(), j)
	if err != nil {
		t.Fatal(err)
	}
	if sub.JobID != "77" || sub.Array != "0-3" {
		t.Errorf("submission %+v", sub)
	}
	item := func(k int) (json.RawMessage, error) { return json.RawMessage("1"), nil }
	shard.Run(dir, p, 0, item)
	shard.Run(dir, p, 1, func(k int) (json.RawMessage, error) { return nil, errors.New("diverged") })
	os.WriteFile(filepath.Join(bin, "scontrol.out"), []byte(
		"JobId=78 ArrayJobId=77 ArrayTaskId=0 JobState=COMPLETED ExitCode=0:0\n"+
			"JobId=79 ArrayJobId=77 ArrayTaskId=1 JobState=FAILED ExitCode=1:0\n"+
			"JobId=80 ArrayJobId=77 ArrayTaskId=2 JobState=CANCELLED ExitCode=0:15\n"+
			"JobId=81 ArrayJobId=77 ArrayTaskId=3 JobState=RUNNING ExitCode=0:0\n"), 0o644)
	st, err := c.Status(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, s := range st.Shards {
		got = append(got, s.State)
	}
	if !reflect.DeepEqual(got, []string{StateDone, StateFailed, StateFailed, StateActive}) {
		t.Fatalf("states %v", got)
	}
	if !strings.Contains(st.Shards[1].Reason, "diverged") || !strings.Contains(st.Shards[2].Reason, "CANCELLED") || st.Shards[3].Task.Source != "scontrol" {
		t.Errorf("reasons %+v", st.Shards)
	}
	sub2, ok, err := c.Resubmit(context.Background(), dir)
	if err != nil || !ok || sub2.Array != "1-2" {
		t.Fatalf("resubmit %+v %v %v", sub2, ok, err)
	}
	script, _ := os.ReadFile(filepath.Join(bin, "last.sh"))
	if !strings.Contains(string(script), "#SBATCH --array=1-2\n") || !strings.Contains(string(script), "#SBATCH --partition=debug\n") {
		t.Errorf("resubmitted script:\n%s", script)
	}
	subs, err := Submissions(dir)
	if err != nil || len(subs) != 2 {
		t.Errorf("submissions %+v %v", subs, err)
	}
	log, _ := os.ReadFile(filepath.Join(bin, "sbatch.log"))
	if n := strings.Count(string(log), "--parsable"); n != 2 {
		t.Errorf("sbatch called %d times:\n%s", n, log)
	}
}

// TestStatusWithoutSlurm: a study with no submissions is judged by its files.
func TestStatusWithoutSlurm(t *testing.T) {
	dir := t.TempDir()
	p, _ := shard.NewPlan("toy", nil, 1, shard.Spec{Items: 2, N: 2}, "test")
	shard.WritePlan(dir, p)
	shard.Run(dir, p, 1, func(k int) (json.RawMessage, error) { return json.RawMessage("1"), nil })
	st, err := Client{Bin: t.TempDir()}.Status(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Shards[0].State != StateMissing || st.Shards[1].State != StateDone || len(st.Notes) != 1 {
		t.Errorf("%+v", st)
	}
}
