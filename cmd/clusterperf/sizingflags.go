package main

import (
	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/sizing"
)

// sizingFlags are the flags of every command that recommends a configuration (package
// sizing: --rule, --efficiency, --knee-gain, --within): app.SizingFlags, registered on a
// command by registerSizing, checked by Check and turned into sizing.Options by Options.
type sizingFlags = app.SizingFlags

func registerSizing(cmd *cobra.Command, s *sizingFlags) {
	f := cmd.Flags()
	f.StringVar(&s.Rule, "rule", string(sizing.DefaultRule), "sizing rule: balanced (fastest at or below the knee with efficiency ≥ --efficiency), fastest, knee, efficiency, cheapest (within --within of the fastest), core-hours")
	f.Float64Var(&s.Efficiency, "efficiency", sizing.DefaultMinEfficiency, "minimum parallel efficiency E = T_1/(p·T(p)) of the efficiency and balanced rules, in (0, 1] (T_1: the one-processor time, said in the trade-off's title)")
	f.Float64Var(&s.KneeGain, "knee-gain", sizing.DefaultKneeGain, "the knee: where doubling p reduces the time by less than this fraction, in (0, 1)")
	f.Float64Var(&s.Within, "within", sizing.DefaultWithinFastest, "cheapest rule: the fewest core-hours within this fraction of the fastest time (finite ≥ 0)")
}
