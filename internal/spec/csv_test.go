package spec

import (
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	aliases := map[string][]string{"p": {"p", "procs"}, "t": {"time"}}
	var got []string
	err := ReadCSV("f.csv", strings.NewReader("# comment\nProcs, Time ,x\n1,2,z\n3\n"), aliases, []string{"p"}, func(r Row) error {
		got = append(got, r.Get("p")+"/"+r.Get("t"))
		if r.Get("p") == "3" {
			return r.Errorf("bad row")
		}
		return nil
	})
	if len(got) != 2 || got[0] != "1/2" || got[1] != "3/" || err == nil || !strings.Contains(err.Error(), "f.csv:4: bad row") {
		t.Errorf("%v %v", got, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"q\n1\n", `needs a column p (accepted names: p, procs)`},
		{"p,procs\n1,2\n", "two columns give p"},
		{"p\n", "no data rows"},
		{"p\n\"1\n", "f.csv"},
	} {
		err := ReadCSV("f.csv", strings.NewReader(tc.in), aliases, []string{"p"}, func(Row) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestOneOf: a table needs exactly one of two alternative columns, reported at line 1.
func TestOneOf(t *testing.T) {
	aliases := map[string][]string{"p": {"p"}, "time": {"time"}, "speedup": {"speedup", "s"}}
	for _, tc := range []struct{ csv, chosen, err string }{
		{"p,time\n1,2\n", "time", ""},
		{"p,S\n1,2\n", "speedup", ""},
		{"p,time,speedup\n1,2,3\n", "", "t.csv:1: give a column time or speedup, not both"},
		{"p\n1\n", "", "t.csv:1: the header needs a column time (seconds) or speedup"},
	} {
		var chosen string
		err := ReadCSVChecked("t.csv", strings.NewReader(tc.csv), aliases, []string{"p"},
			OneOf("time", "speedup", "time (seconds) or speedup", &chosen), func(Row) error { return nil })
		if tc.err == "" && (err != nil || chosen != tc.chosen) {
			t.Errorf("%q: chose %q, err %v; want %q", tc.csv, chosen, err, tc.chosen)
		}
		if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: error %v, want %q", tc.csv, err, tc.err)
		}
	}
}
