package jmva

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/qn"
)

// Write writes d as a .jmva file JMT opens: the model (think times as a delay station
// "think", groups of Count stations as Count stations "name#i"), the what-if analysis and
// the reference stations if set (the think-time station is named "think", or "think_", …
// if a station already has that name), and the solutions if any. Load-dependent stations are
// written with S(n) = S/α(n) for n = 1..N, N the total closed population (JMVA's rule); open
// classes cannot visit them. Numbers are written in Go's shortest round-trip form, so a
// model read back is the same model.
func Write(w io.Writer, d *Document) error {
	m := d.Model
	if m == nil {
		return fmt.Errorf("%w: jmva: no model to write", fault.ErrInput)
	}
	if err := m.Validate(); err != nil {
		return fmt.Errorf("%w: jmva: %w", fault.ErrInput, err)
	}
	if len(m.ForkJoins) > 0 {
		return fmt.Errorf("%w: jmva: JMVA has no fork/join nodes (model has %q)", fault.ErrInput, m.ForkJoins[0].Name)
	}
	jw := &jmvaWriter{bw: bufio.NewWriter(w), m: m}
	think := false
	for _, c := range m.Classes {
		jw.maxPop += c.Population
		think = think || (!c.Open && c.ThinkTime > 0)
	}
	p := jw.p
	p("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	p("<model xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"JMTmodel.xsd\">\n")
	if d.Description != "" {
		p("  <description><![CDATA[%s]]></description>\n", strings.ReplaceAll(d.Description, "]]>", "]]]]><![CDATA[>"))
	}
	p("  <parameters>\n    <classes number=\"%d\">\n", len(m.Classes))
	for _, c := range m.Classes {
		if c.Open {
			p("      <openclass name=\"%s\" rate=\"%s\"/>\n", xmlAttr(c.Name), num(c.ArrivalRate))
		} else {
			p("      <closedclass name=\"%s\" population=\"%d\"/>\n", xmlAttr(c.Name), c.Population)
		}
	}
	nst := 0
	for _, s := range m.Stations {
		nst += s.Copies()
	}
	if think {
		nst++
	}
	p("    </classes>\n    <stations number=\"%d\">\n", nst)
	if think {
		jw.thinkStation()
	}
	for k, s := range m.Stations {
		for copy := 1; copy <= s.Copies(); copy++ {
			if err := jw.station(k, copy); err != nil {
				return err
			}
		}
	}
	p("    </stations>\n")
	if len(d.Reference) > 0 {
		p("    <ReferenceStation number=\"%d\">\n", len(d.Reference))
		for _, c := range m.Classes {
			if r, ok := d.Reference[c.Name]; ok {
				p("      <Class name=\"%s\" refStation=\"%s\"/>\n", xmlAttr(c.Name), xmlAttr(r))
			}
		}
		p("    </ReferenceStation>\n")
	}
	p("  </parameters>\n")
	if d.WhatIf != nil {
		jw.whatIf(d.WhatIf)
	}
	for _, s := range d.Solutions {
		jw.solution(s)
	}
	p("</model>\n")
	return jw.bw.Flush()
}

// jmvaWriter writes one model's .jmva document; maxPop is its total closed population.
type jmvaWriter struct {
	bw     *bufio.Writer
	m      *qn.Model
	maxPop int
}

func (jw *jmvaWriter) p(format string, args ...any) { fmt.Fprintf(jw.bw, format, args...) }

// xmlAttr escapes s for an XML attribute value in double quotes.
func xmlAttr(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return strings.ReplaceAll(b.String(), `"`, "&quot;")
}

// num writes v in Go's shortest round-trip form.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// visit is class c's visits to station k (1 when the model gives none).
func (jw *jmvaWriter) visit(c, k int) float64 {
	if jw.m.Visits != nil {
		return jw.m.Visits[c][k]
	}
	return 1
}

// thinkStation writes the think times as a delay station visited once by every closed
// class with a think time.
func (jw *jmvaWriter) thinkStation() {
	m, p := jw.m, jw.p
	p("      <delaystation name=\"%s\">\n        <servicetimes>\n", xmlAttr(thinkStationName(m)))
	for _, c := range m.Classes {
		p("          <servicetime customerclass=\"%s\">%s</servicetime>\n", xmlAttr(c.Name), num(c.ThinkTime))
	}
	p("        </servicetimes>\n        <visits>\n")
	for _, c := range m.Classes {
		v := 1.0
		if c.Open || c.ThinkTime == 0 {
			v = 0
		}
		p("          <visit customerclass=\"%s\">%s</visit>\n", xmlAttr(c.Name), num(v))
	}
	p("        </visits>\n      </delaystation>\n")
}

