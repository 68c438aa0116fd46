package mpipplot

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/clusterperf/clusterperf/report"
)

// Panels draws, for each class, the wall-time panel (Walls), the component panel
// (Components) and, with a model, the validation views' errors (ViewErrors); the notes say
// what was clipped or left out.
func Panels(in Input) ([]report.Panel, []string, error) {
	var panels []report.Panel
	var notes []string
	for _, w := range Walls(in) {
		pl, err := w.plot()
		if err != nil {
			return nil, nil, err
		}
		panels = append(panels, report.Panel{Plot: pl})
		notes = append(notes, w.Notes...)
		c, err := componentPlot(classRuns(in.Runs, w.Class), w.Class)
		if err != nil {
			return nil, nil, err
		}
		panels = append(panels, report.Panel{Plot: c})
		v, err := viewPlot(classRuns(in.Runs, w.Class), w.Class)
		if err != nil {
			return nil, nil, err
		}
		if v != nil { // without a model there are no views
			panels = append(panels, report.Panel{Plot: v})
		}
	}
	return panels, notes, nil
}

// series order and colours of the wall panel
var wallOrder = []string{Measured, Modelled, Calibrated, Predicted, WallFc, ModelFc, AnswerFc}

// ClipLegend is the legend entry of clipped interval ends.
const ClipLegend = "interval beyond the plot: arrow at its edge (value in the notes)"

func (w Wall) plot() (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = "Wall time per process by P: measured and Elliott's (004) model"
	if len(w.Lines) == 0 && len(w.Points) == 1 {
		pl.Title.Text = "Wall time per process by P: measured (no model: give a network or --calibrate)"
	}
	if w.Class != "" {
		pl.Title.Text += " (" + w.Class + ")"
	}
	pl.X.Label.Text, pl.Y.Label.Text = "P (processes)", "wall time per process, s"
	pl.X.Scale, pl.Y.Scale = plot.LogScale{}, plot.LogScale{}
	var xs []float64
	for i, name := range wallOrder {
		col := report.Color(i)
		if ms := w.Lines[name]; len(ms) > 0 {
			l, s, err := plotter.NewLinePoints(xys(ms))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			l.Color, l.Width, s.Color, s.Radius, s.Shape = col, vg.Points(1.5), col, vg.Points(2.5), draw.BoxGlyph{}
			if name == Calibrated {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			pl.Add(l, s)
			pl.Legend.Add(name, l, s)
			xs = append(xs, markXs(ms)...)
		}
		if ms := w.Points[name]; len(ms) > 0 {
			s, err := plotter.NewScatter(xys(ms))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			s.Color, s.Radius = col, vg.Points(3)
			switch name {
			case Measured:
			case AnswerFc: // a ring around the mark of the route the answer took
				s.Color, s.Radius, s.Shape = color.Black, vg.Points(6), draw.RingGlyph{}
			default:
				s.Shape = draw.PyramidGlyph{}
			}
			pl.Add(s)
			if name == AnswerFc { // and a dot at its centre: the ringed value itself
				dot, _ := plotter.NewScatter(xys(ms))
				dot.Color, dot.Radius, dot.Shape = color.Black, vg.Points(1.5), draw.CircleGlyph{}
				pl.Add(dot)
				pl.Legend.Add(name, s, dot)
			} else {
				pl.Legend.Add(name, s)
			}
			xs = append(xs, markXs(ms)...)
		}
	}
	if err := w.addIntervals(pl); err != nil {
		return nil, err
	}
	lo, hi := minMax(xs)
	pl.X.Min, pl.X.Max = lo/1.4, hi*1.4
	pl.Y.Min, pl.Y.Max = w.YMin, w.YMax
	pl.X.Tick.Marker = valueTicks(w.Ps)
	pl.Y.Tick.Marker = logTicks{}
	pl.Add(plotter.NewGrid())
	return pl, nil
}

// addIntervals draws each interval as a vertical bar with caps, an arrowhead at a clipped end.
func (w Wall) addIntervals(pl *plot.Plot) error {
	legend := map[string]bool{}
	col := color.RGBA{90, 90, 90, 255}
	clipped := false
	for _, iv := range w.Intervals {
		l, err := plotter.NewLine(plotter.XYs{{X: iv.X, Y: iv.ShownLow}, {X: iv.X, Y: iv.ShownHigh}})
		if err != nil {
			return fmt.Errorf("%s: %w", iv.Series, err)
		}
		l.Color, l.Width = col, vg.Points(1)
		pl.Add(l)
		if !legend[iv.Series] {
			legend[iv.Series] = true
			pl.Legend.Add(iv.Series, l)
		}
		for _, end := range []struct {
			y       float64
			clipped bool
			up      bool
		}{{iv.ShownLow, iv.ClippedLow, false}, {iv.ShownHigh, iv.ClippedHigh, true}} {
			var g draw.GlyphDrawer = capGlyph{}
			if end.clipped {
				clipped = true
				g = arrowGlyph{up: end.up}
			}
			s, err := plotter.NewScatter(plotter.XYs{{X: iv.X, Y: end.y}})
			if err != nil {
				return err
			}
			s.Color, s.Radius, s.Shape = col, vg.Points(3.5), g
			pl.Add(s)
		}
	}
	if clipped {
		s, _ := plotter.NewScatter(plotter.XYs{{X: 1, Y: 1}})
		s.Color, s.Radius, s.Shape = col, vg.Points(3.5), arrowGlyph{up: true}
		pl.Legend.Add(ClipLegend, s)
	}
	return nil
}

func xys(ms []Mark) plotter.XYs {
	out := make(plotter.XYs, len(ms))
	for i, m := range ms {
		out[i] = plotter.XY{X: m.X, Y: m.Y}
	}
	return out
}

func markXs(ms []Mark) []float64 {
	out := make([]float64, len(ms))
	for i, m := range ms {
		out[i] = m.X
	}
	return out
}

func minMax(v []float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range v {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	if math.IsInf(lo, 0) {
		return 1, 1
	}
	return lo, hi
}

// capGlyph is a short horizontal bar (an interval's end inside the plot).
type capGlyph struct{}

func (capGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1)})
	var p vg.Path
	p.Move(vg.Point{X: pt.X - sty.Radius, Y: pt.Y})
	p.Line(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	c.Stroke(p)
}

