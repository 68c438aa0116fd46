package history

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/spec"
)

// Limits of ReadSacct, checked before the memory is taken.
const (
	// MaxBytes bounds one sacct output: 64 MiB is about 200 000 jobs with their submit lines.
	MaxBytes = 64 << 20
	// MaxLineBytes bounds one line (a submit line can be long; 256 KiB is far beyond any).
	MaxLineBytes = 256 << 10
	// MaxJobs bounds the allocation lines kept.
	MaxJobs = 200000
)

// Outcome is how a job's final state enters the fit.
type Outcome string

const (
	// Observed: COMPLETED, the elapsed time is a run time.
	Observed Outcome = "observed"
	// Censored: TIMEOUT, the run takes longer than its time limit (a lower bound).
	Censored Outcome = "censored"
	// Excluded: CANCELLED, FAILED, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE, PREEMPTED:
	// the job says nothing about the run time.
	Excluded Outcome = "excluded"
	// Unfinished: PENDING, RUNNING, REQUEUED, SUSPENDED, …: not ended yet.
	Unfinished Outcome = "unfinished"
)

// states maps every job state of sacct (Slurm 22.05 `man sacct`, JOB STATE CODES) to its
// outcome. The state text is read by its first word: "CANCELLED by 0" is CANCELLED.
var states = map[string]Outcome{
	"COMPLETED": Observed, "TIMEOUT": Censored,
	"CANCELLED": Excluded, "FAILED": Excluded, "NODE_FAIL": Excluded, "OUT_OF_MEMORY": Excluded,
	"BOOT_FAIL": Excluded, "DEADLINE": Excluded, "PREEMPTED": Excluded,
	"PENDING": Unfinished, "RUNNING": Unfinished, "REQUEUED": Unfinished, "RESIZING": Unfinished,
	"REVOKED": Unfinished, "SUSPENDED": Unfinished, "COMPLETING": Unfinished, "CONFIGURING": Unfinished,
	"REQUEUE_FED": Unfinished, "REQUEUE_HOLD": Unfinished, "SIGNALING": Unfinished, "STAGE_OUT": Unfinished, "STOPPED": Unfinished,
	"SPECIAL_EXIT": Excluded,
}

// Job is one allocation line of sacct (the job, not its steps).
type Job struct {
	Line      int    `json:"line"`
	JobID     string `json:"job_id"`
	Name      string `json:"job_name"`
	User      string `json:"user,omitempty"`
	Partition string `json:"partition,omitempty"`
	// Nodes is NNodes, 0 when the column is absent.
	Nodes int `json:"nodes"`
	// Tasks is the parallelism p of the fit; TasksFrom says where it came from:
	// "submit_line" (--ntasks/-n, or --nodes × --ntasks-per-node), "ntasks" (the NTasks
	// column) or "ncpus" (allocated CPUs, NCPUS or AllocCPUS).
	Tasks     int    `json:"tasks"`
	TasksFrom string `json:"tasks_from"`
	CPUs      int    `json:"cpus"`
	Submit    string `json:"submit,omitempty"`
	Start     string `json:"start,omitempty"`
	End       string `json:"end,omitempty"`
	ElapsedS  int64  `json:"elapsed_s"`
	// TimeLimitS is the limit in seconds; nil when UNLIMITED, Partition_Limit or absent.
	TimeLimitS *int64 `json:"time_limit_s,omitempty"`
	// QueueWaitS is Start − Submit; nil when either is unknown.
	QueueWaitS *int64  `json:"queue_wait_s,omitempty"`
	State      string  `json:"state"`
	StateText  string  `json:"state_text"`
	Outcome    Outcome `json:"outcome"`
	ExitCode   string  `json:"exit_code,omitempty"`
	SubmitLine string  `json:"submit_line,omitempty"`
	WorkDir    string  `json:"work_dir,omitempty"`

	// submitU, startU: Submit and Start in Unix seconds (0: unknown), 16 bytes instead of two
	// time.Time's 48 (MaxJobs of them are kept).
	submitU, startU int64
}

// jobChunk is how many jobs ReadSacct keeps per chunk.
const jobChunk = 4096

