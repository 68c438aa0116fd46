// Command clusterperf predicts how parallel applications perform on clusters: queueing
// networks, SPMD speedup models, timed Petri nets, bottleneck models and mpiP-based models.
// All logic lives in the library packages; this command parses flags, reads files and
// prints.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes: 0 ok, 1 runtime failure (non-convergence, deadlock), 2 bad input or usage.
const (
	exitOK      = 0
	exitFailure = 1
	exitInput   = 2
)

// inputError marks errors caused by the user's input (files, flags): exit code 2.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

func badInput(err error) error {
	if err == nil {
		return nil
	}
	return inputError{err}
}

func badInputf(format string, args ...any) error { return inputError{fmt.Errorf(format, args...)} }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	fmt.Fprintln(stderr, "clusterperf:", err)
	var ie inputError
	if errors.As(err, &ie) || isUsageError(err) {
		return exitInput
	}
	return exitFailure
}
