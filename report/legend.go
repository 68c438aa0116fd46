package report

import (
	"bytes"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figure layout (issue 17): every panel's legend (or its Side plot, a heat map's colour
// bar) is drawn in a strip right of the data area, never over the data, and the figure is
// widened by that strip so the data area keeps its size. A panel whose y axis is nominal
// (one labelled row per item: a Gantt chart) gets the height its rows need.
const (
	figureWidth = 7 * vg.Inch
	panelHeight = 3.6 * vg.Inch
	rowHeight   = 13 * vg.Length(1) // points per nominal row: a 10-point label and a gap
	legendGap   = 3 * vg.Millimeter
	sideWidth   = 0.65 * vg.Inch // a colour bar with its tick labels
	// maxPanelHeight bounds a panel of many rows (about 650 at 13 pt): a PNG of it at
	// 110 dpi is 13 200 pixels high, about 50 MB of pixels while drawing
	maxPanelHeight = 120 * vg.Inch
)

// legendWidth is the width of p's legend when drawn (0 when it has no entries).
func legendWidth(p *plot.Plot) vg.Length {
	return p.Legend.Rectangle(draw.Canvas{}).Size().X
}

// rows is the number of labelled ticks of a nominal y axis (plot.NominalY), 0 otherwise.
func rows(p *plot.Plot) int {
	ts, ok := p.Y.Tick.Marker.(plot.ConstantTicks)
	if !ok {
		return 0
	}
	n := 0
	for _, t := range ts {
		if t.Label != "" {
			n++
		}
	}
	return n
}

func saveFigure(path, ext string, panels []Panel) error {
	plots := make([][]*plot.Plot, len(panels))
	strip := vg.Length(0)
	heights := make([]vg.Length, len(panels))
	total := vg.Length(0)
	for i, p := range panels {
		pl, err := p.build()
		if err != nil {
			return err
		}
		plots[i] = []*plot.Plot{pl}
		w := legendWidth(pl)
		if p.Side != nil {
			w = sideWidth
		}
		strip = max(strip, w)
		heights[i] = min(max(panelHeight, vg.Length(rows(pl))*rowHeight+1.3*vg.Inch), maxPanelHeight)
		total += heights[i]
	}
	if strip > 0 {
		strip += legendGap + 2*vg.Millimeter
	}
	w := figureWidth + strip
	var c vg.CanvasWriterTo
	var svg *measuredSVG
	if ext == ".svg" {
		svg = &measuredSVG{Canvas: vgsvg.New(w, total)}
		c = svg
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, total), vgimg.UseDPI(110))}
	}
	dc := draw.New(c)
	// tiles: one per panel, top to bottom; equal heights are aligned by plot.Align (the
	// data areas line up across panels), a taller panel (a Gantt chart) is laid out alone
	pad := func(c draw.Canvas) draw.Canvas {
		return draw.Crop(c, 2*vg.Millimeter, -4*vg.Millimeter, 2*vg.Millimeter, -2*vg.Millimeter)
	}
	tiles := make([]draw.Canvas, len(panels))
	dataAreas := make([]draw.Canvas, len(panels))
	top := dc.Max.Y
	for i := range panels {
		tiles[i] = pad(draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: dc.Min.X, Y: top - heights[i]}, Max: vg.Point{X: dc.Max.X, Y: top}}})
		top -= heights[i]
		dataAreas[i] = draw.Crop(tiles[i], 0, -strip, 0, 0)
	}
	if equal := total == vg.Length(len(panels))*heights[0]; equal && len(panels) > 1 {
		t := draw.Tiles{Rows: len(panels), Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter, PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
		aligned := plot.Align(plots, t, draw.Crop(dc, 0, -strip, 0, 0))
		for i := range panels {
			dataAreas[i] = aligned[i][0]
			tiles[i].Rectangle.Min.Y, tiles[i].Rectangle.Max.Y = aligned[i][0].Min.Y, aligned[i][0].Max.Y
		}
	}
	for i, p := range panels {
		pl := plots[i][0]
		tile, data := tiles[i], dataAreas[i]
		side := draw.Canvas{Canvas: tile.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: data.Max.X + legendGap, Y: tile.Min.Y}, Max: tile.Max}}
		// the strip starts where the data area does: below the title
		titleH := vg.Length(0)
		if pl.Title.Text != "" {
			titleH = pl.Title.TextStyle.Height(pl.Title.Text) + pl.Title.Padding
		}
		side = draw.Crop(side, 0, 0, 0, -titleH)
		legend := pl.Legend
		pl.Legend = plot.NewLegend()
		pl.Draw(data)
		pl.Legend = legend
		switch {
		case p.Side != nil:
			// the colour bar spans the data area's height: the x axis's height below it
			xh := pl.X.Label.TextStyle.Height(pl.X.Label.Text) + pl.X.Label.Padding + pl.X.Tick.Label.Height("0") + pl.X.Tick.Length + pl.X.Padding + pl.X.LineStyle.Width
			bar := draw.Crop(side, 0, 0, xh, 0)
			bar.Max.X = min(bar.Max.X, bar.Min.X+sideWidth)
			p.Side.Draw(bar)
		case legendWidth(pl) > 0:
			lg := pl.Legend
			lg.Top, lg.Left = true, true
			lg.XOffs, lg.YOffs = 0, 0
			lg.Draw(draw.Crop(side, 0, 0, 0, -vg.Millimeter))
		}
	}
	return WriteAtomic(path, func(f *os.File) error {
		if ext != ".svg" {
			_, err := c.WriteTo(f)
			return err
		}
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return err
		}
		b, err := svg.fixText(buf.Bytes())
		if err != nil {
			return err
		}
		// gonum's <image> keeps SVG's default preserveAspectRatio (xMidYMid meet): a
		// browser would shrink a raster to its pixel aspect ratio inside the cells' extent
		// (a heat map squeezed to the middle, a colour bar to a line). Stretch it instead.
		b = bytes.ReplaceAll(b, []byte("<image "), []byte(`<image preserveAspectRatio="none" `))
		// gonum (vgsvg 0.15) encodes the image as PNG but labels it image/jpg: librsvg and
		// most desktop viewers then draw nothing (issue 29); Chromium sniffs the bytes.
		_, err = f.Write(fixImageMIME(b))
		return err
	})
}

// fixImageMIME labels the PNG data URIs gonum's SVG canvas writes as image/png.
func fixImageMIME(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("data:image/jpg;base64,"), []byte("data:image/png;base64,"))
}
