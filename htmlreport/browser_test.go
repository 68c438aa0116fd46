package htmlreport_test

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/htmlreport/browsertest"
)

// A report page loads in Chromium from a file:// URL (no server, no network) without a
// console error, its plot has a non-zero size and its highlighted row is there.
func TestReportInBrowser(t *testing.T) {
	b := browsertest.New(t)
	ex := false
	p := &htmlreport.Page{Title: "browser test", Method: "schweitzer", Exact: &ex,
		Tables: []htmlreport.Table{{Title: "T", Header: []string{"a", "b"}, Rows: [][]string{{"x", "1"}, {"y", "2"}}, Highlight: []int{0}}},
		Plots:  []htmlreport.Plot{{Title: "P", SVG: []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100"><line x1="0" y1="0" x2="200" y2="100" stroke="black"/></svg>`)}},
		JSON:   map[string]float64{"x": 1}}
	path := filepath.Join(t.TempDir(), "r.html")
	if err := htmlreport.Write(path, p); err != nil {
		t.Fatal(err)
	}
	if err := b.Do(chromedp.Navigate("file://" + path)); err != nil {
		t.Fatal(err)
	}
	sizes, err := b.Sizes("figure.plot svg, figure.plot img")
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) != 1 || sizes[0][0] <= 0 || sizes[0][1] <= 0 {
		t.Errorf("plot sizes %v", sizes)
	}
	hl, err := browsertest.Eval[string](b, `document.querySelector("tr.hl td").textContent`)
	if err != nil || hl != "x" {
		t.Errorf("highlighted row %q, %v", hl, err)
	}
	b.NoErrors(t, path)
}