// station writes copy `copy` of station k ("name#copy" in a group) with its service time
// per visit S = D/V per class (for a load-dependent station S/α(n), n = 1..maxPop) and its
// visits.
func (jw *jmvaWriter) station(k, copy int) error {
	m, p, s := jw.m, jw.p, jw.m.Stations[k]
	name := s.Name
	if s.Copies() > 1 {
		name = fmt.Sprintf("%s#%d", s.Name, copy)
	}
	tag, attrs, err := jw.stationTag(k)
	if err != nil {
		return err
	}
	p("      <%s name=\"%s\"%s>\n        <servicetimes>\n", tag, xmlAttr(name), attrs)
	for c, cl := range m.Classes {
		v := jw.visit(c, k)
		st := 0.0
		if v > 0 {
			st = m.Demand[c][k] / v
		} else if m.Demand[c][k] > 0 {
			return fmt.Errorf("%w: jmva: station %q, class %q: demand %v with zero visits", fault.ErrInput, s.Name, cl.Name, m.Demand[c][k])
		}
		if s.Kind != qn.LoadDependent {
			p("          <servicetime customerclass=\"%s\">%s</servicetime>\n", xmlAttr(cl.Name), num(st))
			continue
		}
		vals := make([]string, jw.maxPop)
		for n := 1; n <= jw.maxPop; n++ {
			a := s.Rates[min(n, len(s.Rates))-1]
			vals[n-1] = num(st / a)
		}
		p("          <servicetimes customerclass=\"%s\">%s</servicetimes>\n", xmlAttr(cl.Name), strings.Join(vals, ";"))
	}
	p("        </servicetimes>\n        <visits>\n")
	for c, cl := range m.Classes {
		p("          <visit customerclass=\"%s\">%s</visit>\n", xmlAttr(cl.Name), num(jw.visit(c, k)))
	}
	p("        </visits>\n      </%s>\n", tag)
	return nil
}

// stationTag is station k's JMVA element and attributes; a load-dependent station is
// refused when an open class visits it, when there are no closed jobs, or when it needs
// more than MaxLDPoints service times.
func (jw *jmvaWriter) stationTag(k int) (tag, attrs string, err error) {
	m, s := jw.m, jw.m.Stations[k]
	switch s.Kind {
	case qn.Delay:
		tag = "delaystation"
	case qn.Queue:
		tag, attrs = "listation", ` servers="1"`
	case qn.MultiServer:
		tag, attrs = "listation", fmt.Sprintf(` servers="%d"`, s.Servers)
	case qn.LoadDependent:
		tag, attrs = "ldstation", ` servers="1"`
		for c, cl := range m.Classes {
			if cl.Open && m.Demand[c][k] > 0 {
				return "", "", fmt.Errorf("%w: jmva: open class %q visits load-dependent station %q, which JMVA does not solve", fault.ErrInput, cl.Name, s.Name)
			}
		}
		if jw.maxPop == 0 {
			return "", "", fmt.Errorf("%w: jmva: load-dependent station %q in a model without closed jobs", fault.ErrInput, s.Name)
		}
		if jw.maxPop > MaxLDPoints {
			return "", "", fmt.Errorf("%w: jmva: load-dependent station %q needs %d service times (one per job), more than %d", fault.ErrTooLarge, s.Name, jw.maxPop, MaxLDPoints)
		}
	}
	return tag, attrs, nil
}

// whatIf writes the what-if analysis element.
func (jw *jmvaWriter) whatIf(wi *WhatIf) {
	p := jw.p
	vals := make([]string, len(wi.Values))
	for i, v := range wi.Values {
		vals[i] = num(v)
	}
	p("  <whatIf type=\"%s\" values=\"%s\"", xmlAttr(wi.Type), strings.Join(vals, ";"))
	if wi.Class != "" {
		p(" className=\"%s\"", xmlAttr(wi.Class))
	}
	if wi.Station != "" {
		p(" stationName=\"%s\"", xmlAttr(wi.Station))
	}
	p("/>\n")
}

