package explore

import (
	"bytes"

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

// ganttChart is the answer's Gantt chart of the spans (rows in order of first appearance,
// grouped by node beyond 16 processes), each activity in its palette colour.
func ganttChart(id, title string, spans []report.Span) (Chart, error) {
	var rows []string
	seen := map[string]bool{}
	for _, s := range spans {
		if !seen[s.Row] {
			seen[s.Row] = true
			rows = append(rows, s.Row)
		}
	}
	report.KindColours(spans)
	p, err := report.Gantt(title, "time (s)", rows, spans)
	return Chart{ID: id, Panel: p}, err
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
