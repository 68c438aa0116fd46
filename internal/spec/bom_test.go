package spec

import (
	"strings"
	"testing"
)

// TestBOMAccepted: a UTF-8 byte order mark (EF BB BF) before a CSV header or a YAML document
// is skipped by every reader built on ReadCSV/ReadCSVChecked/Parse (review: the header
// "\ufeffp" did not match column p, so `speedup --measured` and `fit MODEL DATA` refused a
// file `fit DATA.csv` accepted). Line numbers stay those of the file; a BOM that is not
// first is content and still refused.
func TestBOMAccepted(t *testing.T) {
	const b = "\xEF\xBB\xBF"
	aliases := map[string][]string{"p": {"p"}, "time": {"time_s"}}
	for _, tc := range []struct {
		name, csv string
		wantErr   bool
		wantLine  int // line of the one data row
	}{
		{"no BOM", "p,time_s\n1,2\n", false, 2},
		{"BOM", b + "p,time_s\n1,2\n", false, 2},
		{"BOM then comment", b + "# c\np,time_s\n1,2\n", false, 3},
		{"BOM twice", b + b + "p,time_s\n1,2\n", true, 0},
	} {
		var lines []int
		err := ReadCSV("f.csv", strings.NewReader(tc.csv), aliases, []string{"p", "time"}, func(r Row) error {
			if r.Get("p") != "1" || r.Get("time") != "2" {
				t.Errorf("%s: row %q %q", tc.name, r.Get("p"), r.Get("time"))
			}
			lines = append(lines, r.Line)
			return nil
		})
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err %v, want error %v", tc.name, err, tc.wantErr)
			continue
		}
		if !tc.wantErr && (len(lines) != 1 || lines[0] != tc.wantLine) {
			t.Errorf("%s: rows at lines %v, want [%d]", tc.name, lines, tc.wantLine)
		}
	}
	for _, y := range []string{"a: 1\n", b + "a: 1\n"} {
		d, root, err := Parse("m.yaml", []byte(y))
		if err != nil {
			t.Errorf("YAML %q: %v", y, err)
			continue
		}
		if v := root.Map("a")["a"].Int(0, 9); v != 1 || d.Err() != nil {
			t.Errorf("YAML %q: a = %d, %v", y, v, d.Err())
		}
	}
}
