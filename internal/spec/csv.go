package spec

import (
	"github.com/clusterperf/clusterperf/fault"

	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Row is one data row of a CSV table: Get returns a column's trimmed text ("" when the row
// is short or the column absent), Has tells whether the header named the column.
type Row struct {
	File string
	Line int
	rec  []string
	cols map[string]int
}

// Get returns the trimmed value of column key.
func (r Row) Get(key string) string {
	i, ok := r.cols[key]
	if !ok || i >= len(r.rec) {
		return ""
	}
	return strings.TrimSpace(r.rec[i])
}

// Has reports whether the header named column key.
func (r Row) Has(key string) bool { _, ok := r.cols[key]; return ok }

// Errorf is an error located at the row.
func (r Row) Errorf(format string, args ...any) error {
	return &Error{File: r.File, Line: r.Line, Msg: fmt.Sprintf(format, args...)}
}

// MaxRows bounds the data rows of a CSV file (a million measurements).
const MaxRows = 1_000_000

// ReadCSV reads a CSV table with a header row ('#' starts a comment line). aliases maps each
// column key to the header names accepted for it (case-insensitive); required lists the keys
// that must be present. each is called for every data row; the errors it returns are
// collected, so the user sees all bad rows at once. A malformed file stops the reading with
// an error naming the line.
func ReadCSV(file string, r io.Reader, aliases map[string][]string, required []string, each func(Row) error) error {
	return ReadCSVChecked(file, r, aliases, required, nil, each)
}

// ReadCSVChecked is ReadCSV with a check of the header's columns (has reports whether a key's
// column is present) before any row is read; its error is reported at line 1.
func ReadCSVChecked(file string, r io.Reader, aliases map[string][]string, required []string, check func(has func(key string) bool) error, each func(Row) error) error {
	cr := csv.NewReader(SkipBOM(r))
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return &Error{File: file, Line: 1, Msg: fmt.Sprintf("want a header row naming the columns %s: %v", strings.Join(required, ", "), err)}
	}
	cols := map[string]int{}
	for i, h := range head {
		h = strings.ToLower(strings.TrimSpace(h))
		for key, names := range aliases {
			for _, n := range names {
				if h == n {
					if _, dup := cols[key]; dup {
						return &Error{File: file, Line: 1, Msg: "two columns give " + key}
					}
					cols[key] = i
				}
			}
		}
	}
	for _, k := range required {
		if _, ok := cols[k]; !ok {
			return &Error{File: file, Line: 1, Msg: fmt.Sprintf("header %q needs a column %s (accepted names: %s)", strings.Join(head, ","), k, strings.Join(aliases[k], ", "))}
		}
	}
	if check != nil {
		if err := check(func(k string) bool { _, ok := cols[k]; return ok }); err != nil {
			return &Error{File: file, Line: 1, Msg: err.Error()}
		}
	}
	var errs []error
	rows, more := 0, 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return &Error{File: file, Msg: err.Error()} // csv.ParseError names the line
		}
		line, _ := cr.FieldPos(0)
		rows++
		if rows > MaxRows {
			return &Error{File: file, Line: line, Kind: fault.ErrTooLarge, Msg: fmt.Sprintf("more than %d data rows (spec.MaxRows)", MaxRows)}
		}
		if err := each(Row{File: file, Line: line, rec: rec, cols: cols}); err != nil {
			if len(errs) < MaxErrors {
				if !errors.Is(err, fault.ErrInput) {
					err = &Error{File: file, Line: line, Msg: err.Error()}
				}
				errs = append(errs, err)
			} else {
				more++
			}
		}
	}
	if rows == 0 {
		errs = append(errs, &Error{File: file, Msg: "no data rows"})
	}
	if more > 0 {
		errs = append(errs, &Error{File: file, Msg: fmt.Sprintf("… and %s more problems (only the first %d are listed)", groupDigits(more), MaxErrors)})
	}
	return errors.Join(errs...)
}

// OneOf returns a header check (for ReadCSVChecked) for a table that needs exactly one of two
// alternative columns a and b — described for the user by what, e.g. "time (seconds)" — and
// stores the key of the one present in *chosen.
func OneOf(a, b, what string, chosen *string) func(has func(key string) bool) error {
	return func(has func(key string) bool) error {
		switch {
		case has(a) && has(b):
			return fmt.Errorf("give a column %s or %s, not both", a, b)
		case has(a):
			*chosen = a
		case has(b):
			*chosen = b
		default:
			return fmt.Errorf("the header needs a column %s", what)
		}
		return nil
	}
}
