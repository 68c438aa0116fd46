package explore

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/report"
)

// benchChart is the central-server throughput chart (40 points, one series).
func benchChart(b *testing.B) Chart {
	m := loadExample(b, examples[1])
	_, r := evalAt(b, m, Values{})
	return r.Charts[0]
}

// BenchmarkChartSVG: the explorer's own SVG of one chart (what /api/eval sends).
func BenchmarkChartSVG(b *testing.B) {
	c := benchChart(b)
	var n int
	for b.Loop() {
		n = len(ChartSVG(c))
	}
	b.ReportMetric(float64(n), "bytes")
}

// BenchmarkChartGonum: the same chart through the report package's gonum/plot code (written
// to a file, as it only writes files), for the choice of the explorer's charts.
func BenchmarkChartGonum(b *testing.B) {
	c := benchChart(b)
	path := filepath.Join(b.TempDir(), "c.svg")
	p := report.Panel{Title: c.Title, XLabel: c.XLabel, YLabel: c.YLabel}
	for _, s := range c.Series {
		p.Series = append(p.Series, report.Series{Name: s.Name, X: s.X, Y: s.Y, Dashed: s.Dash})
	}
	for b.Loop() {
		if err := report.SaveFigure(path, p); err != nil {
			b.Fatal(err)
		}
	}
	fi, _ := os.Stat(path)
	b.ReportMetric(float64(fi.Size()), "bytes")
}
