package jmva

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/qn"
)

// MaxFileBytes bounds the size of a .jmva file the reader accepts (16 MiB: about 90 000
// stations; XML decoding holds the whole tree in memory, and reading a file of this size
// takes about 3 s of CPU — BenchmarkReadAtLimit; JMT's own files are kilobytes).
const MaxFileBytes = 16 << 20

// MaxLDPoints bounds the number of load-dependent service times of one station and class.
const MaxLDPoints = 1 << 20

// Document is a .jmva file: the model and what JMVA keeps beside it.
type Document struct {
	Description string
	Model       *qn.Model
	// WhatIf is JMVA's what-if analysis, if the file has one.
	WhatIf *WhatIf
	// Reference maps a class to its reference station (JMVA's ReferenceStation), if given.
	Reference map[string]string
	// Solutions are the results JMVA saved with the model (one per what-if point), if any.
	Solutions []Solution
}

// WhatIf is JMVA's what-if analysis: the model is solved once per value. Type is one of
// "Customer Numbers", "Arrival Rates", "Service Demands", "Population Mix"; Class and Station
// are empty for "every class/station".
type WhatIf struct {
	Type    string
	Values  []float64
	Class   string
	Station string
}

// Solution is one solution JMVA saved: per station and class the mean number of jobs, the
// station throughput X_c·V (jobs/s), the residence time of one job over all its visits
// (seconds) and the utilization.
type Solution struct {
	OK             bool
	Method         string  // solutionMethod, e.g. "analytical" or "analytical whatif"
	Algorithm      string  // e.g. "MVA"; empty in files without an <algorithm> element
	Iteration      int     // what-if point
	IterationValue float64 // what-if value
	Results        []StationResult
}

// StationResult holds one station's results, one entry per class.
type StationResult struct {
	Station string
	Classes []ClassResult
}

// ClassResult is one class's results at one station; a measure JMVA did not save is NaN.
type ClassResult struct {
	Class       string
	Jobs        float64 // "Number of Customers" (older files: "Queue length")
	Throughput  float64 // "Throughput", X_c·V_c,k
	Residence   float64 // "Residence time", seconds over all visits
	Utilization float64 // "Utilization"
}

// ReadModel reads a .jmva file and returns its model: the hook for `clusterperf solve
// model.jmva`. Errors name the file and line and wrap fault.ErrInput.
func ReadModel(file string, data []byte) (*qn.Model, error) {
	d, err := Read(file, data)
	if err != nil {
		return nil, err
	}
	return d.Model, nil
}

// duplicateAttr refuses an element that repeats an attribute (population="7"
// population="6"): XML 1.0 §3.1 (well-formedness constraint "Unique Att Spec") forbids it,
// but encoding/xml accepts it and keeps the last value. It names the file and the line
// where the start tag ends. Other syntax errors are left to the decoding that follows.
func duplicateAttr(file string, data []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	seen := map[xml.Name]int{} // for elements with many attributes: linear, not pairwise
	for {
		tok, err := dec.RawToken()
		if err != nil {
			return nil
		}
		st, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if i, j := repeatedAttr(st.Attr, seen); i >= 0 {
			line, _ := dec.InputPos()
			return errAt(file, line, "<%s> repeats the attribute %s (%q, then %q): an attribute may appear once (XML 1.0 §3.1)", st.Name.Local, qname(st.Attr[j].Name), st.Attr[i].Value, st.Attr[j].Value)
		}
	}
}