// arrowGlyph is a filled triangle pointing up (clipped above) or down (clipped below), its
// tip at the point.
type arrowGlyph struct{ up bool }

func (a arrowGlyph) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	dir := vg.Length(-1)
	if a.up {
		dir = 1
	}
	var p vg.Path
	p.Move(pt)
	p.Line(vg.Point{X: pt.X - r, Y: pt.Y - dir*2*r})
	p.Line(vg.Point{X: pt.X + r, Y: pt.Y - dir*2*r})
	p.Close()
	c.Fill(p)
}

// valueTicks labels the x axis at the runs' and targets' P.
type valueTicks []int

func (v valueTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, p := range v {
		if x := float64(p); x >= lo && x <= hi {
			out = append(out, plot.Tick{Value: x, Label: strconv.Itoa(p)})
		}
	}
	return out
}

// logTicks labels a log axis at 1, 2, 5 × 10^k inside the range (at least two labels: the
// range ends otherwise), so a range within one decade is labelled too.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, mant := range [][]float64{{1, 2, 5}, {1, 1.5, 2, 3, 4, 5, 6, 7, 8, 9}} { // fine steps for a narrow range
		out = out[:0]
		for k := math.Floor(math.Log10(lo)) - 1; k <= math.Ceil(math.Log10(hi)); k++ {
			for _, m := range mant {
				if v := m * math.Pow(10, k); v >= lo && v <= hi {
					out = append(out, plot.Tick{Value: v, Label: tickLabel(v)})
				}
			}
		}
		if len(out) >= 3 {
			break
		}
	}
	if len(out) > 9 { // many decades: powers of ten only
		var p []plot.Tick
		for _, t := range out {
			if e := math.Log10(t.Value); math.Abs(e-math.Round(e)) < 1e-9 {
				p = append(p, t)
			}
		}
		out = p
	}
	if len(out) < 2 {
		out = []plot.Tick{{Value: lo, Label: tickLabel(lo)}, {Value: hi, Label: tickLabel(hi)}}
	}
	return out
}

// tickLabel: plain decimals from 0.001 to 99999 (2000, not 2e+03), 3 significant digits.
func tickLabel(v float64) string {
	if a := math.Abs(v); a >= 1e-3 && a < 1e5 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
		return strconv.FormatFloat(r, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
