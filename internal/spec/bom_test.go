package spec

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/clusterperf/clusterperf/fault"
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

// utf16Bytes encodes s as UTF-16 in the given byte order (little-endian when le), with a
// byte order mark when bom: what a Windows editor saves as "Unicode".
func utf16Bytes(s string, le, bom bool) []byte {
	var out []byte
	put := func(u uint16) {
		if le {
			out = append(out, byte(u), byte(u>>8))
		} else {
			out = append(out, byte(u>>8), byte(u))
		}
	}
	if bom {
		put(0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		put(u)
	}
	return out
}

// TestUTF16YAML: a UTF-16 model file (with a byte order mark in either byte order, or
// without one, detected from its first character as YAML 1.2 §5.2 does) is read as its
// UTF-8 text is, and every problem is on the line it is on in the file — the lines a
// UTF-8 copy gives. Before, yaml.v3 decoded UTF-16 with a BOM itself but problems it
// reports without a line (a control character, an unknown anchor) were put on line 1, and
// UTF-16 without a BOM was "control characters are not allowed" on line 1. UTF-32 and
// broken UTF-16 are refused naming the encoding.
func TestUTF16YAML(t *testing.T) {
	const ok = "name: x\n# comment é ✓ 𝄞\nvalue: 2\n"
	for _, tc := range []struct {
		name, text string
		line       int    // of the problem (0: none)
		want       string // in its message
	}{
		{"valid", ok, 0, ""},
		{"control character", "a: 1\nb: 2\nc: \x01\n", 3, "control characters are not allowed"},
		{"unknown anchor", "a: 1\nb: [1,\n  2]\nc: *nowhere\n", 4, "unknown anchor"},
		{"syntax", "a: 1\nb: [1\nc: 2\n", 2, "did not find expected ',' or ']'"},
	} {
		_, _, want := Parse("m.yaml", []byte(tc.text)) // the UTF-8 copy's answer
		for _, enc := range []struct {
			name    string
			le, bom bool
		}{{"UTF-16LE BOM", true, true}, {"UTF-16BE BOM", false, true}, {"UTF-16LE", true, false}, {"UTF-16BE", false, false}} {
			_, root, err := Parse("m.yaml", utf16Bytes(tc.text, enc.le, enc.bom))
			var se *Error
			switch {
			case tc.line == 0 && tc.want == "" && want == nil:
				if err != nil || root.Map("name", "value")["value"].Int(0, 9) != 2 {
					t.Errorf("%s, %s: %v", tc.name, enc.name, err)
				}
			case !errors.As(err, &se) || se.Line != tc.line || !strings.Contains(se.Msg, tc.want) || want == nil || err.Error() != want.Error():
				t.Errorf("%s, %s: %v; want line %d %q, as UTF-8 gives: %v", tc.name, enc.name, err, tc.line, tc.want, want)
			}
		}
	}
	for _, tc := range []struct {
		name string
		data []byte
		line int
		want string
	}{
		{"UTF-32LE BOM", []byte{0xFF, 0xFE, 0, 0, 'a', 0, 0, 0}, 1, "UTF-32"},
		{"UTF-32BE", []byte{0, 0, 0, 'a', 0, 0, 0, ':'}, 1, "UTF-32"},
		{"odd length", append(utf16Bytes("a: 1\nb: 2\n", true, true), 'x'), 3, "UTF-16LE with an odd number of bytes"},
		{"unpaired surrogate", append(utf16Bytes("a: 1\nb: ", false, true), 0xD8, 0x00, 0, 'x'), 2, "not valid UTF-16BE: an unpaired surrogate U+D800"},
	} {
		_, _, err := Parse("m.yaml", tc.data)
		var se *Error
		if !errors.As(err, &se) || se.Line != tc.line || !strings.Contains(se.Msg, tc.want) || !errors.Is(err, fault.ErrInput) {
			t.Errorf("%s: %v; want line %d %q", tc.name, err, tc.line, tc.want)
		}
	}
}

// FuzzUTF16: any text read back from its UTF-16 encoding (either byte order, with a BOM)
// is the text itself, so Parse sees what a UTF-8 copy holds.
func FuzzUTF16(f *testing.F) {
	for _, s := range []string{"a: 1\n", "é ✓ 𝄞", "\ufeffx", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.HasPrefix(s, "\x00") {
			return // FF FE 00 00 is also UTF-32LE's mark; NUL is no YAML character anyway
		}
		for _, le := range []bool{true, false} {
			got, err := toUTF8("f", utf16Bytes(s, le, true))
			if want := string(TrimBOM([]byte(s))); err != nil || string(got) != want {
				t.Fatalf("%q (le %v): %q, %v", s, le, got, err)
			}
		}
	})
}
