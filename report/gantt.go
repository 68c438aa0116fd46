package report

import (
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Span is one bar of a Gantt chart: on row Row (a process), from Start to End (x units,
// e.g. seconds), of kind Kind (the legend's entry, e.g. "compute"); Thin draws it in the
// upper part of its row (a message beside a computation), Color is its palette colour.
type Span struct {
	Row        string
	Start, End float64
	Kind       string
	Color      int
	Thin       bool
}

// Gantt is a panel of one row per name in rows (the first at the top) with the spans as
// bars, a legend entry per kind; spans of a kind later in the alphabet are drawn first,
// so a thin span stays visible above a wide one. The one Gantt drawer: tpn's --plot and
// the explorer's report pages draw through it.
func Gantt(title, xlabel string, rows []string, spans []Span) (Panel, error) {
	row := map[string]int{}
	names := make([]string, len(rows))
	for i, n := range rows {
		row[n] = len(rows) - 1 - i
		names[len(rows)-1-i] = n
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	ss := append([]Span(nil), spans...)
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
			return Panel{}, err
		}
		pg.Color = Color(s.Color)
		pg.LineStyle.Width = 0
		p.Add(pg)
		if !added[s.Kind] {
			p.Legend.Add(s.Kind, pg)
			added[s.Kind] = true
		}
	}
	p.NominalY(names...)
	p.Legend.Top = true
	return Panel{Plot: p}, nil
}
