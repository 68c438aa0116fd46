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

// The explorer's charts and the command's --plot are one figure (issue 28: one chart
// stack): the command the explorer names (Result.ChartCommand) writes, byte for byte, the
// SVG report draws from the explorer's charts without the explorer's own "current" mark —
// the same series, points, bounds, intervals, labels and marks from the same description:
// qn's population charts are `solve FILE --sweep … --plot` (solveapp.Sweep.Figure), fit's
// chart is `fit DATA.csv --predict P --plot` (fitapp.ScalingResult.DataFigure).
func TestExplorerChartIsCommandPlot(t *testing.T) {
	for _, file := range []string{"../../examples/keck/cg-a-4.yaml", "../../examples/qn/central-server.yaml", "../../examples/qn/web-tier.yaml",
		"../../examples/scaling/openfoam_motorbike_arc.csv"} {
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
			if len(c.Spans) > 0 {
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
		if len(panels) == 0 {
			t.Fatalf("%s: no charts", file)
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

// The explorer's Gantt chart of a tpn example is `clusterperf tpn FILE --cluster C --plot`:
// byte for byte the same SVG once the explorer's node groups (its rows grouped by
// workstation beyond 16 processes; the command's rows are not) are left out.
func TestExplorerGanttIsCommandPlot(t *testing.T) {
	for _, ex := range [][2]string{{"../../examples/tpn/matmul.yaml", "../../examples/tpn/cluster.yaml"}, {"../../explore/testdata/mw48.yaml", "../../explore/testdata/cluster8.yaml"}} {
		data, err := os.ReadFile(ex[0])
		if err != nil {
			t.Fatal(err)
		}
		cl, err := os.ReadFile(ex[1])
		if err != nil {
			t.Fatal(err)
		}
		m, err := explore.Load(ex[0], data, ex[1], cl)
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
		var p *report.Panel
		for _, c := range r.Charts {
			if c.ID == "gantt" {
				p = &c.Panel
			}
		}
		if p == nil || len(p.Spans) == 0 {
			t.Fatalf("%s: no Gantt chart", ex[0])
		}
		p.Spans = append([]report.Span(nil), p.Spans...)
		for i := range p.Spans {
			p.Spans[i].Group = ""
		}
		want, err := report.SVG(*p)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "gantt.svg")
		runOut(t, "tpn", ex[0], "--cluster", ex[1], "--plot", path)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the command's Gantt chart (%d bytes) differs from the explorer's (%d bytes)", ex[0], len(got), len(want))
		}
	}
}
