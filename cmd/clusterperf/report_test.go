package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/htmlreport/browsertest"
	"github.com/clusterperf/clusterperf/report"
)

// reportPage runs one contract case with --report into dir (and --plot where the command
// has one and the case wants it) and returns the page and the CSV of its main table.
func reportPage(t *testing.T, c contractCase, dir string, plot string) (page []byte, path string) {
	t.Helper()
	path = filepath.Join(dir, c.name+".html")
	args := append([]string{c.args[0], "--report", path}, c.args[1:]...)
	if plot != "" {
		args = append([]string{c.args[0], "--plot", filepath.Join(dir, c.name+plot)}, args[1:]...)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("clusterperf %v: exit %d: %s", args, code, errb.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("clusterperf %v: no page: %v", args, err)
	}
	return b, path
}

// pageText is the text of a parsed page: the text of every table cell and header (cells),
// and of every other element (prose: titles, notes, list items).
type pageText struct {
	cells map[string]bool
	prose []string
}

// has reports whether s is a table cell or header, or part of a title, note or other text.
func (p pageText) has(s string) bool {
	if p.cells[s] {
		return true
	}
	for _, t := range p.prose {
		if strings.Contains(t, s) {
			return true
		}
	}
	// the text format's layout within report.TextWidth: a wrapped cell's piece, a record's
	// "header: value" line, a continued block's title
	for c := range p.cells {
		if strings.Contains(c, s) {
			return true
		}
	}
	if h, v, ok := strings.Cut(s, ": "); ok && p.cells[h] && p.has(v) {
		return true
	}
	return strings.Contains(s, " (continued, part ")
}

// checkHTML parses the page as (X)HTML with the HTML rules of encoding/xml (void elements
// closed, HTML entities known): every element closed in order, no stray text outside; it
// returns the page's text with the entities decoded.
func checkHTML(t *testing.T, b []byte) pageText {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	var stack []string
	text := pageText{cells: map[string]bool{}}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("page does not parse: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			stack = append(stack, e.Name.Local)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1] != e.Name.Local {
				t.Fatalf("page does not parse: </%s> closes %v", e.Name.Local, stack)
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			v := strings.TrimSpace(string(e))
			if len(stack) > 0 && (stack[len(stack)-1] == "td" || stack[len(stack)-1] == "th") {
				text.cells[v] = true
			} else if v != "" {
				text.prose = append(text.prose, v)
			}
		}
	}
	if len(stack) != 0 {
		t.Fatalf("page does not parse: unclosed %v", stack)
	}
	return text
}

// TestReportEveryCommand: every contract case with --report writes one page that parses,
// is under 2 MB, needs nothing outside itself, carries every cell of every table the text
// output prints (so the key numbers of the result: the same Num formatting), the notes, the
// version and the input files, and is written with the umask's mode.
func TestReportEveryCommand(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027) // not the usual 022, so the mode shows where it came from
	defer syscall.Umask(old)
	for _, c := range contractCases() {
		t.Run(c.name, func(t *testing.T) {
			page, path := reportPage(t, c, dir, "")
			if len(page) >= htmlreport.MaxBytes {
				t.Errorf("page %d bytes ≥ %d", len(page), htmlreport.MaxBytes)
			}
			t.Logf("report page %d bytes", len(page))
			text := checkHTML(t, page)
			s := string(page)
			for _, bad := range []string{"<script", "src=\"http", "href=\"http", "url(http"} {
				if strings.Contains(s, bad) {
					t.Errorf("page contains %q: not self-contained", bad)
				}
			}
			// the text output: every cell and every note must be on the page
			var out, errb bytes.Buffer
			if code := run(context.Background(), c.args, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			cells := 0
			for _, line := range strings.Split(out.String(), "\n") {
				if strings.HasPrefix(line, "More tables (") {
					continue // the page has every table: the text's list of the detail tables it left out
				}
				if n, ok := strings.CutPrefix(line, "note: "); ok {
					if !text.has(n) {
						t.Errorf("page lacks the note %q", n)
					}
					continue
				}
				// a text table's cells are separated by at least two spaces (tabwriter
				// padding); each is a cell, a header or a title on the page
				for _, cell := range gap.Split(strings.TrimSpace(line), -1) {
					if cell == "" {
						continue
					}
					cells++
					if !text.has(cell) {
						t.Errorf("page lacks %q (line %q)", cell, line)
					}
				}
			}
			if cells == 0 {
				t.Errorf("no table cells compared")
			}
			if !text.has(version()) {
				t.Errorf("page lacks the version %q", version())
			}
			checkMethodBox(t, s)
			for _, a := range c.args[1:] {
				if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() && !text.has(a) {
					t.Errorf("page lacks the input %s", a)
				}
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o640 {
				t.Errorf("page mode %v, want -rw-r----- (0666 less the umask 027)", fi.Mode().Perm())
			}
		})
	}
}

var gap = regexp.MustCompile(`\s{2,}`)

var (
	jsonPre   = regexp.MustCompile(`(?s)<pre id="json">(.*?)</pre>`)
	methodBox = regexp.MustCompile(`(?s)<span id="method">(.*?)</span>.*?<span id="exact" class="[^"]*">(.*?)</span>`)
)

// checkMethodBox: the page's method box shows the result document's top-level method and
// exact keys (the output contract's), and its error_estimate when the document has one; a
// result without them says "not stated" (logged: the commands still to adopt the keys).
func checkMethodBox(t *testing.T, page string) {
	t.Helper()
	box := methodBox.FindStringSubmatch(page)
	if box == nil {
		t.Fatal("page has no method box")
	}
	method, exact := html.UnescapeString(box[1]), html.UnescapeString(box[2])
	doc := jsonPre.FindStringSubmatch(page)
	if doc == nil {
		t.Logf("no result document on the page: method box %q, %q not checked", method, exact)
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(html.UnescapeString(doc[1])), &top); err != nil {
		return // an array or a scalar document: no top-level keys
	}
	var m string
	if json.Unmarshal(top["method"], &m) == nil && m != "" && method != m {
		t.Errorf("method box says %q, the result's method is %q", method, m)
	}
	var e bool
	if raw, ok := top["exact"]; ok && json.Unmarshal(raw, &e) == nil && exact != map[bool]string{true: "exact", false: "approximate"}[e] {
		t.Errorf("method box says %q, the result's exact is %v", exact, e)
	}
	if raw, ok := top["error_estimate"]; ok && string(raw) != "null" && !strings.Contains(page, `<div id="error-estimate"><b>Error estimate</b>`) {
		t.Errorf("the result has an error_estimate, the page does not show it")
	}
	if m == "" {
		t.Logf("method: %q (no top-level method key), result: %s", method, exact)
	}
}

// The report is refused before any work when its file cannot be written or is not .html,
// and a command that fails writes no page.
func TestReportRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"solve", "--report", filepath.Join(dir, "missing", "r.html"), ex + "qn/central-server.yaml"}, 2},
		{[]string{"solve", "--report", filepath.Join(dir, "r.txt"), ex + "qn/central-server.yaml"}, 2},
		{[]string{"solve", "--report", dir, ex + "qn/central-server.yaml"}, 2},
		{[]string{"solve", "--sweep", "population=1:3", "--plot", filepath.Join(dir, "same.html"), "--report", filepath.Join(dir, "same.html"), ex + "qn/central-server.yaml"}, 2},
		{[]string{"queue", "M/M/1", "--lambda", "12", "--mu", "10", "--report", filepath.Join(dir, "sat.html")}, 3},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), tc.args, &out, &errb); code != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, code, tc.code, errb.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "sat.html")); err == nil {
		t.Errorf("a failed command wrote its page")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files left: %v", ents)
	}
}

