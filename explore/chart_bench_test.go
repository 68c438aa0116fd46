package explore

import (
	"encoding/json"
	"os"
	"testing"
)

// benchCharts are the explorer's charts the benchmarks draw: central-server's throughput
// (the first qn chart), mpip-amg's components by P (the most series), tpn-mw48's Gantt
// chart (49 processes on 8 nodes: drawn by the page's script interactively, by report for
// report pages) and fit's chart of openfoam_motorbike_arc.csv.
func benchCharts(b *testing.B) map[string]Chart {
	out := map[string]Chart{}
	for _, ex := range examples {
		var id string
		switch ex.name {
		case "central-server":
			id = "throughput"
		case "mpip-amg":
			id = "components"
		case "tpn-mw48":
			id = "gantt"
		default:
			continue
		}
		_, r := evalAt(b, loadExample(b, ex), Values{})
		for _, c := range r.Charts {
			if c.ID == id {
				out[ex.name] = c
			}
		}
	}
	// fit's chart (log–log axes, two interval bands, the held-out run)
	const csv = "../examples/scaling/openfoam_motorbike_arc.csv"
	data, err := os.ReadFile(csv)
	if err != nil {
		b.Fatal(err)
	}
	m, err := Load(csv, data, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	_, r := evalAt(b, m, Values{})
	out["fit-openfoam"] = r.Charts[0]
	return out
}

// BenchmarkChartSVG: one chart as the explorer's /api/eval serves it, drawn by report's
// renderer (gonum/plot, SVG in memory) and the answer encoded as JSON — the per-chart cost
// of an interactive redraw on the server.
func BenchmarkChartSVG(b *testing.B) {
	for name, c := range benchCharts(b) {
		b.Run(name, func(b *testing.B) {
			var n int
			for b.Loop() {
				svg, err := chartSVG(c)
				if err != nil {
					b.Fatal(err)
				}
				c.SVG = svg
				j, err := json.Marshal(c)
				if err != nil {
					b.Fatal(err)
				}
				n = len(j)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
