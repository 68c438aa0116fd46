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
	maxPop := 0
	think := false
	for _, c := range m.Classes {
		maxPop += c.Population
		think = think || (!c.Open && c.ThinkTime > 0)
	}
	thinkName := thinkStationName(m)
	bw := bufio.NewWriter(w)
	p := func(format string, args ...any) { fmt.Fprintf(bw, format, args...) }
	esc := func(s string) string {
		var b strings.Builder
		_ = xml.EscapeText(&b, []byte(s))
		return strings.ReplaceAll(b.String(), `"`, "&quot;")
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	p("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	p("<model xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"JMTmodel.xsd\">\n")
	if d.Description != "" {
		p("  <description><![CDATA[%s]]></description>\n", strings.ReplaceAll(d.Description, "]]>", "]]]]><![CDATA[>"))
	}
	p("  <parameters>\n    <classes number=\"%d\">\n", len(m.Classes))
	for _, c := range m.Classes {
		if c.Open {
			p("      <openclass name=\"%s\" rate=\"%s\"/>\n", esc(c.Name), num(c.ArrivalRate))
		} else {
			p("      <closedclass name=\"%s\" population=\"%d\"/>\n", esc(c.Name), c.Population)
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
	visit := func(c, k int) float64 {
		if m.Visits != nil {
			return m.Visits[c][k]
		}
		return 1
	}
	if think {
		p("      <delaystation name=\"%s\">\n        <servicetimes>\n", esc(thinkName))
		for _, c := range m.Classes {
			p("          <servicetime customerclass=\"%s\">%s</servicetime>\n", esc(c.Name), num(c.ThinkTime))
		}
		p("        </servicetimes>\n        <visits>\n")
		for _, c := range m.Classes {
			v := 1.0
			if c.Open || c.ThinkTime == 0 {
				v = 0
			}
			p("          <visit customerclass=\"%s\">%s</visit>\n", esc(c.Name), num(v))
		}
		p("        </visits>\n      </delaystation>\n")
	}
	for k, s := range m.Stations {
		for copy := 1; copy <= s.Copies(); copy++ {
			name := s.Name
			if s.Copies() > 1 {
				name = fmt.Sprintf("%s#%d", s.Name, copy)
			}
			var tag, attrs string
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
						return fmt.Errorf("%w: jmva: open class %q visits load-dependent station %q, which JMVA does not solve", fault.ErrInput, cl.Name, s.Name)
					}
				}
				if maxPop == 0 {
					return fmt.Errorf("%w: jmva: load-dependent station %q in a model without closed jobs", fault.ErrInput, s.Name)
				}
				if maxPop > MaxLDPoints {
					return fmt.Errorf("%w: jmva: load-dependent station %q needs %d service times (one per job), more than %d", fault.ErrTooLarge, s.Name, maxPop, MaxLDPoints)
				}
			}
			p("      <%s name=\"%s\"%s>\n        <servicetimes>\n", tag, esc(name), attrs)
			for c, cl := range m.Classes {
				v := visit(c, k)
				st := 0.0
				if v > 0 {
					st = m.Demand[c][k] / v
				} else if m.Demand[c][k] > 0 {
					return fmt.Errorf("%w: jmva: station %q, class %q: demand %v with zero visits", fault.ErrInput, s.Name, cl.Name, m.Demand[c][k])
				}
				if s.Kind != qn.LoadDependent {
					p("          <servicetime customerclass=\"%s\">%s</servicetime>\n", esc(cl.Name), num(st))
					continue
				}
				vals := make([]string, maxPop)
				for n := 1; n <= maxPop; n++ {
					a := s.Rates[min(n, len(s.Rates))-1]
					vals[n-1] = num(st / a)
				}
				p("          <servicetimes customerclass=\"%s\">%s</servicetimes>\n", esc(cl.Name), strings.Join(vals, ";"))
			}
			p("        </servicetimes>\n        <visits>\n")
			for c, cl := range m.Classes {
				p("          <visit customerclass=\"%s\">%s</visit>\n", esc(cl.Name), num(visit(c, k)))
			}
			p("        </visits>\n      </%s>\n", tag)
		}
	}
	p("    </stations>\n")
	if len(d.Reference) > 0 {
		p("    <ReferenceStation number=\"%d\">\n", len(d.Reference))
		for _, c := range m.Classes {
			if r, ok := d.Reference[c.Name]; ok {
				p("      <Class name=\"%s\" refStation=\"%s\"/>\n", esc(c.Name), esc(r))
			}
		}
		p("    </ReferenceStation>\n")
	}
	p("  </parameters>\n")
	if wi := d.WhatIf; wi != nil {
		vals := make([]string, len(wi.Values))
		for i, v := range wi.Values {
			vals[i] = num(v)
		}
		p("  <whatIf type=\"%s\" values=\"%s\"", esc(wi.Type), strings.Join(vals, ";"))
		if wi.Class != "" {
			p(" className=\"%s\"", esc(wi.Class))
		}
		if wi.Station != "" {
			p(" stationName=\"%s\"", esc(wi.Station))
		}
		p("/>\n")
	}
	for _, s := range d.Solutions {
		p("  <solutions ok=\"%t\" solutionMethod=\"%s\" iteration=\"%d\" iterationValue=\"%s\">\n", s.OK, esc(s.Method), s.Iteration, num(s.IterationValue))
		alg := s.Algorithm
		if alg == "" {
			alg = "MVA"
		}
		p("    <algorithm name=\"%s\">\n", esc(alg))
		for _, st := range s.Results {
			p("      <stationresults station=\"%s\">\n", esc(st.Station))
			for _, c := range st.Classes {
				p("        <classresults customerclass=\"%s\">\n", esc(c.Class))
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
	p("</model>\n")
	return bw.Flush()
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
