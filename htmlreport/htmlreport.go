// Package htmlreport renders one self-contained HTML page for a clusterperf result: the
// inputs, the method and whether it is exact, the results as tables, the plots (SVG inline or
// PNG as a data URI), the notes, warnings and validation, the version and the result document
// as JSON. Everything is inline (CSS, images, no script, no network access needed to view the
// page), so the page can be attached to a ticket or a procurement request (issue 17).
//
// The page never exceeds MaxBytes: inputs beyond MaxInputBytes are summarised, an SVG plot
// beyond MaxPlotBytes is replaced by its PNG rendering when the caller gave one and dropped
// (with a warning on the page) otherwise, and the JSON document is dropped (with a warning)
// when it alone would overflow the page.
package htmlreport

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/atomicfile"
	"github.com/clusterperf/clusterperf/report"
)

// Size budgets of a page, in bytes.
const (
	MaxBytes      = 2 << 20   // a whole page (issue 17: under 2 MB for every example)
	MaxPlotBytes  = 600 << 10 // one inline SVG; beyond it the PNG fallback is used
	MaxInputBytes = 64 << 10  // one input file's text; beyond it a summary
	MaxJSONBytes  = 512 << 10 // the result document
	maxRows       = 5000      // rows of one table; beyond them the table is cut with a note
)

