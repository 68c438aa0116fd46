package cmdline

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/clusterperf/clusterperf/internal/units"
)

// onceValue is a flag value that takes one value: pflag sets a repeated scalar flag again
// (the last one wins), so "solve --solver mva --solver comom" would quietly use comom.
// Set refuses the second value with a RepeatedFlagError. Slice and array flags, which are
// meant to repeat (--slurm-opt, --osu), are not wrapped.
type onceValue struct {
	pflag.Value
	name  string
	first string
	set   bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return &RepeatedFlagError{Name: v.name, First: v.first, Second: s}
	}
	v.set, v.first = true, s
	return v.Value.Set(s)
}

// RepeatedFlagError is a scalar flag given twice on one command line.
type RepeatedFlagError struct{ Name, First, Second string }

func (e *RepeatedFlagError) Error() string {
	return fmt.Sprintf("--%s given twice (%s, then %s): it takes one value; give it once", e.Name, e.First, e.Second)
}

// RefuseRepeatedFlags wraps every scalar flag of c and its subcommands in an onceValue, so
// a repeated one is refused (exit 2, naming the flag) instead of last-wins. Done once, on
// the root command, for every command.
func RefuseRepeatedFlags(c *cobra.Command) {
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
		RefuseRepeatedFlags(s)
	}
}

// unitFlag is a float flag that takes the one units rule of internal/units: a rate
// ("48/min", "0.8/s" or a bare number per second) or a time ("5ms", "2min" or a bare number
// of seconds), so flags accept the suffixes model files do.
type unitFlag struct {
	v     *float64
	parse func(string) (float64, error)
	kind  string
}

func (u unitFlag) String() string {
	if u.v == nil {
		return "0"
	}
	return strconv.FormatFloat(*u.v, 'g', -1, 64)
}

func (u unitFlag) Set(s string) error {
	x, err := u.parse(s)
	if err != nil {
		return err
	}
	*u.v = x
	return nil
}

func (u unitFlag) Type() string { return u.kind }

// RateVar registers a rate flag (units.Rate: "48/min", or a bare number per second).
func RateVar(f *pflag.FlagSet, v *float64, name, usage string) {
	f.Var(unitFlag{v, units.Rate, "rate"}, name, usage)
}

// DurationVar registers a time flag (units.Duration: "5ms", "2min", or a bare number of seconds).
func DurationVar(f *pflag.FlagSet, v *float64, name, usage string) {
	f.Var(unitFlag{v, units.Duration, "time"}, name, usage)
}
