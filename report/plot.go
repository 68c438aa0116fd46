package report

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a panel.
type Series struct {
	Name   string    `json:"name"`
	X      []float64 `json:"x"`
	Y      []float64 `json:"y"`
	Dashed bool      `json:"dashed,omitempty"`
	// Dash picks a dash pattern (1, 2, … in dashPatterns, cycling) for a dashed line, so
	// several dashed lines of one colour (the bounds of one curve) stay apart; 0 with
	// Dashed is pattern 1.
	Dash   int  `json:"dash,omitempty"`
	Points bool `json:"points,omitempty"` // draw markers (measurements) instead of a line
	// Group: series with the same non-empty Group share one colour (e.g. a curve and its
	// bounds), the colour of the group's first series.
	Group string `json:"group,omitempty"`
	// NoLegend leaves the series out of the legend (the second line of a pair already
	// named there, e.g. a bound's upper line after its lower one).
	NoLegend bool `json:"no_legend,omitempty"`
	// Y2, when set, makes the series a band: the area between Y and Y2 (an interval) is
	// filled in a light tint of the series' colour.
	Y2 []float64 `json:"y2,omitempty"`
	// Glyph picks the marker of a Points series: "" a small ring, "ring" a large one, "cross".
	Glyph string `json:"glyph,omitempty"`
	// Clip: a reference line (a bound) that does not stretch the y axis: the axis spans
	// the other series, this line is cut at the frame, and where it leaves the frame a
	// triangle on the frame edge marks it (its legend entry says so).
	Clip bool `json:"clip,omitempty"`
}

// Mark is a labelled vertical line across a panel at X (a saturation point N*, a chosen
// configuration); drawn only when X lies within the x axis.
type Mark struct {
	X     float64 `json:"x"`
	Label string  `json:"label"`
	// Widen: the x axis extends to X (a sweep's capacity just beyond its last solved value);
	// otherwise a mark outside the data's x range is not drawn.
	Widen bool `json:"widen,omitempty"`
}

// dashPatterns are the dash patterns of Series.Dash (on, off lengths in points): long
// dashes, short dashes, dash-dot, dots.
var dashPatterns = [][]vg.Length{
	{vg.Points(5), vg.Points(3)},
	{vg.Points(2), vg.Points(2)},
	{vg.Points(7), vg.Points(2), vg.Points(1.5), vg.Points(2)},
	{vg.Points(1), vg.Points(2.5)},
}

// dashes is s's dash pattern (nil: solid).
func (s Series) dashes() []vg.Length {
	switch {
	case s.Dash > 0:
		return dashPatterns[(s.Dash-1)%len(dashPatterns)]
	case s.Dashed:
		return dashPatterns[0]
	}
	return nil
}

// Panel is one plot: a title, axis labels and lines — the figure description a result
// produces once and every front end draws (the command's --plot, the --report pages, the
// explorer). Its JSON is what the explorer's /api/eval serves beside the drawn SVG.
type Panel struct {
	Title  string   `json:"title"`
	XLabel string   `json:"x_label"`
	YLabel string   `json:"y_label"`
	Series []Series `json:"series,omitempty"`
	LogX   bool     `json:"log_x,omitempty"`
	LogY   bool     `json:"log_y,omitempty"` // a log y axis (times over several decades)
	Marks  []Mark   `json:"marks,omitempty"`
	// Rows and Spans make the panel a Gantt chart (Gantt): one row per name, the spans
	// as bars.
	Rows  []string `json:"rows,omitempty"`
	Spans []Span   `json:"spans,omitempty"`
	// Plot, if set, is drawn as is (heat maps, bar charts: gonum/plot only).
	Plot *plot.Plot `json:"-"`
	// Side, if set, is drawn right of the data instead of the legend (a heat map's colour bar).
	Side *plot.Plot `json:"-"`
}

// palette is a colour-blind-safe set (Okabe–Ito), then four darker tones so a panel of up
// to 12 series (a curve and eight bound lines) repeats no colour.
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 0, 0, 255}, color.RGBA{240, 228, 66, 255},
	color.RGBA{136, 34, 85, 255}, color.RGBA{120, 120, 120, 255}, color.RGBA{102, 85, 0, 255}, color.RGBA{51, 34, 136, 255},
}

// Color returns the i-th palette colour.
func Color(i int) color.Color { return palette[i%len(palette)] }

