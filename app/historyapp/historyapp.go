// Package historyapp answers "what do my past Slurm jobs say about how this program scales,
// and how many tasks should the next run use?": the accounting (a saved sacct --parsable2
// output or sacct itself) grouped into studies (package history), one study fitted with its
// timed-out runs censored, backtested, predicted and sized in node-hours. The history
// command is flags → Request → Run → render.
package historyapp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/history"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/scaling"
)

// Request is one history question: where the accounting comes from (File, or sacct with
// Filter when File is ""), the filter (applied to a saved file too), the study to fit
// (0: the one with the most completed jobs) and the analysis options (Options.Source is set
// by Run).
type Request struct {
	File    string
	Filter  history.Filter
	Study   int
	Options history.Options
}

// Result is the history question's one result value.
type Result struct {
	report.Answered
	Method        string             `json:"method"`
	Exact         bool               `json:"exact"`
	ErrorEstimate *app.ErrorEstimate `json:"error_estimate"`
	Source        string             `json:"source"`
	Jobs          int                `json:"jobs"`
	StepLines     int                `json:"step_lines"`
	Studies       []*history.Study   `json:"studies"`
	Chosen        int                `json:"chosen_study"`
	ChosenBy      string             `json:"chosen_by"`
	Analysis      *history.Analysis  `json:"analysis"`
	Notes         []string           `json:"notes"`
}

// Run reads the accounting, groups it into studies, chooses one and analyses it
// (history.Analyze). When the analysis stops part way (Ctrl-C) the Result comes with the
// error; any other error comes alone, classified.
func Run(ctx context.Context, q Request) (*Result, error) {
	acct, src, err := readAccounting(ctx, q.File, q.Filter)
	if err != nil {
		return nil, app.Classify(err)
	}
	res := &Result{Source: src, Jobs: len(acct.Jobs), StepLines: acct.StepLines, Notes: []string{}}
	res.Studies = history.Group(acct.Jobs)
	if len(res.Studies) == 0 {
		return nil, app.Inputf("%s: no jobs match the filters", src)
	}
	s, err := res.choose(q.Study)
	if err != nil {
		return nil, err
	}
	opt := q.Options
	opt.Source = src
	a, aerr := history.Analyze(ctx, s, opt)
	if a == nil {
		return nil, app.Classify(aerr)
	}
	res.Analysis = a
	fr := a.Fit.Scaling
	res.Method = fmt.Sprintf("study %d: %s: %s; timed-out runs censored: %s", s.ID, fr.Chosen.Name, fr.Method, a.Fit.Method)
	res.ErrorEstimate = errorEstimateOf(a)
	return res, aerr
}

// readAccounting reads the saved file, or queries sacct when no file is given.
func readAccounting(ctx context.Context, path string, f history.Filter) (*history.Accounting, string, error) {
	if path == "" {
		if !history.SacctAvailable() {
			return nil, "", fmt.Errorf("%w: no SACCT.txt given and sacct is not on PATH: save the accounting on the cluster with sacct --parsable2 --allocations --format=%s -S YYYY-MM-DD > jobs.txt and give jobs.txt", fault.ErrInput, history.SacctFormat)
		}
		a, err := history.QuerySacct(ctx, f)
		return a, "sacct " + strings.Join(history.SacctArgs(f, time.Now()), " "), err
	}
	fh, name, err := input.OpenStream(path)
	if err != nil {
		return nil, path, err
	}
	defer fh.Close()
	a, err := history.ReadSacct(name, fh)
	if err != nil {
		return nil, name, err
	}
	a.Jobs = history.Select(a.Jobs, f)
	return a, name, nil
}

