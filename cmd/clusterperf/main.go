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

	"github.com/clusterperf/clusterperf/fault"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit code of fault.ExitCode: 0 success,
// 1 runtime failure, 2 bad input or usage, 3 a model finding (saturation, deadlock, no
// convergence, no steady state).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return fault.ExitOK
	}
	fmt.Fprintln(stderr, "clusterperf:", err)
	return fault.ExitCode(err)
}
