package explore

import (
	"strings"
	"testing"
)

// Every chart of every example is report's figure description drawn by report: a line
// chart's SVG is served with the answer (an <svg> element, no XML prolog), a Gantt chart
// carries its spans for the page's script, each span coloured by its kind.
func TestChartsAreReportFigures(t *testing.T) {
	for _, ex := range examples {
		_, r := evalAt(t, loadExample(t, ex), Values{})
		for _, c := range r.Charts {
			if len(c.Spans) > 0 {
				colour := map[string]int{}
				for _, s := range c.Spans {
					if k, ok := colour[s.Kind]; ok && k != s.Color {
						t.Errorf("%s: chart %s: kind %s in colours %d and %d", ex.name, c.ID, s.Kind, k, s.Color)
					}
					colour[s.Kind] = s.Color
				}
				continue
			}
			svg, err := chartSVG(c)
			if err != nil {
				t.Fatalf("%s: chart %s: %v", ex.name, c.ID, err)
			}
			if !strings.HasPrefix(svg, "<svg") || !strings.Contains(svg, ">"+c.Title+"<") {
				t.Errorf("%s: chart %s: SVG %.40q… without its title", ex.name, c.ID, svg)
			}
			if !strings.Contains(svg, ">current<") && !strings.Contains(svg, ">current, best<") {
				t.Errorf("%s: chart %s: the point is not marked", ex.name, c.ID)
			}
		}
	}
}
