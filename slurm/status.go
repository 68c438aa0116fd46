package slurm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

// Task is the Slurm state of one array task.
type Task struct {
	Index    int    `json:"index"`
	JobID    string `json:"job_id"`           // the array job's id
	State    string `json:"state"`            // Slurm's: PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT…
	ExitCode string `json:"exit_code"`        // "code:signal"
	Source   string `json:"source,omitempty"` // "sacct" or "scontrol"
}

// Active reports whether the task is still queued or running.
func (t Task) Active() bool {
	switch t.State {
	case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED", "REQUEUE_HOLD", "REQUEUE_FED", "STAGE_OUT", "SIGNALING":
		return true
	}
	return false
}

// tasks reads the states of the array job's tasks from both of Slurm's views: the
// controller's (scontrol show job: queued, running, and finished within MinJobAge, 300 s by
// default) first, since it is current, and the accounting's (sacct, where Slurm keeps
// accounting storage) for the tasks the controller no longer knows. slurmdbd records a
// task's end asynchronously, so for a few seconds after a task ends sacct may still call it
// RUNNING or not list it at all; trusting sacct alone made a cancelled task look missing.
// A job neither knows yields no tasks and an error.
func (c Client) tasks(ctx context.Context, jobID string) (map[int]Task, error) {
	if _, err := strconv.ParseUint(jobID, 10, 64); err != nil {
		return nil, fmt.Errorf("%w: job id %q is not a number", fault.ErrInput, jobID)
	}
	ts := map[int]Task{}
	out, ctlErr := c.run(ctx, "scontrol", "show", "job", "-o", jobID)
	if ctlErr == nil {
		ts, ctlErr = parseScontrol(jobID, string(out))
		if ctlErr != nil {
			ts = map[int]Task{}
		}
	}
	if out, err := c.run(ctx, "sacct", "-n", "-P", "-X", "-j", jobID, "-o", "JobID,State,ExitCode"); err == nil {
		if acct, err := parseSacct(jobID, string(out)); err == nil {
			for i, t := range acct {
				if _, known := ts[i]; !known {
					ts[i] = t
				}
			}
		}
	}
	if len(ts) == 0 {
		if ctlErr == nil {
			ctlErr = fmt.Errorf("neither scontrol nor sacct knows job %s", jobID)
		}
		return nil, ctlErr
	}
	return ts, nil
}

// expandIndices reads an array index expression "3", "2-5", "1,4-6", optionally in
// brackets and with a "%k" throttle suffix.
func expandIndices(s string) ([]int, error) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if i := strings.IndexByte(s, '%'); i >= 0 {
		s = s[:i]
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		a, b, isRange := strings.Cut(part, "-")
		lo, err := strconv.Atoi(a)
		if err != nil {
			return nil, fmt.Errorf("array index %q", part)
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(b); err != nil {
				return nil, fmt.Errorf("array index %q", part)
			}
		}
		if lo < 0 || hi < lo || hi > shard.MaxShards {
			return nil, fmt.Errorf("array index %q", part)
		}
		for i := lo; i <= hi; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}

// parseSacct reads "JobID|State|ExitCode" lines: 12_3|COMPLETED|0:0, 12_[4-7]|PENDING|0:0,
// 12_2|CANCELLED by 0|0:15.
func parseSacct(jobID, out string) (map[int]Task, error) {
	ts := map[int]Task{}
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		f := strings.Split(line, "|")
		if len(f) < 3 {
			return nil, fmt.Errorf("sacct line %q", line)
		}
		id, idx, ok := strings.Cut(f[0], "_")
		if !ok || id != jobID {
			continue
		}
		is, err := expandIndices(idx)
		if err != nil {
			return nil, fmt.Errorf("sacct: %v", err)
		}
		state, _, _ := strings.Cut(f[1], " ")
		for _, i := range is {
			ts[i] = Task{Index: i, JobID: jobID, State: state, ExitCode: f[2], Source: "sacct"}
		}
	}
	return ts, nil
}

// parseScontrol reads scontrol show job -o: one line per job record with key=value fields
// ArrayJobId, ArrayTaskId, JobState, ExitCode.
func parseScontrol(jobID, out string) (map[int]Task, error) {
	ts := map[int]Task{}
	for _, line := range strings.Split(out, "\n") {
		kv := map[string]string{}
		for _, f := range strings.Fields(line) {
			if k, v, ok := strings.Cut(f, "="); ok {
				kv[k] = v
			}
		}
		if kv["ArrayJobId"] != jobID || kv["ArrayTaskId"] == "" {
			continue
		}
		is, err := expandIndices(kv["ArrayTaskId"])
		if err != nil {
			return nil, fmt.Errorf("scontrol: %v", err)
		}
		for _, i := range is {
			ts[i] = Task{Index: i, JobID: jobID, State: kv["JobState"], ExitCode: kv["ExitCode"], Source: "scontrol"}
		}
	}
	return ts, nil
}

