package report

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// plotRight is the right edge of the plot (axes and data) in an SVG figure: the plot's
// white background rectangle, the first filled path gonum draws for it.
var bgRect = regexp.MustCompile(`<path d="M([\d.]+),[\d.]+L([\d.]+),`)

// textX returns the x of the <text> elements whose content is name.
func textX(t *testing.T, svg, name string) []float64 {
	t.Helper()
	re := regexp.MustCompile(`(?s)<text x="([\d.-]+)"[^>]*>` + regexp.QuoteMeta(name) + `</text>`)
	var xs []float64
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		xs = append(xs, x)
	}
	return xs
}

// Every legend is drawn right of its plot's data and axes (issue 17: legends sat on the
// data; the pipeline plot's long legend was clipped): line series, points, stacked bands.
func TestLegendOutsideData(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	line := Panel{Title: "lines", XLabel: "p", YLabel: "t", Series: []Series{
		{Name: "read: storage, write: resolution (a long legend entry)", X: x, Y: []float64{4, 3, 2, 1}},
		{Name: "measured", X: x, Y: []float64{4.2, 3.1, 2, 1.1}, Points: true},
	}}
	st, err := Stacked("stacked", "p", "t", x, []string{"cpu", "io"}, [][]float64{{1, 1, 1, 1}, {2, 2, 2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "f.svg")
	if err := SaveFigure(path, line, st); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	svg := string(b)
	bg := bgRect.FindStringSubmatch(svg)
	if bg == nil {
		t.Fatal("no plot background in the SVG")
	}
	right, _ := strconv.ParseFloat(bg[2], 64)
	w := regexp.MustCompile(`viewBox="0 0 ([\d.]+)`).FindStringSubmatch(svg)
	width, _ := strconv.ParseFloat(w[1], 64)
	for _, name := range []string{"read: storage, write: resolution (a long legend entry)", "measured", "cpu", "io"} {
		xs := textX(t, svg, name)
		if len(xs) != 1 {
			t.Errorf("legend entry %q drawn %d times", name, len(xs))
			continue
		}
		if xs[0] <= right {
			t.Errorf("legend entry %q at x = %g, inside the plot (right edge %g)", name, xs[0], right)
		}
		// the text's width in the legend's font (gonum's own measure) fits in the figure
		sty := plot.New().Legend.TextStyle
		if xs[0]+float64(sty.Rectangle(name).Max.X) > width+0.5 {
			t.Errorf("legend entry %q at x = %g is clipped by the figure's width %g", name, xs[0], width)
		}
	}
}

// A heat map of 1024 × 256 cells is one raster image plus the colour bar's (not 262 144
// vector rectangles: 24 MB before), and its colour key is a continuous bar.
func TestHeatMapRasterSize(t *testing.T) {
	b, _ := heatMapSVGOf(t, 1024, 256, 100)
	if len(b) > 1<<20 {
		t.Errorf("heat-map SVG %d bytes, want under 1 MB", len(b))
	}
	if n := strings.Count(string(b), "<image"); n != 2 {
		t.Errorf("%d <image> elements, want 2 (cells, colour bar)", n)
	}
	// a browser keeps an image's pixel aspect ratio unless told not to (the cells would
	// shrink to the middle of the plot)
	if n := strings.Count(string(b), `<image preserveAspectRatio="none"`); n != 2 {
		t.Errorf("%d stretched images, want 2", n)
	}
	if n := strings.Count(string(b), "<path"); n > 200 {
		t.Errorf("%d <path> elements: cells drawn as vectors?", n)
	}
}

// The raster's pixels take the colour of the cell they lie in, on even and uneven grids;
// NaN cells are grey; a small grid's cells are replicated to at least minRasterPx pixels.
func TestRasterCells(t *testing.T) {
	pal := moreland.SmoothBlueRed()
	pal.SetMin(0)
	pal.SetMax(10)
	for _, tc := range []struct {
		name string
		g    Grid
	}{
		{"even", Grid{X: []float64{1, 2, 3}, Y: []float64{10, 20}, Z: [][]float64{{0, 1}, {2, math.NaN()}, {4, 10}}}},
		{"uneven", Grid{X: []float64{1, 2, 4, 8}, Y: []float64{1, 10}, Z: [][]float64{{0, 1}, {2, 3}, {4, 5}, {6, 7}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := newRaster(tc.g, pal)
			if err != nil {
				t.Fatal(err)
			}
			bx := r.img.Bounds()
			if bx.Dx() < minRasterPx || bx.Dy() < minRasterPx {
				t.Errorf("raster %v smaller than %d px", bx, minRasterPx)
			}
			// the centre of every cell: x_i, y_j in data coordinates → pixel
			for i, x := range tc.g.X {
				for j, y := range tc.g.Y {
					px := int((x - r.xmin) / (r.xmax - r.xmin) * float64(bx.Dx()))
					py := bx.Dy() - 1 - int((y-r.ymin)/(r.ymax-r.ymin)*float64(bx.Dy()))
					want := color.Color(nanColor)
					if z := tc.g.Z[i][j]; !math.IsNaN(z) {
						want, _ = pal.At(z)
					}
					if !sameColor(r.img.At(px, py), want) {
						t.Errorf("cell (%g, %g): pixel (%d, %d) is %v, want %v", x, y, px, py, r.img.At(px, py), want)
					}
				}
			}
		})
	}
	if _, err := newRaster(Grid{X: []float64{2, 1}, Y: []float64{1, 2}, Z: [][]float64{{1, 1}, {1, 1}}}, pal); err == nil {
		t.Error("decreasing x accepted")
	}
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, _ := a.RGBA()
	r2, g2, b2, _ := b.RGBA()
	d := func(x, y uint32) bool { return x>>8 == y>>8 || x>>8+1 == y>>8 || x>>8 == y>>8+1 }
	return d(r1, r2) && d(g1, g2) && d(b1, b2)
}

// A Gantt chart (a nominal y axis) of 64 processes gets 13 points per row: every label
// readable, not 64 rows squeezed into the 3.6-inch panel.
func TestGanttHeight(t *testing.T) {
	p := plot.New()
	var names []string
	for i := 0; i < 64; i++ {
		names = append(names, fmt.Sprintf("P%d", i))
		pg, _ := plotter.NewPolygon(plotter.XYs{{X: 0, Y: float64(i) - 0.3}, {X: 1, Y: float64(i) - 0.3}, {X: 1, Y: float64(i) + 0.3}, {X: 0, Y: float64(i) + 0.3}})
		p.Add(pg)
	}
	p.NominalY(names...)
	path := filepath.Join(t.TempDir(), "g.svg")
	if err := SaveFigure(path, Panel{Plot: p}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	h := regexp.MustCompile(`viewBox="0 0 [\d.]+ ([\d.]+)`).FindStringSubmatch(string(b))
	height, _ := strconv.ParseFloat(h[1], 64)
	if want := 64*13 + 1.3*72; height < want-1 {
		t.Errorf("figure height %g pt for 64 rows, want ≥ %g", height, want)
	}
}

// Figures get the mode a plain create would: 0666 less the umask (not os.CreateTemp's 0600).
func TestFigureMode(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "m.png")
	if err := SaveFigure(path, Panel{Series: []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{1, 2}}}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (%v), want -rw-r----- under umask 027", fi.Mode().Perm(), err)
	}
}

// TestLegendTextWithinCanvas: every string of a figure is drawn at the width gonum laid it
// out with (textLength), and every legend entry ends inside the canvas, for long entries,
// many entries and a stacked panel (session 4's review: a sweep's legend was cut at the
// SVG's right edge in a browser whose fallback font is wider than gonum's Liberation).
func TestLegendTextWithinCanvas(t *testing.T) {
	x := []float64{1, 2, 3}
	long := Panel{Title: "long", XLabel: "p", YLabel: "t"}
	for i := range 12 {
		name := fmt.Sprintf("series %d with a long legend entry: %s", i, strings.Repeat("wide W ", i))
		long.Series = append(long.Series, Series{Name: name, X: x, Y: []float64{1, 2, float64(i)}, Dash: i % 3, Group: fmt.Sprint(i % 4)})
	}
	st, err := Stacked("stacked", "p", "t", x, []string{"cpu", "a much longer component name"}, [][]float64{{1, 1, 1}, {2, 2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, panels := range [][]Panel{{long}, {long, st}, {st}} {
		path := filepath.Join(t.TempDir(), "f.svg")
		if err := SaveFigure(path, panels...); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		bad, err := CheckSVGText(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range bad {
			t.Error(m)
		}
		if n := strings.Count(string(b), "<text "); n < 12 {
			t.Errorf("%d text elements, want every legend entry", n)
		}
	}
}

// TestCheckSVGTextFails: the check finds a string that ends beyond the canvas and one
// without a textLength (so the test above can fail).
func TestCheckSVGTextFails(t *testing.T) {
	svg := `<svg width="100pt" height="50pt" viewBox="0 0 100 50"><g transform="scale(1, -1)">` +
		`<text x="60" y="-10" textLength="50" transform="scale(1, -1)">cut</text>` +
		`<text x="10" y="-20" transform="scale(1, -1)">unmeasured</text>` +
		`<g transform="rotate(90)"><text x="500" y="-20" textLength="50">rotated</text></g>` +
		`<text x="10" y="-30" textLength="80" transform="scale(1, -1)">fits</text></g></svg>`
	bad, err := CheckSVGText([]byte(svg))
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 2 || !strings.Contains(bad[0], `"cut"`) || !strings.Contains(bad[1], `"unmeasured"`) {
		t.Errorf("got %q, want the cut and the unmeasured string", bad)
	}
}

// FuzzCheckSVGText: any input gives an error or a list, never a panic.
func FuzzCheckSVGText(f *testing.F) {
	f.Add([]byte(`<svg viewBox="0 0 100 50"><text x="60" textLength="50">cut</text></svg>`))
	f.Add([]byte(`<svg viewBox="0 0 1e400 5"><g transform="rotate(90)"><text x="-1">r</text></g></g></svg>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = CheckSVGText(b)
	})
}
