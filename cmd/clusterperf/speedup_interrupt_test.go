package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSpeedupSIOInterrupted (issue 21 P1-b): Ctrl-C during a BUS-SIO evaluation at a large
// p (examples/spmd/hybrid.yaml, 001 Fig. 5.8; the fork/join sum at p = 2e8 takes seconds)
// stops within about a second — it ran to the end, exit 0, before — and prints the p values
// finished, equal to the uninterrupted surface over them.
func TestSpeedupSIOInterrupted(t *testing.T) {
	type doc struct {
		Partial bool              `json:"partial"`
		Points  []json.RawMessage `json:"points"`
		Notes   []string          `json:"notes"`
	}
	get := func(ctx context.Context, p string, want int) doc {
		var out, errb bytes.Buffer
		if code := run(ctx, []string{"speedup", ex + "spmd/hybrid.yaml", "--p", p, "--d", "1:4", "--format", "json"}, &out, &errb); code != want {
			t.Fatalf("--p %s: exit %d, want %d; stderr %s", p, code, want, errb.String())
		}
		var v doc
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("%v: %s", err, out.String())
		}
		return v
	}
	const wait = 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	start := time.Now()
	got := get(ctx, "1000,200000000", 130)
	if late := time.Since(start) - wait; late > 1500*time.Millisecond {
		t.Errorf("returned %v after the cancellation, want within about a second", late)
	}
	if !got.Partial || len(got.Notes) == 0 || !strings.HasPrefix(got.Notes[len(got.Notes)-1], "partial: interrupted after 1 of the 2 values of p") {
		t.Fatalf("partial %v, notes %q", got.Partial, got.Notes)
	}
	want := get(context.Background(), "1000", 0)
	if len(got.Points) != len(want.Points) {
		t.Fatalf("%d points, the surface of p = 1000 has %d", len(got.Points), len(want.Points))
	}
	for i := range got.Points {
		if !bytes.Equal(got.Points[i], want.Points[i]) {
			t.Errorf("point %d: got %s, want %s", i, got.Points[i], want.Points[i])
		}
	}
}
