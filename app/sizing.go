package app

import (
	"fmt"
	"math"
	"strings"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// RecommendedLine is the one-line recommendation of a sizing.Advice.
func RecommendedLine(a *sizing.Advice) string {
	c := a.Recommended
	return fmt.Sprintf("p = %d, time %s s, speedup %.3g, efficiency %.2f, %s core-hours — %s", c.Config.P, report.Num(c.Config.TimeS), c.Config.Speedup, c.Config.Efficiency, report.Num(c.Config.CoreHours), c.Reason)
}

// TradeOffTable is the trade-off table of a sizing.Advice (CSV table "trade_off").
func TradeOffTable(a *sizing.Advice, title string) *report.Table {
	t := &report.Table{Name: "trade_off", Title: fmt.Sprintf("%s; %s; recommended (%s): %s", title, a.SpeedupReference.Describe(), a.Rule, RecommendedLine(a)), Header: []string{"p", "d", "time_s", "speedup", "efficiency", "core_hours", "gain_per_doubling", "picked_by"}, Keys: 2}
	for _, c := range a.TradeOff {
		var by []string
		for _, x := range c.PickedBy {
			by = append(by, string(x))
		}
		var d any = ""
		if c.D > 0 {
			d = c.D
		}
		t.Add(c.P, d, c.TimeS, c.Speedup, c.Efficiency, c.CoreHours, OptPercent(c.GainPerDoubling), strings.Join(by, ","))
	}
	return t
}

// OptPercent is a percent cell of an optional fraction (empty when nil).
func OptPercent(v *float64) any {
	if v == nil {
		return ""
	}
	return report.Percent(*v)
}

// Prefixed puts "file: " before each note.
func Prefixed(file string, notes []string) []string {
	var out []string
	for _, n := range notes {
		out = append(out, file+": "+n)
	}
	return out
}

// OptNum is a number cell of an optional value (NaN, an empty CSV cell, when nil).
func OptNum(p *float64) any {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// DefaultSizing is package sizing's default rule and thresholds, as the commands' flags
// default (--rule balanced, --efficiency, --knee-gain, --within).
func DefaultSizing() sizing.Options {
	return sizing.Options{Rule: sizing.DefaultRule, MinEfficiency: sizing.DefaultMinEfficiency, KneeGain: sizing.DefaultKneeGain, WithinFastest: sizing.DefaultWithinFastest}
}

// WithT1 is o with the one-processor time T_1 of the question's sizing (nil: sizing
// estimates it as p_min·T(p_min) and says so).
func WithT1(o sizing.Options, t1 *sizing.Reference) sizing.Options {
	o.T1 = t1
	return o
}
