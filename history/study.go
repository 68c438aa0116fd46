package history

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
)

// Filter selects jobs: every non-empty field must match. The live query passes User, Name,
// Partition and the time window to sacct itself; Command is matched here.
type Filter struct {
	User      string    // exact user name
	Name      string    // exact job name
	Command   string    // a substring of the submit line (program, arguments), or of the job name when there is none
	Partition string    // exact partition
	Since     time.Time // submitted at or after (zero: any)
	Until     time.Time // submitted before (zero: any)
}

// Match reports whether j passes the filter.
func (f Filter) Match(j Job) bool {
	switch {
	case f.User != "" && j.User != f.User, f.Name != "" && j.Name != f.Name, f.Partition != "" && j.Partition != f.Partition:
		return false
	case f.Command != "" && !strings.Contains(j.SubmitLine, f.Command) && !(j.SubmitLine == "" && strings.Contains(j.Name, f.Command)):
		return false
	case !f.Since.IsZero() && (j.submitU == 0 || j.submitU < f.Since.Unix()):
		return false
	case !f.Until.IsZero() && (j.submitU == 0 || j.submitU >= f.Until.Unix()):
		return false
	}
	return true
}

// Study is the jobs of one program with one input: the same program, arguments, batch
// options, partition and working directory, apart from the parallelism (task, node and CPU
// counts) and the scheduling (time limit, job name, output files, account, …).
type Study struct {
	ID int `json:"id"`
	// Program is the command run (the script and its arguments, or the --wrap command),
	// with the MPI launcher's size options removed.
	Program   string   `json:"program"`
	Options   []string `json:"options,omitempty"` // batch options every job shares (not parallelism or scheduling)
	Partition string   `json:"partition,omitempty"`
	WorkDir   string   `json:"work_dir,omitempty"`
	// GroupedBy: "submit_line", or "job_name" when the accounting has no SubmitLine.
	GroupedBy string `json:"grouped_by"`
	// Differs names what differs between the jobs, each with its values.
	Differs []string `json:"differs"`
	Jobs    []Job    `json:"jobs"`
	// Counts by outcome, and the excluded jobs by state.
	Completed  int          `json:"completed"`
	TimedOut   int          `json:"timed_out"`
	Excluded   []StateCount `json:"excluded"`
	Unfinished int          `json:"unfinished"`
	Tasks      []int        `json:"tasks"` // distinct task counts of completed or timed-out jobs
	// MedianElapsedS is over the completed jobs; MedianQueueWaitS over every started job.
	MedianElapsedS   *float64 `json:"median_elapsed_s,omitempty"`
	MedianQueueWaitS *float64 `json:"median_queue_wait_s,omitempty"`
}

// StateCount is how many of a study's jobs ended in a state that is left out.
type StateCount struct {
	State string `json:"state"`
	Jobs  int    `json:"jobs"`
}

// key is what makes two jobs one study.
func studyKey(j Job) (key, program, grouped string, opts []string) {
	if j.SubmitLine == "" {
		return "name\x00" + j.Name + "\x00" + j.Partition + "\x00" + j.WorkDir, j.Name, "job_name", nil
	}
	s := parseSubmit(j.SubmitLine)
	prog, _ := launcherFree(s.program)
	for _, n := range s.order {
		if parallelism[n] || schedulingOnly[n] || n == "wrap" || n == "partition" || n == "chdir" {
			continue
		}
		if v := s.opts[n]; v != "" {
			opts = append(opts, "--"+n+"="+v)
		} else {
			opts = append(opts, "--"+n)
		}
	}
	sort.Strings(opts)
	program = strings.Join(prog, " ")
	return "line\x00" + program + "\x00" + strings.Join(opts, " ") + "\x00" + j.Partition + "\x00" + j.WorkDir, program, "submit_line", opts
}

// Group sorts the jobs into studies, in order of each study's first job in the
// accounting; Study.ID counts from 1. It reorders jobs in place — by study, each study's
// jobs in their order — and each Study.Jobs is a sub-slice of jobs: no copy of up to MaxJobs
// jobs is made (a copy per study kept two of them at once).
func Group(jobs []Job) []*Study {
	byKey := map[string]*Study{}
	var out []*Study
	dest := make([]int32, len(jobs)) // first the study of each job, then its position
	counts := []int{}
	for i, j := range jobs {
		k, prog, how, opts := studyKey(j)
		s := byKey[k]
		if s == nil {
			s = &Study{ID: len(out) + 1, Program: prog, Options: opts, Partition: j.Partition, WorkDir: j.WorkDir, GroupedBy: how}
			byKey[k] = s
			out = append(out, s)
			counts = append(counts, 0)
		}
		dest[i] = int32(s.ID - 1)
		counts[s.ID-1]++
	}
	next := make([]int, len(out)) // the next free position of each study
	for i, at := 1, 0; i < len(out); i++ {
		at += counts[i-1]
		next[i] = at
	}
	for i, st := range dest {
		dest[i] = int32(next[st])
		next[st]++
	}
	for i := range jobs { // apply the permutation by cycles
		for int(dest[i]) != i {
			d := dest[i]
			jobs[i], jobs[d] = jobs[d], jobs[i]
			dest[i], dest[d] = dest[d], dest[i]
		}
	}
	at := 0
	for i, s := range out {
		s.Jobs = jobs[at : at+counts[i] : at+counts[i]]
		at += counts[i]
	}
	for _, s := range out {
		s.summarise()
	}
	return out
}

