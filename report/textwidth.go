package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// TextWidth is the widest line of the table format, in characters (runes: the tables'
// "—", "≤", "·" are one column each in a terminal): titles, table lines and notes.
// A table wider than this is split into blocks of columns, each repeating the table's
// key columns; a cell longer than maxCell is wrapped onto continuation lines; a title or
// note is wrapped at spaces. Only a single word longer than the width (a long file path)
// can exceed it.
const TextWidth = 120

// maxCell is the least width a long cell of a too-wide table is wrapped at (onto
// continuation lines); it is wrapped at the width its block leaves after the key columns
// when that is more.
const maxCell = 56

// maxRecordRows: a too-wide table of at most this many rows is written as records
// (writeRecords), not as blocks of columns that would each repeat the key columns for a
// row or two.
const maxRecordRows = 1

// cellPad is the padding tabwriter puts between (and, right-aligned, before) cells.
const cellPad = 2

// WrapText splits s at spaces into lines of at most width runes; lines after the first
// start with indent. A line of s (s's own newlines are kept) that fits is kept as it is; a
// word longer than a line is kept whole on a line of its own.
func WrapText(s string, width int, indent string) []string {
	var lines []string
	for i, p := range strings.Split(s, "\n") {
		if i > 0 {
			p = indent + p
		}
		if utf8.RuneCountInString(p) <= width {
			lines = append(lines, p)
			continue
		}
		lead := p[:len(p)-len(strings.TrimLeft(p, " "))] // kept: a record's indentation
		lines = append(lines, wrapWords(lead, p, width, indent)...)
	}
	return lines
}

// wrapWords is WrapText of one line, at its spaces, the first line starting with lead.
func wrapWords(lead, s string, width int, indent string) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = lead + w
			if len(lines) > 0 {
				line = indent + w
			}
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = indent + w
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// writeWrapped writes s wrapped at TextWidth with a hanging indent.
func writeWrapped(w io.Writer, s, indent string) error {
	for _, l := range WrapText(s, TextWidth, indent) {
		if _, err := fmt.Fprintln(w, l); err != nil {
			return err
		}
	}
	return nil
}

// colWidths is the width (runes) of every column of header and rows.
func colWidths(header []string, rows [][]string) []int {
	ws := make([]int, len(header))
	for _, r := range append([][]string{header}, rows...) {
		for j, c := range r {
			if j < len(ws) {
				ws[j] = max(ws[j], utf8.RuneCountInString(c))
			}
		}
	}
	return ws
}

// lineWidth is the width of a tabwriter line of columns ws (cellPad after each cell; the
// left-aligned form leaves the last cell unpadded).
func lineWidth(ws []int, left bool) int {
	n := 0
	for _, w := range ws {
		n += w + cellPad
	}
	if left && n > 0 {
		n -= cellPad
	}
	return n
}

// wrapCells puts every cell longer than width on continuation lines: a row becomes as
// many rows as its longest wrapped cell has lines, the other cells empty on the extra ones.
// With pad, the cells of a column that had a wrapped cell (and its header) are padded with
// spaces to the column's width, so a right-aligned table shows that text left-aligned.
func wrapCells(header []string, rows [][]string, width int, pad bool) ([]string, [][]string, []bool) {
	out, starts := wrapRows(rows, width)
	if !pad {
		return header, out, starts
	}
	ws := colWidths(header, out)
	header = slices.Clone(header)
	for j := range header {
		if !slices.ContainsFunc(rows, func(r []string) bool { return j < len(r) && utf8.RuneCountInString(r[j]) > width }) {
			continue
		}
		pad := func(c string) string { return c + strings.Repeat(" ", ws[j]-utf8.RuneCountInString(c)) }
		header[j] = pad(header[j])
		for _, r := range out {
			if j < len(r) {
				r[j] = pad(r[j])
			}
		}
	}
	return header, out, starts
}