func (p Panel) build() (*plot.Plot, error) {
	if p.Plot != nil {
		return p.Plot, nil
	}
	if len(p.Spans) > 0 {
		return p.buildGantt()
	}
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	pl.X.Tick.Marker, pl.Y.Tick.Marker = distinctTicks{}, distinctTicks{}
	if p.LogX {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if p.LogY {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	colour := seriesColours(p.Series)
	lo, hi, clip := p.unclippedRange()
	for i, s := range p.Series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("series %q: %d x values, %d y values", s.Name, len(s.X), len(s.Y))
		}
		xy := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			xy = append(xy, plotter.XY{X: s.X[j], Y: s.Y[j]})
		}
		if s.Y2 != nil {
			bd, err := band(s, colour[i])
			if err != nil {
				return nil, err
			}
			pl.Add(bd)
			if !s.NoLegend {
				pl.Legend.Add(s.Name, bd)
			}
			continue
		}
		if s.Points {
			if err := addPoints(pl, s, xy, colour[i]); err != nil {
				return nil, err
			}
			continue
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", s.Name, err)
		}
		l.Color = colour[i]
		l.Width = vg.Points(1.5)
		if d := s.dashes(); d != nil {
			l.Dashes = d
			l.Width = vg.Points(1)
		}
		if err := addLine(pl, s, l, clip, lo, hi, colour[i]); err != nil {
			return nil, err
		}
	}
	if clip {
		pl.Y.Min, pl.Y.Max = lo, hi
	}
	for _, m := range mergeMarks(p.Marks) {
		if m.Widen {
			pl.Add(wideMark{vmark(m)})
			continue
		}
		pl.Add(vmark(m))
	}
	pl.Add(plotter.NewGrid())
	return pl, nil
}

// addPoints adds a Points series' markers (Series.Glyph) and its legend entry.
func addPoints(pl *plot.Plot, s Series, xy plotter.XYs, col color.Color) error {
	sc, err := plotter.NewScatter(xy)
	if err != nil {
		return err
	}
	sc.GlyphStyle.Color = col
	sc.GlyphStyle.Radius = vg.Points(3)
	switch s.Glyph {
	case "ring":
		sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = draw.RingGlyph{}, vg.Points(5)
	case "cross":
		sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = draw.CrossGlyph{}, vg.Points(5)
	}
	pl.Add(sc)
	if !s.NoLegend {
		pl.Legend.Add(s.Name, sc)
	}
	return nil
}

// addLine adds a series' line and its legend entry; a Clip series (when clip) is drawn
// without setting the axis range and with a triangle where it leaves the frame, the
// triangle also drawn in the legend's sample, not written: the PNG's font has no △
// (new-user review: the PNG legend showed no glyph).
func addLine(pl *plot.Plot, s Series, l *plotter.Line, clip bool, lo, hi float64, col color.Color) error {
	name, thumbs := s.Name, []plot.Thumbnailer{l}
	if s.Clip && clip {
		pl.Add(noRange{l})
		out, err := clipMarks(s, lo, hi, col)
		if err != nil {
			return err
		}
		if out != nil {
			pl.Add(out)
			name += " (triangle: cut at the frame)"
			tri, _ := plotter.NewScatter(plotter.XYs{{}})
			tri.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: draw.TriangleGlyph{}}
			thumbs = append(thumbs, tri)
		}
	} else {
		pl.Add(l)
	}
	if !s.NoLegend {
		pl.Legend.Add(name, thumbs...)
	}
	return nil
}

// Bars is a panel of one bar per name (a station's utilization, say), the bars at
// highlight in the second palette colour (the bottleneck), with a dotted line at ref when
// ref > 0 (utilization 1: saturation).
func Bars(title, ylabel string, names []string, vals []float64, highlight []int, ref float64) (Panel, error) {
	pl := plot.New()
	pl.Title.Text = title
	pl.Y.Label.Text = ylabel
	hl := map[int]bool{}
	for _, i := range highlight {
		hl[i] = true
	}
	for i, v := range vals {
		b, err := plotter.NewBarChart(plotter.Values{v}, vg.Points(18))
		if err != nil {
			return Panel{}, fmt.Errorf("bars %q: %w", names[i], err)
		}
		b.XMin = float64(i)
		b.Color = Color(0)
		if hl[i] {
			b.Color = Color(1)
		}
		b.LineStyle.Width = 0
		pl.Add(b)
	}
	pl.NominalX(names...)
	if ref > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: ref}, {X: float64(len(vals)) - 0.5, Y: ref}})
		if err != nil {
			return Panel{}, err
		}
		l.Dashes, l.Color = []vg.Length{vg.Points(1), vg.Points(2)}, color.Gray{Y: 60}
		pl.Add(l)
	}
	pl.Y.Min = 0
	pl.Add(plotter.NewGrid())
	return Panel{Plot: pl}, nil
}

