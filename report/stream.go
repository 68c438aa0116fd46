package report

import (
	"encoding/csv"
	"io"
	"strings"
	"unicode/utf8"
)

// streamCSV writes Stream's rows at full precision (TextOnly cells empty), each as it
// comes: csv.Writer's buffer goes out as it fills.
func (t *Table) streamCSV(cw *csv.Writer) error {
	err := t.Stream(func(cells ...any) error {
		rec := make([]string, len(cells))
		for i, c := range cells {
			if _, full, blank := formatCell(c); !blank {
				rec[i] = full
			}
		}
		return cw.Write(rec)
	})
	cw.Flush()
	if err != nil {
		return err
	}
	return cw.Error()
}

// Empty reports whether t has no rows to show (a streamed table counts as having rows).
func (t *Table) Empty() bool { return len(t.Rows) == 0 && t.Stream == nil }

// TextRows is the text form of t's rows: Rows, or the first limit rows Stream gives, with
// the number it gives in all (an HTML page shows a table's first rows only).
func (t *Table) TextRows(limit int) (rows [][]string, total int) {
	if t.Stream == nil {
		return t.Rows, len(t.Rows)
	}
	_ = t.Stream(func(cells ...any) error {
		if total < limit {
			rows = append(rows, textCells(cells))
		}
		total++
		return nil
	})
	return rows, total
}

// textCells is the text form of a streamed row's cells.
func textCells(cells []any) []string {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i], _, _ = formatCell(c)
	}
	return row
}

// streamText writes Stream's rows as the text table WriteText would write from Rows (same
// alignment as tabwriter's; split into blocks of columns beyond TextWidth, without
// wrapping cells), holding one row at a time: a first pass measures the columns.
func (t *Table) streamText(w io.Writer) error {
	ws := colWidths(t.Header, nil)
	if err := t.Stream(func(cells ...any) error {
		for j, c := range textCells(cells) {
			if j < len(ws) {
				ws[j] = max(ws[j], utf8.RuneCountInString(c))
			}
		}
		return nil
	}); err != nil {
		return err
	}
	parts := [][]int{nil}
	if lineWidth(ws, t.Left) > TextWidth {
		parts = blocks(ws, t.keyColumns(), t.Left)
	}
	for i, cols := range parts {
		if err := t.writeBlockHead(w, i, len(parts), cols); err != nil {
			return err
		}
		if cols == nil {
			for j := range ws {
				cols = append(cols, j)
			}
		}
		if _, err := io.WriteString(w, t.alignLine(t.Header, cols, ws)); err != nil {
			return err
		}
		if err := t.Stream(func(cells ...any) error {
			_, err := io.WriteString(w, t.alignLine(textCells(cells), cols, ws))
			return err
		}); err != nil {
			return err
		}
	}
	return nil
}

// alignLine is the columns cols of row as tabwriter aligns them (padding cellPad): right-
// aligned, each cell padded on the left to its column's width plus cellPad; left-aligned,
// each but the last padded on the right.
func (t *Table) alignLine(row []string, cols, ws []int) string {
	var b strings.Builder
	for k, j := range cols {
		c := ""
		if j < len(row) {
			c = row[j]
		}
		pad := strings.Repeat(" ", ws[j]+cellPad-utf8.RuneCountInString(c))
		switch {
		case !t.Left:
			b.WriteString(pad + c)
		case k < len(cols)-1:
			b.WriteString(c + pad)
		default:
			b.WriteString(c)
		}
	}
	b.WriteByte('\n')
	return b.String()
}
