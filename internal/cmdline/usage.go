package cmdline

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// FlagError is the root command's flag error function: a repeated scalar flag, or an unknown
// or malformed flag with what it may be a misspelling of, as bad input (exit 2) pointing to
// the command's help.
func FlagError(c *cobra.Command, err error) error {
	if rep := (*RepeatedFlagError)(nil); errors.As(err, &rep) {
		return inputf("%v\n%s", rep, HelpHint(c))
	}
	return inputf("%v%s\n%s", err, flagSuggestion(c, err), HelpHint(c))
}

// HelpCommand replaces cobra's help command, which prints "Unknown help topic" and exits 0:
// here an unknown topic is bad input (exit 2) naming the commands there are.
func HelpCommand() *cobra.Command {
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
				return inputf("help: unknown topic %q (commands: %s)", strings.Join(args, " "), strings.Join(names, ", "))
			}
			return target.Help()
		},
	}
}

// HelpHint is the pointer to the help of the command an error came from ("clusterperf help
// solve"), or to "clusterperf help" for the root command itself.
func HelpHint(c *cobra.Command) string {
	if c.HasParent() {
		return "(see " + c.Root().Name() + " help " + c.Name() + ")"
	}
	return "(see " + c.Name() + " help)"
}

// MarkUsage wraps every command's argument check so a wrong number of arguments (or an
// unknown command) is classified as bad input by type, not by its message, and says what is
// missing ("solve: missing the argument MODEL.yaml|MODEL.jmva") or what a misspelt command may be.
func MarkUsage(c *cobra.Command) {
	if c.Args != nil {
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error {
			err := check(cmd, args)
			switch {
			case err == nil:
				return nil
			case !cmd.HasParent() && len(args) > 0:
				return inputf("unknown command %q%s\n%s", args[0], didYouMean(cmd.SuggestionsFor(args[0])), HelpHint(cmd))
			case len(args) == 0:
				return inputf("%s: missing the argument %s\n%s", cmd.Name(), missingArgs(cmd), HelpHint(cmd))
			}
			return inputf("%s: %v (usage: %s)\n%s", cmd.Name(), err, cmd.UseLine(), HelpHint(cmd))
		}
	}
	for _, s := range c.Commands() {
		MarkUsage(s)
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
		if !f.Hidden && (EditDistance(typed, f.Name) <= cmd.Root().SuggestionsMinimumDistance || strings.HasPrefix(f.Name, typed)) {
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

// EditDistance is the Levenshtein distance between a and b (insertions, deletions and
// substitutions of bytes), by the two-row dynamic programme.
func EditDistance(a, b string) int {
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
