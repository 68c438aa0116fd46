package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/clusterperf/clusterperf/report"
)

// flat is s with every run of white space made one space: a text check that holds whether
// or not a title or a record's value was wrapped at report.TextWidth.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestTextWidth (session 4's review: mpip tables up to 273 characters wide): every line of
// every human output of every contract case (testdata/golden/*.txt, which TestContract
// keeps equal to the commands' output) is at most report.TextWidth characters, except
//   - "note: " lines: a note is one line on purpose, so `grep note:` and scripts get it
//     whole; it is prose, which a terminal wraps without losing anything (a table's
//     columns would not survive that);
//   - a line that is a single word (a file path) longer than the width: it cannot break.
func TestTextWidth(t *testing.T) {
	seen := 0
	for _, c := range contractCases() {
		path := filepath.Join("testdata", "golden", c.name+".txt")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		seen++
		for i, line := range strings.Split(string(b), "\n") {
			if n := utf8.RuneCountInString(line); n > report.TextWidth && !strings.HasPrefix(line, "note: ") && len(strings.Fields(line)) > 1 {
				t.Errorf("%s:%d: %d characters (limit %d): %.80s…", path, i+1, n, report.TextWidth, line)
			}
		}
	}
	if seen < 50 {
		t.Errorf("only %d contract cases checked", seen)
	}
}
