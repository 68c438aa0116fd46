package report

import (
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"github.com/clusterperf/clusterperf/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Series is one line of a panel.
type Series struct {
	Name   string
	X, Y   []float64
	Dashed bool
	// Dash picks a dash pattern (1, 2, … in dashPatterns, cycling) for a dashed line, so
	// several dashed lines of one colour (the bounds of one curve) stay apart; 0 with
	// Dashed is pattern 1.
	Dash   int
	Points bool // draw markers (measurements) instead of a line
	// Group: series with the same non-empty Group share one colour (e.g. a curve and its
	// bounds), the colour of the group's first series.
	Group string
	// NoLegend leaves the series out of the legend (the second line of a pair already
	// named there, e.g. a bound's upper line after its lower one).
	NoLegend bool
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

// Panel is one plot: a title, axis labels and lines.
type Panel struct {
	Title, XLabel, YLabel string
	Series                []Series
	LogX                  bool
	Plot                  *plot.Plot // if set, drawn as is (heat maps and other custom plots)
	Side                  *plot.Plot // if set, drawn right of the data instead of the legend (a heat map's colour bar)
}

// palette is a colour-blind-safe set (Okabe–Ito).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255}, color.RGBA{213, 94, 0, 255}, color.RGBA{0, 158, 115, 255},
	color.RGBA{204, 121, 167, 255}, color.RGBA{230, 159, 0, 255}, color.RGBA{86, 180, 233, 255},
	color.RGBA{0, 0, 0, 255}, color.RGBA{240, 228, 66, 255},
}

// Color returns the i-th palette colour.
func Color(i int) color.Color { return palette[i%len(palette)] }

func (p Panel) build() (*plot.Plot, error) {
	if p.Plot != nil {
		return p.Plot, nil
	}
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	if p.LogX {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	colour := seriesColours(p.Series)
	for i, s := range p.Series {
		if len(s.X) != len(s.Y) {
			return nil, fmt.Errorf("series %q: %d x values, %d y values", s.Name, len(s.X), len(s.Y))
		}
		xy := make(plotter.XYs, 0, len(s.X))
		for j := range s.X {
			xy = append(xy, plotter.XY{X: s.X[j], Y: s.Y[j]})
		}
		if s.Points {
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return nil, err
			}
			sc.GlyphStyle.Color = colour[i]
			sc.GlyphStyle.Radius = vg.Points(3)
			pl.Add(sc)
			if !s.NoLegend {
				pl.Legend.Add(s.Name, sc)
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
		pl.Add(l)
		if !s.NoLegend {
			pl.Legend.Add(s.Name, l)
		}
	}
	pl.Add(plotter.NewGrid())
	return pl, nil
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
