// Package slurm runs a sharded study (package shard) as a Slurm job array: it writes the
// batch script, submits it with sbatch, reads the tasks' states from sacct (or, where Slurm
// keeps no accounting, from scontrol), and resubmits only the shards that are missing or
// failed. Slurm does the scheduling; this package only talks to its commands.
//
// Each array task i runs
//
//	<executable> <command> <args…> --shard i/n --out DIR
//
// with i taken from SLURM_ARRAY_TASK_ID, and writes DIR/shard-i-of-n.json (package shard).
// The task's standard output and error go to DIR/slurm/task-i.out and task-i.err.
package slurm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

// DefaultShards is the array size when none is given: 32 tasks, or one per item when the
// study has fewer items. 32 keeps per-task start-up (a few seconds on a busy cluster) small
// against the work while spreading a study over a rack; pass an explicit n for more.
const DefaultShards = 32

// DefaultArraySize is DefaultShards capped at the number of items.
func DefaultArraySize(items int) int { return max(1, min(DefaultShards, items)) }

// Job is one study to run as a job array.
type Job struct {
	Executable string   // absolute path of the clusterperf binary the tasks run
	Command    string   // subcommand, e.g. "simulate"
	Args       []string // its study arguments, without --shard, --out and the Slurm flags
	Dir        string   // absolute study directory (shared file system), DIR above
	Shards     int      // n, the array size
	// Opts are --slurm-opt values, each one sbatch option written as an #SBATCH line:
	// "partition=debug", "--account=proj1", "time=01:00:00". The options this package
	// sets itself (array, output, error, job-name) are refused.
	Opts        []string
	MaxParallel int   // if > 0, at most this many tasks at once (--array=…%k)
	Indices     []int // the array indices to run; nil: all 0..Shards−1
	// WorkDir, when set, is the absolute directory every task changes to before it runs
	// (where the study's relative file arguments were given), whatever sbatch's --chdir.
	WorkDir string
}

var (
	optName   = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	reserved  = map[string]bool{"array": true, "a": true, "output": true, "o": true, "error": true, "e": true, "job-name": true, "J": true, "wrap": true, "parsable": true}
	unsafeVal = regexp.MustCompile(`[\x00-\x1f\x7f]`)
)

// parseOpt reads one --slurm-opt value, "name=value" or "--name=value" or "name" (a flag),
// and returns the sbatch option "--name=value".
func parseOpt(v string) (string, error) {
	s := strings.TrimPrefix(v, "--")
	name, val, hasVal := strings.Cut(s, "=")
	if !optName.MatchString(name) {
		return "", fmt.Errorf("%w: --slurm-opt %q: want an sbatch long option as name=value, e.g. partition=debug or time=01:00:00", fault.ErrInput, v)
	}
	if reserved[name] {
		return "", fmt.Errorf("%w: --slurm-opt %q: clusterperf sets --%s itself", fault.ErrInput, v, name)
	}
	if unsafeVal.MatchString(val) {
		return "", fmt.Errorf("%w: --slurm-opt %q: control characters are not allowed", fault.ErrInput, v)
	}
	if !hasVal {
		return "--" + name, nil
	}
	return "--" + name + "=" + val, nil
}

func (j Job) validate() error {
	switch {
	case !filepath.IsAbs(j.Executable):
		return fmt.Errorf("%w: executable %q must be an absolute path (array tasks start elsewhere)", fault.ErrInput, j.Executable)
	case !filepath.IsAbs(j.Dir):
		return fmt.Errorf("%w: --out %q must be an absolute path for a Slurm run", fault.ErrInput, j.Dir)
	case j.WorkDir != "" && !filepath.IsAbs(j.WorkDir):
		return fmt.Errorf("%w: working directory %q must be an absolute path", fault.ErrInput, j.WorkDir)
	case j.Command == "":
		return fmt.Errorf("%w: no command to run", fault.ErrInput)
	case j.Shards < 1 || j.Shards > shard.MaxShards:
		return fmt.Errorf("%w: %d array tasks: want 1..%d (Slurm's default MaxArraySize is 1001)", fault.ErrInput, j.Shards, shard.MaxShards)
	case j.MaxParallel < 0:
		return fmt.Errorf("%w: max parallel %d must not be negative", fault.ErrInput, j.MaxParallel)
	}
	for _, s := range append([]string{j.Executable, j.Dir, j.WorkDir, j.Command}, j.Args...) {
		if unsafeVal.MatchString(s) {
			return fmt.Errorf("%w: argument %q: control characters are not allowed in a batch script", fault.ErrInput, s)
		}
	}
	for _, i := range j.Indices {
		if i < 0 || i >= j.Shards {
			return fmt.Errorf("%w: array index %d out of 0..%d", fault.ErrInput, i, j.Shards-1)
		}
	}
	return nil
}

