// Package sizing recommends a configuration — how many processes (and disks) to book — from
// a list of (p [, d], time) points, measured or predicted by any model, with the same rules
// in every command (issue 21, "sizing by cost"):
//
//	fastest      the smallest time (ties: fewer processes)
//	knee         the smallest p from which no larger p gains at least KneeGain per doubling:
//	             gain(a→b) = 1 − (T_b/T_a)^(1/log₂(p_b/p_a))
//	efficiency   the fastest configuration whose parallel efficiency is ≥ MinEfficiency
//	             (in monotone data: the largest such p)
//	cheapest     the fewest core-hours among configurations within WithinFastest of the
//	             fastest time
//	core_hours   the fewest core-hours p·T/3600 outright
//	balanced     THE DEFAULT: the fastest configuration that is both at or below the knee and
//	             at or above MinEfficiency
//
// Why balanced is the default and maximum speedup is not: past the knee, another doubling of
// the processes buys less than KneeGain (10 %) of time, and below efficiency 0.5 more than
// half of every core-hour is overhead — a booking at twice the cost of the work. Balanced
// stops at whichever limit comes first, so its efficiency is never below MinEfficiency and
// no doubling it forgoes would have saved 10 % of the time (the knee rule alone may accept
// efficiencies near 0.2: for Amdahl's law, T(2p)/T(p) = 0.9 at E = 0.2).
//
// Speedup and efficiency have ONE definition in every command's sizing (Reference.Speedup):
//
//	S(p) = T_1/T(p),  E(p) = S(p)/p
//
// with T_1 the one-processor time (in the points' time unit, seconds for every command but
// normalised-speedup data), 000 eq. 3 and §3.4 (speedup against the sequential time).
// T_1 comes from what the caller has, of the same origin as its points: the model's own time
// at p = 1 for model times (a fitted model evaluated at p = 1, an SPMD model's T_ref, the
// pipeline model at p = 1: kind t1_model), a measured run at p = 1 for measured times
// (t1_measured), and ONLY when neither exists the estimate T_1 ≈ p_min·T(p_min) from the
// smallest p given at its fastest d (kind pmin_times_t_pmin: perfect scaling from 1 to p_min
// assumed, which overstates speedup and efficiency when the program scales worse below
// p_min). Every Advice carries the reference it used (speedup_reference in JSON) and, for
// the estimate, a note. The points are times of ONE problem (strong scaling): T_1/T(p) is no
// speedup when the problem grows with p, so callers do not size weak-scaling data. With T_1
// from outside the points (no p = 1 among them, or an SPMD model whose T_ref excludes the
// communication its T(1, 1) pays, s(1, 1) < 1) no configuration may reach MinEfficiency:
// then efficiency and balanced fall back to the configuration of highest efficiency, and a
// note says so. Core-hours count processes only (p·T/3600, in the points' time unit divided
// by 3600); disks are part of a configuration, not of its cost.
package sizing

import (
	"fmt"
	"math"
	"sort"

	"github.com/clusterperf/clusterperf/fault"
)

// Point is one configuration with its (measured or predicted) time.
type Point struct {
	P     int     `json:"p"`
	D     int     `json:"d,omitempty"` // 0: no disk dimension
	TimeS float64 `json:"time_s"`
}

// Rule names a sizing rule.
type Rule string

