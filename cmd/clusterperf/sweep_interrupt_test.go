package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// sweepDoc is the part of solve --sweep's JSON the interruption tests compare.
type sweepDoc struct {
	Partial    bool              `json:"partial"`
	Points     []json.RawMessage `json:"points"`
	Validation []json.RawMessage `json:"validation"`
	Notes      []string          `json:"notes"`
}

// interruptedSweep runs solve --sweep population=1:n with args, cancelled after wait
// (doubled, up to three tries, while nothing finished on a loaded machine), and returns the
// partial document: exit 130, partial, some but not all points.
func interruptedSweep(t *testing.T, model string, n int, wait time.Duration, args ...string) sweepDoc {
	t.Helper()
	for try := 0; try < 3; try, wait = try+1, 2*wait {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		var out, errb bytes.Buffer
		start := time.Now()
		code := run(ctx, append([]string{"solve", model, "--sweep", fmt.Sprintf("population=1:%d", n), "--format", "json"}, args...), &out, &errb)
		cancel()
		if late := time.Since(start) - wait; late > 2*time.Second {
			t.Errorf("returned %v after the cancellation, want about a second at most", late)
		}
		if code != 130 {
			t.Fatalf("exit %d, want 130; stderr %s", code, errb.String())
		}
		if out.Len() == 0 {
			continue // nothing finished yet: no document, exit 130
		}
		var v sweepDoc
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		if !v.Partial || len(v.Points) == 0 || len(v.Points) >= n || !slices.ContainsFunc(v.Notes, func(s string) bool { return strings.HasPrefix(s, "partial: interrupted after") }) {
			t.Fatalf("partial %v, %d points, notes %q", v.Partial, len(v.Points), v.Notes)
		}
		return v
	}
	t.Fatalf("nothing finished in three tries (last %v)", wait/2)
	return sweepDoc{}
}

// completeSweep is the uninterrupted solve --sweep population=1:k with args.
func completeSweep(t *testing.T, model string, k int, args ...string) sweepDoc {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), append([]string{"solve", model, "--sweep", fmt.Sprintf("population=1:%d", k), "--format", "json"}, args...), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var v sweepDoc
	if err := json.Unmarshal(out.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// samePrefix: the interrupted sweep's points (and validations) are those of the full
// sweep over its first k values, byte for byte (the invariant of a partial result: every
// point's solution, estimate and simulation depend only on the point and the seed).
func samePrefix(t *testing.T, got, want sweepDoc) {
	t.Helper()
	if len(got.Points) != len(want.Points) || len(got.Validation) != len(want.Validation) {
		t.Fatalf("%d points, %d validations; the full sweep of those values has %d, %d", len(got.Points), len(got.Validation), len(want.Points), len(want.Validation))
	}
	for i := range got.Points {
		if !bytes.Equal(got.Points[i], want.Points[i]) {
			t.Errorf("point %d differs:\n got %s\nwant %s", i, got.Points[i], want.Points[i])
		}
	}
	for i := range got.Validation {
		if !bytes.Equal(got.Validation[i], want.Validation[i]) {
			t.Errorf("validation %d differs:\n got %.300s\nwant %.300s", i, got.Validation[i], want.Validation[i])
		}
	}
}

// TestSweepValidateInterrupted (issue 21 P1-a): Ctrl-C during solve --sweep --validate
// prints the points whose validation finished, with it, marked partial, exit 130 (it
// printed nothing before).
func TestSweepValidateInterrupted(t *testing.T) {
	model := "../../testdata/models/disk-group.yaml"
	// 200 000 events per replication: the 300 points' validation takes well over the 1 s
	// before the interrupt even on a quiet machine
	args := []string{"--validate", "--reps", "2", "--events", "200000"}
	got := interruptedSweep(t, model, 300, time.Second, args...)
	if len(got.Validation) == 0 {
		t.Fatal("no validation printed")
	}
	samePrefix(t, got, completeSweep(t, model, len(got.Points), args...))
}

// TestSweepForkJoinInterrupted (issue 21 P1-b): Ctrl-C during a fork/join sweep's error
// estimates by simulation stops them (it ran to the end before) and prints the points
// whose estimate finished.
func TestSweepForkJoinInterrupted(t *testing.T) {
	model := ex + "qn/striped-write.yaml"
	// 200 000 events per replication: the 200 points take well over the 1 s before the
	// interrupt even on a quiet machine (with 20 000 they could all finish first)
	args := []string{"--reps", "2", "--events", "200000"}
	got := interruptedSweep(t, model, 200, time.Second, args...)
	samePrefix(t, got, completeSweep(t, model, len(got.Points), args...))
	if !bytes.Contains(got.Points[len(got.Points)-1], []byte(`"error_estimate"`)) {
		t.Errorf("last point without its error estimate: %s", got.Points[len(got.Points)-1])
	}
}
