package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Table is a rectangular result: a header and rows of cells.
type Table struct {
	Name   string // the --csv-table name (snake_case); "" for the command's main table
	Title  string
	Header []string
	Rows   [][]string // as people read them: numbers with 6 significant digits
	full   [][]string // the same cells at full precision, for CSV
	blank  [][2]int   // (row, column) of TextOnly cells: empty in CSV
	// Left aligns the text table's cells left: for tables of words (what/value
	// summaries), where right alignment pads every row to the longest sentence.
	Left bool
	// Keys is how many leading columns identify a row (default 1): a table too wide for
	// TextWidth is split into blocks of columns that each repeat them.
	Keys int
	// Detail marks a table the table format shows only on request (Options.AllTables):
	// supporting figures (inputs, intermediate steps) that the answer and the main tables
	// already summarise. JSON and CSV (--csv-table) always have it.
	Detail bool
	// Stream, if set, gives the rows (each as Add's cells) when the table is written,
	// instead of Rows: a table of millions of rows is then never held as text. CSV writes
	// each row as it comes; the text table calls Stream once to measure the columns and
	// once per block of columns to write them (stream.go).
	Stream func(emit func(cells ...any) error) error `json:"-"`
	// Highlight marks rows (indices into Rows) to emphasise on a page (the bottleneck, the
	// best configuration); the text and CSV tables ignore it.
	Highlight []int
	// Total is the source table's row count when Rows holds only its first rows (a
	// streamed table cut for a page, htmlreport.FromTables); 0: len(Rows).
	Total int
}

// TextOnly is a cell shown in text tables and left empty in CSV, e.g. "∞" or "any" in a
// numeric column that a CSV reader parses as a number.
type TextOnly string

// Add appends a row; numbers are formatted with Num for the text table and at full
// precision (the shortest text that reads back as the same float64) for CSV.
func (t *Table) Add(cells ...any) {
	row := make([]string, len(cells))
	full := make([]string, len(cells))
	for i, c := range cells {
		var blank bool
		row[i], full[i], blank = formatCell(c)
		if blank {
			t.blank = append(t.blank, [2]int{len(t.Rows), i})
		}
	}
	t.Rows = append(t.Rows, row)
	t.full = append(t.full, full)
}

// formatCell is a cell's text (Num: 6 digits) and full-precision form; blank: the CSV
// cell is empty (TextOnly).
func formatCell(c any) (text, full string, blank bool) {
	switch v := c.(type) {
	case float64:
		text, full = Num(v), FullNum(v)
	case *float64: // an optional number: empty when absent
		if v != nil {
			text, full = Num(*v), FullNum(*v)
		}
	case Percent:
		text, full = v.String(), FullNum(float64(v))
	case Magnitude:
		text, full = v.String(), FullNum(float64(v))
	case Flagged:
		text, full = Num(v.Value)+" "+v.Mark, FullNum(v.Value)
	case TextOnly:
		text, blank = string(v), true
	case List:
		text, full = v.text()
	case int:
		text = strconv.Itoa(v)
	case string:
		text = v
	default:
		text = fmt.Sprint(v)
	}
	if full == "" {
		full = text
	}
	return text, full, blank
}

// Flagged is a number with a mark after it in text tables (e.g. "1.00013 !infeasible") and
// the bare number in CSV, so a CSV reader still parses the column as numbers while a person
// reading the table sees the warning on the row it concerns.
type Flagged struct {
	Value float64
	Mark  string
}

// Percent is a signed fraction shown as a percentage in text tables ("+12.3%") and as the
// fraction itself in CSV and JSON.
type Percent float64

// A fraction of magnitude below percentNoise prints as "0%": a relative difference of
// two float64 values computed from inputs of at most 12 significant digits (every file
// and flag clusterperf reads) is then below the inputs' own resolution — rounding noise
// of the arithmetic (double precision: 2.2e-16 per operation), not a finding. CSV and
// JSON keep the value as computed.
func (p Percent) String() string {
	if math.IsNaN(float64(p)) {
		return "-"
	}
	if math.Abs(float64(p)) < percentNoise {
		return "0%"
	}
	return fmt.Sprintf("%+.3g%%", 100*float64(p))
}

// Magnitude is an unsigned fraction (a spread, an RMS error, a noise level) shown as a
// percentage without a sign in text tables ("6.27%") and as the fraction in CSV and JSON.
type Magnitude float64

func (m Magnitude) String() string {
	if math.IsNaN(float64(m)) {
		return "-"
	}
	return strings.TrimPrefix(Percent(m).String(), "+")
}

// percentNoise is the magnitude below which a Percent prints as 0 in text tables.
const percentNoise = 1e-12

// List is several numbers in one cell, separated by spaces (e.g. repeated measurements);
// Percent shows them as percentages in text tables.
type List struct {
	Values  []float64
	Percent bool
}

func (l List) text() (short, full string) {
	var a, b []string
	for _, v := range l.Values {
		if l.Percent {
			a = append(a, Percent(v).String())
		} else {
			a = append(a, Num(v))
		}
		b = append(b, FullNum(v))
	}
	return strings.Join(a, " "), strings.Join(b, " ")
}

// FullNum formats v with the fewest digits that read back as v ("-" for NaN).
func FullNum(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Num formats a number with 6 significant digits.
func Num(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// WriteText writes the table aligned in columns under its title, within TextWidth
// characters: a wider table is split into blocks of columns, each repeating the key
// columns (Keys), its long cells wrapped (textwidth.go).
func (t *Table) WriteText(w io.Writer) error {
	if t.Stream != nil {
		return t.streamText(w)
	}
	return t.writeTable(w)
}

// WriteCSV writes the table as CSV with a header row.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header); err != nil {
		return err
	}
	if t.Stream != nil {
		return t.streamCSV(cw)
	}
	rows := t.full
	if len(rows) != len(t.Rows) { // rows appended directly to Rows
		rows = t.Rows
	} else if len(t.blank) > 0 {
		rows = make([][]string, len(t.full))
		for i, r := range t.full {
			rows[i] = slices.Clone(r)
		}
		for _, b := range t.blank {
			rows[b[0]][b[1]] = ""
		}
	}
	for _, r := range rows {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes v indented. It fails, naming the field, if v holds NaN or ±Inf.
func WriteJSON(w io.Writer, v any) error {
	b, err := jsonBytes(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// formats lists the values --format accepts (CheckFormat).
var formats = []string{"table", "json", "csv"}

// CheckFormat returns an error unless f is one of "table", "json" or "csv" (--format).
func CheckFormat(f string) error {
	for _, ok := range formats {
		if f == ok {
			return nil
		}
	}
	return fmt.Errorf("unknown format %q (allowed: %s)", f, strings.Join(formats, ", "))
}