// The six rules (the package comment gives each one's definition).
const (
	// Fastest: the smallest time; ties go to fewer processes.
	Fastest Rule = "fastest"
	// Knee: the smallest p from which no larger p gains at least Options.KneeGain per
	// doubling of p.
	Knee Rule = "knee"
	// Efficiency: the fastest configuration of parallel efficiency ≥ Options.MinEfficiency.
	Efficiency Rule = "efficiency"
	// Cheapest: the fewest core-hours among the configurations within
	// Options.WithinFastest of the fastest time.
	Cheapest Rule = "cheapest"
	// CoreHours: the fewest core-hours p·T/3600 outright.
	CoreHours Rule = "core_hours"
	// Balanced (the default): the fastest configuration at or below the knee and at or above
	// Options.MinEfficiency.
	Balanced Rule = "balanced"
	// RangeEnd labels the knee rule's pick (Choice.Rule, Config.PickedBy) when the range has
	// no knee (Advice.KneeAtRangeEnd): the largest p given is the end of the range searched,
	// never called a knee (newuser7 P1-3). It is not a rule one can ask for (ParseRule).
	RangeEnd Rule = "range_end"
)

// label is the name rule r's pick goes by: RangeEnd for the knee rule when edge.
func label(r Rule, edge bool) Rule {
	if r == Knee && edge {
		return RangeEnd
	}
	return r
}

// Rules lists every rule, the default first (a fresh slice on every call).
func Rules() []Rule { return []Rule{Balanced, Fastest, Knee, Efficiency, Cheapest, CoreHours} }

// Defaults of Options.
const (
	DefaultRule          = Balanced
	DefaultKneeGain      = 0.10
	DefaultMinEfficiency = 0.5
	DefaultWithinFastest = 0.10
	DefaultAround        = 2
	MaxPoints            = 1000000
)

// ParseRule reads a rule name as the CLI flags give it.
func ParseRule(s string) (Rule, error) {
	for _, r := range Rules() {
		if string(r) == s {
			return r, nil
		}
	}
	return "", fmt.Errorf("%w: sizing rule %q: allowed balanced (default), fastest, knee, efficiency, cheapest, core_hours", fault.ErrInput, s)
}

// Options of Advise; zero values mean the defaults.
type Options struct {
	Rule          Rule    // DefaultRule
	KneeGain      float64 // minimum time reduction per doubling of p, in (0, 1): 0.10
	MinEfficiency float64 // in (0, 1]: 0.5
	WithinFastest float64 // ≥ 0: 0.10 (cheapest within 10 % of the fastest time)
	Around        int     // trade-off rows each side of the recommendation: 2
	// T1 is the one-processor time T_1 of every speedup and efficiency, from what the caller
	// has (ModelT1, MeasuredT1). Nil: the caller has none, and T_1 ≈ p_min·T(p_min) from the
	// points (kind pmin_times_t_pmin, said in a note).
	T1 *Reference
}

// ReferenceKind says where T_1, the one-processor time of S(p) = T_1/T(p), came from.
type ReferenceKind string

// The three kinds of T_1, in the order a caller uses them.
const (
	// T1Model: the model's own one-processor time (a fitted or given model evaluated at
	// p = 1; an SPMD model's T_ref, 000 eq. 1 and 3: one processor, one disk).
	T1Model ReferenceKind = "t1_model"
	// T1Measured: a measured run at p = 1.
	T1Measured ReferenceKind = "t1_measured"
	// PMinTimesTPMin: no one-processor time exists: T_1 ≈ p_min·T(p_min), the smallest p
	// given at its fastest d, perfect scaling from 1 to p_min assumed.
	PMinTimesTPMin ReferenceKind = "pmin_times_t_pmin"
)

// Reference is the T_1 of every speedup and efficiency of an Advice, and where it came from.
type Reference struct {
	Kind ReferenceKind `json:"kind"`
	// TimeS at P is what T_1 is taken from: T_1 itself at P = 1 (t1_model, t1_measured),
	// T(p_min) at P = p_min (pmin_times_t_pmin); in the points' time unit.
	TimeS float64 `json:"reference_time_s"`
	P     int     `json:"reference_p"`
	// T1S is the T_1 every speedup divides: TimeS, or P·TimeS for pmin_times_t_pmin.
	T1S float64 `json:"t1_s"`
	// Source says in words what T_1 is (e.g. "the fitted amdahl model at p = 1").
	Source string `json:"source"`
}

