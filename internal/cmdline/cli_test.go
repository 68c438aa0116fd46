package cmdline

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: the revision comes from the build's VCS information when it has some, else
// from the link-time stamp (-ldflags -X main.buildRevision=…), else the version says how to
// get one — never a bare "(devel)".
func TestVersionOf(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs.revision", Value: "7b02fb0abc"}, {Key: "vcs.modified", Value: "true"}, {Key: "vcs.time", Value: "2026-11-22T23:00:00Z"}}
	for _, c := range []struct {
		module, stamped string
		settings        []debug.BuildSetting
		want            string
	}{
		{"(devel)", "", vcs, "(devel) 7b02fb0abc+modified (2026-11-22T23:00:00Z), go1.26"},
		{"(devel)", "v0-12-g1234567", vcs, "(devel) 7b02fb0abc+modified (2026-11-22T23:00:00Z), go1.26"},
		{"(devel)", "v0-12-g1234567-dirty", nil, "(devel) v0-12-g1234567-dirty, go1.26"},
		{"v1.2.0", "", nil, "v1.2.0, go1.26"},
		{"", "", []debug.BuildSetting{{Key: "-buildvcs", Value: "false"}}, "(devel) (this build recorded no source revision: see README \"Build\"), go1.26"},
	} {
		if got := versionOf(c.module, "go1.26", c.settings, c.stamped); got != c.want {
			t.Errorf("versionOf(%q, %v, %q) = %q, want %q", c.module, c.settings, c.stamped, got, c.want)
		}
	}
}

// TestEditDistance: Levenshtein distances by hand (one substitution, insertion, deletion;
// "kitten"→"sitting" is the textbook 3).
func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"sweep", "sweeep", 1}, {"exact", "exac", 1}, {"slove", "solve", 2}, {"kitten", "sitting", 3}} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