func (s *Study) summarise() {
	var el, wait []float64
	tasks := map[int]bool{}
	for _, j := range s.Jobs {
		switch j.Outcome {
		case Observed:
			s.Completed++
			el = append(el, float64(j.ElapsedS))
			tasks[j.Tasks] = true
		case Censored:
			s.TimedOut++
			tasks[j.Tasks] = true
		case Excluded:
			s.addExcluded(j.State)
		default:
			s.Unfinished++
		}
		if j.QueueWaitS != nil {
			wait = append(wait, float64(*j.QueueWaitS))
		}
	}
	for p := range tasks {
		s.Tasks = append(s.Tasks, p)
	}
	sort.Ints(s.Tasks)
	s.MedianElapsedS, s.MedianQueueWaitS = median(el), median(wait)
	s.Differs = differs(s.Jobs)
}

func (s *Study) addExcluded(state string) {
	for i := range s.Excluded {
		if s.Excluded[i].State == state {
			s.Excluded[i].Jobs++
			return
		}
	}
	s.Excluded = append(s.Excluded, StateCount{State: state, Jobs: 1})
	sort.Slice(s.Excluded, func(a, b int) bool { return s.Excluded[a].State < s.Excluded[b].State })
}

// differs lists what varies between the jobs: the task and node counts, then every batch
// option (and the job name) that does not have one value in all of them.
func differs(jobs []Job) []string {
	vals := map[string]map[string]bool{}
	var names []string
	add := func(k, v string) {
		if vals[k] == nil {
			vals[k] = map[string]bool{}
			names = append(names, k)
		}
		vals[k][v] = true
	}
	for _, j := range jobs {
		add("tasks", fmt.Sprint(j.Tasks))
		add("nodes", fmt.Sprint(j.Nodes))
		add("job name", j.Name)
		add("time_limit_s", limitText(j.TimeLimitS))
		s := parseSubmit(j.SubmitLine)
		for _, n := range s.order {
			if parallelism[n] || schedulingOnly[n] {
				add("--"+n, s.opts[n])
			}
		}
	}
	var out []string
	for _, k := range names {
		if len(vals[k]) < 2 && (len(vals[k]) != 1 || !absentSomewhere(jobs, k)) {
			continue
		}
		vs := make([]string, 0, len(vals[k]))
		for v := range vals[k] {
			vs = append(vs, v)
		}
		sortMixed(vs)
		if len(vs) > 6 {
			vs = append(vs[:3], "…", vs[len(vs)-1])
		}
		out = append(out, k+": "+strings.Join(vs, ", "))
	}
	return out
}

// absentSomewhere: an option some jobs give and others do not (a difference too).
func absentSomewhere(jobs []Job, k string) bool {
	if !strings.HasPrefix(k, "--") {
		return false
	}
	for _, j := range jobs {
		if _, ok := parseSubmit(j.SubmitLine).opts[k[2:]]; !ok {
			return true
		}
	}
	return false
}

// sortMixed sorts numbers numerically, before other text.
func sortMixed(vs []string) {
	slices.SortFunc(vs, func(a, b string) int {
		var x, y int
		_, ea := fmt.Sscanf(a, "%d", &x)
		_, eb := fmt.Sscanf(b, "%d", &y)
		switch {
		case ea == nil && eb == nil && fmt.Sprint(x) == a && fmt.Sprint(y) == b:
			return x - y
		case ea == nil && fmt.Sprint(x) == a:
			return -1
		case eb == nil && fmt.Sprint(y) == b:
			return 1
		}
		return strings.Compare(a, b)
	})
}

func limitText(s *int64) string {
	if s == nil {
		return "unlimited"
	}
	return fmt.Sprint(*s)
}

func median(v []float64) *float64 {
	if len(v) == 0 {
		return nil
	}
	w := slices.Clone(v)
	sort.Float64s(w)
	m := w[len(w)/2]
	if len(w)%2 == 0 {
		m = (w[len(w)/2-1] + w[len(w)/2]) / 2
	}
	return &m
}
