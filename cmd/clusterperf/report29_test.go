package main

import (
	"bytes"
	"context"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReportHasPlot (issue 29): the --report page of every contract case includes the
// command's plot although --plot is not given (the page embeds it inline: an <svg> or an
// <img> with a data URI), and the answer's summary is on the page.
func TestReportHasPlot(t *testing.T) {
	var missing []string
	for _, c := range contractCases() {
		t.Run(c.name, func(t *testing.T) {
			page := filepath.Join(t.TempDir(), "r.html")
			args := append([]string{c.args[0], "--report", page}, c.args[1:]...)
			var o, e bytes.Buffer
			if code := run(context.Background(), args, &o, &e); code != 0 {
				t.Fatalf("clusterperf %v: exit %d: %s", args, code, e.String())
			}
			b, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte("class=\"plot\"")) {
				missing = append(missing, c.name)
			}
			first, _, _ := strings.Cut(o.String(), "\n")
			if !strings.Contains(html.UnescapeString(string(b)), first) {
				t.Errorf("the page does not show the answer %q", first)
			}
		})
	}
	if len(missing) > 0 {
		t.Errorf("no plot on the page: %v", missing)
	}
}

// TestFitDataPlot (issue 29): `fit DATA.csv --plot` draws the measured runs (every
// replicate: openfoam_motorbike_arc.csv has 12 runs, the legend counts them), the chosen
// model, its 95 % interval, the plausible models' spread and the backtest's held-out run.
func TestFitDataPlot(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "f.svg")
	var o, e bytes.Buffer
	args := []string{"fit", "--predict", "256", "--plot", svg, "../../testdata/scaling/openfoam_motorbike_arc.csv"}
	if code := run(context.Background(), args, &o, &e); code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"measured (12 runs)", "95 % interval", "plausible models", "T(p) = ", "held out: p = 48 as measured", "held out: predicted without it"} {
		if !strings.Contains(html.UnescapeString(string(b)), want) {
			t.Errorf("the plot has no %q", want)
		}
	}
}