// solution writes one solutions element: per station and class the measures that are not
// NaN (NaN: not saved).
func (jw *jmvaWriter) solution(s Solution) {
	p := jw.p
	p("  <solutions ok=\"%t\" solutionMethod=\"%s\" iteration=\"%d\" iterationValue=\"%s\">\n", s.OK, xmlAttr(s.Method), s.Iteration, num(s.IterationValue))
	alg := s.Algorithm
	if alg == "" {
		alg = "MVA"
	}
	p("    <algorithm name=\"%s\">\n", xmlAttr(alg))
	for _, st := range s.Results {
		p("      <stationresults station=\"%s\">\n", xmlAttr(st.Station))
		for _, c := range st.Classes {
			p("        <classresults customerclass=\"%s\">\n", xmlAttr(c.Class))
			for _, ms := range []struct {
				name string
				v    float64
			}{{"Number of Customers", c.Jobs}, {"Throughput", c.Throughput}, {"Residence time", c.Residence}, {"Utilization", c.Utilization}} {
				if ms.v == ms.v { // NaN: not saved
					p("          <measure measureType=\"%s\" meanValue=\"%s\" successful=\"true\"/>\n", ms.name, num(ms.v))
				}
			}
			p("        </classresults>\n")
		}
		p("      </stationresults>\n")
	}
	p("    </algorithm>\n  </solutions>\n")
}

// thinkStationName is the name Write gives the delay station that stands for think times:
// "think", or "think_", "think__", … if a station (or a group's copy "name#i") already has it.
func thinkStationName(m *qn.Model) string {
	name := "think"
	for taken := true; taken; {
		taken = false
		for _, s := range m.Stations {
			if s.Name == name || strings.HasPrefix(s.Name, name+"#") {
				taken = true
			}
		}
		if taken {
			name += "_"
		}
	}
	return name
}

// SolutionOf turns a clusterperf result of m into a JMVA solution with one entry per
// station Write writes, under the same names, so the solution matches the exported model:
// per station and class the station throughput X_c·V, the residence time over all visits,
// the jobs and the utilization. A group of Count stations is written as Count stations
// "name#i"; each copy carries the group's per-copy results (qn.Result is per copy). If a
// closed class has a think time Z_c, the delay station Write adds for it (named as in
// Write, listed first as Write lists it) has residence Z_c, throughput X_c (one visit) and,
// by Little's law, jobs = utilization = X_c·Z_c (a delay's utilization is its mean number
// of busy servers); classes that do not visit it (open, or Z_c = 0) get zeros.
func SolutionOf(m *qn.Model, r *qn.Result) Solution {
	s := Solution{OK: true, Method: "analytical", Algorithm: r.Solver}
	think := false
	for _, c := range m.Classes {
		think = think || (!c.Open && c.ThinkTime > 0)
	}
	if think {
		sr := StationResult{Station: thinkStationName(m)}
		for c, cl := range m.Classes {
			cr := ClassResult{Class: cl.Name}
			if !cl.Open && cl.ThinkTime > 0 {
				x := r.Throughput[c]
				cr = ClassResult{Class: cl.Name, Jobs: x * cl.ThinkTime, Throughput: x, Residence: cl.ThinkTime, Utilization: x * cl.ThinkTime}
			}
			sr.Classes = append(sr.Classes, cr)
		}
		s.Results = append(s.Results, sr)
	}
	for k, st := range m.Stations {
		var classes []ClassResult
		for c, cl := range m.Classes {
			v := 1.0
			if m.Visits != nil {
				v = m.Visits[c][k]
			}
			classes = append(classes, ClassResult{Class: cl.Name, Jobs: r.QueueLength[k][c],
				Throughput: r.Throughput[c] * v, Residence: r.Residence[k][c], Utilization: r.Utilization[k][c]})
		}
		for copy := 1; copy <= st.Copies(); copy++ {
			name := st.Name
			if st.Copies() > 1 {
				name = fmt.Sprintf("%s#%d", st.Name, copy)
			}
			s.Results = append(s.Results, StationResult{Station: name, Classes: append([]ClassResult(nil), classes...)})
		}
	}
	return s
}