// interner keeps one copy of each repeated text of an accounting (job names, users,
// partitions, states, submit lines, directories: the same few values over many jobs), so
// that a parsed job holds no reference to its line and the lines can be freed. At most
// maxInterned values are kept; beyond that each text is copied.
type interner map[string]string

const maxInterned = 1 << 16

func (in interner) get(s string) string {
	if v, ok := in[s]; ok {
		return v
	}
	s = strings.Clone(s)
	if len(in) < maxInterned {
		in[s] = s
	}
	return s
}

// Accounting is a parsed sacct --parsable2 output.
type Accounting struct {
	File string `json:"file"`
	Jobs []Job  `json:"jobs"`
	// StepLines counts the step lines (JobID with a dot: N.batch, N.0) skipped: a job's own
	// line carries its state and elapsed time.
	StepLines int `json:"step_lines"`
	// Columns are the header's field names.
	Columns []string `json:"columns"`
}

// SacctFormat is the --format list the live query asks for (and the columns a saved file
// should have; JobID, State, Elapsed and NCPUS or AllocCPUS are required, the rest optional).
const SacctFormat = "JobID,JobName,User,Partition,NNodes,NTasks,NCPUS,Submit,Start,End,Elapsed,Timelimit,State,ExitCode,SubmitLine,WorkDir"

// column indices of a header; -1 when absent.
type columns struct {
	id, name, user, part, nnodes, ntasks, ncpus, submit, start, end        int
	elapsed, elapsedRaw, limit, limitRaw, state, exit, submitLine, workDir int
	n                                                                      int
}

func parseHeader(file string, line int, fields []string) (columns, error) {
	c := columns{id: -1, name: -1, user: -1, part: -1, nnodes: -1, ntasks: -1, ncpus: -1, submit: -1, start: -1, end: -1,
		elapsed: -1, elapsedRaw: -1, limit: -1, limitRaw: -1, state: -1, exit: -1, submitLine: -1, workDir: -1, n: len(fields)}
	idx := map[string]*int{"jobid": &c.id, "jobidraw": nil, "jobname": &c.name, "user": &c.user, "partition": &c.part,
		"nnodes": &c.nnodes, "ntasks": &c.ntasks, "ncpus": &c.ncpus, "alloccpus": &c.ncpus, "submit": &c.submit,
		"start": &c.start, "end": &c.end, "elapsed": &c.elapsed, "elapsedraw": &c.elapsedRaw, "timelimit": &c.limit,
		"timelimitraw": &c.limitRaw, "state": &c.state, "exitcode": &c.exit, "submitline": &c.submitLine, "workdir": &c.workDir}
	seen := map[string]bool{}
	for i, f := range fields {
		k := strings.ToLower(strings.TrimSpace(f))
		if seen[k] {
			return c, fmt.Errorf("%w: %s:%d: column %q appears twice", fault.ErrInput, file, line, f)
		}
		seen[k] = true
		if p, ok := idx[k]; ok && p != nil && *p < 0 {
			*p = i
		}
	}
	var miss []string
	if c.id < 0 {
		miss = append(miss, "JobID")
	}
	if c.state < 0 {
		miss = append(miss, "State")
	}
	if c.elapsed < 0 && c.elapsedRaw < 0 {
		miss = append(miss, "Elapsed or ElapsedRaw")
	}
	if c.ncpus < 0 && c.ntasks < 0 && c.submitLine < 0 {
		miss = append(miss, "NCPUS, NTasks or SubmitLine (for the task count)")
	}
	if len(miss) > 0 {
		return c, fmt.Errorf("%w: %s:%d: header lacks %s: save the accounting with sacct --parsable2 --allocations --format=%s", fault.ErrInput, file, line, strings.Join(miss, ", "), SacctFormat)
	}
	return c, nil
}

