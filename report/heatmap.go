package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
)

// Grid is a surface z(x, y) on a rectangular grid; NaN marks cells without a value.
type Grid struct {
	X, Y []float64
	Z    [][]float64 // Z[i][j] at (X[i], Y[j])
}

type gridXYZ struct{ g Grid }

func (a gridXYZ) Dims() (c, r int)   { return len(a.g.X), len(a.g.Y) }
func (a gridXYZ) Z(c, r int) float64 { return a.g.Z[c][r] }
func (a gridXYZ) X(c int) float64    { return a.g.X[c] }
func (a gridXYZ) Y(r int) float64    { return a.g.Y[r] }

// HeatMap returns a panel drawing g as a heat map with a colour legend of a few levels.
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
	cols := pal.Palette(64)
	hm := plotter.NewHeatMap(gridXYZ{g}, cols)
	hm.Min, hm.Max = lo, hi
	hm.NaN = color.RGBA{235, 235, 235, 255}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Add(hm)
	// legend: five levels
	for i := 0; i <= 4; i++ {
		v := lo + (hi-lo)*float64(i)/4
		c, _ := pal.At(v)
		p.Legend.Add(fmt.Sprintf("%.3g", v), &plotter.Polygon{Color: c})
	}
	p.Legend.Top = true
	return Panel{Plot: p}, nil
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
