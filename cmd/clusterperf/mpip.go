package main

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/mpipapp"
	"github.com/clusterperf/clusterperf/mpip"
	"github.com/clusterperf/clusterperf/report"
)

type mpipOptions struct {
	mpipapp.Flags
	out outOptions
}

func newMpipCmd(stdout, stderr io.Writer) *cobra.Command {
	var o mpipOptions
	cmd := &cobra.Command{
		Use:   "mpip REPORT.mpiP|VALUES.csv...",
		Short: "Queueing models from mpiP profiles, validated against the measurement (Elliott (004)), calibrated, backtested and explained",
		Long:  mpipLong,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMpip(o, args, stdout)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Latency, "latency", "", "network latency, e.g. 5us")
	f.StringVar(&o.Bandwidth, "bandwidth", "", "network bandwidth, e.g. 200MB/s")
	f.StringVar(&o.Network, "network", "", "CSV table of latency and bandwidth by p or by message size")
	f.StringArrayVar(&o.OSU, "osu", nil, "OSU micro-benchmark output (osu_latency, osu_bw, osu_bibw); repeat for latency + bandwidth")
	f.StringVar(&o.IMB, "imb", "", "Intel MPI Benchmarks PingPong output")
	f.BoolVar(&o.Piecewise, "piecewise", false, "fit --osu/--imb times in two message-size ranges (eager/rendezvous), break chosen from the data")
	f.StringVar(&o.Inputs, "inputs", "", "CSV of Elliott's (004) collected values (label,P,App_Time,MPI_Time,MPI_Wait,M,L,BW,Lat), one run per row")
	f.BoolVar(&o.AllowMixed, "allow-mixed", false, "accept reports of different programs (noted in the output)")
	f.StringVar(&o.WaitOps, "wait-ops", "", "comma-separated MPI operations counted as wait time")
	f.BoolVar(&o.Collectives, "collectives", false, "count collective sends as messages too")
	f.BoolVar(&o.Calibrate, "calibrate", false, "fit the network (latency, and bandwidth when the sizes allow) to the runs' wall times and solve each run with it")
	f.StringVar(&o.Predict, "predict", "", "P to predict ("+app.RangeSyntax+"; with --calibrate: 2+ runs; else 3+); with 3+ runs also the backtest")
	f.Float64Var(&o.Explain, "explain-threshold", mpip.DefaultExplainThreshold, "explain every view whose |rel_error| exceeds this fraction (0: never)")
	f.IntVar(&o.Samples, "samples", 2000, "Monte Carlo samples for prediction intervals")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed of the prediction intervals")
	registerSizing(cmd, &o.Sizing)
	addOutFlags(cmd, &o.out)
	addAllTablesFlag(cmd, &o.out)
	f.StringVar(&o.Plot, "plot", "", "write measured vs modelled wall time and components to FILE.svg|png")
	return cmd
}

var mpipLong = `Read mpiP text reports (3.x, verbose or concise, single-collector or collective) and build
the queueing model of Elliott (004) for each: N = P messages, a switch delay D0 = L/BW + Lat, P identical
CPU queues with D_k = (MPI_Time − MPI_Wait)/(P·M), a computation delay (App_Time − MPI_Time)/M.
Prints the extracted figures, the model's inputs and outputs, Elliott's (004) validation views
(application time, MPI time, MPI wait time, throughput: observed, modelled, rel_error) and the
component breakdown. Reports given together must come from one program (same executable in
"@ Command"); --allow-mixed compares different programs anyway, with a note.

Input: mpiP reports, or Elliott's (004) collected values as CSV (files ending .csv, or --inputs FILE;
columns label,P,App_Time,MPI_Time,MPI_Wait,M,L,BW,Lat, units as Elliott's (004) or with suffixes): each
row is solved with its own BW and Lat.

Network (for reports): --latency and --bandwidth (5us, 1.2ms; 200MB/s, 10Gb/s); --network F.csv
(columns p or size, latency, bandwidth, interpolated linearly as Elliott (004) does); --osu FILE
(repeatable: osu_latency for the latency, osu_bw for the bandwidth) or --imb FILE (PingPong),
fitted as t(n) = t_s + n/B (--piecewise: two size ranges); or --calibrate, which fits the
network to the runs' observed wall times (kind "calibration": an explanation of these runs,
with interval_kind saying whether its interval is a Student-t 95 % interval, a range of the
runs, or none). Without any network, the profile of each report is printed instead (shares of
MPI, wait and collective time, message sizes, imbalance, top operations).

--predict P,...: with --calibrate, the calibrated forecast (wall time extrapolated directly and
through Elliott's (004) model, each with the spread of its plausible scaling models); otherwise the
power-law prediction with a Monte Carlo interval when five or more runs allow one (else
none, and a note). With three or more runs at different P the backtest predicts each measured
P from the others (rel_error). --predict also sizes the run: the measured and predicted wall
times under --rule (balanced, fastest, knee, efficiency, cheapest, core-hours), with
--efficiency, --knee-gain, --within; Recommended and the trade-off table.

Views whose |rel_error| exceeds --explain-threshold (default 0.15) are explained: which of
Elliott's (004) assumptions the profile contradicts (imbalance, polling, collectives, message sizes,
compute scaling) and what to do next.

MPI wait time is the time in --wait-ops (default: ` + strings.Join(mpip.DefaultWaitOps(), ",") + `);
polling (Test*, Iprobe) counts because it can dominate. A blocking collective named in
--wait-ops (` + strings.Join(mpip.BlockingCollectives(), ",") + `) counts only its idle part, the time above each
call site's fastest call, and the rest stays active MPI time (004's FT case: ranks wait
idle inside MPI_Alltoall without MPI_Wait; mpi_summary idle_split). Messages M are point-to-point sends
(` + strings.Join(mpip.P2PSendOps(), ",") + `); --collectives adds collective sends.
CSV tables (--csv-table): across_p (default), views, trends, profiles, calibration, forecasts,
forecast_kinds (each forecast kind's backtest error and the one used for sizing, with why),
backtest, explanations, trade_off, analysis (Elliott's (004) appendix B analysis views: aggregate,
per CPU, per sent message and per CPU per sent message).`

func runMpip(o mpipOptions, files []string, stdout io.Writer) error {
	var c flagCheck
	o.out.check(&c)
	q, err := o.Request(&c.FlagCheck, readInput, files)
	if err != nil {
		return err
	}
	out, err := mpipapp.Run(context.Background(), q)
	if err != nil {
		return err
	}
	var panels []report.Panel
	plot := o.out.plotFile(o.Plot)
	if plot != "" {
		if panels, err = out.PlotPanels(); err != nil {
			return err
		}
	}
	if err := render(stdout, out, o.out); err != nil {
		return err
	}
	if plot != "" {
		return report.SaveFigure(plot, panels...)
	}
	return nil
}
