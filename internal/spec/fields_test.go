package spec

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestDecodeFields: a declared mapping is read strictly — each value by its reader (type,
// unit, range), defaults kept for absent keys, required keys named, unknown and duplicate
// keys refused with the allowed ones — and every problem at its file:line. Expected values:
// the units of internal/units (2ms = 0.002 s, 1KiB = 1024 bytes, 48/min = 0.8/s), the
// messages of Node's readers.
func TestDecodeFields(t *testing.T) {
	type rec struct {
		Name   string
		N      int
		T, R   float64
		B      float64
		On     bool
		Kind   string
		Tags   []string
		Weight float64
	}
	fields := func(r *rec) []Field {
		return []Field{
			Text("name", &r.Name),
			Int("n", &r.N, 1, 10).Required("missing field n (a count)"),
			Float("t", &r.T, Time),
			Float("rate", &r.R, JobRate),
			Float("b", &r.B, Size.Within(1, 4096, "bytes")),
			Bool("on", &r.On),
			Enum("kind", &r.Kind, "alpha", "beta"),
			Texts("tags", &r.Tags),
			Float("weight", &r.Weight, Between(0, 1)),
		}
	}
	for _, tc := range []struct {
		in   string
		want rec
		errs []string
	}{
		{"n: 3\nt: 2ms\nrate: 48/min\nb: 1KiB\non: yes\nkind: Beta\ntags: [x, y]\n",
			rec{N: 3, T: 0.002, R: 0.8, B: 1024, On: true, Kind: "beta", Tags: []string{"x", "y"}, Weight: 0.5}, nil},
		{"name: a\n", rec{Name: "a", Weight: 0.5}, []string{"f.yaml:1: missing field n (a count)"}},
		{"n: 3\nkind: gamma\n", rec{N: 3, Weight: 0.5}, []string{`f.yaml:2: kind: unknown kind "gamma" (allowed: alpha, beta)`}},
		{"n: 3\nb: 8KiB\n", rec{N: 3, B: 8192, Weight: 0.5}, []string{"f.yaml:2: b: 8192 bytes is out of range; allowed 1 … 4096 bytes"}},
		{"n: 3\nb: 8 parsecs\n", rec{N: 3, Weight: 0.5}, []string{"f.yaml:2: b: "}},
		{"n: 3\nweight: 2\n", rec{N: 3, Weight: 1}, []string{"f.yaml:2: weight: 2 is out of range; allowed 0 … 1"}},
		{"n: 3\nrate: [1]\n", rec{N: 3, Weight: 0.5}, []string{"f.yaml:2: rate: must be a rate such as 0.8, 0.8/s or 48/min"}},
		{"n: 3\nnme: a\n", rec{N: 3, Weight: 0.5}, []string{"f.yaml:2: nme: unknown field (allowed: b, kind, n, name, on, rate, t, tags, weight)"}},
		{"n: 3\nn: 4\n", rec{N: 3, Weight: 0.5}, []string{"f.yaml:2: n: field given twice"}},
		{"n: 11\n", rec{N: 1, Weight: 0.5}, []string{"f.yaml:1: n: 11 is out of range; allowed 1 … 10"}},
	} {
		d, root, err := Parse("f.yaml", []byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		got := rec{Weight: 0.5} // a default: kept when weight is absent
		root.Decode(fields(&got)...)
		err = d.Err()
		for _, w := range tc.errs {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%q: error %v, want %q", tc.in, err, w)
			}
		}
		if len(tc.errs) == 0 && err != nil {
			t.Errorf("%q: %v", tc.in, err)
		}
		if err != nil && !errors.Is(err, fault.ErrInput) {
			t.Errorf("%q: %v is not an input error", tc.in, err)
		}
		if len(tc.errs) == 0 || !strings.Contains(tc.errs[0], "8 parsecs") {
			if g, w := strings.Join(got.Tags, ","), strings.Join(tc.want.Tags, ","); got.Name != tc.want.Name || got.N != tc.want.N || got.T != tc.want.T || got.R != tc.want.R || got.B != tc.want.B || got.On != tc.want.On || got.Kind != tc.want.Kind || g != w || got.Weight != tc.want.Weight {
				t.Errorf("%q: got %+v, want %+v", tc.in, got, tc.want)
			}
		}
	}
}

// TestOneOfEntriesPerName: the cross-field helpers — one of several keys, a mapping of
// names in key order, a value for every name or per name.
func TestOneOfEntriesPerName(t *testing.T) {
	d, root, err := Parse("f.yaml", []byte("a: 1\nb: 2\nm: {y: 2, x: 1, y: 7}\nv: {p: 3, z: 4}\nw: 5\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := root.Decode(Key("a"), Key("b"), Key("m"), Key("v"), Key("w"))
	if got := root.OneOf(f, "none", "a or b, not both", "a", "b"); got != "" {
		t.Errorf("OneOf of a and b = %q, want none", got)
	}
	if got := root.OneOf(f, "none", "several", "a", "c"); got != "a" {
		t.Errorf("OneOf(a, c) = %q, want a", got)
	}
	var keys []string
	for _, e := range f["m"].Entries() {
		keys = append(keys, e.Key+"="+e.Node.String())
	}
	if strings.Join(keys, " ") != "x=1 y=2" {
		t.Errorf("Entries = %v, want x=1 y=2 (key order)", keys)
	}
	idx := map[string]int{"p": 0, "q": 1}
	got := make([]float64, 2)
	f["v"].PerName("class", idx, 2, Number, func(i int, v float64) { got[i] = v })
	if got[0] != 3 || got[1] != 0 {
		t.Errorf("PerName of a mapping = %v, want [3 0]", got)
	}
	f["w"].PerName("class", idx, 2, Number, func(i int, v float64) { got[i] = v })
	if got[0] != 5 || got[1] != 5 {
		t.Errorf("PerName of one value = %v, want [5 5]", got)
	}
	err = d.Err()
	for _, w := range []string{"f.yaml:1: a or b, not both", `f.yaml:4: v.z: no class named "z"`, "f.yaml:3: m.y: field given twice"} {
		if err == nil || !strings.Contains(err.Error(), w) {
			t.Errorf("error %v, want %q", err, w)
		}
	}
}