// ModelT1 is the reference of a model's own one-processor time t1 (source: which model, how
// evaluated).
func ModelT1(t1 float64, source string) *Reference {
	return &Reference{Kind: T1Model, TimeS: t1, P: 1, T1S: t1, Source: source}
}

// MeasuredT1 is the reference of a measured one-processor time t1 (source: which run).
func MeasuredT1(t1 float64, source string) *Reference {
	return &Reference{Kind: T1Measured, TimeS: t1, P: 1, T1S: t1, Source: source}
}

// Speedup is the one definition of speedup and efficiency in every sizing answer:
// S = T_1/t and E = S/p for a configuration of p processes and time t (000 eq. 3 with
// T_ref = T_1; dimensionless).
func (r Reference) Speedup(p int, t float64) (s, e float64) {
	s = r.T1S / t
	return s, s / float64(p)
}

// Describe says the definition and the reference in words, for table titles.
func (r Reference) Describe() string {
	return fmt.Sprintf("speedup = T_1/T(p), T_1 = %.6g: %s (%s)", r.T1S, r.Source, r.Kind)
}

// check refuses a caller's reference that is not a positive finite one-processor time.
func (r *Reference) check() error {
	if r.Kind != T1Model && r.Kind != T1Measured {
		return fmt.Errorf("%w: sizing: T_1 of kind %q: allowed %s or %s (%s is computed from the points)", fault.ErrInput, r.Kind, T1Model, T1Measured, PMinTimesTPMin)
	}
	if r.P != 1 || !(r.TimeS > 0) || math.IsInf(r.TimeS, 0) || r.T1S != r.TimeS {
		return fmt.Errorf("%w: sizing: T_1 = %g at p = %d (%s): allowed a positive finite time at p = 1", fault.ErrInput, r.TimeS, r.P, r.Source)
	}
	return nil
}

func (o Options) withDefaults() (Options, error) {
	if o.Rule == "" {
		o.Rule = DefaultRule
	}
	if _, err := ParseRule(string(o.Rule)); err != nil {
		return o, err
	}
	if o.KneeGain == 0 {
		o.KneeGain = DefaultKneeGain
	}
	if !(o.KneeGain > 0 && o.KneeGain < 1) {
		return o, fmt.Errorf("%w: knee gain %g: allowed 0 < gain < 1 (a fraction per doubling)", fault.ErrInput, o.KneeGain)
	}
	if o.MinEfficiency == 0 {
		o.MinEfficiency = DefaultMinEfficiency
	}
	if !(o.MinEfficiency > 0 && o.MinEfficiency <= 1) {
		return o, fmt.Errorf("%w: minimum efficiency %g: allowed 0 < E ≤ 1", fault.ErrInput, o.MinEfficiency)
	}
	if o.WithinFastest == 0 {
		o.WithinFastest = DefaultWithinFastest
	}
	if !(o.WithinFastest >= 0) || math.IsInf(o.WithinFastest, 0) {
		return o, fmt.Errorf("%w: within-fastest fraction %g: allowed a finite fraction ≥ 0", fault.ErrInput, o.WithinFastest)
	}
	if o.Around == 0 {
		o.Around = DefaultAround
	}
	if o.T1 != nil {
		if err := o.T1.check(); err != nil {
			return o, err
		}
	}
	if o.Around < 0 || o.Around > 1000 {
		return o, fmt.Errorf("%w: trade-off rows %d: allowed 1 … 1000", fault.ErrInput, o.Around)
	}
	return o, nil
}

// Config is a configuration with its figures of merit.
type Config struct {
	P          int     `json:"p"`
	D          int     `json:"d,omitempty"`
	TimeS      float64 `json:"time_s"`
	Speedup    float64 `json:"speedup"`
	Efficiency float64 `json:"efficiency"`
	CoreHours  float64 `json:"core_hours"`
	// GainPerDoubling is 1 − T(2p, d)/T(p, d): the share of the time that doubling p (at
	// the same d) saves, from the configuration at 2p itself (absent when 2p is not among
	// the configurations; negative when 2p is slower).
	GainPerDoubling *float64 `json:"gain_per_doubling,omitempty"`
	PickedBy        []Rule   `json:"picked_by,omitempty"`
}

