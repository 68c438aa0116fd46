package app

import (
	"strings"

	"github.com/clusterperf/clusterperf/sizing"
)

// SizingFlags are the options of every command that recommends a configuration (package
// sizing): --rule, --efficiency, --knee-gain, --within. Check them (Check) before any
// work, then Options gives the sizing.Options of a Request.
type SizingFlags struct {
	Rule       string
	Efficiency float64
	KneeGain   float64
	Within     float64
}

// ParsedRule accepts the rule names with - or _ (core-hours, core_hours).
func (s SizingFlags) ParsedRule() (sizing.Rule, error) {
	return sizing.ParseRule(strings.ReplaceAll(s.Rule, "-", "_"))
}

// Check records the options' range errors in c.
func (s SizingFlags) Check(c *FlagCheck) {
	if _, err := s.ParsedRule(); err != nil {
		c.Add("--rule %q: allowed balanced (default), fastest, knee, efficiency, cheapest, core-hours", s.Rule)
	}
	c.Fraction("efficiency", s.Efficiency, 0, 1)
	if !(s.KneeGain > 0 && s.KneeGain < 1) {
		c.Add("--knee-gain %v: want a fraction in (0, 1)", s.KneeGain)
	}
	c.NonNegative("within", s.Within, "only the fastest")
}

// Options are the sizing.Options of the flags (checked first) with the one-processor time
// t1 the command has (nil: none, sizing estimates it as p_min·T(p_min) and says so).
func (s SizingFlags) Options(t1 *sizing.Reference) sizing.Options {
	rule, _ := s.ParsedRule()
	return sizing.Options{Rule: rule, MinEfficiency: s.Efficiency, KneeGain: s.KneeGain, WithinFastest: s.Within, T1: t1}
}

// DefaultSizingFlags are the options' defaults: sizing.DefaultRule and its default
// efficiency, knee gain and margin (the command line's flag defaults).
func DefaultSizingFlags() SizingFlags {
	return SizingFlags{Rule: string(sizing.DefaultRule), Efficiency: sizing.DefaultMinEfficiency, KneeGain: sizing.DefaultKneeGain, Within: sizing.DefaultWithinFastest}
}
