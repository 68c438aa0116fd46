package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app/pipelineapp"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/report"
)

type pipelineOptions struct {
	pipelineapp.Flags
	out outOptions
}

func newPipelineCmd(stdout, stderr io.Writer) *cobra.Command {
	var o pipelineOptions
	cmd := &cobra.Command{
		Use:   "pipeline MODEL.yaml",
		Short: "Bottleneck model of overlapped read/distribute/process/gather/write after Juhász & Charaf (003), and the optimal cluster size",
		Long: `Predict the run time of a job fed in and collected at one node, after Juhász & Charaf (003): every stage runs at
the speed of its slowest resource. Prints the time at every cluster size p, each stage's
bottleneck, the optimal cluster size (least time; the knee; the closed form of 003 eq. (19)
where it applies) and flags sizes whose data overflow node memory. The knee is package
sizing's, the same in every command: the first p from which no larger p saves --knee-gain
(default 10 %) of the time per doubling; the first p within 1 % of the least time is
printed too, as "within 1 % of least".

--measured F.csv (columns p,time; times in seconds or with a unit, 750ms) puts measured times beside the predictions with relative
errors rel_error = (model − measured)/measured (the opposite sign of 003's
tables, which divide by the prediction); --fit c_m,b_gather fits those constants of a
sort model to the measurements (runs that overflow memory are left out).

--p takes the one range syntax: lists (1,2,4,8), FROM:TO, FROM:TO:STEP, FROM:TO:xK (powers of
K, e.g. 1:64:x2). The summary prints the least time, the knee, 003 eq. (19)'s closed form,
eq. (21)'s storage bound (no p reads and writes the data faster than storage: 2N/b_io for
the sort) and the recommendation of package sizing's rule (--rule: balanced, the default, is
the fastest p at or below the knee with efficiency ≥ --efficiency; fastest, knee,
efficiency, cheapest within --within of the fastest, core_hours), with the trade-off table
around it. Speedup and efficiency are against T_1, the model's time at p = 1, whatever --p
starts at (package sizing's one definition S = T_1/T(p), E = S/p; speedup_reference in JSON).

CSV tables (--csv-table): points (default), optimum, trade_off.

` + pipeline.FileFormat,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPipeline(o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.P, "p", "1:32", "cluster sizes: 1,2,4,8 | FROM:TO | FROM:TO:STEP | FROM:TO:xK")
	f.StringVar(&o.Measured, "measured", "", "CSV of measured times (columns p,time)")
	addOutFlags(cmd, &o.out)
	f.StringVar(&o.Plot, "plot", "", "write time against p to FILE.svg or FILE.png")
	f.StringVar(&o.Fit, "fit", "", "comma-separated sort constants to fit to --measured (c_q, c_m, b_io, l_n, b_n, b_gather)")
	registerSizing(cmd, &o.Sizing)
	return cmd
}

func runPipeline(o pipelineOptions, path string, stdout, stderr io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	q, err := o.Request(&c.FlagCheck, readInput, path)
	if err != nil {
		return err
	}
	out, err := pipelineapp.Run(context.Background(), q)
	if err != nil {
		return err
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if plot := o.out.plotFile(o.Plot); plot != "" {
		panels, _ := out.Figure()
		return report.SaveFigure(plot, panels...)
	}
	return nil
}
