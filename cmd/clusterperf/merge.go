package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/studyapp"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/shard"
)

type mergeOptions struct {
	status   bool
	resubmit bool
	plot     string
	out      outOptions
}

// studyMergers is the explicit map from a sharded command to the function that turns its
// merged items into the command's one-machine result (rendered by that command's renderer),
// the merges' accounts (e.g. of approximate points) written to stderr, as the one-machine
// runs write them. Every command that takes --shard has one; a plan naming any other
// command is refused. studyapp.Merge checks each first against the merging binary's version
// and the study's input files (studyapp.Checked).
func studyMergers(stderr io.Writer) shard.Mergers {
	return shard.Mergers{"simulate": mergeSimulate, "tpn": mergeTpn, "speedup": mergeSpeedup, "solve": mergeSolveTo(stderr), "fit": mergeFit}
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
	q := studyapp.MergeRequest{Dir: dir, Status: o.status, Resubmit: o.resubmit, Format: o.out.format, Plot: o.plot, Version: version()}
	var fc flagCheck
	o.out.check(&fc)
	fc.output("plot", o.plot, ".svg", ".png")
	for _, e := range q.Check() {
		fc.add("%s", e)
	}
	if err := fc.err(); err != nil {
		return err
	}
	m, err := studyapp.Merge(cmd.Context(), q, studyMergers(stderr))
	switch {
	case err != nil:
		return err
	case m.Status != nil && o.out.format == "json":
		return report.WriteJSON(stdout, m.Status)
	case m.Value == nil:
		return m.WriteText(stdout)
	}
	return renderMerged(stdout, m.Value, o)
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
