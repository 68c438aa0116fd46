package main

import (
	"fmt"
	"github.com/clusterperf/clusterperf/app"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/history"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
)

type historyOptions struct {
	out                                          outOptions
	study                                        int
	user, name, command, partition, since, until string
	scaling, predict                             string
	pmax                                         int
	sizing                                       sizingFlags
}

const historyLong = `history [SACCT.txt]: your Slurm job accounting as scaling studies, fitted, backtested,
predicted and sized like fit DATA.csv.

Reads sacct directly when it is on PATH and no file is given (sacct --parsable2 --allocations
over the last year, or --since/--until), or a saved output of
  sacct --parsable2 --allocations --format=` + history.SacctFormat + `
Jobs are grouped into studies: the same program and arguments (an MPI launcher's -n removed),
batch options, partition and working directory, apart from the parallelism (--ntasks, --nodes,
…) and the scheduling (--time, --job-name, …); the studies table says what differs. The task
count p is the submit line's --ntasks (or --nodes × --ntasks-per-node, or srun/mpirun -n),
else NTasks, else the allocated CPUs.

COMPLETED jobs are run times. TIMEOUT jobs are censored: the run takes longer than its time
limit, a lower bound; the fit penalises a fitted time below a bound by its relative shortfall
and one above it not at all (Tobit-style one-sided penalty, minimised by alternating package
scaling's fit with the imputed values max(bound, fitted)). CANCELLED, FAILED, NODE_FAIL,
OUT_OF_MEMORY (and BOOT_FAIL, DEADLINE, PREEMPTED) are left out and counted; unfinished jobs
too. Queue wait (Start − Submit) is shown beside the run time; the recommendation's cost is in
node-hours at the densest packing (tasks per node) the study's jobs used.
--study N chooses the study to fit (default: the one with the most completed jobs).
CSV tables (--csv-table): studies (default), runs, summary, predictions, trade_off.
`

func newHistoryCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &historyOptions{}
	cmd := &cobra.Command{
		Use:   "history [SACCT.txt]",
		Short: "Turn Slurm job accounting (sacct) into scaling studies: fit with timeouts censored, backtest, predict, size in node-hours",
		Long:  historyLong,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runHistory(cmd, *o, args, stdout)
		},
	}
	f := cmd.Flags()
	addOutFlags(cmd, &o.out)
	f.IntVar(&o.study, "study", 0, "the study to fit, by its id in the studies table (default: the one with the most completed jobs)")
	f.StringVar(&o.user, "user", "", "only jobs of this user")
	f.StringVar(&o.name, "name", "", "only jobs of this job name")
	f.StringVar(&o.command, "command", "", "only jobs whose submit line (executable, arguments) contains this text")
	f.StringVar(&o.partition, "partition", "", "only jobs of this partition")
	f.StringVar(&o.since, "since", "", "only jobs submitted at or after this time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)")
	f.StringVar(&o.until, "until", "", "only jobs submitted before this time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)")
	f.StringVar(&o.scaling, "scaling", "", "strong (default: one input at several sizes) or weak (the program grows its problem with p; no sizing)")
	f.StringVar(&o.predict, "predict", "", "task counts to predict ("+rangeSyntax+", e.g. 128:1024:x2)")
	f.IntVar(&o.pmax, "pmax", 0, "recommend within p ≤ pmax (default: twice the largest task count run)")
	o.sizing.register(cmd)
	return cmd
}

// historyResult is the command's one result value.
type historyResult struct {
	report.Answered
	Method        string            `json:"method"`
	Exact         bool              `json:"exact"`
	ErrorEstimate *errorEstimate    `json:"error_estimate"`
	Source        string            `json:"source"`
	Jobs          int               `json:"jobs"`
	StepLines     int               `json:"step_lines"`
	Studies       []*history.Study  `json:"studies"`
	Chosen        int               `json:"chosen_study"`
	ChosenBy      string            `json:"chosen_by"`
	Analysis      *history.Analysis `json:"analysis"`
	Notes         []string          `json:"notes"`
}

