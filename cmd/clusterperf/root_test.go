package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestUsageMessages: a missing argument is named from the command's usage line, a misspelt
// command or flag gets a suggestion within edit distance 2 (cobra's SuggestionsFor; our
// editDistance), and each is bad input, exit 2 (hostile review: "accepts 1 arg(s), received
// 0" did not say MODEL.yaml; "slove" and "--sweeep" got no "did you mean").
func TestUsageMessages(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"solve"}, "solve: missing MODEL.yaml|MODEL.jmva\n(see clusterperf help solve)"},
		{[]string{"fit"}, "fit: missing DATA.csv"},
		{[]string{"queue"}, "queue: missing MODEL"},
		{[]string{"tpn"}, "tpn: missing an argument (usage: clusterperf tpn PROGRAM.yaml"},
		{[]string{"solve", "a.yaml", "b.yaml"}, "solve: accepts 1 arg(s), received 2 (usage: clusterperf solve MODEL.yaml|MODEL.jmva [flags])"},
		{[]string{"slove", "m.yaml"}, `unknown command "slove" (did you mean solve?)`},
		{[]string{"zzzz"}, `unknown command "zzzz"` + "\n"},
		{[]string{"solve", "--sweeep", "x", "m.yaml"}, "unknown flag: --sweeep (did you mean --sweep?)"},
		{[]string{"queue", "--percentile", "50", "mm1"}, "(did you mean --percentiles?)"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tc.args, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), tc.want) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tc.args, code, errb.String(), tc.want)
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
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