// The plot the command wrote with --plot is on the page (inline SVG or PNG data URI).
func TestReportIncludesPlot(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		ext  string
	}{{"solve-sweep-central-server", ".svg"}, {"speedup-hybrid", ".png"}, {"tpn-matmul", ".svg"}, {"pipeline-sort", ".svg"}, {"fit-qcrd", ".svg"}, {"mpip-driver8", ".svg"}} {
		cc := findCase(t, c.name)
		page, _ := reportPage(t, cc, dir, c.ext)
		want := "<figure class=\"plot\"><figcaption>" + cc.name + c.ext
		if !strings.Contains(string(page), want) {
			t.Errorf("%s: page lacks its plot", c.name)
		}
		if c.ext == ".svg" && !strings.Contains(string(page), "<svg") || c.ext == ".png" && !strings.Contains(string(page), "data:image/png;base64,") {
			t.Errorf("%s: plot not inline", c.name)
		}
	}
}

func findCase(t *testing.T, name string) contractCase {
	for _, c := range contractCases() {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no contract case %s", name)
	return contractCase{}
}

// A few pages load in Chromium without a console error and with their plot drawn (skips
// without Chromium unless CLUSTERPERF_REQUIRE_BROWSER=1).
func TestReportInBrowser(t *testing.T) {
	b := browsertest.New(t)
	dir := t.TempDir()
	for _, c := range []struct{ name, plot string }{{"solve-validate-cg-a-4", ""}, {"speedup-hybrid", ".svg"}, {"tpn-matmul", ".svg"}, {"queue-M-M-4", ""}} {
		_, path := reportPage(t, findCase(t, c.name), dir, c.plot)
		if err := b.Do(chromedp.Navigate("file://" + path)); err != nil {
			t.Fatal(err)
		}
		n, err := browsertest.Eval[int](b, `document.querySelectorAll("table.result tbody tr, table.validation tbody tr").length`)
		if err != nil || n == 0 {
			t.Errorf("%s: %d table rows, %v", c.name, n, err)
		}
		if c.plot != "" {
			sizes, err := b.Sizes("figure.plot svg, figure.plot img")
			if err != nil || len(sizes) != 1 || sizes[0][0] <= 0 || sizes[0][1] <= 0 {
				t.Errorf("%s: plot sizes %v, %v", c.name, sizes, err)
			}
		}
		b.NoErrors(t, path)
	}
}

// bigDoc is a result whose page cannot stay under 2 MB: 5000 rows of long cells.
type bigDoc struct {
	Notes []string `json:"notes"`
}

func (bigDoc) Tables() []*report.Table {
	t := &report.Table{Header: make([]string, 20)}
	for i := 0; i < 5000; i++ {
		row := make([]any, 20)
		for j := range row {
			row[j] = fmt.Sprintf("cell %d of row %d, some long text", j, i)
		}
		t.Add(row...)
	}
	return []*report.Table{t}
}
func (bigDoc) NoteLines() []string { return nil }

// A page over the 2 MB guard is refused with exit 2 (fault.ErrTooLarge) and nothing is
// written.
func TestReportTooLarge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.html")
	r := &reportRun{cmd: newQueueCmd(io.Discard, io.Discard), doc: bigDoc{}}
	err := r.write(path)
	if !errors.Is(err, fault.ErrTooLarge) || fault.ExitCode(err) != 2 {
		t.Fatalf("err %v (exit %d), want fault.ErrTooLarge, exit 2", err, fault.ExitCode(err))
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("page written")
	}
}
