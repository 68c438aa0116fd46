package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/explore"
	"github.com/clusterperf/clusterperf/internal/cmdline"
)

type exploreOptions struct {
	explore.Files
	addr string
	open bool
}

func newExploreCmd(stdout, stderr io.Writer) *cobra.Command {
	var o exploreOptions
	cmd := &cobra.Command{
		Use:   "explore MODEL [--cluster CLUSTER.yaml] | explore REPORT.mpiP... [--latency T --bandwidth B]",
		Short: "Serve a live what-if page for a model (sliders, tables, charts) on localhost",
		Long: `Serve a what-if page for a model file on a local address: a queueing network
(stations:), an SPMD model (architecture:), a pipeline model (sort:/stages:), a Petri-net
program with --cluster, a CSV of measured run times (p,time: fit DATA.csv's question, with
sliders for the p to predict and the sizing's efficiency), or mpiP reports of one program (or a CSV of Elliott's (004) collected
values) as Elliott's (004) queueing model, with sliders for P, latency and bandwidth: the
network is --latency/--bandwidth, or fitted to the runs' wall times (a bandwidth of 10 Gb/s
assumed when their message sizes cannot separate it; the page says so). Moving a slider re-evaluates the model with the library; the page
shows the tables, the bottleneck, the best configuration and charts, and can save the point
as a model file or export it as a self-contained HTML report. Everything is served from the
binary: no network access is needed. Stop with Ctrl-C.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplore(cmd.Context(), o, args, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Cluster, "cluster", "", "cluster file of a Petri-net program")
	f.StringVar(&o.Latency, "latency", "", "network latency of mpiP reports, e.g. 5us (default: fitted to the runs)")
	f.StringVar(&o.Bandwidth, "bandwidth", "", "network bandwidth of mpiP reports, e.g. 10Gb/s (default: fitted, or 10 Gb/s assumed)")
	f.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	f.BoolVar(&o.open, "open", false, "open the page in the default browser (xdg-open)")
	return cmd
}

func runExplore(ctx context.Context, o exploreOptions, paths []string, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	o.Paths = paths
	m, err := explore.LoadFiles(readInput, o.Files)
	if err != nil {
		return err
	}
	return explore.Serve(ctx, m, explore.ServeOptions{Addr: o.addr, Open: o.open, Version: cmdline.ModuleVersion(), Stdout: stdout, Stderr: stderr})
}
