package main

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/historyapp"
	"github.com/clusterperf/clusterperf/history"
)

type historyOptions struct {
	historyapp.Flags
	out outOptions
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
	f.IntVar(&o.Study, "study", 0, "the study to fit, by its id in the studies table (default: the one with the most completed jobs)")
	f.StringVar(&o.User, "user", "", "only jobs of this user")
	f.StringVar(&o.Name, "name", "", "only jobs of this job name")
	f.StringVar(&o.Command, "command", "", "only jobs whose submit line (executable, arguments) contains this text")
	f.StringVar(&o.Partition, "partition", "", "only jobs of this partition")
	f.StringVar(&o.Since, "since", "", "only jobs submitted at or after this time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)")
	f.StringVar(&o.Until, "until", "", "only jobs submitted before this time (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)")
	f.StringVar(&o.Scaling, "scaling", "", "strong (default: one input at several sizes) or weak (the program grows its problem with p; no sizing)")
	f.StringVar(&o.Predict, "predict", "", "task counts to predict ("+app.RangeSyntax+", e.g. 128:1024:x2)")
	f.IntVar(&o.PMax, "pmax", 0, "recommend within p ≤ pmax (default: twice the largest task count run)")
	registerSizing(cmd, &o.Sizing)
	return cmd
}

func runHistory(cmd *cobra.Command, o historyOptions, args []string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	q, err := o.Request(&c.FlagCheck, strings.Join(args, ""))
	if err != nil {
		return err
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
