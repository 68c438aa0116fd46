package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Review finding (P1): Ctrl-C during the exact solve of one large single-class model printed
// "interrupted" and kept running. The solve looks at the context about every million
// operations: cancelled 200 ms into a solve of about 1.9e9 operations (population 1e8, 19
// queues, just within the budget: seconds of work), it exits 130 at once.
func TestSolveOneInterrupted(t *testing.T) {
	var st []string
	for k := range 19 {
		st = append(st, fmt.Sprintf("{name: s%d, demand: 0.001}", k))
	}
	model := filepath.Join(t.TempDir(), "big.yaml")
	yaml := "classes: [{name: c, population: 100000000, think_time: 1}]\nstations: [" + strings.Join(st, ", ") + "]\n"
	if err := os.WriteFile(model, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var out, errb bytes.Buffer
	start := time.Now()
	code := run(ctx, []string{"solve", model, "--exact"}, &out, &errb)
	if late := time.Since(start) - 200*time.Millisecond; late > time.Second {
		t.Errorf("returned %v after the cancellation, want well under a second", late)
	}
	if code != 130 || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %s; want 130 and no result", code, out.String(), errb.String())
	}
}