// arraySpec is the --array value: "0-7", or a compressed list of the given indices such as
// "1,3-5", with "%k" when MaxParallel is set.
func (j Job) arraySpec() string {
	idx := j.Indices
	if idx == nil {
		idx = make([]int, j.Shards)
		for i := range idx {
			idx[i] = i
		}
	}
	idx = append([]int(nil), idx...)
	sort.Ints(idx)
	var parts []string
	for a := 0; a < len(idx); {
		b := a
		for b+1 < len(idx) && idx[b+1] <= idx[b]+1 {
			b++
		}
		if idx[a] == idx[b] {
			parts = append(parts, strconv.Itoa(idx[a]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", idx[a], idx[b]))
		}
		a = b + 1
	}
	s := strings.Join(parts, ",")
	if j.MaxParallel > 0 {
		s += "%" + strconv.Itoa(j.MaxParallel)
	}
	return s
}

// quote single-quotes s for bash.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// logDir is where the tasks' output and the submitted scripts go: DIR/slurm.
func logDir(dir string) string { return filepath.Join(dir, "slurm") }

// script is the batch script of the job array (what --slurm-dry-run prints).
func script(j Job) (string, error) {
	if err := j.validate(); err != nil {
		return "", err
	}
	if j.Indices != nil && len(j.Indices) == 0 {
		return "", fmt.Errorf("%w: no array indices to run", fault.ErrInput)
	}
	var b strings.Builder
	logs := logDir(j.Dir)
	fmt.Fprintf(&b, "#!/bin/bash\n")
	fmt.Fprintf(&b, "# clusterperf %s as a Slurm job array: task i computes shard i of %d into %s.\n", j.Command, j.Shards, j.Dir)
	fmt.Fprintf(&b, "# Merge with: clusterperf merge %s   (progress: clusterperf merge --status %s)\n", j.Dir, j.Dir)
	fmt.Fprintf(&b, "#SBATCH --job-name=clusterperf-%s\n", j.Command)
	fmt.Fprintf(&b, "#SBATCH --array=%s\n", j.arraySpec())
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(logs, "task-%a.out"))
	fmt.Fprintf(&b, "#SBATCH --error=%s\n", filepath.Join(logs, "task-%a.err"))
	for _, o := range j.Opts {
		opt, err := parseOpt(o)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "#SBATCH %s\n", opt)
	}
	fmt.Fprintf(&b, "set -euo pipefail\n")
	if j.WorkDir != "" {
		fmt.Fprintf(&b, "cd %s\n", quote(j.WorkDir))
	}
	fmt.Fprintf(&b, "exec %s %s", quote(j.Executable), quote(j.Command))
	for _, a := range j.Args {
		fmt.Fprintf(&b, " %s", quote(a))
	}
	fmt.Fprintf(&b, " --shard \"${SLURM_ARRAY_TASK_ID}/%d\" --out %s\n", j.Shards, quote(j.Dir))
	return b.String(), nil
}

// Client runs the Slurm commands. Bin is the directory holding sbatch, sacct, scontrol and
// scancel ("" looks them up on PATH).
type Client struct {
	Bin string
}

func (c Client) path(name string) string {
	if c.Bin != "" {
		return filepath.Join(c.Bin, name)
	}
	return name
}

// Available reports whether sbatch can be found.
func (c Client) Available() bool {
	_, err := exec.LookPath(c.path("sbatch"))
	return err == nil
}

func (c Client) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, c.path(name), args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		return out.Bytes(), &CommandError{Command: name, Args: args, Stderr: msg, Err: err}
	}
	return out.Bytes(), nil
}

// CommandError is a Slurm command that failed, with what it wrote to standard error.
type CommandError struct {
	Command string
	Args    []string
	Stderr  string
	Err     error
}

func (e *CommandError) Error() string {
	return fmt.Sprintf("%s %s: %v: %s", e.Command, strings.Join(e.Args, " "), e.Err, e.Stderr)
}
func (e *CommandError) Unwrap() error { return e.Err }

// Submission is a record of one sbatch call, appended to DIR/slurm/jobs.json.
type Submission struct {
	JobID   string `json:"job_id"`
	Array   string `json:"array"`
	Script  string `json:"script_file"`
	Time    string `json:"time"`
	Shards  int    `json:"shards"`
	Command string `json:"command"`
}

