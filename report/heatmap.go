package report

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// Grid is a surface z(x, y) on a rectangular grid; NaN marks cells without a value.
type Grid struct {
	X, Y []float64
	Z    [][]float64 // Z[i][j] at (X[i], Y[j])
}

// HeatMap returns a panel drawing g as a heat map: the cells as one raster image (a PNG
// inside an SVG file), so the file's size does not grow with the number of cells and
// adjacent cells leave no anti-aliasing seams, and a continuous colour bar beside the data.
func HeatMap(title, xlabel, ylabel string, g Grid) (Panel, error) {
	if len(g.X) < 2 || len(g.Y) < 2 {
		return Panel{}, fmt.Errorf("a heat map needs at least 2 × 2 points")
	}
	lo, hi := 0.0, 0.0
	first := true
	for _, col := range g.Z {
		for _, v := range col {
			if v != v {
				continue
			}
			if first || v < lo {
				lo = v
			}
			if first || v > hi {
				hi = v
			}
			first = false
		}
	}
	if first {
		return Panel{}, fmt.Errorf("a heat map needs at least one value")
	}
	if hi == lo {
		hi = lo + 1
	}
	pal := moreland.SmoothBlueRed()
	pal.SetMin(lo)
	pal.SetMax(hi)
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	r, err := newRaster(g, pal)
	if err != nil {
		return Panel{}, err
	}
	p.Add(r)
	return Panel{Plot: p, Side: colorBar(pal)}, nil
}

// Stacked returns a panel of stacked areas: band i lies between the sums of series 0…i−1
// and 0…i, all on the same x.
func Stacked(title, xlabel, ylabel string, x []float64, names []string, ys [][]float64) (Panel, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend.Top = true
	below := make([]float64, len(x))
	for i, y := range ys {
		if len(y) != len(x) {
			return Panel{}, fmt.Errorf("series %q has %d values for %d x", names[i], len(y), len(x))
		}
		poly := make(plotter.XYs, 0, 2*len(x))
		top := make([]float64, len(x))
		for j := range x {
			top[j] = below[j] + y[j]
			poly = append(poly, plotter.XY{X: x[j], Y: top[j]})
		}
		for j := len(x) - 1; j >= 0; j-- {
			poly = append(poly, plotter.XY{X: x[j], Y: below[j]})
		}
		pg, err := plotter.NewPolygon(poly)
		if err != nil {
			return Panel{}, err
		}
		pg.Color = Color(i)
		pg.LineStyle.Width = 0
		p.Add(pg)
		p.Legend.Add(names[i], pg)
		below = top
	}
	p.Add(plotter.NewGrid())
	return Panel{Plot: p}, nil
}
