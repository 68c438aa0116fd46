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
	b, err := drawFigure(ext, panels)
	if err != nil {
		return err
	}
	return WriteAtomic(path, func(f *os.File) error {
		_, err := f.Write(b)
		return err
	})
}

// drawFigure draws the panels stacked vertically and encodes them as ext (".svg" or ".png").
func drawFigure(ext string, panels []Panel) ([]byte, error) {
	plots, heights, strip, total, err := layout(panels)
	if err != nil {
		return nil, err
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
	tiles, dataAreas := tileCanvases(dc, plots, heights, strip, total)
	for i, p := range panels {
		drawPanel(p, plots[i][0], tiles[i], dataAreas[i])
	}
	if ext == ".svg" {
		return svgBytes(c, svg)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// layout builds each panel's plot and its height (a Gantt chart's grows with its rows),
// the legend strip's width beside the data (0: no legend) and the figure's height.
func layout(panels []Panel) (plots [][]*plot.Plot, heights []vg.Length, strip, total vg.Length, err error) {
	plots = make([][]*plot.Plot, len(panels))
	heights = make([]vg.Length, len(panels))
	for i, p := range panels {
		pl, err := p.build()
		if err != nil {
			return nil, nil, 0, 0, err
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
	return plots, heights, strip, total, nil
}

// tileCanvases are the panels' tiles, top to bottom, and their data areas (the tile less
// the legend strip); equal heights are aligned by plot.Align (the data areas line up
// across panels), a taller panel (a Gantt chart) is laid out alone.
func tileCanvases(dc draw.Canvas, plots [][]*plot.Plot, heights []vg.Length, strip, total vg.Length) (tiles, dataAreas []draw.Canvas) {
	pad := func(c draw.Canvas) draw.Canvas {
		return draw.Crop(c, 2*vg.Millimeter, -4*vg.Millimeter, 2*vg.Millimeter, -2*vg.Millimeter)
	}
	n := len(plots)
	tiles, dataAreas = make([]draw.Canvas, n), make([]draw.Canvas, n)
	top := dc.Max.Y
	for i := range n {
		tiles[i] = pad(draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: dc.Min.X, Y: top - heights[i]}, Max: vg.Point{X: dc.Max.X, Y: top}}})
		top -= heights[i]
		dataAreas[i] = draw.Crop(tiles[i], 0, -strip, 0, 0)
	}
	if n > 1 && total == vg.Length(n)*heights[0] {
		t := draw.Tiles{Rows: n, Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter, PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
		aligned := plot.Align(plots, t, draw.Crop(dc, 0, -strip, 0, 0))
		for i := range n {
			dataAreas[i] = aligned[i][0]
			tiles[i].Rectangle.Min.Y, tiles[i].Rectangle.Max.Y = aligned[i][0].Min.Y, aligned[i][0].Max.Y
		}
	}
	return tiles, dataAreas
}

// drawPanel draws panel p's plot pl into data, and beside it, in the tile's strip below
// the title, its colour bar (p.Side) or its legend.
func drawPanel(p Panel, pl *plot.Plot, tile, data draw.Canvas) {
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

// svgBytes is the drawn SVG canvas c (svg: the same canvas, measuring its text) as
// written to a file: text lengths fixed, rasters stretched and labelled as PNG.
func svgBytes(c vg.CanvasWriterTo, svg *measuredSVG) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	b, err := svg.fixText(buf.Bytes())
	if err != nil {
		return nil, err
	}
	// gonum's <image> keeps SVG's default preserveAspectRatio (xMidYMid meet): a
	// browser would shrink a raster to its pixel aspect ratio inside the cells' extent
	// (a heat map squeezed to the middle, a colour bar to a line). Stretch it instead.
	b = bytes.ReplaceAll(b, []byte("<image "), []byte(`<image preserveAspectRatio="none" `))
	// gonum (vgsvg 0.15) encodes the image as PNG but labels it image/jpg: librsvg and
	// most desktop viewers then draw nothing (issue 29); Chromium sniffs the bytes.
	return fixImageMIME(b), nil
}

// fixImageMIME labels the PNG data URIs gonum's SVG canvas writes as image/png.
func fixImageMIME(svg []byte) []byte {
	return bytes.ReplaceAll(svg, []byte("data:image/jpg;base64,"), []byte("data:image/png;base64,"))
}
