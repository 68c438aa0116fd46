package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/app/speedupapp"

	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/sizing"
)

// sizingFlags are the flags of every command that recommends a configuration (package
// sizing): --rule, --efficiency, --knee-gain, --within. A command adopts them with
//
//	var s sizingFlags
//	s.register(cmd)          // in its constructor
//	s.check(&c)              // in its flag check, before any work
//	adv, err := sizing.Advise(points, s.options(t1)) // t1: the command's T_1, or nil
//
// and shows adv with sizingTables(adv) (the recommendation and the trade-off table).
type sizingFlags struct {
	rule       string
	efficiency float64
	kneeGain   float64
	within     float64
}

func (s *sizingFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&s.rule, "rule", string(sizing.DefaultRule), "sizing rule: balanced (fastest at or below the knee with efficiency ≥ --efficiency), fastest, knee, efficiency, cheapest (within --within of the fastest), core-hours")
	f.Float64Var(&s.efficiency, "efficiency", sizing.DefaultMinEfficiency, "minimum parallel efficiency E = T_1/(p·T(p)) of the efficiency and balanced rules, in (0, 1] (T_1: the one-processor time, said in the trade-off's title)")
	f.Float64Var(&s.kneeGain, "knee-gain", sizing.DefaultKneeGain, "the knee: where doubling p reduces the time by less than this fraction, in (0, 1)")
	f.Float64Var(&s.within, "within", sizing.DefaultWithinFastest, "cheapest rule: the fewest core-hours within this fraction of the fastest time (finite ≥ 0)")
}

// parsedRule accepts the rule names with - or _ (core-hours, core_hours).
func (s *sizingFlags) parsedRule() (sizing.Rule, error) {
	return sizing.ParseRule(strings.ReplaceAll(s.rule, "-", "_"))
}

func (s *sizingFlags) check(c *flagCheck) {
	if _, err := s.parsedRule(); err != nil {
		c.add("--rule %q: allowed balanced (default), fastest, knee, efficiency, cheapest, core-hours", s.rule)
	}
	c.fraction("efficiency", s.efficiency, 0, 1)
	if !(s.kneeGain > 0 && s.kneeGain < 1) {
		c.add("--knee-gain %v: want a fraction in (0, 1)", s.kneeGain)
	}
	c.nonNegative("within", s.within, "only the fastest")
}

// rangeSyntax describes what rangeFlag accepts, for flag help.
const rangeSyntax = "N, FROM:TO, FROM:TO:STEP, FROM:TO:xK (powers of K), comma-separated"

// rangeFlag parses the range of flag --name (internal/ranges), recording an error in c.
func rangeFlag(c *flagCheck, name, text string, lim ranges.Limits) []int {
	v, err := ranges.Parse("--"+name, text, lim)
	if err != nil {
		c.errs = append(c.errs, err)
		return []int{1}
	}
	return v
}

// options are sizing.Options of the flags (check them first) with the one-processor time
// t1 the command has (nil: none, sizing estimates it as p_min·T(p_min) and says so).
func (s *sizingFlags) options(t1 *sizing.Reference) sizing.Options {
	rule, _ := s.parsedRule()
	return sizing.Options{Rule: rule, MinEfficiency: s.efficiency, KneeGain: s.kneeGain, WithinFastest: s.within, T1: t1}
}

// spmdT1 is the T_1 of an SPMD model's sizing (speedupapp.T1).
var spmdT1 = speedupapp.T1

// recommendedLine and tradeOffTable: the sizing tables of package app.
var (
	recommendedLine = app.RecommendedLine
	tradeOffTable   = app.TradeOffTable
)
