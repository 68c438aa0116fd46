package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindingJSON: a run ending in a model finding (exit 3) under --format json still
// writes one JSON document valid against docs/schema/finding.schema.json, whose
// answer.summary states the finding (review newuser8 P2-9: stdout was empty). The model:
// one open class at 30 jobs/s, db demand 40 ms, so U_db = 30·0.04 = 1.2 and db's capacity
// is 1/0.04 = 25 jobs/s (Lazowska et al. §5.2); the summary must name 25.
func TestFindingJSON(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "open.yaml")
	y := "name: open\nclasses:\n  - {name: req, arrival_rate: 30}\nstations:\n  - {name: web, type: queue, demand: 10ms}\n  - {name: db, type: queue, demand: 40ms}\n"
	if err := os.WriteFile(model, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"solve", model, "--format", "json"}, &out, &errb); code != 3 {
		t.Fatalf("exit %d, want 3 (%s)", code, errb.String())
	}
	checkFormat(t, "finding", "json", out.Bytes())
	var doc struct {
		Answer struct {
			Summary string `json:"summary"`
		} `json:"answer"`
		Finding string `json:"finding"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out.String())
	}
	if doc.Finding != "saturated" || !strings.Contains(doc.Answer.Summary, "capacity of 25 jobs/s") {
		t.Errorf("finding %q, summary %q: want saturated and the capacity 25 jobs/s", doc.Finding, doc.Answer.Summary)
	}
	if !strings.Contains(errb.String(), "saturated") {
		t.Errorf("stderr lost the message: %q", errb.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"solve", model}, &out, &errb); code != 3 || out.Len() != 0 {
		t.Errorf("table format: exit %d, stdout %q; want 3 and nothing", code, out.String())
	}
}
