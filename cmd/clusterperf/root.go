package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/internal/cmdline"
)

// exitCodesHelp is the exit-code contract, shown by "clusterperf help" and in docs/output.md.
const exitCodesHelp = `Exit codes:
  0  success: the result was printed
  1  runtime failure (an output file could not be written, an internal error)
  2  bad input or usage: a file, a field or a flag outside what is allowed (the message
     names the file and line or the flag, and the allowed range)
  3  a model finding instead of a result: saturation (no steady state), deadlock, a
     solver that did not converge; the message says which
  130 interrupted (Ctrl-C): the run stopped early; simulate and sweeps print what they
     finished, marked partial, before exiting`

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "clusterperf",
		Short: "Predict parallel application performance on clusters before booking the machine",
		Long: `clusterperf predicts how a parallel application will perform on a cluster:
queueing-network solvers (exact and approximate MVA, open and mixed networks, bounds),
and the models built on them. Run "clusterperf demo" for a tour.

Every command prints one result: a table for people (--format table), exactly one JSON
document (--format json, schema in docs/schema/COMMAND.schema.json) or one CSV table
(--format csv, full precision). Keys are snake_case with the unit in the key
(response_time_s); relative errors are signed fractions (model − observed)/observed.

` + exitCodesHelp,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	root.SetVersionTemplate("clusterperf {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SuggestionsMinimumDistance = 2 // "slove" → solve; unknown flags the same (flagSuggestion)
	root.SetFlagErrorFunc(cmdline.FlagError)
	root.AddCommand(solveCmd(new(solveOptions), stdout, stderr), newPipelineCmd(stdout, stderr), speedupCmd(new(speedupOptions), stdout, stderr), newMpipCmd(stdout, stderr), fitCmd(new(fitOptions), stdout, stderr), simulateCmd(new(simOptions), stdout, stderr), tpnCmd(new(tpnOptions), stdout, stderr), newDemoCmd(stdout, stderr))
	root.AddCommand(newQueueCmd(stdout, stderr))
	root.AddCommand(newExploreCmd(stdout, stderr))
	root.AddCommand(newMergeCmd(stdout, stderr))
	root.AddCommand(newPmvaCmd(stdout, stderr))
	root.AddCommand(newReferencesCmd(stdout))
	root.AddCommand(newHistoryCmd(stdout, stderr))
	root.AddCommand(newCubeCmd(stdout, stderr))
	root.SetHelpCommand(cmdline.HelpCommand())
	cmdline.MarkUsage(root)
	cmdline.RefuseRepeatedFlags(root)
	return root
}

// buildRevision is the source revision stamped at link time, for builds that record no VCS
// information (-buildvcs=false, as under CI's GOFLAGS, or a build outside the checkout):
//
//	go build -ldflags "-X main.buildRevision=$(git describe --always --dirty)" ./cmd/clusterperf
//
// It is set only by the linker and never changes at run time.
var buildRevision string

// version is the module version and VCS revision of the binary (cmdline.Version), with the
// link-time buildRevision for builds that record no VCS information.
func version() string { return cmdline.Version(buildRevision) }
