package htmlreport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/report"
)

func samplePage() *Page {
	ex := true
	return &Page{
		Title: "central server <test>", Command: "clusterperf solve central.yaml", Version: "test",
		Inputs: []Input{{Name: "central.yaml", Content: "classes: []\n"}},
		Method: "mva", Exact: &ex,
		Tables: []Table{{Title: "Stations", Header: []string{"station", "utilization"}, Rows: [][]string{{"cpu", "0.5"}, {"disk", "0.9"}}, Highlight: []int{1}}},
		Plots:  []Plot{{Title: "X", SVG: []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50" fill="red"/></svg>`)}},
		Notes:  []string{"a note"}, Warnings: []string{"a warning"},
		JSON: map[string]any{"method": "mva"},
	}
}

// The page carries every part, escapes text (the title's "<test>"), inlines the SVG without
// its XML prolog and references nothing outside itself.
func TestPageContents(t *testing.T) {
	b, err := Bytes(samplePage())
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"central server &lt;test&gt;", `<tr class="hl"><td>disk</td>`, "<svg xmlns", "a note", "a warning", "clusterperf solve central.yaml", `class="exact"`, "&#34;method&#34;: &#34;mva&#34;"} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"<?xml", "http://", "https://", "<script"} {
		if strings.Contains(strings.ReplaceAll(s, `xmlns="http://www.w3.org/2000/svg"`, ""), bad) {
			t.Errorf("page contains %q: not self-contained", bad)
		}
	}
}

// FromResult takes method, exact, notes and warnings from the result's contract keys.
func TestFromResult(t *testing.T) {
	res := struct {
		Method   string   `json:"method"`
		Exact    bool     `json:"exact"`
		Notes    []string `json:"notes"`
		Warnings []string `json:"warnings"`
		X        float64  `json:"throughput_per_s"`
	}{"linearizer", false, []string{"n1"}, []string{"w1"}, 2.5}
	p, err := FromResult("t", "cmd", "v", res, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Method != "linearizer" || p.Exact == nil || *p.Exact || len(p.Notes) != 1 || len(p.Warnings) != 1 {
		t.Fatalf("page %+v", p)
	}
}

// The size guard: a huge SVG without PNG is dropped with a warning, with a PNG the PNG is
// used; a huge input is summarised; a page that still cannot fit is refused with ErrTooLarge.
func TestSizeGuard(t *testing.T) {
	big := append([]byte(`<svg xmlns="http://www.w3.org/2000/svg">`), bytes.Repeat([]byte(`<rect x="1" y="1" width="1" height="1"/>`), 3_000_000/40)...)
	big = append(big, "</svg>"...)
	png := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, 1000)...)
	p := samplePage()
	p.Plots = []Plot{{Title: "huge", SVG: big}, {Title: "huge with png", SVG: big, PNG: png}}
	p.Inputs = []Input{InputFile("big.csv", bytes.Repeat([]byte("1,2,3\n"), 100_000))}
	b, err := Bytes(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > MaxBytes {
		t.Fatalf("page %d bytes > %d", len(b), MaxBytes)
	}
	s := string(b)
	if !strings.Contains(s, `plot &#34;huge&#34; omitted`) || !strings.Contains(s, "data:image/png;base64,") || !strings.Contains(s, "600000 bytes, 100000 lines") {
		t.Errorf("size guard did not act as documented")
	}
	p.Tables = []Table{{Title: "wide", Header: []string{"a"}}}
	for i := 0; i < maxRows; i++ {
		p.Tables[0].Rows = append(p.Tables[0].Rows, []string{strings.Repeat("x", 500)})
	}
	if _, err := Bytes(p); !errors.Is(err, fault.ErrTooLarge) {
		t.Fatalf("a 2.5 MB table: err = %v, want ErrTooLarge", err)
	}
}

