package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/explore"
	"github.com/clusterperf/clusterperf/report"
)

// The explorer's population charts of a qn example and `clusterperf solve FILE --sweep …
// --plot` are one figure (issue 28: one chart stack): the command the explorer names
// (Result.ChartCommand) writes, byte for byte, the SVG report draws from the explorer's two
// charts without the explorer's own "current" mark — the same series, points, bounds,
// labels and N* mark, from the same description (solveapp.Sweep.Figure).
func TestExplorerChartIsCommandPlot(t *testing.T) {
	for _, file := range []string{"../../examples/keck/cg-a-4.yaml", "../../examples/qn/central-server.yaml", "../../examples/qn/web-tier.yaml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := explore.Load(file, data, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		v, err := explore.Check(m.Params(), explore.Values{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := m.Eval(v)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.ChartCommand) == 0 {
			t.Fatalf("%s: the explorer names no command for its charts", file)
		}
		var panels []report.Panel
		for _, c := range r.Charts {
			if c.ID != "throughput" && c.ID != "response" {
				continue
			}
			p := c.Panel
			p.Marks = nil
			for _, mk := range c.Marks {
				if mk.Label != "current" {
					p.Marks = append(p.Marks, mk)
				}
			}
			panels = append(panels, p)
		}
		if len(panels) != 2 {
			t.Fatalf("%s: %d population charts, want 2", file, len(panels))
		}
		want, err := report.SVG(panels...)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "plot.svg")
		runOut(t, append(r.ChartCommand, "--plot", path)...)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: `clusterperf %s --plot` (%d bytes) differs from the explorer's charts (%d bytes)", file, strings.Join(r.ChartCommand, " "), len(got), len(want))
		}
		for _, s := range panels[0].Series {
			if !bytes.Contains(got, []byte(">"+s.Name)) {
				t.Errorf("%s: series %q not in the command's plot", file, s.Name)
			}
		}
	}
}
