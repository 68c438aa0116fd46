package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestReferencesReadme: `clusterperf help references` and docs/references.md's References section
// give the same documents: every quoted title and every "Author (00N)" label of one is in the
// other.
func TestReferencesReadme(t *testing.T) {
	readme, err := os.ReadFile("../../docs/references.md")
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(readme, []byte("\n## References\n"))
	if i < 0 {
		t.Fatal("docs/references.md has no References section")
	}
	sec := strings.Join(strings.Fields(string(readme[i:])), " ")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"help", "references"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	help := strings.Join(strings.Fields(out.String()), " ")
	re := regexp.MustCompile(`"[^"]+"|[A-Z][^ ()]+(?: & [A-Z][^ ()]+)? \(00[0-4]\)`)
	want := re.FindAllString(strings.Join(strings.Fields(referencesText), " "), -1)
	if len(want) != 10 {
		t.Fatalf("%d titles and labels in referencesText, want 5 + 5: %q", len(want), want)
	}
	for _, w := range want {
		if !strings.Contains(sec, w) {
			t.Errorf("docs/references.md References lacks %s", w)
		}
		if !strings.Contains(help, w) {
			t.Errorf("help references lacks %s", w)
		}
	}
}