// Write is atomic and gives the file the umask's mode (0666 &^ umask), not CreateTemp's 0600.
func TestWriteMode(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "r.html")
	if err := Write(path, samplePage()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 (0666 &^ 027)", fi.Mode().Perm())
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".clusterperf-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// Non-SVG bytes and SVG with a script are refused as input errors.
func TestBadPlots(t *testing.T) {
	for _, svg := range []string{"not svg", `<svg><script>alert(1)</script></svg>`} {
		p := samplePage()
		p.Plots = []Plot{{Title: "bad", SVG: []byte(svg)}}
		if _, err := Bytes(p); !errors.Is(err, fault.ErrInput) {
			t.Errorf("%q: err = %v, want ErrInput", svg, err)
		}
	}
}

// WriteResult: the page of a result value with a plot read back from a file; a --report name
// without .html is refused.
func TestWriteResult(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "p.svg")
	if err := os.WriteFile(svg, samplePage().Plots[0].SVG, 0o644); err != nil {
		t.Fatal(err)
	}
	pl, err := PlotFile("sweep", svg)
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]any{"method": "mva", "exact": true, "throughput_per_s": 2.0}
	out := filepath.Join(dir, "r.html")
	if err := WriteResult(out, "t", "clusterperf solve m.yaml --report r.html", "v", res, nil, []Plot{pl}, []Input{InputFile("m.yaml", []byte("x: 1\n"))}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(out)
	for _, want := range []string{"<svg", "m.yaml", "throughput_per_s", `class="exact"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if err := WriteResult(filepath.Join(dir, "r.txt"), "t", "", "", res, nil, nil, nil); !errors.Is(err, fault.ErrInput) {
		t.Errorf("r.txt: %v", err)
	}
}

// A result without top-level method/exact keys: the page takes the result's solver, or the
// nested methods by path; exact only when every nested "exact" is true.
func TestFromResultNested(t *testing.T) {
	for _, tc := range []struct {
		doc    any
		method string
		exact  string
	}{
		{map[string]any{"fit": map[string]any{"method": "lsq", "exact": false}, "sizing": map[string]any{"method": "rules", "exact": true}}, "fit: lsq; sizing: rules", "false"},
		{map[string]any{"solver": "schweitzer", "validation": map[string]any{"simulation": map[string]any{"method": "replications"}}}, "schweitzer", "nil"},
		{map[string]any{"a": map[string]any{"method": "x", "exact": true}}, "a: x", "true"},
		{map[string]any{"points": []any{map[string]any{"method": "per point"}}}, "", "nil"},
	} {
		p, err := FromResult("t", "c", "v", tc.doc, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		ex := "nil"
		if p.Exact != nil {
			ex = map[bool]string{true: "true", false: "false"}[*p.Exact]
		}
		if p.Method != tc.method || ex != tc.exact {
			t.Errorf("%v: method %q exact %s, want %q %s", tc.doc, p.Method, ex, tc.method, tc.exact)
		}
	}
}

// A result with the contract's top-level method, exact and error_estimate keys shows all three
// in the method box at the top of the page: the estimate's fields in the document's order,
// a relative error also as a percentage. An approximate result without an estimate says so;
// one without method/exact keys says "not stated".
func TestMethodExactErrorEstimate(t *testing.T) {
	res := map[string]any{
		"method":         "linearizer (Chandy–Neuse)",
		"exact":          false,
		"error_estimate": json.RawMessage(`{"rel_error": 0.021, "against": "exact MVA at N = 40", "spread_method": "bard-schweitzer", "spread_rel": -0.004}`),
	}
	p, err := FromResult("t", "cmd", "v", res, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Field{{"rel_error", "0.021 (2.1 %)"}, {"against", "exact MVA at N = 40"}, {"spread_method", "bard-schweitzer"}, {"spread_rel", "-0.004 (-0.4 %)"}}
	if len(p.ErrorEstimate) != len(want) {
		t.Fatalf("error estimate %+v, want %+v", p.ErrorEstimate, want)
	}
	for i := range want {
		if p.ErrorEstimate[i] != want[i] {
			t.Errorf("field %d = %+v, want %+v", i, p.ErrorEstimate[i], want[i])
		}
	}
	b, err := Bytes(p)
	if err != nil {
		t.Fatal(err)
	}
	s := html.UnescapeString(string(b))
	for _, w := range []string{`<span id="method">linearizer (Chandy–Neuse)</span>`, `<span id="exact" class="approximate">approximate</span>`,
		`<div id="error-estimate"><b>Error estimate</b>`, `rel_error: 0.021 (2.1 %)`, `against: exact MVA at N = 40`} {
		if !strings.Contains(s, w) {
			t.Errorf("page lacks %q", w)
		}
	}
	// the box comes before the results
	if i, j := strings.Index(s, `id="method-box"`), strings.Index(s, "<h2>"); i < 0 || (j >= 0 && j < i) {
		t.Errorf("method box at %d, first section at %d: not at the top", i, j)
	}
	// a string estimate, a bare number
	for raw, w := range map[string]string{`"±3 % against the simulation"`: "estimate: ±3 % against the simulation", `0.05`: "estimate: 0.05 (5 %)"} {
		p, _ := FromResult("t", "c", "v", map[string]any{"method": "m", "exact": false, "error_estimate": json.RawMessage(raw)}, nil, nil)
		b, _ := Bytes(p)
		if !strings.Contains(html.UnescapeString(string(b)), w) {
			t.Errorf("error_estimate %s: page lacks %q", raw, w)
		}
	}
	// approximate without an estimate; exact; no keys at all
	for _, c := range []struct {
		res  map[string]any
		want []string
		not  []string
	}{
		{map[string]any{"method": "amva", "exact": false}, []string{`class="approximate"><b>Error estimate</b> not stated`}, nil},
		{map[string]any{"method": "mva", "exact": true}, []string{`class="exact">exact</span>`}, []string{"Error estimate"}},
		{map[string]any{"x": 1}, []string{`<span id="method">not stated</span>`, `class="not stated">not stated</span>`}, []string{"Error estimate"}},
	} {
		p, _ := FromResult("t", "c", "v", c.res, nil, nil)
		b, _ := Bytes(p)
		for _, w := range c.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%v: page lacks %q", c.res, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(string(b), w) {
				t.Errorf("%v: page has %q", c.res, w)
			}
		}
	}
}

// TestFromStreamedTable: a streamed report.Table (speedup's points) reaches the page with
// its first maxRows rows, and the cut's warning counts every row the stream gave.
func TestFromStreamedTable(t *testing.T) {
	const n = maxRows + 7
	st := &report.Table{Title: "points", Header: []string{"i"}, Stream: func(emit func(...any) error) error {
		for i := range n {
			if err := emit(i); err != nil {
				return err
			}
		}
		return nil
	}}
	ts := FromTables([]*report.Table{st})
	if len(ts) != 1 || len(ts[0].Rows) != maxRows || ts[0].Rows[maxRows-1][0] != fmt.Sprint(maxRows-1) {
		t.Fatalf("got %d tables, %d rows", len(ts), len(ts[0].Rows))
	}
	var warn []string
	cut := cutTables(ts, &warn)
	if len(cut[0].Rows) != maxRows || len(warn) != 1 || !strings.Contains(warn[0], fmt.Sprintf("%d rows, the first %d shown", n, maxRows)) {
		t.Errorf("rows %d, warnings %q", len(cut[0].Rows), warn)
	}
}
