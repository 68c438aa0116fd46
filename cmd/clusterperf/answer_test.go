package main

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// TestAnswerFirst (issue 29): for every command × example of the output contract, the JSON
// has a top-level answer with a non-empty summary, and the first non-blank line of the
// table output is that summary; the facts' keys are snake_case (with their units).
func TestAnswerFirst(t *testing.T) {
	for _, c := range contractCases() {
		t.Run(c.name, func(t *testing.T) {
			out := func(format string) []byte {
				var o, e bytes.Buffer
				args := append([]string{c.args[0], "--format", format}, c.args[1:]...)
				if code := run(context.Background(), args, &o, &e); code != 0 {
					t.Fatalf("clusterperf %v: exit %d: %s", args, code, e.String())
				}
				return o.Bytes()
			}
			var doc struct {
				Answer *struct {
					Summary string         `json:"summary"`
					Facts   map[string]any `json:"facts"`
				} `json:"answer"`
			}
			if err := json.Unmarshal(out("json"), &doc); err != nil {
				t.Fatal(err)
			}
			if doc.Answer == nil || strings.TrimSpace(doc.Answer.Summary) == "" {
				t.Fatalf("JSON has no answer.summary")
			}
			for k := range doc.Answer.Facts {
				if !regexp.MustCompile(`^[a-z][a-z0-9_]*$`).MatchString(k) {
					t.Errorf("answer fact %q is not a snake_case key", k)
				}
			}
			first := ""
			for _, l := range strings.Split(string(out("table")), "\n") {
				if strings.TrimSpace(l) != "" {
					first = l
					break
				}
			}
			if first != doc.Answer.Summary {
				t.Errorf("first table line %q, want the answer's summary %q", first, doc.Answer.Summary)
			}
		})
	}
}
