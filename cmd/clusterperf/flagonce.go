package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// onceValue is a flag value that takes one value: pflag sets a repeated scalar flag again
// (the last one wins), so "solve --solver mva --solver comom" would quietly use comom.
// Set refuses the second value with a repeatedFlagError. Slice and array flags, which are
// meant to repeat (--slurm-opt, --osu), are not wrapped.
type onceValue struct {
	pflag.Value
	name  string
	first string
	set   bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return &repeatedFlagError{name: v.name, first: v.first, second: s}
	}
	v.set, v.first = true, s
	return v.Value.Set(s)
}

// repeatedFlagError is a scalar flag given twice on one command line.
type repeatedFlagError struct{ name, first, second string }

func (e *repeatedFlagError) Error() string {
	return fmt.Sprintf("--%s given twice (%s, then %s): it takes one value; give it once", e.name, e.first, e.second)
}

// refuseRepeatedFlags wraps every scalar flag of c and its subcommands in an onceValue, so
// a repeated one is refused (exit 2, naming the flag) instead of last-wins. Done once, on
// the root command, for every command.
func refuseRepeatedFlags(c *cobra.Command) {
	wrap := func(f *pflag.Flag) {
		if _, slice := f.Value.(pflag.SliceValue); slice {
			return
		}
		if _, done := f.Value.(*onceValue); !done {
			f.Value = &onceValue{Value: f.Value, name: f.Name}
		}
	}
	c.Flags().VisitAll(wrap)
	c.PersistentFlags().VisitAll(wrap)
	for _, s := range c.Commands() {
		refuseRepeatedFlags(s)
	}
}
