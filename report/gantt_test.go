package report

import (
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
