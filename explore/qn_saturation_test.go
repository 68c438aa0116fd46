package explore

import (
	"strings"
	"testing"
)

// TestQNSaturationNotBest: the qn page names N* what it is — the saturation point, in the
// solve command's words (answer.SaturationWords) — and says where the model's population
// stands, instead of calling N* the "Best configuration" with a chart mark labelled "best"
// (new-user review 7 P2-7). Expected: examples/qn/web-tier.yaml, N = 50 above N* = 14.25, as
// `clusterperf solve examples/qn/web-tier.yaml` answers ("… N = 50 jobs is above the
// saturation point N* = 14.25").
func TestQNSaturationNotBest(t *testing.T) {
	m, err := Load("web-tier.yaml", read(t, "../examples/qn/web-tier.yaml"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, r := evalAt(t, m, Values{}) // the file's own values
	if r.BestLabel != "Saturation point" {
		t.Errorf("banner label %q, want Saturation point", r.BestLabel)
	}
	for _, want := range []string{"N = 50 jobs is above the saturation point N* = 14.25", "N* = (total demand + think time)/bottleneck demand = 14.25 jobs"} {
		if !strings.Contains(r.Best, want) {
			t.Errorf("banner text %q lacks %q", r.Best, want)
		}
	}
	if !strings.Contains(r.Bottleneck, "100 % busy") {
		t.Errorf("bottleneck %q does not say busy as the command does", r.Bottleneck)
	}
	// the charts are the solve command's sweep figure (TestExplorerChartIsCommandPlot): N*
	// is marked "N* = …", never "best"
	for _, c := range r.Charts {
		for _, mk := range c.Marks {
			if mk.Label == "best" {
				t.Errorf("chart %s marks %v as 'best'", c.ID, mk.X)
			}
		}
		svg, err := chartSVG(c)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(svg, ">best<") {
			t.Errorf("chart %s's SVG labels a point 'best'", c.ID)
		}
	}
}
