package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteJSONRefusesNaN(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]float64{"x": math.NaN()}); err == nil {
		t.Fatal("NaN written to JSON")
	}
	if err := WriteJSON(&b, map[string]float64{"x": 1.5}); err != nil || !strings.Contains(b.String(), "1.5") {
		t.Fatalf("%v %q", err, b.String())
	}
}

func TestTableFormats(t *testing.T) {
	tb := &Table{Header: []string{"a", "b"}}
	tb.Add(1, 2.5)
	tb.Add("x,y", math.NaN())
	var txt, csv bytes.Buffer
	if err := tb.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if want := "a,b\n1,2.5\n\"x,y\",-\n"; csv.String() != want {
		t.Errorf("csv %q want %q", csv.String(), want)
	}
	if !strings.Contains(txt.String(), "2.5") {
		t.Errorf("text %q", txt.String())
	}
}

func TestSaveFigure(t *testing.T) {
	dir := t.TempDir()
	p := Panel{Title: "t", Series: []Series{{Name: "s", X: []float64{1, 2, 3}, Y: []float64{1, 4, 9}}, {Name: "m", X: []float64{2}, Y: []float64{5}, Points: true}}}
	for _, name := range []string{"f.svg", "f.png"} {
		if err := SaveFigure(filepath.Join(dir, name), p, p); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() < 500 {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if err := SaveFigure(filepath.Join(dir, "f.pdf"), p); err == nil {
		t.Error("pdf accepted")
	}
	bad := Panel{Series: []Series{{Name: "bad", X: []float64{1}, Y: nil}}}
	if err := SaveFigure(filepath.Join(dir, "bad.svg"), bad); err == nil {
		t.Error("mismatched series accepted")
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.svg")); !os.IsNotExist(err) {
		t.Error("a failed figure left a file behind")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".clusterperf-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
