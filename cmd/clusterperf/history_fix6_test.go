package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// history's study-level refusals name the file (hostile review P2: "study 1: completed runs
// at 1 distinct task counts" did not say which accounting), and a UTF-8 byte order mark
// before the sacct header is accepted (it was refused as "header lacks JobID").
func TestHistoryStudyRefusalNamesFileAndBOM(t *testing.T) {
	dir := t.TempDir()
	const head = "JobID|JobName|User|Partition|NNodes|NTasks|NCPUS|Submit|Start|End|Elapsed|State|ElapsedRaw\n"
	job := func(id, n int, el string) string {
		return strings.Join([]string{itoa(id), "app", "u", "p", "1", itoa(n), itoa(n),
			"2024-01-01T00:00:00", "2024-01-01T00:00:00", "2024-01-01T01:00:00", el, "COMPLETED", "0"}, "|") + "\n"
	}
	// One task count only: the study cannot be fitted (synthetic rows, format of
	// history/testdata/sacct-slurm-22.05-doc.txt).
	onep := filepath.Join(dir, "onep.txt")
	os.WriteFile(onep, []byte(head+job(1, 4, "00:10:00")+job(2, 4, "00:10:05")), 0o644)
	var errb strings.Builder
	if code := run(context.Background(), []string{"history", onep}, io.Discard, &errb); code != fault.ExitInput || !strings.Contains(errb.String(), onep+": study 1") {
		t.Errorf("one p: exit %d, %q: want exit 2 naming %s", code, errb.String(), onep)
	}
	doc, err := os.ReadFile("../../history/testdata/sacct-slurm-22.05-doc.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The same accounting with and without a byte order mark answers alike (the example
	// file's largest study has one task count: both refuse it naming their file).
	plain, bom := filepath.Join(dir, "plain.txt"), filepath.Join(dir, "bom.txt")
	os.WriteFile(plain, doc, 0o644)
	os.WriteFile(bom, append([]byte("\uFEFF"), doc...), 0o644)
	var e1, e2 strings.Builder
	c1 := run(context.Background(), []string{"history", plain}, io.Discard, &e1)
	c2 := run(context.Background(), []string{"history", bom}, io.Discard, &e2)
	if c1 != c2 || strings.ReplaceAll(e2.String(), bom, plain) != e1.String() || strings.Contains(e2.String(), "header") {
		t.Errorf("BOM: exit %d, %q; without it exit %d, %q", c2, e2.String(), c1, e1.String())
	}
}