// Choice is one rule's pick.
type Choice struct {
	Rule   Rule   `json:"rule"`
	Config Config `json:"config"`
	Reason string `json:"reason"`
}

// Advice is the recommendation, every rule's pick, and the trade-off table around the
// recommendation.
type Advice struct {
	Method      string   `json:"method"`
	Exact       bool     `json:"exact"` // the rules are exact on the points given
	Rule        Rule     `json:"rule"`
	Recommended Choice   `json:"recommended"`
	Choices     []Choice `json:"choices"`
	TradeOff    []Config `json:"trade_off"`
	// SpeedupReference is the T_1 of every speedup and efficiency above (package comment).
	SpeedupReference Reference `json:"speedup_reference"`
	// KneeAtRangeEnd: the knee rule found no knee — every doubling up to the largest p
	// given still saves KneeGain or more — so the "knee" is only the end of the range
	// searched; LastDoublingGain is 1 − T(p)/T(p/2) there (absent when p/2 was not given).
	KneeAtRangeEnd   bool     `json:"knee_at_range_end,omitempty"`
	LastDoublingGain *float64 `json:"last_doubling_gain,omitempty"`
	Options          struct {
		KneeGain      float64 `json:"knee_gain_per_doubling"`
		MinEfficiency float64 `json:"min_efficiency"`
		WithinFastest float64 `json:"within_fastest"`
	} `json:"options"`
	Notes []string `json:"notes,omitempty"`
}

// rangeEdge reports whether the knee (index into cs) is the largest p of the frontier with
// the doubling before it still paying (the frontier's previous point exists), and the gain
// of the last doubling 1 − T(p)/T(p/2) at the knee's d when (p/2, d) is among cs.
func rangeEdge(cs []Config, front []int, knee int) (bool, *float64) {
	if len(front) < 2 || knee != front[len(front)-1] || cs[knee].P != cs[len(cs)-1].P {
		return false, nil
	}
	k := cs[knee]
	for _, c := range cs {
		if c.P*2 == k.P && c.D == k.D && c.TimeS > 0 {
			g := 1 - k.TimeS/c.TimeS
			return true, &g
		}
	}
	return true, nil
}

// Advise applies the rules to the points. Errors wrap fault.ErrInput (naming the point) for
// empty input, p < 1, d < 0, a non-positive or non-finite time, a repeated (p, d), or bad
// options; fault.ErrTooLarge beyond MaxPoints.
func Advise(points []Point, opt Options) (*Advice, error) {
	opt, err := opt.withDefaults()
	if err != nil {
		return nil, err
	}
	if err := checkPoints(points); err != nil {
		return nil, err
	}
	ref := reference(points, opt.T1)
	cs := configs(points, ref)
	front := frontier(cs)
	pk, edge, edgeGain := pickRules(cs, front, opt)
	if pk.picks[Efficiency] < 0 || pk.picks[Balanced] < 0 {
		pk.mostEfficient(cs, opt, ref)
	}
	a := &Advice{Method: "sizing rules on the given configurations (" + string(opt.Rule) + ")", Exact: true, Rule: opt.Rule, SpeedupReference: ref, KneeAtRangeEnd: edge, LastDoublingGain: edgeGain}
	a.Options.KneeGain, a.Options.MinEfficiency, a.Options.WithinFastest = opt.KneeGain, opt.MinEfficiency, opt.WithinFastest
	a.Notes = pk.notes
	for _, r := range Rules() {
		c := cs[pk.picks[r]]
		ch := Choice{Rule: label(r, edge), Config: c, Reason: pk.reasons[r]}
		a.Choices = append(a.Choices, ch)
		if r == opt.Rule {
			a.Recommended = ch
		}
	}
	if ref.Kind == PMinTimesTPMin && ref.P > 1 {
		a.Notes = append(a.Notes, fmt.Sprintf("speedup and efficiency: no one-processor time T_1 was available, so T_1 ≈ p_min·T(p_min) = %d × %.6g = %.6g (perfect scaling up to p_min = %d assumed: speedup and efficiency are overstated if the program scales worse below p_min)", ref.P, ref.TimeS, ref.T1S, ref.P))
	}
	a.TradeOff = tradeOff(cs, front, pk.picks, pk.picks[opt.Rule], opt.Around, edge)
	return a, nil
}

