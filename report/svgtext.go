package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// measuredSVG is gonum's SVG canvas that remembers the width gonum measured for every
// string it writes (font.Face.Width with the font gonum lays the figure out with), in
// drawing order, so fixText can tell the browser that width.
//
// Why: gonum lays out every label, tick and legend entry with Liberation font metrics, but
// an SVG only names the family; a browser without that font substitutes another (DejaVu
// Sans on a plain Linux is about 30 % wider), and a legend laid out to end at the canvas's
// right edge was cut there (session 4's review). With textLength and
// lengthAdjust="spacingAndGlyphs" (SVG 1.1 §10.5) the browser draws each string at exactly
// the measured width, whatever font it has, so the layout gonum computed is the one shown.
type measuredSVG struct {
	*vgsvg.Canvas
	widths []vg.Length
}

// FillString records the string's width and draws it.
func (c *measuredSVG) FillString(f font.Face, pt vg.Point, s string) {
	c.widths = append(c.widths, f.Width(s))
	c.Canvas.FillString(f, pt, s)
}

// svgFallback is the font-family list written in place of gonum's single family: the
// metric-compatible Times clones first, then any serif.
const svgFallback = "font-family:'Liberation Serif','Times New Roman',Times,serif;"

// fixText gives the n-th <text> element of svg the n-th recorded width as its textLength
// (with lengthAdjust spacingAndGlyphs) and a font-family fallback list. It refuses an SVG
// whose text elements do not match the recorded strings one to one.
func (c *measuredSVG) fixText(svg []byte) ([]byte, error) {
	parts := bytes.Split(svg, []byte("<text "))
	if len(parts)-1 != len(c.widths) {
		return nil, fmt.Errorf("svg: %d text elements, %d strings drawn", len(parts)-1, len(c.widths))
	}
	var out bytes.Buffer
	out.Grow(len(svg) + 64*len(c.widths))
	out.Write(parts[0])
	const at = ` transform="scale(1, -1)"` // gonum's every text: <text x="…" y="…" transform=…
	for i, p := range parts[1:] {
		j := bytes.Index(p, []byte(at))
		if j < 0 {
			return nil, fmt.Errorf("svg: text element %d without %s", i, at)
		}
		out.WriteString("<text ")
		out.Write(p[:j])
		fmt.Fprintf(&out, ` textLength="%.4g" lengthAdjust="spacingAndGlyphs"`, c.widths[i].Points())
		out.Write(p[j:])
	}
	return []byte(strings.ReplaceAll(out.String(), "font-family:Liberation Serif;", svgFallback)), nil
}

// CheckSVGText checks an SVG written by SaveFigure the way a browser will draw its text:
// every <text> has a textLength (so its drawn width does not depend on the fonts the
// browser has), and every horizontal one (a title, tick label, legend entry; not the
// rotated y-axis label) lies within the canvas: 0 ≤ x and x + textLength ≤ the width of
// the viewBox. It returns one message per string that does not, naming it.
func CheckSVGText(svg []byte) ([]string, error) {
	dec := xml.NewDecoder(bytes.NewReader(svg))
	var width float64
	var rotated []bool // per open <g>: whether it rotates
	var bad []string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return bad, nil
		}
		if err != nil {
			return nil, err
		}
		switch el := tok.(type) {
		case xml.StartElement:
			at := map[string]string{}
			for _, a := range el.Attr {
				at[a.Name.Local] = a.Value
			}
			switch el.Name.Local {
			case "svg":
				if _, err := fmt.Sscanf(at["viewBox"], "0 0 %g", &width); err != nil {
					return nil, fmt.Errorf("svg viewBox %q: %v", at["viewBox"], err)
				}
			case "g":
				rotated = append(rotated, strings.Contains(at["transform"], "rotate"))
			case "text":
				var s string
				if err := dec.DecodeElement(&s, &el); err != nil {
					return nil, err
				}
				x, errX := strconv.ParseFloat(at["x"], 64)
				l, errL := strconv.ParseFloat(at["textLength"], 64)
				switch {
				case errL != nil:
					bad = append(bad, fmt.Sprintf("text %q: no textLength (its width depends on the browser's fonts)", s))
				case errX != nil:
					bad = append(bad, fmt.Sprintf("text %q: x %q", s, at["x"]))
				case slices.Contains(rotated, true):
				case x < 0 || x+l > width:
					bad = append(bad, fmt.Sprintf("text %q spans x = %.4g … %.4g, beyond the canvas 0 … %.4g", s, x, x+l, width))
				}
			}
		case xml.EndElement:
			if el.Name.Local == "g" && len(rotated) > 0 {
				rotated = rotated[:len(rotated)-1]
			}
		}
	}
}