// repeatedAttr returns the indexes i < j of the first attribute name given twice in attrs
// (-1, -1 if none): pairwise for a few attributes, through the map seen (cleared) for more,
// so that an element of 150 000 attributes costs linear time (issue 32: 40 000 took 8.7 s).
func repeatedAttr(attrs []xml.Attr, seen map[xml.Name]int) (int, int) {
	if len(attrs) <= 8 {
		for j, a := range attrs {
			for i, b := range attrs[:j] {
				if a.Name == b.Name {
					return i, j
				}
			}
		}
		return -1, -1
	}
	clear(seen)
	for j, a := range attrs {
		if i, dup := seen[a.Name]; dup {
			return i, j
		}
		seen[a.Name] = j
	}
	return -1, -1
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// Read parses a .jmva file strictly (see the package comment) and maps it to a qn.Model.
func Read(file string, data []byte) (*Document, error) {
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%w: %s: %d bytes, more than the %d a .jmva file may have", fault.ErrTooLarge, file, len(data), MaxFileBytes)
	}
	if err := duplicateAttr(file, data); err != nil {
		return nil, err
	}
	var x xModel
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	if err := dec.Decode(&x); err != nil {
		line, _ := dec.InputPos()
		return nil, errAt(file, line, "not a readable JMVA XML file: %v", err)
	}
	if err := afterModel(file, dec); err != nil {
		return nil, err
	}
	e := &errs{file: file}
	if x.Parameters == nil {
		e.add(x.Line, "<model> has no <parameters> (classes and stations)")
		return nil, e.err()
	}
	for _, a := range x.ExtraAttrs {
		if a.Name.Space == "xmlns" || a.Name.Local == "xsi" || a.Name.Local == "noNamespaceSchemaLocation" || a.Name.Local == "jaba" {
			continue
		}
		e.add(x.Line, "<model>: unknown attribute %q", a.Name.Local)
	}
	for _, u := range x.Extra {
		e.add(u.Line, "unknown element <%s> in <model> (allowed: description, parameters, algParams, whatIf, solutions)", u.XMLName.Local)
	}
	p := x.Parameters
	for _, u := range p.Extra {
		e.add(u.Line, "unknown element <%s> in <parameters> (allowed: classes, stations, ReferenceStation)", u.XMLName.Local)
	}
	doc := &Document{Model: &qn.Model{}}
	if x.Description != nil {
		doc.Description = strings.TrimSpace(x.Description.Text)
	}
	m := doc.Model
	classIdx := readClasses(e, p.Classes, m)
	readStations(e, p.Stations, m, classIdx)
	if p.Reference != nil {
		doc.Reference = map[string]string{}
		for _, r := range p.Reference.Classes {
			doc.Reference[r.Name] = r.RefStation
		}
	}
	if len(x.WhatIf) > 1 {
		e.add(x.WhatIf[1].Line, "more than one <whatIf>")
	}
	for _, w := range x.WhatIf[:min(1, len(x.WhatIf))] {
		doc.WhatIf = readWhatIf(e, w)
	}
	for _, s := range x.Solutions {
		doc.Solutions = append(doc.Solutions, readSolutions(e, s)...)
	}
	if err := e.err(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, errAt(file, x.Line, "%v", err)
	}
	return doc, nil
}

// afterModel refuses anything but blanks, comments and processing instructions after </model>.
func afterModel(file string, dec *xml.Decoder) error {
	for {
		tok, err := dec.Token()
		if err != nil {
			break // io.EOF, or garbage reported below by its token
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) == 0 {
				continue
			}
		case xml.Comment, xml.ProcInst:
			continue
		}
		line, _ := dec.InputPos()
		return errAt(file, line, "content after </model>")
	}
	return nil
}

// readWhatIf reads a <whatIf>: its attributes, and its values (1 to qn.MaxSweepPoints, none
// negative), refusals at its line.
func readWhatIf(e *errs, w xWhatIf) *WhatIf {
	for _, a := range w.ExtraAttrs {
		e.add(w.Line, "<whatIf>: unknown attribute %q", a.Name.Local)
	}
	vals, err := parseList(w.Values)
	if err != nil {
		e.add(w.Line, "<whatIf values=%q>: %v", w.Values, err)
	} else if len(vals) == 0 || len(vals) > qn.MaxSweepPoints {
		e.add(w.Line, "<whatIf values=%s>: %d values (want 1 to %d)", input.Excerpt(w.Values), len(vals), qn.MaxSweepPoints)
	}
	for _, v := range vals {
		if v < 0 { // every JMVA what-if value is a population, rate, demand or factor
			e.add(w.Line, "<whatIf>: value %g is negative (a population, rate, demand or factor is ≥ 0)", v)
			break
		}
	}
	return &WhatIf{Type: w.Type, Values: vals, Class: w.ClassName, Station: w.Station}
}

func number(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s is not a finite number", input.Excerpt(strings.TrimSpace(s)))
	}
	return v, nil
}

