package report

// The one chart stack (issue 28): a figure is described by Panels (series with their
// intervals and markers, axes with log scales, marks, legend entries, Gantt spans) that a
// result produces once; this package draws that description for every front end — the
// command's --plot (SVG or PNG file), the --report HTML pages and the explorer's charts
// (SVG in memory, per request).

// SVG draws the panels stacked vertically as an SVG document, as SaveFigure would write
// it to a .svg file.
func SVG(panels ...Panel) ([]byte, error) { return drawFigure(".svg", panels) }

// PNG draws the panels stacked vertically as a PNG image (110 dpi).
func PNG(panels ...Panel) ([]byte, error) { return drawFigure(".png", panels) }
