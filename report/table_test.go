package report

import (
	"strings"
	"testing"
)

// TestTextOnly: a TextOnly cell ("∞") shows in the text table and is empty in CSV, where
// the column is numeric.
func TestTextOnly(t *testing.T) {
	tb := &Table{Header: []string{"what", "p"}}
	tb.Add("p → ∞", TextOnly("∞"))
	tb.Add("best", 4)
	var txt, csv strings.Builder
	if err := tb.WriteText(&txt); err != nil {
		t.Fatal(err)
	}
	if err := tb.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(txt.String(), "∞") {
		t.Errorf("text lacks ∞:\n%s", txt.String())
	}
	if want := "what,p\np → ∞,\nbest,4\n"; csv.String() != want {
		t.Errorf("CSV = %q, want %q", csv.String(), want)
	}
}
