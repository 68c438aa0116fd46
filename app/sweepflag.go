package app

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/internal/ranges"
	"github.com/clusterperf/clusterperf/internal/units"
	"github.com/clusterperf/clusterperf/qn"
)

// ParseSweep reads "population[.CLASS]=RANGE" (RANGE in the one range syntax of internal/ranges:
// N, FROM:TO, FROM:TO:STEP, FROM:TO:xK, comma-separated), "demand.STATION[.CLASS]=RANGE" or
// "arrival_rate[.CLASS]=RANGE" (the same FROM:TO:STEP syntax in the field's units, plus
// FROM:TO:nN for N evenly spaced values; FROM:TO alone is 21 of them: parseRealRange).
// CLASS may be left out when the model has one class of the kind needed.
func ParseSweep(s string, m *qn.Model) (qn.SweepParam, []float64, error) {
	lhs, rng, ok := strings.Cut(s, "=")
	if !ok {
		return qn.SweepParam{}, nil, fmt.Errorf("sweep %q: want NAME=FROM:TO[:STEP], e.g. population=1:100:10 or demand.cpu=0.01:0.1:0.01 (FROM:TO:nN for N points)", s)
	}
	parts := strings.Split(lhs, ".")
	p := qn.SweepParam{What: parts[0], Class: -1, Label: lhs}
	var err error
	switch p.What {
	case "population", "arrival_rate":
		if len(parts) > 2 {
			return p, nil, fmt.Errorf("sweep %q: want %s[.CLASS]", s, p.What)
		}
		name := ""
		if len(parts) == 2 {
			name = parts[1]
		}
		p.Class, err = sweepClass(s, m, p.What, name, p.What == "arrival_rate")
	case "demand":
		p.Station, p.Class, err = sweepDemand(s, m, parts)
	default:
		return p, nil, fmt.Errorf("sweep %q: can sweep population, demand or arrival_rate, not %q", s, p.What)
	}
	if err != nil {
		return p, nil, err
	}
	unit, base := units.Duration, "s" // demand: a time with an optional unit (1ms:50ms:1ms)
	if p.What == "arrival_rate" {
		unit, base = units.Rate, "/s" // 1/s:5/s, 60/min:300/min
	}
	vals, err := parseRange(rng, p.What == "population", unit, base)
	if err != nil {
		return p, nil, fmt.Errorf("sweep %q: %w", s, err)
	}
	return p, vals, nil
}

// sweepClass is the index of the class named name in m, which must be open (arrival_rate)
// or closed (population) as open says; with no name, the model's one class of that kind.
// s is the --sweep value and what its field, for the messages.
func sweepClass(s string, m *qn.Model, what, name string, open bool) (int, error) {
	kind := map[bool]string{true: "open", false: "closed"}
	if name == "" {
		var cand []int
		for i, c := range m.Classes {
			if c.Open == open {
				cand = append(cand, i)
			}
		}
		if len(cand) != 1 {
			return 0, fmt.Errorf("sweep %q: the model has %d %s classes; name one, e.g. %s.NAME", s, len(cand), kind[open], what)
		}
		return cand[0], nil
	}
	for i, c := range m.Classes {
		if c.Name == name {
			if c.Open != open {
				return 0, fmt.Errorf("sweep %q: class %q is %s", s, name, kind[c.Open])
			}
			return i, nil
		}
	}
	return 0, fmt.Errorf("sweep %q: no class named %q", s, name)
}

// sweepDemand reads demand.STATION[.CLASS] (parts) into the station's index and the
// class's (−1: every class).
func sweepDemand(s string, m *qn.Model, parts []string) (station, class int, err error) {
	if len(parts) < 2 || len(parts) > 3 {
		return -1, -1, fmt.Errorf("sweep %q: want demand.STATION[.CLASS]", s)
	}
	station, class = -1, -1
	for k, st := range m.Stations {
		if st.Name == parts[1] {
			station = k
		}
	}
	if station < 0 {
		return -1, -1, fmt.Errorf("sweep %q: no station named %q", s, parts[1])
	}
	if len(parts) == 3 {
		for i, c := range m.Classes {
			if c.Name == parts[2] {
				class = i
			}
		}
		if class < 0 {
			return station, -1, fmt.Errorf("sweep %q: no class named %q", s, parts[2])
		}
	}
	return station, class, nil
}

// parseRange reads a population range (integer) or a real range in unit, whose base unit
// ("s", "/s") is base.
func parseRange(s string, integer bool, unit func(string) (float64, error), base string) ([]float64, error) {
	if integer {
		// Populations take the project's one range syntax (internal/ranges): lists,
		// FROM:TO, FROM:TO:STEP and FROM:TO:xK, e.g. 1:64, 4:64:4, 1:1024:x2, 1,2,4,8.
		ns, err := ranges.Parse("population", s, ranges.Limits{Min: 0, Max: 1 << 30, MaxCount: qn.MaxSweepPoints})
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(ns))
		for i, n := range ns {
			out[i] = float64(n)
		}
		return out, nil
	}
	return parseRealRange(s, unit, base)
}

// defaultSweepPoints is the number of evenly spaced values of a real range FROM:TO.
const defaultSweepPoints = 21

