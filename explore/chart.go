package explore

import (
	"bytes"

	"github.com/clusterperf/clusterperf/app/tpnapp"
	"github.com/clusterperf/clusterperf/report"
)

// chart is a line chart of the answer: the figure p with the point's value marked
// ("current") and the best configuration ("best") when known.
func chart(id string, p report.Panel, cur, best *float64) Chart {
	p.Marks = append([]report.Mark(nil), p.Marks...)
	if cur != nil {
		p.Marks = append(p.Marks, report.Mark{X: *cur, Label: "current"})
	}
	if best != nil {
		p.Marks = append(p.Marks, report.Mark{X: *best, Label: "best"})
	}
	return Chart{ID: id, Panel: p}
}

// ganttChart is the answer's Gantt chart: the tpn command's (tpnapp.Result.Gantt, what
// tpn --plot draws), each process's row in the group of its workstation (host), so that
// beyond 16 processes the rows are grouped by node.
func ganttChart(id string, res *tpnapp.Result, host map[string]string) (Chart, error) {
	p, err := res.Gantt()
	if err != nil {
		return Chart{}, err
	}
	p.Spans = append([]report.Span(nil), p.Spans...)
	for i := range p.Spans {
		p.Spans[i].Group = host[p.Spans[i].Row]
	}
	return Chart{ID: id, Panel: p}, nil
}

// chartSVG is c drawn by report (the one chart stack) as an <svg> element for the page:
// the SVG document without its XML prolog.
func chartSVG(c Chart) (string, error) {
	b, err := report.SVG(c.Panel)
	if err != nil {
		return "", err
	}
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:]
	}
	return string(b), nil
}
