package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

type detailDoc struct {
	Answered
	tables []*Table
	notes  []string
}

func (d *detailDoc) Tables() []*Table    { return d.tables }
func (d *detailDoc) NoteLines() []string { return d.notes }

// TestDetailTablesAndNotesOnce (issue 29): the table format shows Detail tables only with
// AllTables, else names them; a note is written once, and not at all when an answer detail
// already says it (whole, or after its "label: " prefix); CSV and JSON keep everything.
func TestDetailTablesAndNotesOnce(t *testing.T) {
	main := &Table{Name: "main", Title: "Main", Header: []string{"p"}}
	main.Add(1)
	det := &Table{Name: "extra", Title: "Extra figures", Header: []string{"q"}, Detail: true}
	det.Add(2)
	why := "the runs have different arguments, so their times are probably not one problem's"
	doc := &detailDoc{tables: []*Table{main, det}, notes: []string{"no sizing: " + why, "kept once", "kept once", "short: runs"}}
	doc.Answer = Answer{Summary: "No processor count recommended.", Details: []string{strings.ToUpper(why[:1]) + why[1:] + "."}}
	var b bytes.Buffer
	if err := Render(&b, doc, Options{Format: "table"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Main", "More tables (--all-tables; CSV: --csv-table NAME): extra.", "note: kept once", "note: short: runs"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Extra figures") || strings.Count(out, "kept once") != 1 || strings.Contains(out, "no sizing") {
		t.Errorf("detail table shown, or a note repeated:\n%s", out)
	}
	b.Reset()
	if err := Render(&b, doc, Options{Format: "table", AllTables: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Extra figures") || strings.Contains(b.String(), "More tables") {
		t.Errorf("--all-tables:\n%s", b.String())
	}
	b.Reset()
	if err := Render(&b, doc, Options{Format: "csv", CSVTable: "extra"}); err != nil || b.String() != "q\n2\n" {
		t.Errorf("csv of a detail table: %v %q", err, b.String())
	}
	if got := TextNotes(nil, doc.notes); !slices.Equal(got, []string{"no sizing: " + why, "kept once", "short: runs"}) {
		t.Errorf("without an answer: %q", got)
	}
}