// wrapRows is wrapCells without the padding; starts[i] tells whether line i begins a row.
func wrapRows(rows [][]string, width int) ([][]string, []bool) {
	var out [][]string
	var starts []bool
	for _, r := range rows {
		parts := make([][]string, len(r))
		n := 1
		for j, c := range r {
			parts[j] = []string{c}
			if utf8.RuneCountInString(c) > width {
				parts[j] = breakLong(WrapText(c, width, ""), width)
			}
			n = max(n, len(parts[j]))
		}
		for k := range n {
			line := make([]string, len(r))
			for j := range r {
				if k < len(parts[j]) {
					line[j] = parts[j][k]
				}
			}
			out = append(out, line)
			starts = append(starts, k == 0)
		}
	}
	return out, starts
}

// breakLong cuts every line longer than width runes (a word without spaces: a 300-character
// name in a table cell) into pieces of width runes, so that a cell never widens its column
// past the wrap width (hostile review: lines of 331 characters).
func breakLong(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		r := []rune(l)
		for len(r) > width {
			out = append(out, string(r[:width]))
			r = r[width:]
		}
		out = append(out, string(r))
	}
	return out
}

// blocks splits the columns ws into blocks that fit TextWidth, each starting with the
// first keys columns (the row's identity), greedily left to right; a block always takes
// at least one column of its own.
func blocks(ws []int, keys int, left bool) [][]int {
	keys = min(max(keys, 0), len(ws)-1)
	var out [][]int
	j := keys
	for j < len(ws) {
		var cols, widths []int
		for k := range keys {
			cols, widths = append(cols, k), append(widths, ws[k])
		}
		for j < len(ws) {
			if len(cols) > keys && lineWidth(append(widths, ws[j]), left) > TextWidth {
				break
			}
			cols, widths = append(cols, j), append(widths, ws[j])
			j++
		}
		out = append(out, cols)
	}
	return out
}

// writeTable writes header and rows aligned (tabwriter, as the table format always did)
// under title, split into column blocks and wrapped when wider than TextWidth.
func (t *Table) writeTable(w io.Writer) error {
	rows, header := t.Rows, t.Header
	ws := colWidths(header, rows)
	var starts []bool // of wrapped lines: which begin a row (nil: not wrapped)
	parts := [][]int{nil}
	if lineWidth(ws, t.Left) > TextWidth {
		// long cells wrapped at what the key columns leave; if that fits, one block
		k := min(t.keyColumns(), len(ws)-1)
		header, rows, starts = wrapCells(header, rows, max(maxCell, TextWidth-lineWidth(ws[:k], false)-cellPad), !t.Left)
		ws = colWidths(header, rows)
		switch {
		case lineWidth(ws, t.Left) <= TextWidth:
		case t.Left || len(t.Rows) <= maxRecordRows:
			return t.writeRecords(w)
		default:
			parts = nonEmptyBlocks(blocks(ws, t.keyColumns(), t.Left), t.keyColumns(), rows)
		}
	}
	for i, cols := range parts {
		if err := t.writeBlockHead(w, i, len(parts), cols); err != nil {
			return err
		}
		if err := t.writeBlock(w, cols, starts, header, rows); err != nil {
			return err
		}
	}
	return nil
}

// nonEmptyBlocks drops the continued blocks whose columns other than the keys are empty in
// every row: writeBlock would print their header alone (issue 33: mpip's "part 3 of 3:
// at_high_s" of a run without extrapolation). CSV keeps every column.
func nonEmptyBlocks(parts [][]int, keys int, rows [][]string) [][]int {
	out := parts[:1]
	for _, cols := range parts[1:] {
		for _, c := range cols {
			if c < keys {
				continue
			}
			if slices.ContainsFunc(rows, func(r []string) bool { return c < len(r) && strings.TrimSpace(r[c]) != "" }) {
				out = append(out, cols)
				break
			}
		}
	}
	return out
}

