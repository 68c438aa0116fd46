package htmlreport

import (
	"os"
	"path/filepath"
	"strings"
)

// Flag is one flag the user set on the command line, as the page shows it: its name, its
// value as text, whether it is a switch (shown without a value) and whether its value is
// text that may name an input file.
type Flag struct {
	Name, Value  string
	Bool, String bool
}

// NewRun is the page's run of the command cmdPath ("clusterperf solve") with the flags the
// user set (in name order) and the arguments: the command line rebuilt (values quoted for
// a shell), the inputs it names — every argument or text flag value that is an existing
// regular file, except the output files of --plot and --report — and the title: the
// command and the inputs' names, else its arguments.
func NewRun(cmdPath string, flags []Flag, args []string) Run {
	parts := []string{cmdPath}
	var inputs []Input
	seen := map[string]bool{}
	addInput := func(v string) {
		if v == "" || seen[v] {
			return
		}
		if fi, err := os.Stat(v); err == nil && fi.Mode().IsRegular() {
			seen[v] = true
			inputs = append(inputs, ReadInput(v, fi.Size()))
		}
	}
	for _, f := range flags {
		if f.Bool {
			parts = append(parts, "--"+f.Name)
			continue
		}
		parts = append(parts, "--"+f.Name, shellQuote(f.Value))
		if f.String && f.Name != "plot" && f.Name != "report" {
			addInput(f.Value)
		}
	}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
		addInput(a)
	}
	title := cmdPath
	var names []string
	for _, in := range inputs {
		names = append(names, filepath.Base(in.Name))
	}
	if len(names) > 0 {
		title += ": " + strings.Join(names, ", ")
	} else if len(args) > 0 {
		title += " " + strings.Join(args, " ")
	}
	return Run{Title: title, CommandLine: strings.Join(parts, " "), Inputs: inputs}
}

// shellQuote quotes s for a POSIX shell when it holds a character the shell treats
// specially (or is empty).
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
