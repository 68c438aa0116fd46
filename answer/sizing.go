package answer

import (
	"fmt"
	"strings"

	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/sizing"
)

// Predicted is one prediction at an asked configuration: the value of Quantity (with
// Unit) at P processors (D disks when D > 0), and its 95 % interval when Low < High.
type Predicted struct {
	P, D      int
	Quantity  string // e.g. "time", "speedup"
	Unit      string // "s", "" for a ratio
	Value     float64
	Low, High float64
	// Interval says what Low–High is ("95 % interval", "plausible models' range").
	Interval string
	// Label names the value in the sentence when Quantity alone would not say which
	// forecast it is ("stacked time"); "" says Quantity. Facts keep Quantity's key.
	Label string
}

// config names a configuration: "p = 8" or "p = 8, d = 2".
func config(p, d int) string {
	if d > 0 {
		return fmt.Sprintf("p = %d, d = %d", p, d)
	}
	return fmt.Sprintf("p = %d", p)
}

func unit(u string) string {
	if u == "" {
		return ""
	}
	return " " + u
}

// short is one prediction in few words, e.g. "at p = 256: 1.2 s (95 % interval 1.1–1.3 s)".
func (pr Predicted) short() string {
	what := pr.Quantity
	if pr.Label != "" {
		what = pr.Label
	}
	s := fmt.Sprintf("at %s: %s %s%s", config(pr.P, pr.D), what, g(pr.Value), unit(pr.Unit))
	if pr.Low < pr.High {
		iv := pr.Interval
		if iv == "" {
			iv = "95 % interval"
		}
		s += fmt.Sprintf(" (%s %s–%s)", iv, g(pr.Low), g(pr.High))
	}
	return s
}

// predictions adds the facts and clauses of preds.
func predictions(b *builder, preds []Predicted) {
	for i, pr := range preds {
		pre := "predicted"
		if len(preds) > 1 {
			pre = fmt.Sprintf("predicted_%d", i+1)
		}
		b.a.Num(pre+"_p", float64(pr.P))
		if pr.D > 0 {
			b.a.Num(pre+"_d", float64(pr.D))
		}
		u := strings.ReplaceAll(pr.Quantity, " ", "_")
		if pr.Unit == "s" {
			u += "_s"
		}
		b.a.Num(pre+"_"+u, pr.Value)
		if pr.Low < pr.High {
			b.a.Num(pre+"_low_"+u, pr.Low)
			b.a.Num(pre+"_high_"+u, pr.High)
		}
		b.say(pr.short())
	}
}

// recommendation adds the facts and clauses of the sizing advice adv: the recommended
// configuration, its time and efficiency, the rule and its reason; a recommendation at the
// end of the range searched is said as such, with the gain of the last doubling, never
// called a knee.
func recommendation(b *builder, adv *sizing.Advice, timeUnit string) {
	if adv == nil {
		return
	}
	c := adv.Recommended.Config
	b.a.Num("recommended_p", float64(c.P))
	if c.D > 0 {
		b.a.Num("recommended_d", float64(c.D))
	}
	b.a.Num("recommended_time_s", c.TimeS)
	b.a.Num("recommended_speedup", c.Speedup)
	b.a.Num("recommended_efficiency", c.Efficiency)
	b.a.Word("rule", string(adv.Recommended.Rule)+": "+adv.Recommended.Reason)
	b.say(fmt.Sprintf("recommended %s: %s%s%s, efficiency %s", config(c.P, c.D), g(c.TimeS), unit(timeUnit), b.cost, pct(c.Efficiency)),
		fmt.Sprintf("Recommended by the %s rule: %s (speedup %s against %s).", adv.Recommended.Rule, adv.Recommended.Reason, g(c.Speedup), adv.SpeedupReference.Source))
	if adv.KneeAtRangeEnd && c.P == maxP(adv) {
		b.a.Word("range_end", "the recommendation is the largest p searched")
		e := fmt.Sprintf("the range ends at %d", c.P)
		if adv.LastDoublingGain != nil {
			b.a.Num("last_doubling_gain", *adv.LastDoublingGain)
			e += fmt.Sprintf(": doubling still gains %s", pct(*adv.LastDoublingGain))
		}
		b.say(e, "The recommendation is the edge of the range searched, not a knee: search further to find where doubling stops paying.")
	}
}

// maxP is the largest p among the advice's choices and trade-off rows.
func maxP(adv *sizing.Advice) int {
	m := 0
	for _, c := range adv.Choices {
		m = max(m, c.Config.P)
	}
	for _, c := range adv.TradeOff {
		m = max(m, c.P)
	}
	return m
}

// Sizing is the answer of a command that predicts times over configurations: the refusal
// in words when the data cannot answer (weak scaling, mixed programs, too few runs: no
// recommendation then), the predictions at the asked configurations (preds, with
// intervals), the recommended configuration and the rule that chose it (adv), and the
// limiting component (limit: a short clause such as "limited by cpu", with its longer
// explanation limitWhy; "" when unknown). what, when not "", is said last, as a detail
// (what was fitted or modelled).
func Sizing(what string, preds []Predicted, adv *sizing.Advice, timeUnit, limit, limitWhy, refusal, refusalWhy string) report.Answer {
	var b builder
	buildSizing(&b, what, preds, adv, timeUnit, limit, limitWhy, refusal, refusalWhy)
	return b.done()
}

func buildSizing(b *builder, what string, preds []Predicted, adv *sizing.Advice, timeUnit, limit, limitWhy, refusal, refusalWhy string) {
	if refusal != "" {
		b.a.Word("refusal", refusal+": "+refusalWhy)
		b.say(refusal, sentence(refusalWhy))
	}
	predictions(b, preds)
	if refusal == "" {
		recommendation(b, adv, timeUnit)
	}
	if limit != "" {
		b.a.Word("limiting", limit)
		if limitWhy != "" {
			b.say(limit, sentence(limitWhy))
		} else {
			b.say(limit)
		}
	}
	if len(b.clauses) == 0 {
		b.say("no prediction was asked and no configuration can be recommended")
	}
	if what != "" {
		b.say("", what)
	}
}

// sentence is s with a capital first letter and a final period.
func sentence(s string) string {
	s = capital(strings.TrimSpace(s))
	if s != "" && !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