// ReadSacct reads the output of `sacct --parsable2` (fields separated by '|', a header
// line first, no trailing '|'; `--parsable`'s trailing '|' is accepted too). Step lines are
// skipped; every other line is one job. A '|' inside a submit line (sacct does not escape
// it) is kept when SubmitLine is the only column that can hold it. Errors wrap
// fault.ErrInput naming file:line and the field, fault.ErrTooLarge past the limits.
func ReadSacct(file string, r io.Reader) (*Accounting, error) {
	br := bufio.NewReaderSize(io.LimitReader(spec.SkipBOM(r), MaxBytes+1), 64<<10)
	a := &Accounting{File: file}
	var cols columns
	seen := map[string]int{}
	in := interner{}
	var kept jobChunks
	total, line := 0, 0
	for {
		s, rerr := readLine(br, file, line+1)
		if s == "" && rerr == io.EOF {
			break
		}
		if rerr != nil && rerr != io.EOF {
			return nil, rerr
		}
		var err error
		line++
		total += len(s) + 1
		if total > MaxBytes {
			return nil, fmt.Errorf("%w: %s:%d: more than %d bytes of accounting (the limit; filter with --since or --name)", fault.ErrTooLarge, file, line, MaxBytes)
		}
		s = strings.TrimRight(s, "\r\n")
		if strings.TrimSpace(s) == "" {
			if rerr == io.EOF {
				break
			}
			continue
		}
		fields := strings.Split(s, "|")
		if cols.n == 0 {
			if cols, err = parseHeader(file, line, trimTrailing(fields)); err != nil {
				return nil, err
			}
			a.Columns = trimTrailing(fields)
			if rerr == io.EOF {
				break
			}
			continue
		}
		if fields, err = cols.fit(file, line, fields); err != nil {
			return nil, err
		}
		id := fields[cols.id]
		if strings.Contains(id, ".") {
			a.StepLines++
			if rerr == io.EOF {
				break
			}
			continue
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%w: %s:%d: job %s repeated (first at line %d): save without --duplicates", fault.ErrInput, file, line, id, prev)
		}
		if kept.n >= MaxJobs {
			return nil, fmt.Errorf("%w: %s:%d: more than %d jobs (the limit; filter with --since or --name)", fault.ErrTooLarge, file, line, MaxJobs)
		}
		j, err := cols.job(file, line, fields, in)
		if err != nil {
			return nil, err
		}
		seen[id] = line
		kept.add(j)
		if rerr == io.EOF {
			break
		}
	}
	if cols.n == 0 {
		return nil, fmt.Errorf("%w: %s: empty: no sacct header line", fault.ErrInput, file)
	}
	a.Jobs = kept.all()
	return a, nil
}

// jobChunks keeps jobs in chunks of jobChunk, copied once into one slice at the end: growing
// one slice by append allocated 333 MB over 200 000 jobs (each growth a new copy) and held
// the old and the new array at once.
type jobChunks struct {
	chunks [][]Job
	n      int
}

func (c *jobChunks) add(j Job) {
	if len(c.chunks) == 0 || len(c.chunks[len(c.chunks)-1]) == jobChunk {
		c.chunks = append(c.chunks, make([]Job, 0, jobChunk))
	}
	c.chunks[len(c.chunks)-1] = append(c.chunks[len(c.chunks)-1], j)
	c.n++
}

// all is the jobs in order, in one slice; the chunks are released.
func (c *jobChunks) all() []Job {
	out := make([]Job, 0, c.n)
	for i, ch := range c.chunks {
		out = append(out, ch...)
		c.chunks[i] = nil
	}
	return out
}

// readLine reads one line of at most MaxLineBytes.
func readLine(br *bufio.Reader, file string, line int) (string, error) {
	var b strings.Builder
	for {
		chunk, isPrefix, err := br.ReadLine()
		if b.Len()+len(chunk) > MaxLineBytes {
			return "", fmt.Errorf("%w: %s:%d: line longer than %d bytes", fault.ErrTooLarge, file, line, MaxLineBytes)
		}
		b.Write(chunk)
		if err != nil {
			return b.String(), err
		}
		if !isPrefix {
			return b.String(), nil
		}
	}
}

// trimTrailing drops the empty last field `sacct --parsable` (not 2) leaves.
func trimTrailing(f []string) []string {
	if len(f) > 1 && f[len(f)-1] == "" {
		return f[:len(f)-1]
	}
	return f
}