// Shard states of a study.
const (
	StateDone    = "done"    // the shard file is there (whatever Slurm says)
	StateActive  = "active"  // no file yet; Slurm has the task queued or running
	StateFailed  = "failed"  // a failure marker, or Slurm ended the task without a shard file
	StateMissing = "missing" // no file and no task Slurm knows of
)

// ShardState is one shard's state in a study.
type ShardState struct {
	Index  int    `json:"index"`
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
	Task   *Task  `json:"slurm_task,omitempty"`
}

// StudyStatus is the state of every shard of a study, from its files and from Slurm.
type StudyStatus struct {
	Plan   shard.Plan   `json:"plan"`
	Shards []ShardState `json:"shards"`
	Notes  []string     `json:"notes"`
}

// Indices lists the shards in the given state.
func (s *StudyStatus) Indices(state string) []int {
	var out []int
	for _, sh := range s.Shards {
		if sh.State == state {
			out = append(out, sh.Index)
		}
	}
	return out
}

// Status combines the shard files in dir with the Slurm states of the study's submissions
// (the latest submission of an index wins). Without submissions or without Slurm it reports
// the files alone, with a note.
func (c Client) Status(ctx context.Context, dir string) (*StudyStatus, error) {
	// Slurm first, the files second: a task Slurm reports ended wrote its file before it
	// ended, so the file is seen. (Files first raced: a task finishing between the two reads
	// was reported "ended without a shard file", and Wait stopped on it.)
	if _, err := shard.ReadStatus(dir); err != nil { // a directory that is not a study
		return nil, err
	}
	st := &StudyStatus{Notes: []string{}}
	tasks := map[int]Task{}
	subs, err := Submissions(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		st.Notes = append(st.Notes, "no Slurm submissions recorded in "+jobsPath(dir)+": states from the shard files only")
	case err != nil:
		return nil, err
	default:
		for _, s := range subs {
			ts, err := c.tasks(ctx, s.JobID)
			if err != nil {
				st.Notes = append(st.Notes, fmt.Sprintf("job %s: Slurm does not know it any more (%v); its shards are judged by their files", s.JobID, err))
				continue
			}
			for i, t := range ts {
				tasks[i] = t
			}
		}
	}
	fs0, err := shard.ReadStatus(dir)
	if err != nil {
		return nil, err
	}
	st.Plan = fs0.Plan
	failed := map[int]bool{}
	for _, i := range fs0.Failed {
		failed[i] = true
	}
	done := map[int]bool{}
	for _, i := range fs0.Done {
		done[i] = true
	}
	for i := 0; i < fs0.Plan.N; i++ {
		sh := ShardState{Index: i}
		t, known := tasks[i]
		if known {
			sh.Task = &t
		}
		switch {
		case done[i]:
			sh.State = StateDone
		case known && t.Active():
			sh.State = StateActive
		case failed[i]:
			sh.State, sh.Reason = StateFailed, fs0.Errors[strconv.Itoa(i)]
		case known:
			sh.State = StateFailed
			sh.Reason = fmt.Sprintf("Slurm task %s_%d ended %s (exit %s) without a shard file", t.JobID, i, t.State, t.ExitCode)
		default:
			sh.State = StateMissing
		}
		st.Shards = append(st.Shards, sh)
	}
	return st, nil
}

// Resubmit submits a job array of only the failed and missing shards of the study in dir,
// with the job recorded by the first SubmitStudy. It returns the submission, or ok=false when
// nothing needs rerunning (every shard done or active).
func (c Client) Resubmit(ctx context.Context, dir string) (s Submission, ok bool, err error) {
	st, err := c.Status(ctx, dir)
	if err != nil {
		return s, false, err
	}
	todo := append(st.Indices(StateFailed), st.Indices(StateMissing)...)
	if len(todo) == 0 {
		return s, false, nil
	}
	sort.Ints(todo)
	jf, err := readJobs(dir)
	if err != nil {
		return s, false, fmt.Errorf("resubmit needs the job recorded at submission: %w", err)
	}
	j := Job{Executable: jf.Job.Executable, Command: jf.Job.Command, Args: jf.Job.Args, Dir: jf.Job.Dir,
		Shards: jf.Job.Shards, Opts: jf.Job.Opts, MaxParallel: jf.Job.MaxParallel, Indices: todo, WorkDir: jf.Job.WorkDir}
	s, err = c.submit(ctx, j)
	return s, err == nil, err
}

// Wait polls the study's Slurm tasks every poll until none is queued or running, or ctx ends.
func (c Client) Wait(ctx context.Context, dir string, poll time.Duration) (*StudyStatus, error) {
	for {
		st, err := c.Status(ctx, dir)
		if err != nil {
			return nil, err
		}
		if len(st.Indices(StateActive)) == 0 {
			return st, nil
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(poll):
		}
	}
}