// checkPoints refuses what Advise refuses of its points (see Advise).
func checkPoints(points []Point) error {
	if len(points) == 0 {
		return fmt.Errorf("%w: sizing: no configurations", fault.ErrInput)
	}
	if len(points) > MaxPoints {
		return fmt.Errorf("%w: sizing: %d configurations, limit %d", fault.ErrTooLarge, len(points), MaxPoints)
	}
	type key struct{ p, d int }
	seen := make(map[key]int, len(points))
	for i, pt := range points {
		if pt.P < 1 || pt.P > 1<<30 {
			return fmt.Errorf("%w: sizing: point %d: p = %d: allowed 1 … 2^30", fault.ErrInput, i+1, pt.P)
		}
		if pt.D < 0 {
			return fmt.Errorf("%w: sizing: point %d: d = %d: allowed ≥ 0", fault.ErrInput, i+1, pt.D)
		}
		if !(pt.TimeS > 0) || math.IsInf(pt.TimeS, 0) {
			return fmt.Errorf("%w: sizing: point %d (p = %d): time %g: allowed a positive finite number", fault.ErrInput, i+1, pt.P, pt.TimeS)
		}
		if j, dup := seen[key{pt.P, pt.D}]; dup {
			return fmt.Errorf("%w: sizing: point %d repeats p = %d, d = %d of point %d (average replicates first)", fault.ErrInput, i+1, pt.P, pt.D, j)
		}
		seen[key{pt.P, pt.D}] = i + 1
	}
	return nil
}

// configs are the points with their speedup, efficiency and core-hours against ref, in
// the order p, then time, then d — every rule's tie-break towards fewer processes.
func configs(points []Point, ref Reference) []Config {
	cs := make([]Config, len(points))
	for i, pt := range points {
		s, e := ref.Speedup(pt.P, pt.TimeS)
		cs[i] = Config{P: pt.P, D: pt.D, TimeS: pt.TimeS, Speedup: s, Efficiency: e, CoreHours: float64(pt.P) * pt.TimeS / 3600}
	}
	sort.SliceStable(cs, func(a, b int) bool {
		if cs[a].P != cs[b].P {
			return cs[a].P < cs[b].P
		}
		if cs[a].TimeS != cs[b].TimeS {
			return cs[a].TimeS < cs[b].TimeS
		}
		return cs[a].D < cs[b].D
	})
	return cs
}

// frontier is, per p, its fastest d (indices into cs, ordered by configs), kept only if
// faster than every smaller p.
func frontier(cs []Config) []int {
	var front []int
	best := math.Inf(1)
	for i := range cs {
		if i > 0 && cs[i].P == cs[i-1].P {
			continue
		}
		if cs[i].TimeS < best {
			best = cs[i].TimeS
			front = append(front, i)
		}
	}
	return front
}

// argmin is the index in cs of the least configuration by less among those ok accepts
// (-1: none).
func argmin(cs []Config, ok func(c Config) bool, less func(a, b Config) bool) int {
	k := -1
	for i, c := range cs {
		if ok(c) && (k < 0 || less(c, cs[k])) {
			k = i
		}
	}
	return k
}

