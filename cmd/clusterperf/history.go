package main

import (
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/historyapp"
	"github.com/clusterperf/clusterperf/history"
	"github.com/clusterperf/clusterperf/internal/ranges"
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
	f.StringVar(&o.predict, "predict", "", "task counts to predict ("+app.RangeSyntax+", e.g. 128:1024:x2)")
	f.IntVar(&o.pmax, "pmax", 0, "recommend within p ≤ pmax (default: twice the largest task count run)")
	registerSizing(cmd, &o.sizing)
	return cmd
}

func (o historyOptions) check() (history.Filter, []int, error) {
	var c flagCheck
	o.out.check(&c)
	o.sizing.Check(&c.FlagCheck)
	f := history.Filter{User: o.user, Name: o.name, Command: o.command, Partition: o.partition}
	f.Since = timeFlag(&c, "since", o.since)
	f.Until = timeFlag(&c, "until", o.until)
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		c.Add("--since %s is not before --until %s", o.since, o.until)
	}
	if o.scaling != "" && o.scaling != "strong" && o.scaling != "weak" {
		c.Add("--scaling %q: allowed strong or weak", o.scaling)
	}
	if o.study < 0 {
		c.Add("--study %d: want a study id from the studies table (1, 2, …)", o.study)
	}
	if o.pmax < 0 || o.pmax > scaling.MaxPredictP {
		c.Add("--pmax %d: allowed 0 (twice the largest task count) or 1 … 2^30", o.pmax)
	}
	var ps []int
	if o.predict != "" {
		ps = c.Range("predict", o.predict, ranges.Limits{Min: 1, Max: scaling.MaxPredictP, MaxCount: app.MaxPredictions})
	}
	return f, ps, c.Err()
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
	c.Add("--%s %q: want YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS", name, v)
	return time.Time{}
}

func runHistory(cmd *cobra.Command, o historyOptions, args []string, stdout io.Writer) error {
	f, ps, err := o.check()
	if err != nil {
		return err
	}
	q := historyapp.Request{Filter: f, Study: o.study, Options: history.Options{Scaling: o.scaling, Predict: ps, PMax: o.pmax, Sizing: o.sizing.Options(nil)}}
	if len(args) == 1 {
		q.File = args[0]
	}
	res, err := historyapp.Run(cmd.Context(), q)
	if res == nil {
		return err
	}
	if rerr := render(stdout, res, o.out); rerr != nil {
		return rerr
	}
	return err
}
