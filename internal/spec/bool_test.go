package spec

import (
	"strings"
	"testing"
)

// TestBool: the values yaml.v3 decodes into a typed bool are accepted; everything else is an
// error with the file and line (issue 12: `shared: True`, `yes`, `1`, `treu` were all false).
func TestBool(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
		err  string
	}{
		{"true", true, ""}, {"True", true, ""}, {"TRUE", true, ""}, {"false", false, ""}, {"False", false, ""},
		{"yes", true, ""}, {"no", false, ""}, {"on", true, ""}, {"off", false, ""},
		{"1", false, `"1" is not a boolean`}, {"treu", false, `"treu" is not a boolean`},
		{`"true"`, false, `"true" is not a boolean`}, {"[true]", false, "must be true or false"},
	} {
		d, root, err := Parse("b.yaml", []byte("x: 1\nflag: "+tc.in+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		got := root.Map("x", "flag")["flag"].Bool()
		err = d.Err()
		switch {
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%s: %v, %v; want %v", tc.in, got, err, tc.want)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), "b.yaml:2: flag: "+tc.err)):
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
		}
	}
}
