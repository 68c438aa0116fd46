package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/explore"
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

// TestAnswerBottleneckAsExplorer (issue 29): for every queueing-network example that has a
// bottleneck, `solve`'s answer names the same station as `explore` (both call
// qn.SaturationOf).
func TestAnswerBottleneckAsExplorer(t *testing.T) {
	qnFiles, _ := filepath.Glob(ex + "qn/*.yaml")
	keck, _ := filepath.Glob(ex + "keck/*.yaml")
	jm, _ := filepath.Glob(ex + "jmt/*.jmva")
	checked := 0
	for _, f := range append(append(qnFiles, keck...), jm...) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := explore.Load(f, data, "", nil)
			if err != nil {
				t.Skipf("explore does not take it: %v", err)
			}
			v := explore.Values{}
			for _, p := range m.Params() {
				v[p.ID] = p.Value
			}
			r, err := m.Eval(v)
			if err != nil {
				t.Skipf("explore does not evaluate it: %v", err)
			}
			var doc struct {
				Answer struct {
					Facts map[string]any `json:"facts"`
				} `json:"answer"`
			}
			var o, e bytes.Buffer
			if code := run(context.Background(), []string{"solve", "--format", "json", f}, &o, &e); code != 0 {
				t.Fatalf("solve %s: exit %d: %s", f, code, e.String())
			}
			if err := json.Unmarshal(o.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			b, _ := doc.Answer.Facts["bottleneck"].(string)
			if b == "" {
				t.Skip("no bottleneck (no queueing station)")
			}
			if !strings.HasPrefix(r.Bottleneck, b+" (") {
				t.Errorf("solve's answer names %q, explore %q", b, r.Bottleneck)
			}
			checked++
		})
	}
	if checked < 10 {
		t.Errorf("only %d examples compared", checked)
	}
}
