package report

import (
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Span is one bar of a Gantt chart: on row Row (a process), from Start to End (x units,
// e.g. seconds), of kind Kind (the legend's entry, e.g. "compute"); Thin draws it in the
// upper part of its row (a message beside a computation), Color is its palette colour.
// Group names the row's group (a process's node): a chart of more than groupRows rows in
// more than one group has its rows ordered by group, each group on its own band.
type Span struct {
	Row   string  `json:"row"`
	Group string  `json:"group,omitempty"`
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Kind  string  `json:"kind"`
	Color int     `json:"color"`
	Thin  bool    `json:"thin,omitempty"`
}

// groupRows: a Gantt chart of more rows than this is grouped by Span.Group (64 processes
// on 8 nodes read by node).
const groupRows = 16

// Gantt is a panel of one row per name in rows (the first at the top) with the spans as
// bars, a legend entry per kind; spans of a kind later in the alphabet are drawn first,
// so a thin span stays visible above a wide one. The one Gantt drawer: tpn's --plot, the
// explorer's report pages and its answers draw through it. It is a description: the plot is
// built when the figure is drawn.
func Gantt(title, xlabel string, rows []string, spans []Span) (Panel, error) {
	for _, s := range spans {
		if !isFinite(s.Start) || !isFinite(s.End) {
			return Panel{}, fmt.Errorf("gantt %q: span %s %s from %g to %g", title, s.Row, s.Kind, s.Start, s.End)
		}
	}
	return Panel{Title: title, XLabel: xlabel, Rows: rows, Spans: spans}, nil
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// buildGantt is the plot of a Gantt panel.
func (p Panel) buildGantt() (*plot.Plot, error) {
	rows, labels, bands := groupedRows(p.Rows, p.Spans)
	row := map[string]int{}
	names := make([]string, len(rows))
	for i, n := range rows {
		row[n] = len(rows) - 1 - i
		names[len(rows)-1-i] = labels[i]
	}
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.X.Label.Text = p.XLabel
	if len(bands) > 0 {
		pl.Add(rowBands{n: len(rows), bands: bands})
	}
	ss := append([]Span(nil), p.Spans...)
	sort.SliceStable(ss, func(a, b int) bool { return ss[a].Kind > ss[b].Kind })
	added := map[string]bool{}
	for _, s := range ss {
		y := float64(row[s.Row])
		lo, hi := y-0.35, y+0.35
		if s.Thin {
			lo, hi = y+0.1, y+0.4
		}
		pg, err := plotter.NewPolygon(plotter.XYs{{X: s.Start, Y: lo}, {X: s.End, Y: lo}, {X: s.End, Y: hi}, {X: s.Start, Y: hi}})
		if err != nil {
			return nil, err
		}
		pg.Color = Color(s.Color)
		pg.LineStyle.Width = 0
		pl.Add(pg)
		if !added[s.Kind] {
			pl.Legend.Add(s.Kind, pg)
			added[s.Kind] = true
		}
	}
	pl.NominalY(names...)
	pl.Legend.Top = true
	return pl, nil
}

// groupedRows orders the rows (rows, then any row only the spans name) for drawing, with
// their tick labels and the [first, last] row index of every second group's band: a chart
// of more than groupRows rows in more than one group has its rows ordered by group (groups
// in order of their first span), the first row of a group labelled "[group] row".
func groupedRows(rows []string, spans []Span) (out, labels []string, bands [][2]int) {
	group := map[string]string{}
	first := map[string]int{}
	out = append(out, rows...)
	known := map[string]bool{}
	for _, r := range rows {
		known[r] = true
	}
	for i, s := range spans {
		if _, ok := group[s.Row]; !ok {
			group[s.Row] = s.Group
		}
		if _, ok := first[s.Group]; !ok {
			first[s.Group] = i
		}
		if !known[s.Row] {
			known[s.Row] = true
			out = append(out, s.Row)
		}
	}
	labels = append([]string(nil), out...)
	if len(out) <= groupRows || len(first) < 2 {
		return out, labels, nil
	}
	sort.SliceStable(out, func(i, j int) bool { return first[group[out[i]]] < first[group[out[j]]] })
	n := 0
	for i, r := range out {
		labels[i] = r
		if i > 0 && group[r] == group[out[i-1]] {
			continue
		}
		labels[i] = "[" + group[r] + "] " + r
		if n%2 == 1 {
			bands = append(bands, [2]int{i, i})
		}
		n++
	}
	for b := range bands {
		for j := bands[b][0] + 1; j < len(out) && group[out[j]] == group[out[bands[b][0]]]; j++ {
			bands[b][1] = j
		}
	}
	return out, labels, bands
}

// rowBands shades the rows of every second group across the data area (drawn first,
// under the bars): rows are counted from the top, n in all.
type rowBands struct {
	n     int
	bands [][2]int
}

func (b rowBands) Plot(c draw.Canvas, pl *plot.Plot) {
	_, trY := pl.Transforms(&c)
	for _, r := range b.bands {
		top, bottom := trY(float64(b.n-1-r[0])+0.5), trY(float64(b.n-1-r[1])-0.5)
		c.FillPolygon(color.Gray{Y: 238}, []vg.Point{{X: c.Min.X, Y: bottom}, {X: c.Max.X, Y: bottom}, {X: c.Max.X, Y: top}, {X: c.Min.X, Y: top}})
	}
}
