package main

import (
	"errors"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

var errUsage = errors.New("usage")

type usageErr struct{ msg string }

func (u usageErr) Error() string { return u.msg }

func isUsageError(err error) bool {
	var u usageErr
	if errors.As(err, &u) {
		return true
	}
	// cobra's own flag and argument errors
	msg := err.Error()
	for _, p := range []string{"unknown flag", "unknown shorthand", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "unknown command", "requires exactly"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "clusterperf",
		Short: "Predict parallel application performance on clusters before booking the machine",
		Long: `clusterperf predicts how a parallel application will perform on a cluster:
queueing-network solvers (exact and approximate MVA, open and mixed networks, bounds),
and the models built on them. Run "clusterperf demo" for a tour.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErr{err.Error() + "\n(see clusterperf help " + c.Name() + ")"}
	})
	root.AddCommand(newSolveCmd(stdout, stderr), newPipelineCmd(stdout, stderr), newSpeedupCmd(stdout, stderr), newMpipCmd(stdout, stderr), newFitCmd(stdout, stderr), newSimulateCmd(stdout, stderr), newTpnCmd(stdout, stderr), newDemoCmd(stdout, stderr))
	root.AddCommand(newQueueCmd(stdout, stderr))
	root.AddCommand(newExploreCmd(stdout, stderr))
	root.AddCommand(newExtrapolateCmd(stdout, stderr))
	root.AddCommand(newMergeCmd(stdout, stderr))
	return root
}
