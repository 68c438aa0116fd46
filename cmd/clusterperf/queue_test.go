package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// TestQueueCommand: the command's JSON carries the library's numbers (M/M/1, λ = 8, μ = 10:
// R = 1/(μ − λ) = 0.5 s, Q = ρ/(1 − ρ) = 4, closed form), bad input exits 2.
func TestQueueCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(t.Context(), []string{"queue", "M/M/1", "--lambda", "8", "--mu", "10", "--format", "json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r struct {
		ResponseTime float64 `json:"response_time_s"`
		Jobs         float64 `json:"jobs_in_system"`
		Exact        bool    `json:"exact"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if math.Abs(r.ResponseTime-0.5) > 1e-12 || math.Abs(r.Jobs-4) > 1e-12 || !r.Exact {
		t.Errorf("M/M/1: %+v", r)
	}
	for _, args := range [][]string{
		{"queue", "M/M/x", "--mu", "1"},
		{"queue", "M/M/1", "--lambda", "-1", "--mu", "1"},
		{"queue", "M/M/1", "--lambda", "1"},
		{"queue", "M/M/1", "--mu", "1"},
		{"queue", "M/M/2", "--lambda", "1", "--mu", "1", "--servers", "3"},
		{"queue", "M/M/1", "--load", "0.5", "--mu", "1"},
		{"queue", "M/M/1", "--lambda", "0.5", "--mu", "1", "--percentiles", "50,abc"},
		{"queue", "M/M/1", "--lambda", "0.5", "--mu", "1", "--percentiles", "100"},
		{"queue", "M/M/1", "--lambda", "0.5", "--mu", "1", "--format", "xml"},
	} {
		out.Reset()
		errb.Reset()
		if code := run(t.Context(), args, &out, &errb); code != 2 {
			t.Errorf("%s: exit %d, want 2 (%s)", strings.Join(args, " "), code, errb.String())
		}
	}
	for _, f := range []string{"table", "csv"} {
		out.Reset()
		if code := run(t.Context(), []string{"queue", "M/M/2/10", "--lambda", "3", "--mu", "2", "--format", f}, &out, &errb); code != 0 || !strings.Contains(out.String(), "p_block") {
			t.Errorf("%s: exit %d, output %q", f, code, out.String())
		}
	}
}