// fit makes a data line's fields as many as the header's: a trailing empty field is
// dropped; extra fields are a '|' inside the submit line, rejoined.
func (c columns) fit(file string, line int, f []string) ([]string, error) {
	if len(f) == c.n+1 && f[c.n] == "" {
		f = f[:c.n]
	}
	if len(f) > c.n && c.submitLine >= 0 {
		extra := len(f) - c.n
		joined := strings.Join(f[c.submitLine:c.submitLine+extra+1], "|")
		g := append(append(append([]string{}, f[:c.submitLine]...), joined), f[c.submitLine+extra+1:]...)
		f = g
	}
	if len(f) != c.n {
		return nil, fmt.Errorf("%w: %s:%d: %d fields, the header has %d", fault.ErrInput, file, line, len(f), c.n)
	}
	return f, nil
}

func (c columns) get(f []string, i int) string {
	if i < 0 {
		return ""
	}
	return strings.TrimSpace(f[i])
}

// job reads one allocation line.
func (c columns) job(file string, line int, f []string, in interner) (Job, error) {
	bad := func(col, v, want string) error {
		return fmt.Errorf("%w: %s:%d: %s %q: want %s", fault.ErrInput, file, line, col, v, want)
	}
	j := Job{Line: line, JobID: strings.Clone(c.get(f, c.id)), Name: in.get(c.get(f, c.name)), User: in.get(c.get(f, c.user)), Partition: in.get(c.get(f, c.part)),
		ExitCode: in.get(c.get(f, c.exit)), WorkDir: in.get(c.get(f, c.workDir))}
	if c.submitLine >= 0 {
		j.SubmitLine = in.get(strings.TrimSpace(f[c.submitLine]))
	}
	if j.JobID == "" {
		return j, bad("JobID", "", "a job id")
	}
	j.StateText = in.get(c.get(f, c.state))
	j.State, _, _ = strings.Cut(j.StateText, " ")
	o, ok := states[j.State]
	if !ok {
		return j, bad("State", j.StateText, "a Slurm job state (COMPLETED, TIMEOUT, CANCELLED, FAILED, …)")
	}
	j.Outcome = o
	var err error
	if j.Nodes, err = count(c.get(f, c.nnodes)); err != nil {
		return j, bad("NNodes", c.get(f, c.nnodes), "a node count")
	}
	if j.CPUs, err = count(c.get(f, c.ncpus)); err != nil {
		return j, bad("NCPUS", c.get(f, c.ncpus), "a CPU count")
	}
	nt, err := count(c.get(f, c.ntasks))
	if err != nil {
		return j, bad("NTasks", c.get(f, c.ntasks), "a task count")
	}
	if j.ElapsedS, err = c.elapsedS(f); err != nil {
		return j, bad("Elapsed", c.get(f, c.elapsed), "[D-]HH:MM:SS or seconds (ElapsedRaw)")
	}
	if j.TimeLimitS, err = c.limitS(f); err != nil {
		return j, bad("Timelimit", c.get(f, c.limit), "[D-]HH:MM:SS, MM:SS, UNLIMITED or Partition_Limit")
	}
	var submitT, startT, endT time.Time
	for _, t := range []struct {
		col string
		i   int
		dst *string
		tm  *time.Time
	}{{"Submit", c.submit, &j.Submit, &submitT}, {"Start", c.start, &j.Start, &startT}, {"End", c.end, &j.End, &endT}} {
		v := c.get(f, t.i)
		*t.dst = strings.Clone(v) // unique per job: not interned
		tm, err := stamp(v)
		if err != nil {
			return j, bad(t.col, v, "YYYY-MM-DDTHH:MM:SS, Unknown or None")
		}
		*t.tm = tm
	}
	j.submitU, j.startU = unix(submitT), unix(startT)
	if !submitT.IsZero() && !startT.IsZero() {
		w := int64(startT.Sub(submitT) / time.Second)
		if w < 0 {
			return j, bad("Start", j.Start, "a start not before the submit time "+j.Submit)
		}
		j.QueueWaitS = &w
	}
	// Elapsed is End − Start (Slurm's sacct man page); one beyond it by more than a minute
	// is a corrupt row, not a time to fit.
	if !startT.IsZero() && !endT.IsZero() && endT.After(startT) {
		if span := int64(endT.Sub(startT) / time.Second); j.ElapsedS > span+60 {
			return j, bad("Elapsed", c.get(f, c.elapsed), fmt.Sprintf("at most End − Start = %d s (Start %s, End %s)", span, j.Start, j.End))
		}
	}
	if err := j.setTasks(nt); err != nil {
		return j, fmt.Errorf("%w: %s:%d: %v", fault.ErrInput, file, line, err)
	}
	return j, nil
}

