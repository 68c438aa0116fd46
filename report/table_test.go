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

// TestPercentNoise: fractions below 1e-12 are rounding noise and print as 0% (issue 21:
// fit's cv_score on two exact points printed +2.22e-14%, i.e. 2^-52); the CSV keeps them;
// mpip's real +4.78e-05% (a fraction 4.78e-7) still prints.
func TestPercentNoise(t *testing.T) {
	cases := []struct {
		in   float64
		want string
	}{
		{2.220446049250313e-16, "0%"}, // 2^-52, fit two.csv's cv_score
		{-3e-13, "0%"},
		{0, "0%"},
		{4.78e-7, "+4.78e-05%"}, // mpip keck_cg_a at_rel_error
		{1e-12, "+1e-10%"},      // the threshold itself is kept
		{0.123, "+12.3%"},
	}
	for _, c := range cases {
		if got := Percent(c.in).String(); got != c.want {
			t.Errorf("Percent(%g) = %q, want %q", c.in, got, c.want)
		}
	}
	tb := &Table{Header: []string{"e"}}
	tb.Add(Percent(2.220446049250313e-16))
	var csv strings.Builder
	if err := tb.WriteCSV(&csv); err != nil || csv.String() != "e\n2.220446049250313e-16\n" {
		t.Errorf("CSV = %q (%v), want the value as computed", csv.String(), err)
	}
}
