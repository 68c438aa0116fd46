package report

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// heatMapSVG writes a 20 × 10 heat map z = sin(x/3)·y as SVG and returns its bytes.
func heatMapSVG(t *testing.T) ([]byte, string) {
	t.Helper()
	return heatMapSVGOf(t, 20, 10, 3)
}

// heatMapSVGOf saves the heat map of sin(i/wave)·j on an nx × ny grid and returns the SVG
// and its path.
func heatMapSVGOf(t *testing.T, nx, ny int, wave float64) ([]byte, string) {
	t.Helper()
	g := Grid{X: make([]float64, nx), Y: make([]float64, ny), Z: make([][]float64, nx)}
	for i := range g.X {
		g.X[i] = float64(i + 1)
		g.Z[i] = make([]float64, len(g.Y))
		for j := range g.Y {
			g.Y[j] = float64(j + 1)
			g.Z[i][j] = math.Sin(float64(i)/wave) * float64(j)
		}
	}
	hm, err := HeatMap("s", "p", "d", g)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "h.svg")
	if err := SaveFigure(path, hm); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b, path
}

// TestHeatMapMIME (issue 29): the heat map's embedded images are PNG data labelled
// image/png (gonum labels them image/jpg, which librsvg and desktop viewers do not draw).
func TestHeatMapMIME(t *testing.T) {
	b, _ := heatMapSVG(t)
	if n := bytes.Count(b, []byte("data:image/png;base64,")); n != 2 {
		t.Errorf("%d images labelled image/png, want 2 (cells, colour bar)", n)
	}
	if bytes.Contains(b, []byte("image/jpg")) {
		t.Error("an image is still labelled image/jpg")
	}
}

// TestHeatMapRsvg (issue 29): librsvg (rsvg-convert, as desktop viewers) draws the heat
// map's cells: the data area of the rendered PNG holds many distinct colours, not a blank.
// Skipped without rsvg-convert (scripts/librsvg-install.sh installs it) unless
// CLUSTERPERF_REQUIRE_RSVG=1 (CI), where it fails.
func TestHeatMapRsvg(t *testing.T) {
	bin, err := exec.LookPath("rsvg-convert")
	if err != nil {
		if os.Getenv("CLUSTERPERF_REQUIRE_RSVG") == "1" {
			t.Fatal("rsvg-convert not found (CLUSTERPERF_REQUIRE_RSVG=1: required): run scripts/librsvg-install.sh")
		}
		t.Skip("rsvg-convert not found: install librsvg with scripts/librsvg-install.sh (CI sets CLUSTERPERF_REQUIRE_RSVG=1 to make this a failure)")
	}
	_, path := heatMapSVG(t)
	out, err := exec.Command(bin, "-f", "png", path).Output()
	if err != nil {
		t.Fatalf("rsvg-convert: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	// count distinct colours of saturated pixels (the moreland palette is blue…red; the
	// axes, text and background are grey): a blank image has none
	colours := map[[3]uint32]bool{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 2 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 2 {
			r, g, b, a := img.At(x, y).RGBA()
			if a > 0 && (max(r, g, b)-min(r, g, b)) > 0x2000 {
				colours[[3]uint32{r >> 10, g >> 10, b >> 10}] = true
			}
		}
	}
	if len(colours) < 20 {
		t.Errorf("rsvg-convert drew %d saturated colours: the heat map is blank (%v)", len(colours), bounds)
	}
}

// TestClipKeepsCurveReadable (issue 29: an 18 s bound squashed a 0.12–4 s response-time
// curve): a Clip series does not stretch the y axis, which spans the curve with 8 %
// headroom; where it leaves the frame a triangle marks it and its legend entry says so.
func TestClipKeepsCurveReadable(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	p := Panel{Series: []Series{
		{Name: "R", X: x, Y: []float64{0.12, 0.5, 1, 2, 4}},
		{Name: "upper bound", X: x, Y: []float64{0.2, 1, 6, 12, 18}, Clip: true, Dashed: true},
	}}
	pl, err := p.build()
	if err != nil {
		t.Fatal(err)
	}
	// 0.12 − 0.08·3.88 < 0, so the axis starts at 0; 4 + 0.08·3.88 = 4.3104
	if pl.Y.Min != 0 || math.Abs(pl.Y.Max-4.3104) > 1e-9 {
		t.Errorf("y axis %g … %g, want 0 … 4.3104 (the curve with headroom)", pl.Y.Min, pl.Y.Max)
	}
	path := filepath.Join(t.TempDir(), "c.svg")
	if err := SaveFigure(path, p); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "upper bound (triangle: cut at the frame)") || strings.Contains(string(b), "△") {
		t.Error("the clipped bound's legend entry does not say it is cut at the frame")
	}
	// without Clip the bound sets the axis (the old behaviour)
	p.Series[1].Clip = false
	pl, _ = p.build()
	if pl.Y.Max != 18 {
		t.Errorf("unclipped: y max %g, want 18", pl.Y.Max)
	}
}

// TestMarkDrawn: a Mark inside the x range draws its label; outside, nothing.
func TestMarkDrawn(t *testing.T) {
	x := []float64{1, 2, 3}
	for _, c := range []struct {
		at   float64
		want bool
	}{{2.5, true}, {7, false}} {
		p := Panel{Series: []Series{{Name: "X", X: x, Y: x}}, Marks: []Mark{{X: c.at, Label: "N* = mark"}}}
		path := filepath.Join(t.TempDir(), "m.svg")
		if err := SaveFigure(path, p); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if got := strings.Contains(string(b), "N* = mark"); got != c.want {
			t.Errorf("mark at %g: label drawn %v, want %v", c.at, got, c.want)
		}
	}
}

// Over a narrow range the tick labels still differ (the explorer's makespan against
// bandwidth, 1.5602 … 1.5610 s, was labelled "1.6" four times).
func TestDistinctTicks(t *testing.T) {
	for _, r := range [][2]float64{{1.5602, 1.5610}, {0, 1}, {1e6, 2e7}, {99.9999, 100.0001}} {
		ts := distinctTicks{}.Ticks(r[0], r[1])
		if !labelsDistinct(ts) {
			t.Errorf("range %v: labels repeat: %v", r, ts)
		}
	}
	// a range gonum labels well keeps gonum's labels
	want := plot.DefaultTicks{}.Ticks(0, 1)
	if got := (distinctTicks{}).Ticks(0, 1); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("0 … 1: %v, gonum gives %v", got, want)
	}
}