// band is the filled area between s.Y and s.Y2 over s.X, in a light tint of col.
func band(s Series, col color.Color) (*plotter.Polygon, error) {
	if len(s.Y2) != len(s.X) {
		return nil, fmt.Errorf("series %q: %d x values, %d upper values", s.Name, len(s.X), len(s.Y2))
	}
	ring := make(plotter.XYs, 0, 2*len(s.X))
	for j := range s.X {
		ring = append(ring, plotter.XY{X: s.X[j], Y: s.Y[j]})
	}
	for j := len(s.X) - 1; j >= 0; j-- {
		ring = append(ring, plotter.XY{X: s.X[j], Y: s.Y2[j]})
	}
	pg, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil, fmt.Errorf("series %q: %w", s.Name, err)
	}
	r, g, b, _ := col.RGBA()
	pg.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 50}
	pg.LineStyle.Width = 0
	return pg, nil
}

// unclippedRange is the y range of the series that are not Clip (finite values only) with
// 8 % headroom each side (not below 0 for non-negative data), and whether clipping applies:
// some series is Clip and some other has a finite value.
func (p Panel) unclippedRange() (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	anyClip := false
	for _, s := range p.Series {
		if s.Clip {
			anyClip = true
			continue
		}
		for _, y := range s.Y {
			if !math.IsInf(y, 0) && !math.IsNaN(y) {
				lo, hi = math.Min(lo, y), math.Max(hi, y)
			}
		}
	}
	if !anyClip || lo > hi {
		return lo, hi, false
	}
	// headroom: a bound close to the curve stays inside the frame
	pad := 0.08 * (hi - lo)
	if pad == 0 {
		pad = 0.08 * math.Abs(hi)
	}
	if lo >= 0 {
		lo = math.Max(0, lo-pad)
	} else {
		lo -= pad
	}
	return lo, hi + pad, true
}

// noRange is a plotter that leaves the axes' ranges to the others (a clipped line: gonum
// cuts lines at the data area).
type noRange struct{ p plot.Plotter }

func (n noRange) Plot(c draw.Canvas, pl *plot.Plot) { n.p.Plot(c, pl) }

// clipMarks are triangles on the frame where s leaves [lo, hi] (up at the top, down at the
// bottom): at the crossing, interpolated between the last point inside and the first
// beyond (the first point, when s starts beyond); nil when every point is within.
func clipMarks(s Series, lo, hi float64, col color.Color) (plot.Plotter, error) {
	var up, down plotter.XYs
	side := func(y float64) int {
		switch {
		case y > hi:
			return 1
		case y < lo:
			return -1
		}
		return 0
	}
	for j, y := range s.Y {
		sd := side(y)
		if sd == 0 || (j > 0 && side(s.Y[j-1]) == sd) {
			continue
		}
		edge := map[int]float64{1: hi, -1: lo}[sd]
		x := s.X[j]
		if j > 0 && s.Y[j] != s.Y[j-1] {
			x = s.X[j-1] + (s.X[j]-s.X[j-1])*(edge-s.Y[j-1])/(s.Y[j]-s.Y[j-1])
		}
		if sd > 0 {
			up = append(up, plotter.XY{X: x, Y: hi})
		} else {
			down = append(down, plotter.XY{X: x, Y: lo})
		}
	}
	if len(up)+len(down) == 0 {
		return nil, nil
	}
	var ps []plot.Plotter
	for _, g := range []struct {
		xy    plotter.XYs
		glyph draw.GlyphDrawer
	}{{up, draw.TriangleGlyph{}}, {down, downTriangle{}}} {
		if len(g.xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(g.xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(3.5), Shape: g.glyph}
		ps = append(ps, sc)
	}
	return multi(ps), nil
}

// multi draws several plotters as one.
type multi []plot.Plotter

func (m multi) Plot(c draw.Canvas, pl *plot.Plot) {
	for _, p := range m {
		p.Plot(c, pl)
	}
}

// downTriangle is draw.TriangleGlyph pointing down (an outline, as it is).
type downTriangle struct{}

func (downTriangle) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(0.5)})
	r := sty.Radius + (sty.Radius-sty.Radius*vg.Length(math.Sin(math.Pi/6)))/2
	var p vg.Path
	p.Move(vg.Point{X: pt.X, Y: pt.Y - r})
	p.Line(vg.Point{X: pt.X - r*vg.Length(math.Cos(math.Pi/6)), Y: pt.Y + r*vg.Length(math.Sin(math.Pi/6))})
	p.Line(vg.Point{X: pt.X + r*vg.Length(math.Cos(math.Pi/6)), Y: pt.Y + r*vg.Length(math.Sin(math.Pi/6))})
	p.Close()
	c.Stroke(p)
}