// writeBlock writes the columns cols (nil: all) of the header and rows through tabwriter;
// of a block (cols not nil) it leaves out the lines that have nothing in its columns but
// the key; of wrapped cells it trims the spaces padding ends the lines.
func (t *Table) writeBlock(w io.Writer, cols []int, starts []bool, header []string, rows [][]string) error {
	wrapped := starts != nil
	pick := func(r []string) []string {
		if cols == nil {
			return r
		}
		out := make([]string, 0, len(cols))
		for _, j := range cols {
			if j < len(r) {
				out = append(out, r[j])
			}
		}
		return out
	}
	var flags uint = tabwriter.AlignRight
	if t.Left {
		flags = 0
	}
	var buf bytes.Buffer
	out := w
	if wrapped {
		out = &buf
	}
	tw := tabwriter.NewWriter(out, 0, 0, cellPad, ' ', flags)
	end := "\t" // a terminated last cell: right-aligned like the others
	if t.Left {
		end = "" // the last cell unpadded
	}
	fmt.Fprintln(tw, strings.Join(pick(header), "\t")+end)
	// A row wrapped onto several lines is kept or left out whole: left out when none of its
	// lines has anything in this block's columns but the key (hostile review: a wrapped
	// key's continuation lines were dropped).
	empty := func(cells []string) bool {
		return strings.TrimSpace(strings.Join(cells[min(t.keyColumns(), len(cells)):], "")) == ""
	}
	for i := 0; i < len(rows); {
		j := i + 1
		for wrapped && j < len(rows) && !starts[j] {
			j++
		}
		keep := cols == nil
		for _, r := range rows[i:j] {
			keep = keep || !empty(pick(r))
		}
		if keep {
			for n, r := range rows[i:j] {
				if cells := pick(r); n == 0 || strings.TrimSpace(strings.Join(cells, "")) != "" {
					fmt.Fprintln(tw, strings.Join(cells, "\t")+end)
				}
			}
		}
		i = j
	}
	if err := tw.Flush(); err != nil || !wrapped {
		return err
	}
	for _, l := range strings.SplitAfter(buf.String(), "\n") {
		if l == "" {
			continue
		}
		if _, err := io.WriteString(w, strings.TrimRight(l, " \n")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// keyColumns is how many leading columns identify a row (Table.Keys, default 1).
func (t *Table) keyColumns() int {
	if t.Keys > 0 {
		return t.Keys
	}
	return 1
}

// shortTitle is the title's first sentence or 60 runes, for a continued block.
func (t *Table) shortTitle() string {
	s := t.Title
	if s == "" {
		s = t.Name
	}
	if i := strings.IndexAny(s, "(:;"); i > 0 {
		s = strings.TrimSpace(s[:i])
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

// writeRecords writes a too-wide table of words (Left) or of at most maxRecordRows rows as records: under the title,
// each row as "header: value" lines (the first column's line flush, the others indented),
// each value wrapped at TextWidth with its continuation lines indented further, rows
// separated by blank lines. A value's text stays together, only broken at spaces.
func (t *Table) writeRecords(w io.Writer) error {
	if t.Title != "" {
		if err := writeWrapped(w, t.Title, "  "); err != nil {
			return err
		}
	}
	for i, r := range t.Rows {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		for j, c := range r {
			if j >= len(t.Header) || c == "" {
				continue
			}
			indent := "  "
			if j == 0 {
				indent = ""
			}
			if err := writeWrapped(w, indent+t.Header[j]+": "+c, indent+"    "); err != nil {
				return err
			}
		}
	}
	return nil
}

// blockTitle is the title of block i of n (columns cols): the table's title, then
// "<short title> (continued, part i of n: first … last column)".
func (t *Table) blockTitle(i, n int, cols []int) string {
	if i == 0 {
		return t.Title
	}
	k := t.keyColumns()
	if len(cols) > k+1 {
		return fmt.Sprintf("%s (continued, part %d of %d: %s … %s)", t.shortTitle(), i+1, n, t.Header[cols[k]], t.Header[cols[len(cols)-1]])
	}
	return fmt.Sprintf("%s (continued, part %d of %d: %s)", t.shortTitle(), i+1, n, t.Header[cols[len(cols)-1]])
}

// writeBlockHead starts block i of n (columns cols): a blank line before every block but
// the first, then its title (blockTitle), wrapped.
func (t *Table) writeBlockHead(w io.Writer, i, n int, cols []int) error {
	if i > 0 {
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	if title := t.blockTitle(i, n, cols); title != "" {
		return writeWrapped(w, title, "  ")
	}
	return nil
}
