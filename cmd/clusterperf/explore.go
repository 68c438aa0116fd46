package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/explore"
	"github.com/clusterperf/clusterperf/fault"
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
	// the model's own point first, under Ctrl-C and the explorer's budget (as solve would
	// answer: exit 2 bad input or too costly, exit 3 a finding, 130 interrupted); said on
	// stderr when it takes a while, so a costly model is never a silent wait
	lim := explore.DefaultLimits()
	var said sync.Mutex
	slow := time.AfterFunc(time.Second, func() {
		said.Lock()
		defer said.Unlock()
		fmt.Fprintf(stderr, "clusterperf explore: evaluating %s at its file's values before serving (at most %v; Ctrl-C stops)…\n", m.Name(), lim.EvalBudget)
	})
	err = explore.EvalDefaultsContext(ctx, m, lim.EvalBudget)
	slow.Stop()
	said.Lock() // a message being written is finished before anything else is
	said.Unlock()
	if err != nil {
		return libError(err)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return badInputf("--addr %q: %v", o.addr, err)
	}
	srv := explore.NewServer(m, cmdline.ModuleVersion()).HTTPServer(ln) // Host rule, timeouts, limits
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stdout, "clusterperf explore: %s (%s) at %s — Ctrl-C to stop\n", m.Name(), m.Kind(), url)
	if explore.Beyond(ln) {
		fmt.Fprintf(stderr, "warning: --addr %s listens beyond loopback: anyone who can reach this machine on port %d can read the model, its inputs and every explored point (see docs/security.md)\n", o.addr, ln.Addr().(*net.TCPAddr).Port)
	}
	if o.open {
		if err := exec.Command("xdg-open", url).Start(); err != nil {
			fmt.Fprintf(stderr, "warning: --open: %v; open %s yourself\n", err, url)
		}
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done(): // Ctrl-C or SIGTERM: stop answering, drop requests in flight, exit 130
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
		return fmt.Errorf("%w: explore stopped", fault.ErrInterrupted)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("%w", err)
	}
}
