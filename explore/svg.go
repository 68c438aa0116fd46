package explore

import (
	"bytes"
	"cmp"
	"fmt"
	"html"
	"math"
	"sort"
)

// palette is a colour-blind-safe qualitative palette (Okabe–Ito), shared with the page script.
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"}

// niceTicks returns about n round tick values covering [lo, hi].
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		hi = lo + 1
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

// ChartSVG draws a chart as a standalone SVG (for report pages; the explorer page draws the
// same charts in its script): axes with round ticks, the legend below the plot area (never
// over the data), the current point as a grey line and the best as a green dashed one; a
// Gantt chart has one row per process, bars coloured by activity.
//
// A Gantt chart of more than 16 processes whose bars name their node (Bar.Group) has its rows
// ordered by node, each node's rows on a shaded or plain band with the node's name at the left
// (the static form of the explorer's grouping, for report pages).
func ChartSVG(c Chart) []byte {
	const W, R, T = 720.0, 20.0, 30.0
	L := 70.0
	H := 360.0
	var b bytes.Buffer
	rows, group := ganttRows(c.Bars)
	grouped := len(rows) > 16 && len(distinct(group)) > 1
	if grouped {
		L = 110
		first := groupOrder(c.Bars)
		sort.SliceStable(rows, func(i, j int) bool { return first[group[rows[i]]] < first[group[rows[j]]] })
	}
	legendN := len(c.Series)
	kinds := []string{}
	if len(c.Bars) > 0 {
		km := map[string]bool{}
		for _, br := range c.Bars {
			km[br.Kind] = true
		}
		for k := range km {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		legendN = len(kinds)
	}
	legendH := 18.0 * float64((legendN+2)/3)
	B := 45 + legendH
	// a Gantt chart grows with its processes so that every row stays at least minRow high
	// (64 processes: 64 rows of 14 px, readable, instead of 4 px in a fixed height)
	const minRow = 14.0
	H = math.Max(H, T+B+minRow*float64(len(rows)))
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`, W, H, W, H)
	fmt.Fprintf(&b, `<text x="%g" y="18" font-weight="bold">%s</text>`, L, html.EscapeString(c.Title))
	xlo, xhi, ylo, yhi := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for i := range s.X {
			if finite(s.X[i], s.Y[i]) {
				xlo, xhi = math.Min(xlo, s.X[i]), math.Max(xhi, s.X[i])
				ylo, yhi = math.Min(ylo, s.Y[i]), math.Max(yhi, s.Y[i])
			}
		}
	}
	for _, br := range c.Bars {
		xlo, xhi = math.Min(xlo, br.Start), math.Max(xhi, br.End)
	}
	if math.IsInf(xlo, 0) {
		xlo, xhi = 0, 1
	}
	if len(c.Bars) == 0 {
		ylo = math.Min(ylo, 0)
		if math.IsInf(yhi, 0) {
			ylo, yhi = 0, 1
		}
	} else {
		xlo = math.Min(xlo, 0)
	}
	xt := niceTicks(xlo, xhi, 6)
	xlo, xhi = math.Min(xlo, xt[0]), math.Max(xhi, xt[len(xt)-1])
	px := func(x float64) float64 { return L + (x-xlo)/(xhi-xlo)*(W-L-R) }
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#999"/>`, L, T, W-L-R, H-T-B)
	for _, v := range xt {
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%g" y2="%g" stroke="#eee"/><text x="%.1f" y="%g" text-anchor="middle">%s</text>`, px(v), px(v), T, H-B, px(v), H-B+15, tick(v))
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`, (L+W-R)/2, H-B+31, html.EscapeString(c.XLabel))
	if len(c.Bars) > 0 {
		rh := (H - T - B) / float64(len(rows))
		idx := map[string]int{}
		band := 0
		for i, r := range rows {
			idx[r] = i
			if grouped && (i == 0 || group[r] != group[rows[i-1]]) {
				band++
				n := 0
				for _, q := range rows[i:] {
					if group[q] != group[r] {
						break
					}
					n++
				}
				if band%2 == 0 {
					fmt.Fprintf(&b, `<rect x="2" y="%.1f" width="%g" height="%.1f" fill="#f1f4f8"/>`, T+rh*float64(i), W-R-2, rh*float64(n))
				}
				fmt.Fprintf(&b, `<text x="4" y="%.1f" font-weight="bold" class="group">%s</text>`, T+rh*(float64(i)+0.5)+4, html.EscapeString(group[r]))
			}
			fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end">%s</text>`, L-4, T+rh*(float64(i)+0.5)+4, html.EscapeString(r))
		}
		kc := map[string]string{}
		for i, k := range kinds {
			kc[k] = palette[i%len(palette)]
		}
		for _, br := range c.Bars {
			fmt.Fprintf(&b, `<rect x="%.2f" y="%.1f" width="%.2f" height="%.1f" fill="%s"/>`, px(br.Start), T+rh*float64(idx[br.Row])+rh*0.15, math.Max(0.5, px(br.End)-px(br.Start)), rh*0.7, kc[br.Kind])
		}
		for i, k := range kinds {
			legend(&b, i, L, H-legendH, kc[k], false, k)
		}
	} else {
		yt := niceTicks(ylo, yhi, 5)
		ylo, yhi = math.Min(ylo, yt[0]), math.Max(yhi, yt[len(yt)-1])
		py := func(y float64) float64 { return H - B - (y-ylo)/(yhi-ylo)*(H-T-B) }
		for _, v := range yt {
			fmt.Fprintf(&b, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%g" y="%.1f" text-anchor="end">%s</text>`, L, W-R, py(v), py(v), L-4, py(v)+4, tick(v))
		}
		fmt.Fprintf(&b, `<text transform="translate(14 %g) rotate(-90)" text-anchor="middle">%s</text>`, (T+H-B)/2, html.EscapeString(c.YLabel))
		for i, s := range c.Series {
			var pts bytes.Buffer
			for j := range s.X {
				if finite(s.X[j], s.Y[j]) {
					fmt.Fprintf(&pts, "%.1f,%.1f ", px(s.X[j]), py(s.Y[j]))
				}
			}
			dash := ""
			if s.Dash {
				dash = ` stroke-dasharray="5 4"`
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`, palette[i%len(palette)], dash, bytes.TrimSpace(pts.Bytes()))
			legend(&b, i, L, H-legendH, palette[i%len(palette)], s.Dash, s.Name)
		}
	}
	mark := func(x *float64, col, dash, label string) {
		if x != nil && *x >= xlo && *x <= xhi {
			fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%g" y2="%g" stroke="%s" stroke-width="1.5"%s/><text x="%.1f" y="%g" fill="%s" font-size="11">%s</text>`, px(*x), px(*x), T, H-B, col, dash, px(*x)+3, T+12, col, label)
		}
	}
	mark(c.MarkX, "#555", "", "current")
	mark(c.BestX, "#0a7d32", ` stroke-dasharray="6 3"`, cmp.Or(c.BestName, "best"))
	b.WriteString("</svg>")
	return b.Bytes()
}