// Input is one input file of the run: its name and its text (or, for a binary or huge
// file, a one-line summary).
type Input struct {
	Name    string `json:"name"`
	Content string `json:"content,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// Table is a result table: report's one table type (its Highlight marks the rows a page
// emphasises: the bottleneck, the best configuration).
type Table = report.Table

// Plot is one figure: SVG (inlined) and/or PNG (as a data URI). When both are given, the SVG
// is used unless it is larger than MaxPlotBytes.
type Plot struct {
	Title string
	SVG   []byte
	PNG   []byte
}

// Page is everything a report shows.
type Page struct {
	Title   string
	Command string // the command line that produced the result
	Version string
	Inputs  []Input
	// Answer is the result's answer block (its top-level "answer"), shown first.
	Answer *report.Answer
	Method string
	Exact  *bool // nil: the result does not say
	// ErrorEstimate is an approximation's stated error (the contract's "error_estimate"):
	// name/value pairs in the order given ("rel_error", "against", …); nil: none stated.
	ErrorEstimate []Field
	Tables        []Table
	Plots         []Plot
	Notes         []string
	Warnings      []string
	Validation    []Table
	JSON          any // the result document, shown verbatim (indented)
}

// Field is one name/value pair of an error estimate, the value formatted for the page.
type Field struct {
	Name  string
	Value string
}

// FromTables converts the report package's tables.
func FromTables(ts []*report.Table) []Table {
	out := make([]Table, 0, len(ts))
	for _, t := range ts {
		if t == nil {
			continue
		}
		tb := Table{Title: t.Title, Header: t.Header, Rows: t.Rows, Highlight: t.Highlight}
		if t.Stream != nil {
			tb.Rows, tb.Total = t.TextRows(maxRows)
		}
		out = append(out, tb)
	}
	return out
}

// FromResult builds a page from any command's result value: the value becomes the page's JSON
// document, and its top-level "method", "exact", "notes" and "warnings" keys (the output
// contract's names) fill the page's method, exactness, notes and warnings. tables and plots
// are the ones the command's renderers draw for the same value.
func FromResult(title, command, version string, result any, tables []Table, plots []Plot) (*Page, error) {
	b, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("htmlreport: result document: %w", err)
	}
	p := &Page{Title: title, Command: command, Version: version, Tables: tables, Plots: plots, JSON: json.RawMessage(b)}
	var top map[string]json.RawMessage
	if json.Unmarshal(b, &top) == nil {
		if raw, ok := top["answer"]; ok {
			var a report.Answer
			if json.Unmarshal(raw, &a) == nil && a.Summary != "" {
				p.Answer = &a
			}
		}
		_ = json.Unmarshal(top["method"], &p.Method)
		var ex bool
		if raw, ok := top["exact"]; ok && json.Unmarshal(raw, &ex) == nil {
			p.Exact = &ex
		}
		_ = json.Unmarshal(top["notes"], &p.Notes)
		_ = json.Unmarshal(top["warnings"], &p.Warnings)
		if raw, ok := top["error_estimate"]; ok {
			p.ErrorEstimate = errorFields(raw)
		}
	}
	if p.Method == "" || p.Exact == nil {
		var v any
		if json.Unmarshal(b, &v) == nil {
			method, exact := nestedMethod(v)
			if p.Method == "" {
				p.Method = method
			}
			if p.Exact == nil {
				p.Exact = exact
			}
		}
	}
	return p, nil
}

// errorFields formats the contract's "error_estimate" for the page, whatever its shape: a
// string or number is one field "estimate"; an object gives one field per key in the
// document's order, numbers keyed rel_error or *_rel also as a percentage, nested values as
// compact JSON; null gives nil.
func errorFields(raw json.RawMessage) []Field {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' {
		return []Field{{Name: "estimate", Value: fieldValue("", raw)}}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // {
		return []Field{{Name: "estimate", Value: string(raw)}}
	}
	var out []Field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		out = append(out, Field{Name: key, Value: fieldValue(key, v)})
	}
	return out
}

// fieldValue formats one value: strings as they are, numbers with Num (relative errors also
// as a percentage, unsigned unless negative: an estimate is usually a magnitude), anything
// else as compact JSON.
func fieldValue(key string, v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	var x float64
	if json.Unmarshal(v, &x) == nil {
		if key == "" || key == "rel_error" || strings.HasSuffix(key, "_rel") || strings.HasSuffix(key, "rel_error") {
			return fmt.Sprintf("%s (%.2g %%)", Num(x), 100*x)
		}
		return Num(x)
	}
	var c bytes.Buffer
	if json.Compact(&c, v) != nil {
		return string(v)
	}
	return c.String()
}

// nestedMethod finds the contract's "method" (or, lacking one, "solver") and "exact" keys in
// the objects of a result document below its top level (arrays are not entered: their
// elements are per-point and would repeat): the methods joined as "path: method", and
// exact when every "exact" found is true, approximate when one is false, nil when none is.
func nestedMethod(v any) (string, *bool) {
	var methods, solvers []string
	var exact *bool
	var walk func(x any, path string)
	walk = func(x any, path string) {
		m, ok := x.(map[string]any)
		if !ok {
			return
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		label := func(s string) string {
			if path == "" {
				return s
			}
			return path + ": " + s
		}
		for _, k := range keys {
			switch val := m[k].(type) {
			case string:
				if k == "method" {
					methods = append(methods, label(val))
				} else if k == "solver" {
					solvers = append(solvers, label(val))
				}
			case bool:
				if k == "exact" {
					e := val && (exact == nil || *exact)
					exact = &e
				}
			case map[string]any:
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(val, p)
			}
		}
	}
	walk(v, "")
	if top, ok := v.(map[string]any); ok {
		if s, ok := top["solver"].(string); ok && s != "" {
			methods = []string{s} // the result's own solver before its validation's method
		}
	}
	if len(methods) == 0 {
		methods = solvers
	}
	return strings.Join(methods, "; "), exact
}

// InputFile reads a file for the Inputs section: its text when it is small UTF-8 text, a
// summary otherwise.
func InputFile(name string, data []byte) Input {
	if len(data) > MaxInputBytes || bytes.IndexByte(data, 0) >= 0 {
		lines := bytes.Count(data, []byte("\n"))
		return Input{Name: name, Summary: fmt.Sprintf("%d bytes, %d lines (too large or binary to show in full)", len(data), lines)}
	}
	return Input{Name: name, Content: string(data)}
}

type viewPlot struct {
	Title string
	SVG   template.HTML
	PNG   template.URL
}

type view struct {
	*Page
	ExactText string
	// Approximate: the result says it is not exact, so a missing error estimate is shown
	Approximate bool
	PlotsView   []viewPlot
	JSONText    string
	Tables      []Table
	Validation  []Table
	Warnings    []string
}

// svgBody returns the <svg …>…</svg> element of an SVG document (the XML prolog and DOCTYPE
// removed so that it can be inlined), or an error when there is none.
func svgBody(b []byte) ([]byte, error) {
	i := bytes.Index(b, []byte("<svg"))
	j := bytes.LastIndex(b, []byte("</svg>"))
	if i < 0 || j < i {
		return nil, errors.New("not an SVG document (no <svg> element)")
	}
	body := b[i : j+len("</svg>")]
	if bytes.Contains(bytes.ToLower(body), []byte("<script")) {
		return nil, errors.New("SVG contains a script element")
	}
	return body, nil
}

func cutTables(ts []Table, warn *[]string) []Table {
	out := make([]Table, len(ts))
	for i, t := range ts {
		if n := max(len(t.Rows), t.Total); n > maxRows {
			*warn = append(*warn, fmt.Sprintf("table %q: %d rows, the first %d shown (the JSON document and CSV output have all)", t.Title, n, maxRows))
			t.Rows = t.Rows[:min(len(t.Rows), maxRows)]
		}
		out[i] = t
	}
	return out
}

// Render writes the page. It refuses a page it cannot keep under MaxBytes (wrapping
// fault.ErrTooLarge) and plots that are not SVG/PNG.
func Render(w io.Writer, p *Page) error {
	b, err := Bytes(p)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Bytes renders the page into memory (see Render).
func Bytes(p *Page) ([]byte, error) {
	v := view{Page: p, ExactText: "not stated"}
	if p.Exact != nil {
		v.ExactText = map[bool]string{true: "exact", false: "approximate"}[*p.Exact]
		v.Approximate = !*p.Exact
	}
	v.Warnings = append([]string(nil), p.Warnings...)
	v.Tables = cutTables(p.Tables, &v.Warnings)
	v.Validation = cutTables(p.Validation, &v.Warnings)
	pngPlot := func(title string, png []byte) viewPlot {
		return viewPlot{Title: title, PNG: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))}
	}
	for _, pl := range p.Plots {
		switch {
		case len(pl.SVG) > 0 && (len(pl.SVG) <= MaxPlotBytes || len(pl.PNG) == 0):
			if len(pl.SVG) > MaxPlotBytes {
				v.Warnings = append(v.Warnings, fmt.Sprintf("plot %q omitted: its SVG is %d bytes (page budget per plot %d) and no PNG rendering was given", pl.Title, len(pl.SVG), MaxPlotBytes))
				continue
			}
			body, err := svgBody(pl.SVG)
			if err != nil {
				return nil, fmt.Errorf("htmlreport: plot %q: %w: %w", pl.Title, fault.ErrInput, err)
			}
			v.PlotsView = append(v.PlotsView, viewPlot{Title: pl.Title, SVG: template.HTML(body)})
		case len(pl.PNG) > 0:
			if !bytes.HasPrefix(pl.PNG, []byte("\x89PNG\r\n\x1a\n")) {
				return nil, fmt.Errorf("htmlreport: plot %q: %w: PNG bytes without the PNG signature", pl.Title, fault.ErrInput)
			}
			if len(pl.PNG)*4/3 > MaxPlotBytes*2 {
				v.Warnings = append(v.Warnings, fmt.Sprintf("plot %q omitted: its PNG is %d bytes", pl.Title, len(pl.PNG)))
				continue
			}
			v.PlotsView = append(v.PlotsView, pngPlot(pl.Title, pl.PNG))
		}
	}
	if p.JSON != nil {
		jb, err := json.MarshalIndent(p.JSON, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("htmlreport: result document: %w", err)
		}
		if len(jb) > MaxJSONBytes {
			v.Warnings = append(v.Warnings, fmt.Sprintf("result document omitted: %d bytes of JSON (budget %d); run the command with --format json", len(jb), MaxJSONBytes))
		} else {
			v.JSONText = string(jb)
		}
	}
	var buf bytes.Buffer
	if err := pageTmpl.Execute(&buf, v); err != nil {
		return nil, fmt.Errorf("htmlreport: %w", err)
	}
	if buf.Len() > MaxBytes {
		return nil, fmt.Errorf("htmlreport: %w: the page would be %d bytes, more than the %d allowed (too many or too large tables or inputs)", fault.ErrTooLarge, buf.Len(), MaxBytes)
	}
	return buf.Bytes(), nil
}

// Write renders the page to path atomically (internal/atomicfile: a temporary file in the
// same directory, synced, then a rename), created with mode 0666 less the process's umask
// like any file the user writes.
func Write(path string, p *Page) error {
	b, err := Bytes(p)
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, b)
}

// Num formats a number for a table cell: 6 significant digits, "-" for NaN, and never an
// infinity passed off as a number.
func Num(v float64) string {
	if math.IsInf(v, 0) {
		return "∞"
	}
	return report.Num(v)
}

func isHighlighted(t Table, i int) bool {
	for _, h := range t.Highlight {
		if h == i {
			return true
		}
	}
	return false
}

var pageTmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	"hl":    isHighlighted,
	"lines": func(s string) int { return strings.Count(s, "\n") + 1 },
}).Parse(pageHTML))
