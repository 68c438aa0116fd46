package main

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if rep := (*repeatedFlagError)(nil); errors.As(err, &rep) {
			return badInputf("%v\n%s", rep, helpHint(c))
		}
		return badInputf("%v%s\n%s", err, flagSuggestion(c, err), helpHint(c))
	})
	root.AddCommand(solveCmd(new(solveOptions), stdout, stderr), newPipelineCmd(stdout, stderr), speedupCmd(new(speedupOptions), stdout, stderr), newMpipCmd(stdout, stderr), fitCmd(new(fitOptions), stdout, stderr), simulateCmd(new(simOptions), stdout, stderr), tpnCmd(new(tpnOptions), stdout, stderr), newDemoCmd(stdout, stderr))
	root.AddCommand(newQueueCmd(stdout, stderr))
	root.AddCommand(newExploreCmd(stdout, stderr))
	root.AddCommand(newMergeCmd(stdout, stderr))
	root.AddCommand(newPmvaCmd(stdout, stderr))
	root.AddCommand(newReferencesCmd(stdout))
	root.AddCommand(newHistoryCmd(stdout, stderr))
	root.AddCommand(newCubeCmd(stdout, stderr))
	root.SetHelpCommand(newHelpCmd())
	markUsage(root)
	refuseRepeatedFlags(root)
	return root
}

// newHelpCmd replaces cobra's help command, which prints "Unknown help topic" and exits 0:
// here an unknown topic is bad input (exit 2) naming the commands there are.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command, with its file format and examples",
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 || (target == c.Root() && len(args) > 0) {
				var names []string
				for _, sub := range c.Root().Commands() {
					if sub.IsAvailableCommand() {
						names = append(names, sub.Name())
					}
				}
				return badInputf("help: unknown topic %q (commands: %s)", strings.Join(args, " "), strings.Join(names, ", "))
			}
			return target.Help()
		},
	}
}

// helpHint is the pointer to the help of the command an error came from ("clusterperf help
// solve"), or to "clusterperf help" for the root command itself.
func helpHint(c *cobra.Command) string {
	if c.HasParent() {
		return "(see clusterperf help " + c.Name() + ")"
	}
	return "(see clusterperf help)"
}

// markUsage wraps every command's argument check so a wrong number of arguments (or an
// unknown command) is classified as bad input by type, not by its message, and says what is
// missing ("solve: missing the argument MODEL.yaml|MODEL.jmva") or what a misspelt command may be.
func markUsage(c *cobra.Command) {
	if c.Args != nil {
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			err := check(cmd, args)
			switch {
			case err == nil:
				return nil
			case !cmd.HasParent() && len(args) > 0:
				return badInputf("unknown command %q%s\n%s", args[0], didYouMean(cmd.SuggestionsFor(args[0])), helpHint(cmd))
			case len(args) == 0:
				return badInputf("%s: missing the argument %s\n%s", cmd.Name(), missingArgs(cmd), helpHint(cmd))
			}
			return badInputf("%s: %v (usage: %s)\n%s", cmd.Name(), err, cmd.UseLine(), helpHint(cmd))
		}
	}
	for _, s := range c.Commands() {
		markUsage(s)
	}
}

// missingArgs names the required argument of cmd's usage line ("fit [MODEL.yaml] DATA.csv":
// DATA.csv), or the whole usage when it has several forms.
func missingArgs(cmd *cobra.Command) string {
	var req []string
	for _, w := range strings.Fields(cmd.Use)[1:] {
		if !strings.HasPrefix(w, "[") && !strings.HasSuffix(w, "]") {
			req = append(req, w)
		}
	}
	if len(req) == 1 {
		return req[0]
	}
	return "(usage: " + cmd.UseLine() + ")"
}

// flagSuggestion is " (did you mean --NAME?)" for an unknown flag err within edit distance
// cmd.Root().SuggestionsMinimumDistance of (or a prefix of) one of cmd's flags, else "".
func flagSuggestion(cmd *cobra.Command, err error) string {
	var ne *pflag.NotExistError
	if !errors.As(err, &ne) || ne.GetSpecifiedShortnames() != "" {
		return ""
	}
	typed := ne.GetSpecifiedName()
	var near []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && (editDistance(typed, f.Name) <= cmd.Root().SuggestionsMinimumDistance || strings.HasPrefix(f.Name, typed)) {
			near = append(near, "--"+f.Name)
		}
	})
	return didYouMean(near)
}

// didYouMean is " (did you mean A or B?)" for the names, "" for none.
func didYouMean(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return " (did you mean " + strings.Join(names, " or ") + "?)"
}

// editDistance is the Levenshtein distance between a and b (insertions, deletions and
// substitutions of bytes), by the two-row dynamic programme.
func editDistance(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+btoi(a[i-1] != b[j-1]))
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// buildRevision is the source revision stamped at link time, for builds that record no VCS
// information (-buildvcs=false, as under CI's GOFLAGS, or a build outside the checkout):
//
//	go build -ldflags "-X main.buildRevision=$(git describe --always --dirty)" ./cmd/clusterperf
//
// It is set only by the linker and never changes at run time.
var buildRevision string

// version is the module version and VCS revision of the binary: debug.ReadBuildInfo's
// vcs.revision when the build recorded it, else the link-time buildRevision, else a
// "(devel)" that says how to get a revision.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown version: built without module information)"
	}
	return versionOf(bi.Main.Version, bi.GoVersion, bi.Settings, buildRevision)
}

// versionOf formats the version from the build information and the link-time revision.
func versionOf(module, goVersion string, settings []debug.BuildSetting, stamped string) string {
	v := module
	if v == "" {
		v = "(devel)"
	}
	rev, dirty, when := "", false, ""
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		case "vcs.time":
			when = s.Value
		}
	}
	switch {
	case rev != "":
		v += " " + rev
		if dirty {
			v += "+modified"
		}
		if when != "" {
			v += " (" + when + ")"
		}
	case stamped != "":
		v += " " + stamped
	case v == "(devel)":
		v += ` (this build recorded no source revision: see README "Build")`
	}
	return fmt.Sprintf("%s, %s", v, goVersion)
}