// ganttRows returns the rows of a Gantt chart in order of first appearance and each row's
// group (node).
func ganttRows(bars []Bar) ([]string, map[string]string) {
	rows := []string{}
	group := map[string]string{}
	for _, br := range bars {
		if _, ok := group[br.Row]; !ok {
			group[br.Row] = br.Group
			rows = append(rows, br.Row)
		}
	}
	return rows, group
}

func distinct(m map[string]string) map[string]bool {
	out := map[string]bool{}
	for _, v := range m {
		out[v] = true
	}
	return out
}

// groupOrder maps each group to the position of its first bar: groups keep the order the
// bars give.
func groupOrder(bars []Bar) map[string]int {
	out := map[string]int{}
	for i, br := range bars {
		if _, ok := out[br.Group]; !ok {
			out[br.Group] = i
		}
	}
	return out
}

func legend(b *bytes.Buffer, i int, L, top float64, col string, dash bool, name string) {
	x, y := L+float64(i%3)*210, top+float64(i/3)*18+4
	d := ""
	if dash {
		d = ` stroke-dasharray="5 4"`
	}
	fmt.Fprintf(b, `<line x1="%g" x2="%g" y1="%g" y2="%g" stroke="%s" stroke-width="3"%s/><text x="%g" y="%g">%s</text>`, x, x+22, y, y, col, d, x+27, y+4, html.EscapeString(name))
}

func tick(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%.4g", v)
}