// jobsFile holds the submissions of a study and the Job they came from (to resubmit).
type jobsFile struct {
	Job         jobJSON      `json:"job"`
	Submissions []Submission `json:"submissions"`
}

type jobJSON struct {
	Executable  string   `json:"executable"`
	Command     string   `json:"command"`
	Args        []string `json:"args"`
	Dir         string   `json:"dir"`
	Shards      int      `json:"shards"`
	Opts        []string `json:"slurm_opts"`
	MaxParallel int      `json:"max_parallel"`
	WorkDir     string   `json:"work_dir,omitempty"`
}

var jobIDLine = regexp.MustCompile(`^(\d+)(;\S+)?$`)

// parseJobID reads sbatch --parsable output, "12345" or "12345;cluster".
func parseJobID(out []byte) (string, error) {
	s := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:] // sbatch may print warnings before the id
	}
	g := jobIDLine.FindStringSubmatch(s)
	if g == nil {
		return "", fmt.Errorf("sbatch --parsable printed %q, want a job id", strings.TrimSpace(string(out)))
	}
	return g[1], nil
}

// errUnknownSubmission: sbatch exited 0 but printed no job id, so the job array may be queued;
// its files stay (the tasks need DIR/slurm for their output).
var errUnknownSubmission = errors.New("sbatch succeeded without printing a job id: the job array may be queued; check squeue before submitting again")

// notSubmitted reports whether a submission that returned s and err certainly queued nothing
// (sbatch could not run or refused the job), so that what it wrote may be removed.
func notSubmitted(s Submission, err error) bool {
	return err != nil && s.JobID == "" && !errors.Is(err, errUnknownSubmission)
}

// submit writes the script to DIR/slurm/submit-<time>.sh, submits it with sbatch and records
// the submission (and the job, for Resubmit) in DIR/slurm/jobs.json. When sbatch fails, the
// script (and DIR/slurm, if this call made it) is removed again.
func (c Client) submit(ctx context.Context, j Job) (Submission, error) {
	var made created
	s, err := c.submitRecorded(ctx, j, &made)
	if notSubmitted(s, err) {
		made.remove()
	}
	return s, err
}

// submitRecorded is submit without the clean-up: the files and directories it creates are
// appended to made.
func (c Client) submitRecorded(ctx context.Context, j Job, made *created) (Submission, error) {
	text, err := script(j)
	if err != nil {
		return Submission{}, err
	}
	logs := logDir(j.Dir)
	if err := made.mkdirAll(logs); err != nil {
		return Submission{}, err
	}
	now := time.Now().UTC()
	f, err := os.CreateTemp(logs, "submit-"+now.Format("20060102T150405")+"-*.sh")
	if err != nil {
		return Submission{}, err
	}
	*made = append(*made, f.Name())
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Submission{}, err
	}
	out, err := c.run(ctx, "sbatch", "--parsable", f.Name())
	if err != nil {
		if ctx.Err() != nil {
			return Submission{}, fmt.Errorf("%w: %w", fault.ErrInterrupted, err)
		}
		return Submission{}, err
	}
	id, err := parseJobID(out)
	if err != nil {
		return Submission{}, fmt.Errorf("%w (%v)", errUnknownSubmission, err)
	}
	s := Submission{JobID: id, Array: j.arraySpec(), Script: f.Name(), Time: now.Format(time.RFC3339), Shards: j.Shards, Command: j.Command}
	jf, err := readJobs(j.Dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s, err
	}
	jf.Job = jobJSON{Executable: j.Executable, Command: j.Command, Args: j.Args, Dir: j.Dir, Shards: j.Shards, Opts: j.Opts, MaxParallel: j.MaxParallel, WorkDir: j.WorkDir}
	jf.Submissions = append(jf.Submissions, s)
	return s, writeJobs(j.Dir, jf)
}

func jobsPath(dir string) string { return filepath.Join(logDir(dir), "jobs.json") }

func readJobs(dir string) (jobsFile, error) {
	var jf jobsFile
	data, err := os.ReadFile(jobsPath(dir))
	if err != nil {
		return jf, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jf); err != nil {
		return jf, fmt.Errorf("%w: %s: %v", fault.ErrInput, jobsPath(dir), err)
	}
	return jf, nil
}

func writeJobs(dir string, jf jobsFile) error {
	data, err := json.MarshalIndent(jf, "", "  ")
	if err != nil {
		return err
	}
	path := jobsPath(dir)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Submissions lists the sbatch calls recorded for the study in dir (oldest first).
func Submissions(dir string) ([]Submission, error) {
	jf, err := readJobs(dir)
	return jf.Submissions, err
}