func faster(a, b Config) bool { return a.TimeS < b.TimeS }

func cheaper(a, b Config) bool {
	if a.CoreHours != b.CoreHours {
		return a.CoreHours < b.CoreHours
	}
	return a.TimeS < b.TimeS
}

func anyConfig(Config) bool { return true }

// picked is each rule's configuration (an index into cs; -1 when no configuration
// qualifies yet) with its reason, and the notes the picks need.
type picked struct {
	picks   map[Rule]int
	reasons map[Rule]string
	notes   []string
}

// pickRules applies every rule to cs; edge says the knee is the end of the range searched
// (every doubling up to the largest p still pays), with the last doubling's gain.
func pickRules(cs []Config, front []int, opt Options) (pk picked, edge bool, edgeGain *float64) {
	pk = picked{picks: map[Rule]int{}, reasons: map[Rule]string{}}
	pk.picks[Fastest] = argmin(cs, anyConfig, faster)
	pk.reasons[Fastest] = "smallest time"
	pk.picks[CoreHours] = argmin(cs, anyConfig, cheaper)
	pk.reasons[CoreHours] = "fewest core-hours (p × time)"
	tf := cs[pk.picks[Fastest]].TimeS
	pk.picks[Cheapest] = argmin(cs, func(c Config) bool { return c.TimeS <= tf*(1+opt.WithinFastest) }, cheaper)
	pk.reasons[Cheapest] = fmt.Sprintf("fewest core-hours within %.3g %% of the fastest time", 100*opt.WithinFastest)
	pk.picks[Efficiency] = argmin(cs, func(c Config) bool { return c.Efficiency >= opt.MinEfficiency }, faster)
	pk.reasons[Efficiency] = fmt.Sprintf("fastest with efficiency ≥ %.3g", opt.MinEfficiency)
	knee := kneeOf(cs, front, opt.KneeGain)
	pk.picks[Knee] = knee
	pk.reasons[Knee] = fmt.Sprintf("no larger p saves %.3g %% of the time per doubling", 100*opt.KneeGain)
	kp := cs[knee].P
	pk.picks[Balanced] = argmin(cs, func(c Config) bool { return c.Efficiency >= opt.MinEfficiency && c.P <= kp }, faster)
	pk.reasons[Balanced] = fmt.Sprintf("fastest at or below the knee (p = %d) with efficiency ≥ %.3g", kp, opt.MinEfficiency)
	edge, edgeGain = rangeEdge(cs, front, knee)
	if edge {
		// every doubling up to the largest p still pays: that p is the end of the range
		// searched, not a knee (issue 29)
		pk.reasons[Knee] = fmt.Sprintf("no knee within the range: it ends at p = %d and doublings up to it still save %.3g %% of the time or more", kp, 100*opt.KneeGain)
		pk.reasons[Balanced] = fmt.Sprintf("fastest up to the end of the range (p = %d; no knee within it) with efficiency ≥ %.3g", kp, opt.MinEfficiency)
	}
	return pk, edge, edgeGain
}

// kneeOf is the knee: the first frontier configuration from which no larger one gains
// gain per doubling; the last frontier configuration when every step still pays.
// gain(i→j) ≥ g ⇔ uⱼ ≤ uᵢ with u = ln T − ln(1−g)·log₂ p, so one pass with the suffix
// minimum of u decides every i (O(n), not O(n²)).
func kneeOf(cs []Config, front []int, gain float64) int {
	c := math.Log(1 - gain)
	u := make([]float64, len(front))
	for a, i := range front {
		u[a] = math.Log(cs[i].TimeS) - c*math.Log2(float64(cs[i].P))
	}
	suffix := math.Inf(1)
	payFrom := make([]bool, len(front))
	for a := len(front) - 1; a >= 0; a-- {
		payFrom[a] = suffix <= u[a]
		suffix = math.Min(suffix, u[a])
	}
	for a, i := range front {
		if !payFrom[a] {
			return i
		}
	}
	return front[len(front)-1]
}

