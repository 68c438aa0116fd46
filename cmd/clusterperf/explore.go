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
	"runtime/debug"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/explore"
)

type exploreOptions struct {
	cluster string
	addr    string
	open    bool
}

func newExploreCmd(stdout, stderr io.Writer) *cobra.Command {
	var o exploreOptions
	cmd := &cobra.Command{
		Use:   "explore MODEL [--cluster CLUSTER.yaml]",
		Short: "Serve a live what-if page for a model (sliders, tables, charts) on localhost",
		Long: `Serve a what-if page for a model file on a local address: a queueing network
(stations:), an SPMD model (architecture:), a pipeline model (sort:/stages:), or a Petri-net
program with --cluster. Moving a slider re-evaluates the model with the library; the page
shows the tables, the bottleneck, the best configuration and charts, and can save the point
as a model file or export it as a self-contained HTML report. Everything is served from the
binary: no network access is needed. Stop with Ctrl-C.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExplore(cmd.Context(), o, args[0], stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.cluster, "cluster", "", "cluster file of a Petri-net program")
	f.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (port 0: any free port)")
	f.BoolVar(&o.open, "open", false, "open the page in the default browser (xdg-open)")
	return cmd
}

func buildVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "devel"
}

func runExplore(ctx context.Context, o exploreOptions, path string, stdout, stderr io.Writer) error {
	data, err := readInput(path)
	if err != nil {
		return err
	}
	var cdata []byte
	if o.cluster != "" {
		if cdata, err = readInput(o.cluster); err != nil {
			return err
		}
	}
	m, err := explore.Load(path, data, o.cluster, cdata)
	if err != nil {
		return badInput(err)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return badInputf("--addr %q: %v", o.addr, err)
	}
	srv := &http.Server{Handler: explore.NewServer(m, buildVersion()), ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stdout, "clusterperf explore: %s (%s) at %s — Ctrl-C to stop\n", m.Name(), m.Kind(), url)
	if o.open {
		if err := exec.Command("xdg-open", url).Start(); err != nil {
			fmt.Fprintf(stderr, "warning: --open: %v; open %s yourself\n", err, url)
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return srv.Shutdown(sctx)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("%w", err)
	}
}