// parseRealRange reads a real sweep range (demand, arrival_rate), the same FROM:TO:STEP
// syntax as the integer ranges of internal/ranges, with FROM, TO and STEP in the field's
// units (unit):
//
//	FROM:TO        21 evenly spaced values FROM … TO
//	FROM:TO:STEP   FROM, FROM+STEP, … up to TO (STEP > 0, e.g. 5ms, 0.01, 60/min)
//	FROM:TO:nN     N evenly spaced values FROM + (TO − FROM)·i/(N − 1), i = 0 … N−1
//	FROM:TO:xK     FROM, FROM·K, FROM·K², … up to TO (K > 1, FROM > 0)
//
// A STEP written as a bare whole number ("0.01:0.2:20") is refused as ambiguous: before the
// n prefix it meant a number of points; the message shows both spellings. The count is
// computed before any value is generated and must lie in 2 … qn.MaxSweepPoints (1 when
// FROM = TO).
func parseRealRange(s string, unit func(string) (float64, error), base string) ([]float64, error) {
	f := strings.Split(s, ":")
	if len(f) < 2 || len(f) > 3 {
		return nil, fmt.Errorf("range %q: want FROM:TO, FROM:TO:STEP, FROM:TO:nN (N points) or FROM:TO:xK (powers)", s)
	}
	var ends [2]float64
	for i := range ends {
		v, err := unit(f[i])
		if err != nil {
			return nil, fmt.Errorf("range %q: %w", s, err)
		}
		ends[i] = v
	}
	a, b := ends[0], ends[1]
	if b < a {
		return nil, fmt.Errorf("range %q: TO is below FROM", s)
	}
	third := "n21"
	if len(f) == 3 {
		third = strings.TrimSpace(f[2])
	}
	var n float64 // the number of values
	var at func(i int) float64
	switch {
	case strings.HasPrefix(third, "n"):
		v, err := strconv.ParseFloat(third[1:], 64)
		if err != nil || v != math.Trunc(v) || v < 2 || v > qn.MaxSweepPoints {
			return nil, fmt.Errorf("range %q: points %q: want n followed by a whole number in 2 … %d", s, third, qn.MaxSweepPoints)
		}
		n, at = v, func(i int) float64 {
			x := a + (b-a)*float64(i)/(v-1)
			if math.IsInf(x, 0) { // (b−a)·i overflowed (TO near 1.8e308): the same point, by the fraction
				x = a + (b-a)*(float64(i)/(v-1))
			}
			return x
		}
	case strings.HasPrefix(third, "x"):
		k, err := strconv.ParseFloat(third[1:], 64)
		if err != nil || math.IsInf(k, 0) || !(k > 1) || !(a > 0) {
			return nil, fmt.Errorf("range %q: factor %q: want x followed by a number > 1 (x2 doubles), and FROM > 0", s, third)
		}
		// values a·k^i ≤ b (with a relative slack of 1e-9 so 1:1000:x10 reaches 1000)
		n = math.Floor(math.Log(b/a)/math.Log(k)+1e-9) + 1
		at = func(i int) float64 { return a * math.Pow(k, float64(i)) }
	default:
		if v, err := strconv.ParseFloat(third, 64); err == nil && v == math.Trunc(v) && v >= 1 {
			return nil, ambiguousStep(s, f[0], f[1], third, v, b-a, base)
		}
		step, err := unit(third)
		if err != nil || !(step > 0) {
			return nil, fmt.Errorf("range %q: STEP %q: want a value > 0 in the field's units, nN for N points or xK for powers", s, third)
		}
		if b > a && step > b-a {
			return nil, fmt.Errorf("range %q: STEP %s is larger than TO − FROM = %g, which gives one value", s, third, b-a)
		}
		n = math.Floor((b-a)/step*(1+1e-9)) + 1 // the slack keeps TO when (TO − FROM)/STEP is whole
		at = func(i int) float64 { return a + step*float64(i) }
	}
	if a == b {
		n = 1
	}
	if n > qn.MaxSweepPoints {
		return nil, fmt.Errorf("range %q: %.0f values; the limit is %d", s, n, qn.MaxSweepPoints)
	}
	out := make([]float64, int(n))
	for i := range out {
		v := at(i)
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, fmt.Errorf("range %q: point %d of %g is outside the float64 range: sweep a smaller range", s, i+1, n)
		}
		out[i] = math.Min(v, b)
	}
	return out, nil
}

// ambiguousStep is the refusal of a bare whole-number STEP v (written third) in the range s
// = FROM:TO, whose TO − FROM is span: it offers only the readings the range can take — v
// evenly spaced values (FROM:TO:nV, when 2 ≤ v ≤ qn.MaxSweepPoints) and a step of v in the
// base unit (FROM:TO:Vbase, when v ≤ span or FROM = TO) — and says why a reading is not
// offered.
func ambiguousStep(s, from, to, third string, v, span float64, base string) error {
	points := v >= 2 && v <= qn.MaxSweepPoints
	step := v <= span || span == 0
	plural := "s"
	if v == 1 {
		plural = ""
	}
	head := fmt.Sprintf("range %q: STEP %s is ambiguous (it used to mean %s point%s)", s, third, third, plural)
	nForm := fmt.Sprintf("%s:%s:n%s for %s evenly spaced values", from, to, third, third)
	stepForm := fmt.Sprintf("%s:%s:%s%s for a step of %s%s", from, to, third, base, third, base)
	noStep := fmt.Sprintf("a step of %s%s is larger than TO − FROM = %.6g%s", third, base, span, base)
	noPoints := fmt.Sprintf("n%s is outside n2 … n%d", third, qn.MaxSweepPoints)
	switch {
	case points && step:
		return fmt.Errorf("%s: write %s, or %s", head, nForm, stepForm)
	case points:
		return fmt.Errorf("%s: write %s (%s)", head, nForm, noStep)
	case step:
		return fmt.Errorf("%s: write %s (%s)", head, stepForm, noPoints)
	}
	return fmt.Errorf("%s, and neither reading fits this range (%s; %s): write FROM:TO:nN with N in 2 … %d, or a STEP with its unit no larger than %.6g%s",
		head, noPoints, noStep, qn.MaxSweepPoints, span, base)
}
