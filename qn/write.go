package qn

import (
	"fmt"
	"io"
	"strconv"
)

// WriteModel writes m in the file format ParseModel reads (demands per class, full
// precision), so that a parsed, written and re-parsed model is unchanged. Visit counts and
// routing are not written: the demands, which fix every analytic solution, are. A model with
// fork/join nodes, which demands cannot express, is an error.
func WriteModel(w io.Writer, name string, m *Model) error {
	if len(m.ForkJoins) > 0 {
		return unsupported("fork/join node %q cannot be written as demands", m.ForkJoins[0].Name)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	q := strconv.Quote
	var err error
	p := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	if name != "" {
		p("name: %s\n", q(name))
	}
	p("classes:\n")
	for _, c := range m.Classes {
		if c.Open {
			p("  - {name: %s, arrival_rate: %s}\n", q(c.Name), f(c.ArrivalRate))
		} else {
			p("  - {name: %s, population: %d, think_time: %s}\n", q(c.Name), c.Population, f(c.ThinkTime))
		}
	}
	p("stations:\n")
	for k, s := range m.Stations {
		p("  - name: %s\n    type: %s\n    count: %d\n", q(s.Name), s.Kind, s.Copies())
		switch s.Kind {
		case MultiServer:
			p("    servers: %d\n", s.Servers)
		case LoadDependent:
			p("    rates: [")
			for i, r := range s.Rates {
				if i > 0 {
					p(", ")
				}
				p("%s", f(r))
			}
			p("]\n")
		}
		p("    demand: {")
		for c, cl := range m.Classes {
			if c > 0 {
				p(", ")
			}
			p("%s: %s", q(cl.Name), f(m.Demand[c][k]))
		}
		p("}\n")
	}
	return err
}
