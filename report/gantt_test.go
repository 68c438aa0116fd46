package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGantt: two processes, a computation each and a message (thin) on the first; the SVG
// names both rows and each kind once in the legend, and the caller's spans keep their order.
func TestGantt(t *testing.T) {
	spans := []Span{
		{Row: "P0", Start: 0, End: 2, Kind: "compute"},
		{Row: "P1", Start: 0, End: 3, Kind: "compute"},
		{Row: "P0", Start: 2, End: 2.5, Kind: "transfer", Color: 5, Thin: true},
	}
	p, err := Gantt("Gantt", "time (s)", []string{"P0", "P1"}, spans)
	if err != nil {
		t.Fatal(err)
	}
	if spans[0].Kind != "compute" || spans[2].Kind != "transfer" {
		t.Errorf("Gantt reordered the caller's spans: %v", spans)
	}
	path := filepath.Join(t.TempDir(), "g.svg")
	if err := SaveFigure(path, p); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, want := range []string{">P0<", ">P1<", ">compute<", ">transfer<", ">time (s)<"} {
		if n := strings.Count(svg, want); n != 1 {
			t.Errorf("%s appears %d times in the SVG, want 1", want, n)
		}
	}
}

// TestGanttGroups: 48 processes on 8 nodes (round robin, as tpn.Build allocates) are drawn
// ordered by node, each node named once at its first row ("[n0] P0"), every second node's
// rows shaded; 16 processes or fewer are drawn as given (explore's former ChartSVG rule,
// now the one drawer's).
func TestGanttGroups(t *testing.T) {
	var spans []Span
	var rows []string
	for p := range 48 {
		rows = append(rows, fmt.Sprintf("P%d", p))
		spans = append(spans, Span{Row: rows[p], Group: fmt.Sprintf("n%d", p%8), Kind: "compute", Start: float64(p), End: float64(p) + 1})
	}
	out, labels, bands := groupedRows(rows, spans)
	for i, r := range out {
		if want := fmt.Sprintf("P%d", (i%6)*8+i/6); r != want {
			t.Fatalf("row %d is %s, want %s (rows ordered by node)", i, r, want)
		}
	}
	named := 0
	for _, l := range labels {
		if strings.HasPrefix(l, "[n") {
			named++
		}
	}
	if named != 8 || labels[0] != "[n0] P0" || labels[1] != "P8" {
		t.Errorf("%d node labels (want 8), first rows %q", named, labels[:2])
	}
	if len(bands) != 4 || bands[0] != [2]int{6, 11} {
		t.Errorf("bands %v, want 4, the first rows 6 … 11 (node n1)", bands)
	}
	p, err := Gantt("g", "t", rows, spans)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := SVG(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), ">[n"); n != 8 {
		t.Errorf("%d node labels in the SVG, want 8", n)
	}
	if out, labels, bands := groupedRows(rows[:16], spans[:16]); out[1] != "P1" || labels[0] != "P0" || bands != nil {
		t.Errorf("16 processes grouped: %v %v %v", out[:2], labels[:1], bands)
	}
}

// Marks at the same x share one label (the explorer's current point at the best one).
func TestMergeMarks(t *testing.T) {
	got := mergeMarks([]Mark{{X: 16, Label: "current"}, {X: 8, Label: "N*"}, {X: 16, Label: "best"}})
	if len(got) != 2 || got[0].Label != "current, best" || got[1].Label != "N*" {
		t.Errorf("merged %v", got)
	}
}