// mergeMarks joins the labels of marks at the same X ("current, best"), so that they are
// not written over each other; the first mark at an X keeps its place.
func mergeMarks(ms []Mark) []Mark {
	var out []Mark
	at := map[float64]int{}
	for _, m := range ms {
		if i, ok := at[m.X]; ok {
			if m.Label != "" {
				out[i].Label = strings.TrimPrefix(out[i].Label+", "+m.Label, ", ")
			}
			continue
		}
		at[m.X] = len(out)
		out = append(out, m)
	}
	return out
}

// vmark draws a Mark: a dotted vertical line across the data area with its label at the
// top, when X is within the x axis.
type vmark Mark

// wideMark is a Widen mark: its DataRange extends the x axis to X and leaves the y axis to
// the data (±Inf leave plot.Add's min/max unchanged).
type wideMark struct{ vmark }

func (m wideMark) DataRange() (xmin, xmax, ymin, ymax float64) {
	return m.X, m.X, math.Inf(1), math.Inf(-1)
}

func (m vmark) Plot(c draw.Canvas, pl *plot.Plot) {
	if m.X < pl.X.Min || m.X > pl.X.Max {
		return
	}
	trX, _ := pl.Transforms(&c)
	x := trX(m.X)
	c.StrokeLine2(draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(1), vg.Points(2)}}, x, c.Min.Y, x, c.Max.Y)
	if m.Label != "" {
		sty := pl.X.Tick.Label
		sty.Color = color.Gray{Y: 40}
		sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
		at := x + vg.Points(2)
		if at+sty.Width(m.Label) > c.Max.X { // a mark at the right edge: label on its left
			sty.XAlign, at = draw.XRight, x-vg.Points(2)
		}
		c.FillText(sty, vg.Point{X: at, Y: c.Max.Y - vg.Points(2)}, m.Label)
	}
}

// seriesColours gives every series its palette colour: one per series, in order, except
// that the series of a Group share the colour of its first member.
func seriesColours(ss []Series) []color.Color {
	out := make([]color.Color, len(ss))
	first := map[string]color.Color{}
	next := 0
	for i, s := range ss {
		if c, ok := first[s.Group]; ok && s.Group != "" {
			out[i] = c
			continue
		}
		out[i] = Color(next)
		next++
		if s.Group != "" {
			first[s.Group] = out[i]
		}
	}
	return out
}

// SaveFigure draws the panels stacked vertically into path; the format follows the
// extension (.svg or .png). The file is written only if drawing succeeded.
func SaveFigure(path string, panels ...Panel) error {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".svg" && ext != ".png" {
		return fmt.Errorf("plot file %q: extension must be .svg or .png", path)
	}
	return saveFigure(path, ext, panels)
}

// WriteAtomic writes a file through a temporary in the same directory, synced and renamed
// into place, so a failure never leaves a half-written file and never replaces a good one;
// the file gets the mode a plain create would (0666 less the umask). It is
// internal/atomicfile.Write, the project's one atomic writer.
func WriteAtomic(path string, write func(*os.File) error) error {
	return atomicfile.Write(path, write)
}

// CheckWritable reports whether a file can be created in path's directory (by creating
// and removing a temporary there), so a command can refuse an output path before it
// computes anything.
func CheckWritable(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("directory %s does not exist", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	f, err := atomicfile.CreateTemp(dir, atomicfile.Prefix)
	if err != nil {
		return fmt.Errorf("cannot create a file in %s: %v", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// distinctTicks is gonum's default ticker with labels that tell the ticks apart: over a
// narrow range (a makespan from 1.5602 to 1.5610 s) gonum's labels can repeat ("1.6" four
// times); then every label is written with the fewest significant digits that make them
// distinct.
type distinctTicks struct{}

func (distinctTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for prec := 2; prec <= 12 && !labelsDistinct(ts); prec++ {
		for i := range ts {
			if ts[i].Label != "" {
				ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', prec, 64)
			}
		}
	}
	return ts
}

// labelsDistinct reports whether no two labelled ticks share a label.
func labelsDistinct(ts []plot.Tick) bool {
	seen := map[string]bool{}
	for _, t := range ts {
		if t.Label == "" {
			continue
		}
		if seen[t.Label] {
			return false
		}
		seen[t.Label] = true
	}
	return true
}