func (o historyOptions) check() (history.Filter, []int, error) {
	var c flagCheck
	o.out.check(&c)
	o.sizing.check(&c)
	f := history.Filter{User: o.user, Name: o.name, Command: o.command, Partition: o.partition}
	f.Since = timeFlag(&c, "since", o.since)
	f.Until = timeFlag(&c, "until", o.until)
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		c.add("--since %s is not before --until %s", o.since, o.until)
	}
	if o.scaling != "" && o.scaling != "strong" && o.scaling != "weak" {
		c.add("--scaling %q: allowed strong or weak", o.scaling)
	}
	if o.study < 0 {
		c.add("--study %d: want a study id from the studies table (1, 2, …)", o.study)
	}
	if o.pmax < 0 || o.pmax > scaling.MaxPredictP {
		c.add("--pmax %d: allowed 0 (twice the largest task count) or 1 … 2^30", o.pmax)
	}
	var ps []int
	if o.predict != "" {
		ps = rangeFlag(&c, "predict", o.predict, ranges.Limits{Min: 1, Max: scaling.MaxPredictP, MaxCount: maxPredictions})
	}
	return f, ps, c.err()
}

func timeFlag(c *flagCheck, name, v string) time.Time {
	if v == "" {
		return time.Time{}
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	c.add("--%s %q: want YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS", name, v)
	return time.Time{}
}

func runHistory(cmd *cobra.Command, o historyOptions, args []string, stdout io.Writer) error {
	f, ps, err := o.check()
	if err != nil {
		return err
	}
	acct, src, err := readAccounting(cmd, f, args)
	if err != nil {
		return classify(err)
	}
	res := &historyResult{Source: src, Jobs: len(acct.Jobs), StepLines: acct.StepLines, Notes: []string{}}
	res.Studies = history.Group(acct.Jobs)
	if len(res.Studies) == 0 {
		return badInputf("%s: no jobs match the filters", src)
	}
	s, err := res.choose(o.study)
	if err != nil {
		return err
	}
	a, aerr := history.Analyze(cmd.Context(), s, history.Options{Scaling: o.scaling, Predict: ps, PMax: o.pmax, Sizing: o.sizing.options(nil), Source: src})
	if a == nil {
		return classify(aerr)
	}
	res.Analysis = a
	fr := a.Fit.Scaling
	res.Method = fmt.Sprintf("study %d: %s: %s; timed-out runs censored: %s", s.ID, fr.Chosen.Name, fr.Method, a.Fit.Method)
	res.ErrorEstimate = historyErrorEstimate(a)
	if err := render(stdout, res, o.out); err != nil {
		return err
	}
	return aerr
}

// readAccounting reads the saved file, or queries sacct when no file is given.
func readAccounting(cmd *cobra.Command, f history.Filter, args []string) (*history.Accounting, string, error) {
	if len(args) == 0 {
		if !history.SacctAvailable() {
			return nil, "", fmt.Errorf("%w: no SACCT.txt given and sacct is not on PATH: save the accounting on the cluster with sacct --parsable2 --allocations --format=%s -S YYYY-MM-DD > jobs.txt and give jobs.txt", fault.ErrInput, history.SacctFormat)
		}
		a, err := history.QuerySacct(cmd.Context(), f)
		return a, "sacct " + strings.Join(history.SacctArgs(f, time.Now()), " "), err
	}
	path := args[0]
	fh, name, err := input.OpenStream(path)
	if err != nil {
		return nil, path, err
	}
	defer fh.Close()
	path = name
	a, err := history.ReadSacct(path, fh)
	if err != nil {
		return nil, path, err
	}
	a.Jobs = history.Select(a.Jobs, f)
	return a, path, nil
}

// choose picks --study, or the study with the most completed jobs (the first on a tie).
func (r *historyResult) choose(id int) (*history.Study, error) {
	if id > 0 {
		if id > len(r.Studies) {
			return nil, badInputf("--study %d: the accounting has %d studies (see the studies table: run without --study)", id, len(r.Studies))
		}
		r.Chosen, r.ChosenBy = id, "--study"
		return r.Studies[id-1], nil
	}
	best := r.Studies[0]
	for _, s := range r.Studies[1:] {
		if s.Completed > best.Completed {
			best = s
		}
	}
	r.Chosen, r.ChosenBy = best.ID, "the most completed jobs (choose another with --study N)"
	return best, nil
}

// historyErrorEstimate: the backtest of the largest completed p and the in-sample residuals.
func historyErrorEstimate(a *history.Analysis) *errorEstimate {
	fr := a.Fit.Scaling
	e := &errorEstimate{CVRMSLogError: fr.Chosen.Score, RMSRelError: fr.Chosen.RMSRelError,
		Against: fmt.Sprintf("the %d completed runs and %d timed-out runs (imputed at max(bound, fitted)): rms_rel_error in-sample, cv_rms_log_error by cross-validation", a.Fit.Observed, a.Fit.CensoredRuns)}
	if !fr.Validated {
		e.CVRMSLogError = nil
	}
	if bt := a.Backtest; bt != nil {
		v := bt.RelError
		e.HeldOutRelError = &v
		e.Against += fmt.Sprintf(", held_out_rel_error at the largest completed p = %d predicted from the jobs below it", bt.HeldOutP)
	}
	return e
}

func (r *historyResult) NoteLines() []string {
	a := r.Analysis
	out := scalingNoteLines(a.Fit.Scaling.Notes, a.Sizing, a.Notes, a.Predictions)
	return append(out, r.Notes...)
}

// Tables: studies, runs, summary, predictions, trade_off.
func (r *historyResult) Tables() []*report.Table {
	st := &report.Table{Name: "studies", Title: fmt.Sprintf("%d jobs from %s in %d studies (same program and arguments apart from the parallelism); fitted: study %d", r.Jobs, r.Source, len(r.Studies), r.Chosen),
		Header: []string{"study", "jobs", "completed", "timed_out", "left_out", "unfinished", "tasks", "median_elapsed_s", "median_queue_wait_s", "program", "differs"}}
	for _, s := range r.Studies {
		var out []string
		for _, x := range s.Excluded {
			out = append(out, fmt.Sprintf("%d %s", x.Jobs, x.State))
		}
		st.Add(s.ID, len(s.Jobs), s.Completed, s.TimedOut, strings.Join(out, ", "), s.Unfinished, intList(s.Tasks), optNum(s.MedianElapsedS), optNum(s.MedianQueueWaitS),
			studyProgram(s), strings.Join(s.Differs, "; "))
	}
	ts := []*report.Table{st, r.runsTable(), r.summaryTable()}
	a := r.Analysis
	if len(a.Predictions) > 0 {
		pt := &report.Table{Name: "predictions", Title: "Predictions (times_largest_p: p ÷ the largest task count run)", Header: []string{"p", "time_s", "low95_s", "high95_s", "plausible_low_s", "plausible_high_s", "times_largest_p"}}
		for _, p := range a.Predictions {
			var lo, hi any = "none", "none"
			if p.Interval {
				lo, hi = *p.Low95S, *p.High95S
			}
			pt.Add(p.P, p.TimeS, lo, hi, p.PlausibleLowS, p.PlausibleHighS, p.Extrapolation)
		}
		ts = append(ts, pt)
	}
	if a.Sizing != nil {
		ts = append(ts, r.tradeOffTable())
	}
	return ts
}

func (r *historyResult) runsTable() *report.Table {
	a := r.Analysis
	t := &report.Table{Name: "runs", Title: fmt.Sprintf("Study %d as fitted: %s (censored: TIMEOUT, the run takes longer than the bound)", r.Chosen, a.Fit.Scaling.Chosen.Formula),
		Header: []string{"job_id", "p", "nodes", "elapsed_s", "queue_wait_s", "kind", "lower_bound_s", "fitted_s", "rel_error", "bound"}}
	for _, x := range a.Fit.Runs {
		kind, bound := "observed", ""
		if x.Censored {
			kind = "censored (TIMEOUT)"
			bound = "met: fitted ≥ bound"
			if !*x.BoundMet {
				bound = fmt.Sprintf("missed by %s", report.Percent(*x.BoundShortfall))
			}
		}
		var qw any = ""
		if x.QueueWaitS != nil {
			qw = *x.QueueWaitS
		}
		t.Add(x.JobID, x.P, x.Nodes, x.ElapsedS, qw, kind, optNum(x.LowerBoundS), x.FittedS, app.OptPercent(x.RelError), bound)
	}
	return t
}

func (r *historyResult) summaryTable() *report.Table {
	a := r.Analysis
	f, m := a.Fit.Scaling, a.Fit.Scaling.Chosen
	t := &report.Table{Name: "summary", Title: fmt.Sprintf("Study %d: %d completed and %d timed-out runs at %d distinct p (largest %d)", r.Chosen, a.Fit.Observed, a.Fit.CensoredRuns, f.DistinctP, f.MaxP), Header: []string{"what", "value"}, Left: true}
	t.Add("chosen model", m.Name+": T(p) = "+m.Formula)
	if m.SerialFraction != nil {
		t.Add("Amdahl serial fraction of T(1)", *m.SerialFraction)
	}
	t.Add("censoring", fmt.Sprintf("%d timed-out run(s) as lower bounds, %d bound(s) missed; %d alternation(s), converged %v", a.Fit.CensoredRuns, a.Fit.BoundsMissed, a.Fit.Iterations, a.Fit.Converged))
	if bt := a.Backtest; bt != nil {
		t.Add(fmt.Sprintf("backtest: p = %d from the jobs below it", bt.HeldOutP), fmt.Sprintf("%s (ideal scaling: %s, no scaling: %s)", report.Percent(bt.RelError), report.Percent(bt.IdealRelError), report.Percent(bt.ConstantRelError)))
	}
	if a.Sizing == nil {
		t.Add("recommended", "none (see the notes)")
		return t
	}
	c := a.Sizing.Recommended
	t.Add(fmt.Sprintf("recommended (%s) within p ≤ %d", a.Sizing.Rule, a.PMax), fmt.Sprintf("p = %d, time %s s, efficiency %.2f — %s", c.Config.P, report.Num(c.Config.TimeS), c.Config.Efficiency, c.Reason))
	if rc := a.Recommended; rc != nil {
		t.Add("its cost", fmt.Sprintf("%d node(s) at %d tasks per node for %s s: %s node-hours", rc.Nodes, rc.TasksPerNode, report.Num(rc.TimeS), report.Num(rc.NodeHours)))
	}
	return t
}

func (r *historyResult) tradeOffTable() *report.Table {
	a := r.Analysis
	t := tradeOffTable(a.Sizing, fmt.Sprintf("Trade-off (model times) within p ≤ %d", a.PMax))
	if len(a.TradeOff) != len(t.Rows) {
		return t
	}
	t2 := &report.Table{Name: t.Name, Title: t.Title + "; nodes and node_hours at the study's densest packing", Header: []string{"p", "nodes", "time_s", "speedup", "efficiency", "core_hours", "node_hours", "picked_by"}}
	for i, c := range a.Sizing.TradeOff {
		var by []string
		for _, x := range c.PickedBy {
			by = append(by, string(x))
		}
		t2.Add(c.P, a.TradeOff[i].Nodes, c.TimeS, c.Speedup, c.Efficiency, c.CoreHours, a.TradeOff[i].NodeHours, strings.Join(by, ","))
	}
	return t2
}

func studyProgram(s *history.Study) string {
	p := s.Program
	if len(s.Options) > 0 {
		p = strings.Join(s.Options, " ") + " " + p
	}
	if s.GroupedBy == "job_name" {
		p = "job name " + p
	}
	return p
}

func intList(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}
