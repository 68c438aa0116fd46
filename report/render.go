package report

import (
	"fmt"
	"io"
	"strings"
)

// Document is one command's result value: everything one run computed. The three formats
// are views of the same value:
//
//   - json: the value itself through encoding/json (WriteJSON), so a field added to a
//     library result struct (with its snake_case, unit-bearing JSON tag) appears in the
//     JSON output without any change to the renderer;
//   - table: the Answer's summary and facts first (a result that embeds Answered), then
//     Tables(), in order, then Notes() as "note: …" lines;
//   - csv: one table of Tables(): the first, or the one whose Name the --csv-table flag
//     gives.
type Document interface {
	Tables() []*Table
	NoteLines() []string
}

// Options select the format and, for CSV, the table.
type Options struct {
	Format   string // table, json, csv
	CSVTable string // a Table.Name; "" for the first table
}

// Render writes doc in the chosen format: exactly one JSON document, one CSV table, or the
// human tables.
//
// A value holding NaN or ±Inf is refused in every format (CheckFinite), before anything is
// written.
func Render(w io.Writer, doc Document, o Options) error {
	if err := CheckFinite(doc); err != nil {
		return err
	}
	switch o.Format {
	case "json":
		return WriteJSON(w, doc)
	case "csv":
		t, err := pickCSV(doc.Tables(), o.CSVTable)
		if err != nil {
			return err
		}
		return t.WriteCSV(w)
	case "table", "":
		return writeText(w, doc)
	}
	return CheckFormat(o.Format)
}

// tableNames lists the names --csv-table accepts for the tables ts.
func tableNames(ts []*Table) []string {
	var names []string
	for _, t := range ts {
		if t.Name != "" {
			names = append(names, t.Name)
		}
	}
	return names
}

func pickCSV(ts []*Table, name string) (*Table, error) {
	if name == "" {
		if len(ts) == 0 {
			return &Table{}, nil
		}
		return ts[0], nil
	}
	for _, t := range ts {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, &TableError{Name: name, Allowed: tableNames(ts)}
}

// TableError is a --csv-table name the result does not have.
type TableError struct {
	Name    string
	Allowed []string
}

func (e *TableError) Error() string {
	return fmt.Sprintf("--csv-table %q: this result has the tables %s", e.Name, strings.Join(e.Allowed, ", "))
}

// writeText writes the tables that have rows (an empty one says nothing to people; CSV
// still writes its header), separated by blank lines, then the notes.
func writeText(w io.Writer, doc Document) error {
	if err := writeAnswer(w, AnswerOf(doc)); err != nil {
		return err
	}
	i := 0
	for _, t := range doc.Tables() {
		if t.Empty() {
			continue
		}
		i++
		if i > 1 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if err := t.WriteText(w); err != nil {
			return err
		}
	}
	for _, n := range doc.NoteLines() {
		if _, err := fmt.Fprintf(w, "note: %s\n", n); err != nil {
			return err
		}
	}
	return nil
}