// setTasks chooses p: the submit line's --ntasks (or --nodes × --ntasks-per-node), the
// NTasks column, or the allocated CPUs.
func (j *Job) setTasks(ntasks int) error {
	if n, ok := parseSubmit(j.SubmitLine).tasks(); ok {
		j.Tasks, j.TasksFrom = n, "submit_line"
	} else if ntasks > 0 {
		j.Tasks, j.TasksFrom = ntasks, "ntasks"
	} else if j.CPUs > 0 {
		j.Tasks, j.TasksFrom = j.CPUs, "ncpus"
	}
	if j.Tasks == 0 && j.Outcome != Unfinished && j.Outcome != Excluded {
		return fmt.Errorf("job %s: no task count (no --ntasks in SubmitLine, NTasks and NCPUS empty)", j.JobID)
	}
	return nil
}

// maxCount bounds node, CPU and task counts (2^30, as every p in the project).
const maxCount = 1 << 30

func count(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > maxCount {
		return 0, fmt.Errorf("bad count")
	}
	return n, nil
}

// maxSeconds bounds an elapsed time or limit: 100 years.
const maxSeconds = 100 * 365 * 86400

func (c columns) elapsedS(f []string) (int64, error) {
	if v := c.get(f, c.elapsedRaw); c.elapsedRaw >= 0 && v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > maxSeconds {
			return 0, fmt.Errorf("bad")
		}
		return n, nil
	}
	return clock(c.get(f, c.elapsed))
}

func (c columns) limitS(f []string) (*int64, error) {
	v := c.get(f, c.limit)
	if c.limit < 0 || v == "" {
		if r := c.get(f, c.limitRaw); c.limitRaw >= 0 && r != "" && r != "UNLIMITED" && r != "Partition_Limit" {
			m, err := strconv.ParseInt(r, 10, 64)
			if err != nil || m < 0 || m > maxSeconds/60 {
				return nil, fmt.Errorf("bad")
			}
			s := m * 60
			return &s, nil
		}
		return nil, nil
	}
	switch v {
	case "UNLIMITED", "Partition_Limit", "INVALID":
		return nil, nil
	}
	s, err := clock(v)
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// clock reads sacct's [D-]HH:MM:SS (also MM:SS and HH:MM:SS.mmm as TotalCPU prints).
func clock(v string) (int64, error) {
	if v == "" {
		return 0, fmt.Errorf("empty")
	}
	days := int64(0)
	if d, rest, ok := strings.Cut(v, "-"); ok {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 0 || n > 36500 {
			return 0, fmt.Errorf("bad days")
		}
		days, v = n, rest
	}
	parts := strings.Split(v, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, fmt.Errorf("bad clock")
	}
	var s float64
	for i, p := range parts {
		lim := 59.999
		if i == 0 {
			lim = math.Inf(1)
		}
		x, err := strconv.ParseFloat(p, 64)
		if err != nil || x < 0 || x > lim || len(p) == 0 || strings.ContainsAny(p, "eE+-") || math.IsNaN(x) || (i < len(parts)-1 && x != math.Trunc(x)) {
			return 0, fmt.Errorf("bad clock part")
		}
		s = s*60 + x
	}
	total := float64(days)*86400 + s
	if total > maxSeconds {
		return 0, fmt.Errorf("too long")
	}
	return int64(math.Round(total)), nil
}

// unix is t in Unix seconds, 0 for the zero time (unknown).
func unix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// stamp reads a sacct time (local time without a zone, read as UTC: only differences are
// used); "Unknown", "None" and "" are the zero time.
func stamp(v string) (time.Time, error) {
	switch v {
	case "", "Unknown", "None":
		return time.Time{}, nil
	}
	return time.Parse("2006-01-02T15:04:05", v)
}
