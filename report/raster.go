package report

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	gpalette "gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// nanColor marks heat-map cells without a value.
var nanColor = color.RGBA{235, 235, 235, 255}

// Raster sizes: a heat map is drawn as an image at least minRasterPx wide and high (a
// small grid's cells are replicated so the viewer's image smoothing cannot blur one cell
// into the next) and at most maxRasterPx (a finer grid is sampled: one pixel per cell
// then exceeds what the figure can show anyway).
const (
	minRasterPx = 600
	maxRasterPx = 2048
)

// raster is a heat map drawn as one image. Cell (i, j) covers x from the midpoint between
// X[i-1] and X[i] to the midpoint between X[i] and X[i+1] (half a step beyond the first
// and last point), likewise in y; grids need not be evenly spaced: every pixel takes the
// value of the cell its centre lies in.
type raster struct {
	img                    *image.RGBA
	xmin, xmax, ymin, ymax float64
}

// edges returns the cell boundaries of sorted, distinct points v (len(v)+1 values).
func edges(v []float64) ([]float64, error) {
	for i := 1; i < len(v); i++ {
		if !(v[i] > v[i-1]) {
			return nil, fmt.Errorf("heat map coordinates must increase: %g after %g", v[i], v[i-1])
		}
	}
	e := make([]float64, len(v)+1)
	for i := 1; i < len(v); i++ {
		e[i] = (v[i-1] + v[i]) / 2
	}
	e[0] = v[0] - (v[1]-v[0])/2
	e[len(v)] = v[len(v)-1] + (v[len(v)-1]-v[len(v)-2])/2
	return e, nil
}

// pixels is the raster's size along an axis of n cells: n replicated up to minRasterPx,
// capped at maxRasterPx; for uneven cells, enough pixels that the narrowest cell gets one.
func pixels(e []float64) int {
	n := len(e) - 1
	narrow := math.Inf(1)
	for i := 1; i < len(e); i++ {
		narrow = math.Min(narrow, e[i]-e[i-1])
	}
	px := n * int(math.Ceil(float64(minRasterPx)/float64(n)))
	if even := (e[n]-e[0])/narrow < float64(n)*1.0001; !even {
		px = max(int(math.Ceil((e[n]-e[0])/narrow)), minRasterPx)
	}
	return max(min(px, maxRasterPx), n, 1)
}

func newRaster(g Grid, pal gpalette.ColorMap) (*raster, error) {
	ex, err := edges(g.X)
	if err != nil {
		return nil, err
	}
	ey, err := edges(g.Y)
	if err != nil {
		return nil, err
	}
	nx, ny := min(pixels(ex), maxRasterPx), min(pixels(ey), maxRasterPx)
	cellOf := func(e []float64, n, px int) int {
		v := e[0] + (float64(px)+0.5)*(e[len(e)-1]-e[0])/float64(n)
		return min(max(sort.SearchFloat64s(e, v)-1, 0), len(e)-2)
	}
	colX := make([]int, nx)
	for px := range colX {
		colX[px] = cellOf(ex, nx, px)
	}
	img := image.NewRGBA(image.Rect(0, 0, nx, ny))
	for py := 0; py < ny; py++ {
		j := cellOf(ey, ny, ny-1-py) // image rows run downwards, y upwards
		for px := 0; px < nx; px++ {
			v := g.Z[colX[px]][j]
			c := color.Color(nanColor)
			if v == v {
				if cc, err := pal.At(v); err == nil {
					c = cc
				}
			}
			img.Set(px, py, c)
		}
	}
	return &raster{img: img, xmin: ex[0], xmax: ex[len(ex)-1], ymin: ey[0], ymax: ey[len(ey)-1]}, nil
}

// Plot draws the image over the cells' extent.
func (r *raster) Plot(c draw.Canvas, p *plot.Plot) {
	plotter.NewImage(r.img, r.xmin, r.ymin, r.xmax, r.ymax).Plot(c, p)
}

// DataRange is the cells' extent.
func (r *raster) DataRange() (xmin, xmax, ymin, ymax float64) {
	return r.xmin, r.xmax, r.ymin, r.ymax
}

// colorBar is a vertical colour bar of the palette over its range: one image of a colour
// per point of height (continuous to the eye), with the value axis on the right.
func colorBar(pal gpalette.ColorMap) *plot.Plot {
	p := plot.New()
	p.Add(&plotter.ColorBar{ColorMap: pal, Vertical: true, Colors: 256})
	p.HideX()
	p.Y.Padding = 0
	p.X.Padding = 0
	p.Y.Tick.Label.Font.Size = vg.Points(9)
	return p
}