// mostEfficient gives the efficiency rules that no configuration meets the most efficient
// one, with a note. Only with T_1 from a model or measurement (the smallest p has
// efficiency 1 against p_min·T(p_min)).
func (pk *picked) mostEfficient(cs []Config, opt Options, ref Reference) {
	hi := argmin(cs, anyConfig, func(a, b Config) bool { return a.Efficiency > b.Efficiency })
	if pk.picks[Efficiency] < 0 {
		pk.picks[Efficiency] = hi
		pk.reasons[Efficiency] = fmt.Sprintf("no configuration reaches efficiency %.3g: the most efficient", opt.MinEfficiency)
	}
	if pk.picks[Balanced] < 0 {
		pk.picks[Balanced] = hi
		pk.reasons[Balanced] = fmt.Sprintf("no configuration at or below the knee reaches efficiency %.3g: the most efficient", opt.MinEfficiency)
	}
	pk.notes = append(pk.notes, fmt.Sprintf("efficiency %.3g is not reached against T_1 = %.6g (%s)", opt.MinEfficiency, ref.T1S, ref.Source))
}

// tradeOff is the trade-off table: the frontier around the recommendation rec (around
// configurations each side), every rule's pick, and the doubling points p0·2^k up to the
// largest row around the recommendation, so the table shows the steps its gains are
// computed over; each row with its gain per doubling and the rules that picked it.
func tradeOff(cs []Config, front []int, picks map[Rule]int, rec, around int, edge bool) []Config {
	rows := map[int]bool{}
	pos := -1
	for a, i := range front {
		if cs[i].P <= cs[rec].P {
			pos = a
		}
	}
	for a := pos - around; a <= pos+around; a++ {
		if a >= 0 && a < len(front) {
			rows[front[a]] = true
		}
	}
	at := make(map[[2]int]int, len(cs)) // (p, d) → index in cs
	maxRow := 0
	for i, c := range cs {
		at[[2]int{c.P, c.D}] = i
		if rows[i] {
			maxRow = max(maxRow, c.P)
		}
	}
	for _, i := range picks {
		rows[i] = true
	}
	for i, c := range cs {
		if q := c.P / cs[0].P; c.P <= maxRow && c.P%cs[0].P == 0 && q&(q-1) == 0 && (i == 0 || cs[i-1].P != c.P) {
			rows[i] = true // the fastest d at each doubling p
		}
	}
	idx := make([]int, 0, len(rows))
	for i := range rows {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var out []Config
	for _, i := range idx {
		c := cs[i]
		if j, ok := at[[2]int{2 * c.P, c.D}]; ok {
			g := 1 - cs[j].TimeS/c.TimeS
			c.GainPerDoubling = &g
		}
		for _, r := range Rules() {
			if picks[r] == i {
				c.PickedBy = append(c.PickedBy, label(r, edge))
			}
		}
		out = append(out, c)
	}
	return out
}

// reference is the caller's T_1, or the estimate p_min·T(p_min) from the smallest p given at
// its fastest d.
func reference(points []Point, t1 *Reference) Reference {
	if t1 != nil {
		return *t1
	}
	p0, t0 := math.MaxInt, 0.0
	for _, pt := range points {
		if pt.P < p0 || (pt.P == p0 && pt.TimeS < t0) {
			p0, t0 = pt.P, pt.TimeS
		}
	}
	src := fmt.Sprintf("no one-processor time: p_min·T(p_min) at the smallest p given, %d, perfect scaling up to it assumed", p0)
	if p0 == 1 {
		src = "the p = 1 configuration given (its source not stated)"
	}
	return Reference{Kind: PMinTimesTPMin, TimeS: t0, P: p0, T1S: float64(p0) * t0, Source: src}
}
