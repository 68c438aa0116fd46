package report

import (
	"bytes"
	"fmt"
	"math"
	"testing"
)

// TestStreamSameAsRows: a table whose rows come from Stream is written exactly as the same
// table built with Add — text (narrow, split into blocks beyond TextWidth, left-aligned)
// and CSV (full precision, TextOnly cells empty).
func TestStreamSameAsRows(t *testing.T) {
	row := func(i int, wide bool) []any {
		cells := []any{i, float64(i) / 3, Percent(0.01 * float64(i)), TextOnly("∞"), "name"}
		if wide {
			for j := range 12 {
				cells = append(cells, math.Pi*float64(i*j)+1e-7)
			}
		}
		return cells
	}
	for _, tc := range []struct {
		name       string
		wide, left bool
	}{{"narrow", false, false}, {"wide", true, false}, {"left", false, true}} {
		header := []string{"i", "third", "pct", "inf", "label"}
		if tc.wide {
			for j := range 12 {
				header = append(header, fmt.Sprintf("wide_column_%d", j))
			}
		}
		built := &Table{Title: "T " + tc.name, Header: header, Left: tc.left}
		for i := range 40 {
			built.Add(row(i, tc.wide)...)
		}
		streamed := &Table{Title: "T " + tc.name, Header: header, Left: tc.left, Stream: func(emit func(...any) error) error {
			for i := range 40 {
				if err := emit(row(i, tc.wide)...); err != nil {
					return err
				}
			}
			return nil
		}}
		for _, format := range []string{"text", "csv"} {
			var a, b bytes.Buffer
			write := func(tb *Table, w *bytes.Buffer) error {
				if format == "csv" {
					return tb.WriteCSV(w)
				}
				return tb.WriteText(w)
			}
			if err := write(built, &a); err != nil {
				t.Fatal(err)
			}
			if err := write(streamed, &b); err != nil {
				t.Fatal(err)
			}
			if a.String() != b.String() {
				t.Errorf("%s %s: streamed differs:\n%s\nbuilt:\n%s", tc.name, format, b.String(), a.String())
			}
			if tc.wide && format == "text" && maxLine(b.String()) > TextWidth {
				t.Errorf("wide: a line of %d characters", maxLine(b.String()))
			}
		}
	}
}