// parseList reads JMT's list of numbers, separated by ';' (ArrayUtils.toCSV) or ','.
func parseList(s string) ([]float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' })
	if len(f) > MaxLDPoints {
		return nil, fmt.Errorf("%d values, more than %d", len(f), MaxLDPoints)
	}
	out := make([]float64, 0, len(f))
	for _, t := range f {
		v, err := number(t)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func readClasses(e *errs, xc *xClasses, m *qn.Model) map[string]int {
	idx := map[string]int{}
	if xc == nil {
		e.add(0, "no <classes>")
		return idx
	}
	for _, c := range xc.Classes {
		for _, a := range c.ExtraAttrs {
			e.add(c.Line, "<%s name=%q>: unknown attribute %q", c.XMLName.Local, c.Name, a.Name.Local)
		}
		for _, u := range c.Extra {
			e.add(u.Line, "unknown element <%s> in <%s>", u.XMLName.Local, c.XMLName.Local)
		}
		if c.Name == "" {
			e.add(c.Line, "<%s> has no name", c.XMLName.Local)
			continue
		}
		if _, dup := idx[c.Name]; dup {
			e.add(c.Line, "class %q defined twice", c.Name)
			continue
		}
		if c.Priority != "" {
			if v, err := number(c.Priority); err != nil || v != 0 {
				e.add(c.Line, "class %q: priority %q: only 0 (no priorities) is supported", c.Name, c.Priority)
			}
		}
		cl := qn.Class{Name: c.Name}
		switch c.XMLName.Local {
		case "closedclass":
			n, err := strconv.Atoi(strings.TrimSpace(c.Population))
			if err != nil || n < 0 {
				e.add(c.Line, "class %q: population %q must be a whole number ≥ 0", c.Name, c.Population)
			}
			cl.Population = n
		case "openclass":
			r, err := number(c.Rate)
			if err != nil || r < 0 {
				e.add(c.Line, "class %q: rate %q must be a finite number ≥ 0 (arrivals per second)", c.Name, c.Rate)
			}
			cl.Open, cl.ArrivalRate = true, r
		default:
			e.add(c.Line, "unknown class element <%s> (allowed: closedclass, openclass)", c.XMLName.Local)
			continue
		}
		idx[c.Name] = len(m.Classes)
		m.Classes = append(m.Classes, cl)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(xc.Number)); xc.Number != "" && (err != nil || n != len(m.Classes)) {
		e.add(xc.Line, "<classes number=%q> but %d classes are listed", xc.Number, len(m.Classes))
	}
	return idx
}

// perClass reads one value per class from values (servicetime or visit elements), each
// class exactly once.
func perClass(e *errs, what, station string, vals []xValue, idx map[string]int, C int) ([]float64, []bool) {
	out := make([]float64, C)
	seen := make([]bool, C)
	for _, v := range vals {
		for _, a := range v.ExtraAttrs {
			e.add(v.Line, "station %q: <%s>: unknown attribute %q", station, what, a.Name.Local)
		}
		c, ok := idx[v.Class]
		if !ok {
			e.add(v.Line, "station %q: %s for unknown class %q", station, what, v.Class)
			continue
		}
		if seen[c] {
			e.add(v.Line, "station %q: %s of class %q given twice", station, what, v.Class)
			continue
		}
		x, err := number(v.Text)
		if err != nil || x < 0 {
			e.add(v.Line, "station %q, class %q: %s %q must be a finite number ≥ 0", station, v.Class, what, strings.TrimSpace(v.Text))
			continue
		}
		out[c], seen[c] = x, true
	}
	return out, seen
}

// readStations reads the stations into m: each station's kind, servers, and per class its
// visits and demand = service time × visits; problems are added to e with their lines.
func readStations(e *errs, xs *xStations, m *qn.Model, idx map[string]int) {
	C := len(m.Classes)
	m.Demand = make([][]float64, C)
	m.Visits = make([][]float64, C)
	if xs == nil {
		e.add(0, "no <stations>")
		return
	}
	names := map[string]bool{}
	maxPop := 0
	for _, c := range m.Classes {
		maxPop += c.Population
	}
	for _, s := range xs.Stations {
		kind := s.XMLName.Local
		if !stationElementOK(e, s, names) {
			continue
		}
		// JMVA solves product-form networks: a station whose service times differ by class
		// is processor sharing there (BCMP), so exact MVA stays exact (qn.Station.PS)
		st := qn.Station{Name: s.Name, PS: true}
		servers := 1
		if s.Servers != "" {
			n, err := strconv.Atoi(strings.TrimSpace(s.Servers))
			if err != nil || n < 1 {
				e.add(s.Line, "station %q: servers %q must be a whole number ≥ 1", s.Name, s.Servers)
			} else {
				servers = n
			}
		}
		if s.ServiceTimes == nil || s.Visits == nil {
			e.add(s.Line, "station %q: needs <servicetimes> and <visits>", s.Name)
			continue
		}
		for _, u := range append(s.ServiceTimes.Extra, s.Visits.Extra...) {
			e.add(u.Line, "station %q: unknown element <%s>", s.Name, u.XMLName.Local)
		}
		visits, vseen := perClass(e, "visit", s.Name, s.Visits.Visits, idx, C)
		var times []float64
		var tseen []bool
		if kind == "ldstation" {
			if servers != 1 {
				e.add(s.Line, "station %q: an <ldstation> gives its speed by its service-time list; servers must be 1 (JMVA's rule)", s.Name)
			}
			st.Kind = qn.LoadDependent
			times, tseen = readLD(e, s, &st, idx, C, maxPop)
		} else {
			times, tseen = readFixedRate(e, s, &st, servers, idx, C)
		}
		used := false
		for c := 0; c < C; c++ {
			if !vseen[c] || !tseen[c] {
				e.add(s.Line, "station %q: class %q needs a service time and a visit count", s.Name, m.Classes[c].Name)
			}
			m.Demand[c] = append(m.Demand[c], times[c]*visits[c])
			m.Visits[c] = append(m.Visits[c], visits[c])
			used = used || times[c]*visits[c] > 0
		}
		if st.Kind == qn.LoadDependent && !used {
			// no class visits it: its speed profile changes nothing and a file written
			// from the model (service time = demand/visits) cannot carry it
			st.Rates = []float64{1}
		}
		m.Stations = append(m.Stations, st)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(xs.Number)); xs.Number != "" && (err != nil || n != len(m.Stations)) {
		e.add(xs.Line, "<stations number=%q> but %d stations are listed", xs.Number, len(m.Stations))
	}
}

// stationElementOK checks a station element: a known kind (delaystation, listation,
// ldstation), no unknown attributes or elements (reported, not fatal), and a name not
// empty nor used before; false skips the station.
func stationElementOK(e *errs, s xStation, names map[string]bool) bool {
	kind := s.XMLName.Local
	if kind != "delaystation" && kind != "listation" && kind != "ldstation" {
		e.add(s.Line, "unknown station element <%s> (allowed: delaystation, listation, ldstation)", kind)
		return false
	}
	for _, a := range s.ExtraAttrs {
		e.add(s.Line, "<%s name=%q>: unknown attribute %q", kind, s.Name, a.Name.Local)
	}
	for _, u := range s.Extra {
		e.add(u.Line, "station %q: unknown element <%s> (allowed: servicetimes, visits)", s.Name, u.XMLName.Local)
	}
	if s.Name == "" || names[s.Name] {
		e.add(s.Line, "<%s>: name %q missing or used twice", kind, s.Name)
		return false
	}
	names[s.Name] = true
	return true
}

// readFixedRate reads a delay station's or a listation's service times per class (no
// load-dependent lists) and sets its kind: delay, queue (one server) or multi-server.
func readFixedRate(e *errs, s xStation, st *qn.Station, servers int, idx map[string]int, C int) ([]float64, []bool) {
	if len(s.ServiceTimes.Lists) > 0 {
		e.add(s.ServiceTimes.Lines(), "station %q: load-dependent <servicetimes customerclass=…> lists belong in an <ldstation>", s.Name)
	}
	times, tseen := perClass(e, "service time", s.Name, s.ServiceTimes.Times, idx, C)
	switch {
	case s.XMLName.Local == "delaystation":
		st.Kind = qn.Delay
	case servers == 1:
		st.Kind = qn.Queue
	default:
		st.Kind, st.Servers = qn.MultiServer, servers
	}
	return times, tseen
}

// Lines returns the element's line (for messages about its children).
func (x *xServiceSets) Lines() int { return x.Line }

// readLD reads an <ldstation>'s per-class lists S(1), S(2), … and sets the station's rate
// multipliers α(n) = S(1)/S(n). Classes with a service time must share one profile.
func readLD(e *errs, s xStation, st *qn.Station, idx map[string]int, C, maxPop int) ([]float64, []bool) {
	times := make([]float64, C)
	seen := make([]bool, C)
	if len(s.ServiceTimes.Times) > 0 {
		e.add(s.ServiceTimes.Line, "station %q: an <ldstation> lists <servicetimes customerclass=…>S(1);S(2);…</servicetimes> per class, not <servicetime>", s.Name)
	}
	var profile []float64
	profileClass := ""
	for _, v := range s.ServiceTimes.Lists {
		c, ok := idx[v.Class]
		if !ok {
			e.add(v.Line, "station %q: service times for unknown class %q", s.Name, v.Class)
			continue
		}
		if seen[c] {
			e.add(v.Line, "station %q: service times of class %q given twice", s.Name, v.Class)
			continue
		}
		seen[c] = true
		list, err := parseList(v.Text)
		if err != nil || len(list) == 0 {
			e.add(v.Line, "station %q, class %q: service times %q: want S(1);S(2);… (seconds, > 0): %v", s.Name, v.Class, strings.TrimSpace(v.Text), err)
			continue
		}
		zero := true
		for _, x := range list {
			zero = zero && x == 0
		}
		if zero {
			continue // the class does not use the station
		}
		alpha := make([]float64, len(list))
		for n, x := range list {
			if !(x > 0) {
				e.add(v.Line, "station %q, class %q: service time with %d jobs is %v; must be > 0", s.Name, v.Class, n+1, x)
				return times, seen
			}
			alpha[n] = list[0] / x
		}
		times[c] = list[0]
		if profile == nil {
			profile, profileClass = alpha, v.Class
			continue
		}
		for n := 0; n < min(len(alpha), len(profile)); n++ {
			if math.Abs(alpha[n]-profile[n]) > 1e-9*profile[n] {
				e.add(v.Line, "station %q: classes %q and %q slow down differently with load (S(1)/S(%d) = %g vs %g); clusterperf's load-dependent stations are class independent", s.Name, profileClass, v.Class, n+1, profile[n], alpha[n])
				break
			}
		}
		if len(alpha) > len(profile) {
			profile = alpha
		}
	}
	if profile == nil {
		profile = []float64{1}
	}
	// JMVA lists S(n) for n = 1..N (the total population); trailing equal values are
	// redundant for qn, which repeats the last multiplier.
	for len(profile) > 1 && profile[len(profile)-1] == profile[len(profile)-2] {
		profile = profile[:len(profile)-1]
	}
	st.Rates = profile
	return times, seen
}

var measureNames = map[string]string{
	"number of customers": "q", "queue length": "q", "throughput": "x", "residence time": "r", "utilization": "u",
}

func readSolutions(e *errs, s xSolutions) []Solution {
	base := Solution{OK: s.OK == "true", Method: s.Method}
	if s.Iteration != "" {
		if n, err := strconv.Atoi(s.Iteration); err == nil {
			base.Iteration = n
		} else {
			e.add(s.Line, "<solutions iteration=%q>: not a whole number", s.Iteration)
		}
	}
	if s.IterationValue != "" {
		if v, err := number(s.IterationValue); err == nil {
			base.IterationValue = v
		} else {
			e.add(s.Line, "<solutions iterationValue=%q>: %v", s.IterationValue, err)
		}
	}
	conv := func(sol Solution, stations []xStationResults) Solution {
		for _, st := range stations {
			sr := StationResult{Station: st.Station}
			for _, c := range st.Classes {
				cr := ClassResult{Class: c.Class, Jobs: math.NaN(), Throughput: math.NaN(), Residence: math.NaN(), Utilization: math.NaN()}
				for _, ms := range c.Measures {
					v, err := number(ms.Value)
					if err != nil {
						e.add(st.Line, "station %q, class %q: %s %v", st.Station, c.Class, ms.Type, err)
						continue
					}
					switch measureNames[strings.ToLower(ms.Type)] {
					case "q":
						cr.Jobs = v
					case "x":
						cr.Throughput = v
					case "r":
						cr.Residence = v
					case "u":
						cr.Utilization = v
					}
				}
				sr.Classes = append(sr.Classes, cr)
			}
			sol.Results = append(sol.Results, sr)
		}
		return sol
	}
	var out []Solution
	if len(s.Stations) > 0 {
		out = append(out, conv(base, s.Stations))
	}
	for _, a := range s.Algorithms {
		sol := base
		sol.Algorithm = a.Name
		out = append(out, conv(sol, a.Stations))
	}
	return out
}
