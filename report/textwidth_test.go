package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxLine is the widest line of s in runes.
func maxLine(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		n = max(n, utf8.RuneCountInString(l))
	}
	return n
}

// TestTableTextWidth: a table wider than TextWidth is split into blocks of columns that
// each repeat the key column and hold every cell exactly once; a long text cell wraps onto
// continuation lines (left-aligned); a one-row table and a table of words too wide even so
// become records; a narrow
// table is written exactly as before (tabwriter, right-aligned).
func TestTableTextWidth(t *testing.T) {
	wide := &Table{Title: "Wide", Header: []string{"key"}}
	for j := range 14 {
		wide.Header = append(wide.Header, fmt.Sprintf("column_number_%02d", j))
	}
	for i := range 3 {
		row := []any{fmt.Sprintf("row%d", i)}
		for j := range 14 {
			row = append(row, float64(100*i+j)+0.5)
		}
		wide.Add(row...)
	}
	long := &Table{Title: "Long text", Header: []string{"name", "value", "reason"}}
	long.Add("a", 1.0, strings.Repeat("a long reason that goes on ", 8))
	long.Add("b", 2.0, "short")
	words := &Table{Title: "Words", Header: []string{"what", "value"}, Left: true}
	words.Add("one", strings.Repeat("word ", 40))
	prose := &Table{Title: "Prose", Header: []string{"label", "views", "evidence"}, Left: true}
	prose.Add("run", strings.Repeat("view ", 20), strings.Repeat("evidence ", 12))
	narrow := &Table{Title: "Narrow", Header: []string{"p", "t_s"}}
	narrow.Add(1, 2.5)
	for _, tc := range []struct {
		t    *Table
		want []string // fragments of the text
	}{
		{wide, []string{"Wide (continued, part 3 of 3: column_number_12 … column_number_13)", "213.5"}},
		{long, []string{"a long reason that goes on a long reason"}},
		{words, []string{"one   word word", "\n      word word"}},
		{prose, []string{"label: run\n  views: view view", "\n  evidence: evidence evidence"}},
		{narrow, []string{"Narrow\n  p  t_s\n  1  2.5\n"}},
	} {
		var b bytes.Buffer
		if err := tc.t.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		s := b.String()
		if n := maxLine(s); n > TextWidth {
			t.Errorf("%s: a line of %d characters:\n%s", tc.t.Title, n, s)
		}
		for _, w := range tc.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: lacks %q:\n%s", tc.t.Title, w, s)
			}
		}
		// every cell is in the text once per block it belongs to (keys in every block)
		for i, r := range tc.t.Rows {
			for j, c := range r {
				if j == 0 || len(c) > 40 {
					continue
				}
				if !strings.Contains(s, c) {
					t.Errorf("%s: row %d cell %d %q missing:\n%s", tc.t.Title, i, j, c, s)
				}
			}
		}
	}
	// the wide table: every block repeats the key of every row
	var b bytes.Buffer
	if err := wide.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "row1"); n != 3 {
		t.Errorf("key row1 in %d blocks, want 3:\n%s", n, b.String())
	}
}

// TestWrapText: lines within the width, words kept whole and in order, the hanging indent,
// the text's own newlines and a fitting line's spacing kept.
func TestWrapText(t *testing.T) {
	s := "alpha beta gamma delta epsilon zeta eta theta"
	lines := WrapText(s, 16, "  ")
	if strings.Join(strings.Fields(strings.Join(lines, " ")), " ") != s {
		t.Errorf("words lost or reordered: %q", lines)
	}
	for i, l := range lines {
		if utf8.RuneCountInString(l) > 16 || (i > 0 && !strings.HasPrefix(l, "  ")) {
			t.Errorf("line %d %q: over 16 or without the indent", i, l)
		}
	}
	if got := WrapText("a  b\nc", 10, "  "); len(got) != 2 || got[0] != "a  b" || got[1] != "  c" {
		t.Errorf("got %q", got)
	}
	if got := WrapText("averyveryverylongword x", 8, ""); got[0] != "averyveryverylongword" {
		t.Errorf("a long word split: %q", got)
	}
}

// FuzzWrapText: for any text and width, no word is lost, added or reordered, and a line is
// longer than the width only when it is one word (with the indent).
func FuzzWrapText(f *testing.F) {
	f.Add("alpha beta gamma delta", 8, "  ")
	f.Add("a\nb  c\n\n  d", 3, "")
	f.Add("ünïcödé wörds — and ≤ signs", 10, "    ")
	f.Fuzz(func(t *testing.T, s string, width int, indent string) {
		if width < 1 || width > 500 || len(indent) > 8 || strings.TrimSpace(indent) != "" || !utf8.ValidString(s) {
			return
		}
		lines := WrapText(s, width, indent)
		if got, want := strings.Fields(strings.Join(lines, " ")), strings.Fields(s); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("words %q, want %q", got, want)
		}
		for _, l := range lines {
			if utf8.RuneCountInString(l) > width && len(strings.Fields(l)) > 1 {
				t.Fatalf("line %q of %d runes > %d with several words", l, utf8.RuneCountInString(l), width)
			}
		}
	})
}

// TestWrappedKeyKept: a 300-character key without spaces (hostile review) is cut into
// pieces that fit, every piece is printed in every column block, and no line passes
// TextWidth.
func TestWrappedKeyKept(t *testing.T) {
	long := "cls " + strings.Repeat("x", 300)
	tb := &Table{Name: "classes", Title: "Classes", Header: []string{"class", "type", "population", "arrival_rate_per_s", "throughput_per_s", "response_time_s", "a_long_column_name_one", "a_long_column_name_two"}}
	tb.Add(long, "closed", 3, "", 1.98628, 2.5, "value one", "value two")
	tb.Add("short", "closed", 2, "", 1.5, 1.25, "v", "w")
	var b strings.Builder
	if err := tb.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > TextWidth {
			t.Errorf("line of %d runes: %q", n, l)
		}
	}
	parts := strings.Count(out, "Classes")
	if got := strings.Count(out, "x"); got != 300*parts {
		t.Errorf("%d x's in %d blocks, want %d:\n%s", got, parts, 300*parts, out)
	}
}
