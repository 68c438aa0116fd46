package explore

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// A Gantt chart of 64 processes keeps every bar at least 14·0.7 ≈ 9.8 px high and every
// process labelled; the legend of a line chart sits below the plot area, not over the data.
func TestChartSVGLayout(t *testing.T) {
	var bars []Bar
	for p := 0; p < 64; p++ {
		bars = append(bars, Bar{Row: fmt.Sprintf("P%d", p), Kind: "compute", Start: float64(p), End: float64(p) + 1},
			Bar{Row: fmt.Sprintf("P%d", p), Kind: "transfer", Start: float64(p) + 1, End: float64(p) + 1.5})
	}
	svg := string(ChartSVG(Chart{Title: "g", XLabel: "t", Bars: bars}))
	for _, m := range regexp.MustCompile(`<rect x="[^"]+" y="[^"]+" width="[^"]+" height="([0-9.]+)"`).FindAllStringSubmatch(svg, -1) {
		if h, _ := strconv.ParseFloat(m[1], 64); h < 9.7 {
			t.Fatalf("bar height %v px: unreadable", h)
		}
	}
	if n := strings.Count(svg, `text-anchor="end">P`); n != 64 {
		t.Errorf("%d process labels, want 64", n)
	}
	x := 0.0
	line := ChartSVG(Chart{Title: "l", Series: []Series{{Name: "a", X: []float64{0, 1}, Y: []float64{0, 1}}, {Name: "b", X: []float64{0, 1}, Y: []float64{1, 0}}}, MarkX: &x})
	// plot area: y from 30 to H − B; legend entries below it
	area := regexp.MustCompile(`<rect x="70" y="30" width="[0-9.]+" height="([0-9.]+)"`).FindStringSubmatch(string(line))
	bottom, _ := strconv.ParseFloat(area[1], 64)
	legend := regexp.MustCompile(`stroke-width="3"[^/]*/><text x="[0-9.]+" y="([0-9.]+)"`).FindAllStringSubmatch(string(line), -1)
	if len(legend) != 2 {
		t.Fatalf("%d legend entries, want 2", len(legend))
	}
	for _, m := range legend {
		if y, _ := strconv.ParseFloat(m[1], 64); y <= 30+bottom {
			t.Errorf("legend entry at y = %v inside the plot area (bottom %v)", y, 30+bottom)
		}
	}
}

// A Gantt chart of 48 processes on 8 nodes (round robin) has its rows ordered by node, each
// node named once; every process still labelled.
func TestChartSVGGrouped(t *testing.T) {
	var bars []Bar
	for p := 0; p < 48; p++ {
		bars = append(bars, Bar{Row: fmt.Sprintf("P%d", p), Group: fmt.Sprintf("n%d", p%8), Kind: "compute", Start: float64(p), End: float64(p) + 1})
	}
	svg := string(ChartSVG(Chart{Title: "g", XLabel: "t", Bars: bars}))
	labels := regexp.MustCompile(`text-anchor="end">(P\d+)<`).FindAllStringSubmatch(svg, -1)
	if len(labels) != 48 {
		t.Fatalf("%d process labels, want 48", len(labels))
	}
	// rows in node order: n0's processes P0, P8, …, P40 first, then n1's
	for i, m := range labels {
		want := fmt.Sprintf("P%d", (i%6)*8+i/6)
		if m[1] != want {
			t.Fatalf("row %d is %s, want %s (rows ordered by node)", i, m[1], want)
		}
	}
	if n := strings.Count(svg, `class="group">n`); n != 8 {
		t.Errorf("%d node labels, want 8", n)
	}
	// 16 processes or fewer: no grouping
	if strings.Contains(string(ChartSVG(Chart{Bars: bars[:16]})), `class="group"`) {
		t.Errorf("16 processes grouped")
	}
}
