package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/shard"
	"github.com/clusterperf/clusterperf/slurm"
)

type mergeOptions struct {
	status   bool
	resubmit bool
	plot     string
	out      outOptions
}

// studyMergers is the explicit map from a sharded command to the function that turns its
// merged items into the command's one-machine result (rendered by that command's renderer).
// Every command that takes --shard has one; a plan naming any other command is refused.
// Each is checked first against the merging binary's version and the study's input files
// (studyapp.Checked).
func studyMergers() shard.Mergers { return studyMergersTo(io.Discard) }

// studyMergersTo is studyMergers with the merges' accounts (e.g. of approximate points)
// written to stderr, as the one-machine runs write them.
func studyMergersTo(stderr io.Writer) shard.Mergers {
	ms := shard.Mergers{"simulate": mergeSimulate, "tpn": mergeTpn, "speedup": mergeSpeedup, "solve": mergeSolveTo(stderr), "fit": mergeFit}
	for name, f := range ms {
		ms[name] = studyapp.Checked(version(), f)
	}
	return ms
}

func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	var o mergeOptions
	cmd := &cobra.Command{
		Use:   "merge DIR",
		Short: "Combine the shards of a study run as a Slurm job array (or show their progress)",
		Long: `A study split with --shard i/n --out DIR (one Slurm array task per shard) leaves one file
DIR/shard-i-of-n.json per finished shard. "merge DIR" checks that every shard is there, that
they belong to one study (same command, arguments, seed, shard count and version) and
combines their items in index order: the result of the one-machine run with the same seed.

--status lists every shard as done, active (queued or running in Slurm), failed (the shard
reported an error, or Slurm ended its task without a result file) or missing; Slurm states
come from sacct where accounting is enabled, otherwise from scontrol. --resubmit submits a
job array of only the failed and missing shards, with the batch script options of the first
submission.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(cmd, o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.status, "status", false, "show which shards are done, active, failed or missing")
	f.BoolVar(&o.resubmit, "resubmit", false, "submit the failed and missing shards again (sbatch)")
	f.StringVar(&o.plot, "plot", "", "write the merged study's plot to FILE.svg or FILE.png (a sweep's, as solve --plot draws it)")
	addOutFlags(cmd, &o.out)
	return cmd
}

func runMerge(cmd *cobra.Command, o mergeOptions, dir string, stdout, stderr io.Writer) error {
	var fc flagCheck
	o.out.check(&fc)
	fc.output("plot", o.plot, ".svg", ".png")
	if (o.status || o.resubmit) && o.out.format == "csv" {
		fc.add("--format csv: --status and --resubmit print a table or JSON")
	}
	if (o.status || o.resubmit) && o.plot != "" {
		fc.add("--plot draws a merged result: not with --status or --resubmit")
	}
	if err := fc.err(); err != nil {
		return err
	}
	ctx := cmd.Context()
	c := slurm.Client{}
	if o.resubmit {
		sub, ok, err := c.Resubmit(ctx, dir)
		if err != nil {
			return classify(err)
		}
		if !ok {
			fmt.Fprintln(stdout, "nothing to resubmit: every shard is done or still queued/running")
			return nil
		}
		fmt.Fprintf(stdout, "resubmitted shards %s as job %s (script %s)\n", sub.Array, sub.JobID, sub.Script)
		return nil
	}
	if o.status {
		return mergeStatus(ctx, c, dir, o, stdout)
	}
	// a plan naming a command without a merge (no command writes one) is refused, exit 2
	v, _, err := studyMergersTo(stderr).Merge(dir)
	if err != nil {
		return classify(err)
	}
	return renderMerged(stdout, v, o)
}

// renderMerged prints a merged study's result as the one-machine run prints it: its
// format-dependent layout set first (a sweep's compact table), then --plot.
func renderMerged(stdout io.Writer, v any, o mergeOptions) error {
	pl, canPlot := v.(interface{ Plot(path string) error })
	if o.plot != "" && !canPlot {
		return badInputf("--plot %s: this study's result has no plot (sweeps do)", o.plot)
	}
	if f, ok := v.(interface{ ForFormat(format string) }); ok {
		f.ForFormat(o.out.format)
	}
	doc, ok := v.(report.Document)
	if !ok {
		return report.WriteJSON(stdout, v)
	}
	if err := render(stdout, doc, o.out); err != nil {
		return err
	}
	if o.plot != "" {
		return pl.Plot(o.plot)
	}
	return nil
}

// mergeStatus prints the state of every shard of the study in dir.
func mergeStatus(ctx context.Context, c slurm.Client, dir string, o mergeOptions, stdout io.Writer) error {
	st, err := c.Status(ctx, dir)
	if err != nil {
		return classify(err)
	}
	if o.out.format == "json" {
		return report.WriteJSON(stdout, st)
	}
	t := &report.Table{Header: []string{"shard", "items", "state", "slurm", "reason"}}
	for _, sh := range st.Shards {
		r, _ := st.Plan.Spec.Range(sh.Index)
		task := ""
		if sh.Task != nil {
			task = sh.Task.JobID + "_" + strconv.Itoa(sh.Index) + " " + sh.Task.State
		}
		t.Add(sh.Index, fmt.Sprintf("%d-%d", r.Lo, r.Hi-1), sh.State, task, sh.Reason)
	}
	fmt.Fprintf(stdout, "study %s (%d items over %d shards, seed %d): done %d, active %d, failed %d, missing %d\n",
		st.Plan.Command, st.Plan.Items, st.Plan.N, st.Plan.Seed, len(st.Indices(slurm.StateDone)),
		len(st.Indices(slurm.StateActive)), len(st.Indices(slurm.StateFailed)), len(st.Indices(slurm.StateMissing)))
	if err := t.WriteText(stdout); err != nil {
		return err
	}
	for _, n := range st.Notes {
		fmt.Fprintln(stdout, "note:", n)
	}
	return nil
}
