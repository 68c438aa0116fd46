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
	// AllTables: the table format shows the Detail tables too (without it, a line names them).
	AllTables bool
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
		return writeText(w, doc, o.AllTables)
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

// writeText writes the answer, then the tables that have rows (an empty one says nothing to
// people; CSV still writes its header) separated by blank lines — Detail tables only with
// all, else one line names them — then the notes: each once, and none the answer's details
// already say (every detail once).
func writeText(w io.Writer, doc Document, all bool) error {
	a := AnswerOf(doc)
	if err := writeAnswer(w, a); err != nil {
		return err
	}
	i := 0
	var hidden []string
	for _, t := range doc.Tables() {
		if t.Empty() {
			continue
		}
		if t.Detail && !all {
			hidden = append(hidden, t.Name)
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
	if len(hidden) > 0 {
		line := fmt.Sprintf("More tables (--all-tables; CSV: --csv-table NAME): %s.", strings.Join(hidden, ", "))
		for _, l := range WrapText(line, TextWidth, "  ") {
			if _, err := fmt.Fprintf(w, "\n%s", l); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	for _, n := range TextNotes(a, doc.NoteLines()) {
		if _, err := fmt.Fprintf(w, "note: %s\n", n); err != nil {
			return err
		}
	}
	return nil
}

// TextNotes are the notes as people read them: each once, and none whose words an answer
// detail already holds — the whole note, or its text after a leading label ("no sizing: …",
// "forecast kinds: wall_time preferred: …"), compared without case and final period.
func TextNotes(a *Answer, notes []string) []string {
	var said []string
	if a != nil {
		for _, d := range a.Details {
			said = append(said, strings.ToLower(d))
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, n := range notes {
		if seen[n] || saidIn(said, n) {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

// saidIn reports whether note, or its text after one of its "label: " prefixes (at least 40
// characters of it), is within one of said (lower case).
func saidIn(said []string, note string) bool {
	n := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(note)), ".")
	for rest := n; ; {
		if len([]rune(rest)) >= 40 {
			for _, d := range said {
				if strings.Contains(d, rest) {
					return true
				}
			}
		}
		_, after, ok := strings.Cut(rest, ": ")
		if !ok {
			return false
		}
		rest = after
	}
}
