// Command clusterperf predicts how parallel applications perform on clusters: queueing
// networks, SPMD speedup models, timed Petri nets, bottleneck models and mpiP-based models.
// All logic lives in the library packages; this command parses flags, reads files, makes
// one library call per command and renders its one result value (see ARCHITECTURE.md).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/cmdline"
	"github.com/clusterperf/clusterperf/report"
)

func main() {
	os.Exit(run(interruptible(context.Background(), os.Stderr), os.Args[1:], os.Stdout, os.Stderr))
}

// interruptible is parent cancelled on the first SIGINT (Ctrl-C) or SIGTERM (what scancel,
// a Slurm time limit and kill send): long runs read cmd.Context() and stop, printing what
// they finished, marked partial, and exit 130 for either signal (README: exit codes).
// After the first signal the default handling is restored, so a second one kills the
// process at once; stderr says so (a step that does not watch the context finishes first).
func interruptible(parent context.Context, stderr io.Writer) context.Context {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
		if parent.Err() == nil {
			if cmdline.IsTerminal(stderr) {
				fmt.Fprint(stderr, "\r\033[K") // over the progress line
			}
			fmt.Fprintln(stderr, "clusterperf: interrupted — stopping after the current step (Ctrl-C again to kill)")
		}
	}()
	return ctx
}

// run executes the command line and returns the exit code of fault.ExitCode: 0 success,
// 1 runtime failure, 2 bad input or usage, 3 a model finding (saturation, deadlock, no
// convergence, no steady state), 130 interrupted (Ctrl-C or SIGTERM; a partial result may
// have been printed).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &countingWriter{w: stdout}
	root := newRootCmd(out, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return fault.ExitOK
	}
	fmt.Fprintln(stderr, "clusterperf:", err)
	code := fault.ExitCode(err)
	// A finding under --format json still gives one JSON document (README: every run leads
	// with answer.summary), unless the command printed its own.
	if f := cmd.Flags().Lookup("format"); code == fault.ExitFinding && out.n == 0 && f != nil && f.Value.String() == "json" {
		_ = report.WriteJSON(stdout, answer.Finding(err))
	}
	return code
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}