// choose picks --study, or the study with the most completed jobs (the first on a tie).
func (r *Result) choose(id int) (*history.Study, error) {
	if id > 0 {
		if id > len(r.Studies) {
			return nil, app.Inputf("--study %d: the accounting has %d studies (see the studies table: run without --study)", id, len(r.Studies))
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

// SetAnswer computes the answer block (package answer) from the chosen study's analysis.
func (r *Result) SetAnswer() {
	if r.Analysis == nil {
		r.Answer = answer.History(r.Chosen, "", nil, nil, nil, "no study fitted", strings.Join(r.Notes, " "))
		return
	}
	prog := ""
	for _, s := range r.Studies {
		if s.ID == r.Chosen {
			prog = s.Program
		}
	}
	var cost *answer.NodeCost
	if rc := r.Analysis.Recommended; rc != nil {
		cost = &answer.NodeCost{Nodes: rc.Nodes, TasksPerNode: rc.TasksPerNode, NodeHours: rc.NodeHours}
		if f := r.Analysis.Fit; f != nil && f.Scaling != nil {
			cost.LargestRunP = f.Scaling.MaxP
		}
	}
	r.Answer = answer.History(r.Chosen, prog, r.Analysis.Predictions, r.Analysis.Sizing, cost, "", "")
}

// Figure: the fitted study's runs (censored ones at their lower bound), its model, interval
// and plausible spread (app.ScalingFigure).
func (r *Result) Figure() ([]report.Panel, error) {
	a := r.Analysis
	if a == nil || a.Fit == nil || a.Fit.Scaling == nil {
		return nil, nil
	}
	var pts []scaling.Point
	for _, run := range a.Fit.Runs {
		t := run.ElapsedS
		if run.Censored && run.LowerBoundS != nil {
			t = *run.LowerBoundS
		}
		if t > 0 {
			pts = append(pts, scaling.Point{P: run.P, TimeS: t})
		}
	}
	return app.ScalingFigure(fmt.Sprintf("study %d", a.Study), pts, a.Fit.Scaling, a.Predictions, a.Sizing, nil)
}

// errorEstimateOf: the backtest of the largest completed p and the in-sample residuals.
func errorEstimateOf(a *history.Analysis) *app.ErrorEstimate {
	fr := a.Fit.Scaling
	e := &app.ErrorEstimate{CVRMSLogError: fr.Chosen.Score, RMSRelError: fr.Chosen.RMSRelError,
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

func (r *Result) NoteLines() []string {
	a := r.Analysis
	out := app.ScalingNoteLines(a.Fit.Scaling.Notes, a.Sizing, a.Notes, a.Predictions)
	return append(out, r.Notes...)
}

// Tables: studies, runs, summary, predictions, trade_off.
func (r *Result) Tables() []*report.Table {
	st := &report.Table{Name: "studies", Title: fmt.Sprintf("%d jobs from %s in %d studies (same program and arguments apart from the parallelism); fitted: study %d", r.Jobs, r.Source, len(r.Studies), r.Chosen),
		Header: []string{"study", "jobs", "completed", "timed_out", "left_out", "unfinished", "tasks", "median_elapsed_s", "median_queue_wait_s", "program", "differs"}}
	for _, s := range r.Studies {
		var out []string
		for _, x := range s.Excluded {
			out = append(out, fmt.Sprintf("%d %s", x.Jobs, x.State))
		}
		st.Add(s.ID, len(s.Jobs), s.Completed, s.TimedOut, strings.Join(out, ", "), s.Unfinished, intList(s.Tasks), app.OptNum(s.MedianElapsedS), app.OptNum(s.MedianQueueWaitS),
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

func (r *Result) runsTable() *report.Table {
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
		t.Add(x.JobID, x.P, x.Nodes, x.ElapsedS, qw, kind, app.OptNum(x.LowerBoundS), x.FittedS, app.OptPercent(x.RelError), bound)
	}
	return t
}

func (r *Result) summaryTable() *report.Table {
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

func (r *Result) tradeOffTable() *report.Table {
	a := r.Analysis
	t := app.TradeOffTable(a.Sizing, fmt.Sprintf("Trade-off (%s) within p ≤ %d", app.SizingTimes(a.Fit.Scaling), a.PMax))
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
