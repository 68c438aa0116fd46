package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/clusterperf/clusterperf/htmlreport/browsertest"
)

// textOutside is JavaScript listing every <text> of the page's SVG whose box, as the
// browser draws it with the fonts it has, reaches beyond the SVG's own box.
const textOutside = `(() => {
  const s = document.querySelector('svg').getBoundingClientRect(), bad = [];
  for (const t of document.querySelectorAll('text')) {
    const r = t.getBoundingClientRect();
    if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 1 || r.bottom > s.bottom + 1)
      bad.push(t.textContent + ': x ' + r.left.toFixed(1) + '…' + r.right.toFixed(1) + ' in ' + s.left.toFixed(1) + '…' + s.right.toFixed(1));
  }
  return bad.join('\n');
})()`

// TestPlotTextInBrowser (session 4's review: a sweep's legend was cut at the SVG's width in
// a browser): the sweep plot with measurements and four bounds, opened as an SVG file in
// Chromium, draws every string inside the canvas. Without the textLength that
// report.SaveFigure writes, the same figure depends on the browser's fonts (logged: where
// Liberation Serif is missing, the fallback is wider). Skips without Chromium unless
// CLUSTERPERF_REQUIRE_BROWSER=1.
func TestPlotTextInBrowser(t *testing.T) {
	b := browsertest.New(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "sweep.svg")
	if out := runOut(t, "solve", "--sweep", "population=1:8", "--measured", "testdata/solve/cg-a-4-measured.csv", "--plot", path, ex+"keck/cg-a-4.yaml"); out == "" {
		t.Fatal("no output")
	}
	svg, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.svg")
	stripped := regexp.MustCompile(` textLength="[^"]*" lengthAdjust="spacingAndGlyphs"`).ReplaceAll(svg, nil)
	if bytes.Equal(stripped, svg) {
		t.Fatal("the figure has no textLength to strip")
	}
	if err := os.WriteFile(bare, stripped, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{path, bare} {
		if err := b.Do(chromedp.Navigate("file://" + f)); err != nil {
			t.Fatal(err)
		}
		bad, err := browsertest.Eval[string](b, textOutside)
		switch {
		case err != nil:
			t.Fatal(err)
		case f == path && bad != "":
			t.Errorf("strings beyond the canvas in Chromium:\n%s", bad)
		case f == bare:
			t.Logf("without textLength, beyond the canvas in this browser: %q", bad)
		}
	}
}
