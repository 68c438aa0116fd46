package historyapp

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestAnswerGivesNodeHours: history's answer states the recommendation's node-hours in its
// first line and its nodes in the details (README: "the node-hours of the recommendation";
// new-user review 7 P2-8: they were only in the summary table's "its cost" row), and says
// that a p beyond the largest run is extrapolated. Expected: p = 64 on 4 nodes (16 tasks per
// node, the densest packing in study 1 of sacct-two-programs.txt) for 57.7253 s, so
// 4 × 57.7253 / 3600 = 0.06414 node-hours — the "its cost" row of golden history-two-programs
// since ext8's equal-weight combination (it was p = 128, 8 nodes, 37.3465 s, 0.08299 before);
// p = 64 is the largest run, so the details must not call it extrapolated.
func TestAnswerGivesNodeHours(t *testing.T) {
	res, err := Run(context.Background(), Request{File: "../../history/testdata/sacct-two-programs.txt"})
	if err != nil {
		t.Fatal(err)
	}
	res.SetAnswer()
	a := res.Answer
	if !strings.Contains(a.Summary, "0.06414 node-hours") {
		t.Errorf("summary lacks the node-hours: %q", a.Summary)
	}
	nh, ok := a.Fact("recommended_node_hours")
	if !ok || math.Abs(*nh.Value-4*57.7253/3600) > 1e-6 {
		t.Errorf("recommended_node_hours %+v, want 4 × 57.7253 s / 3600", nh)
	}
	if n, ok := a.Fact("recommended_nodes"); !ok || *n.Value != 4 {
		t.Errorf("recommended_nodes %+v, want 4", n)
	}
	if d := strings.Join(a.Details, " "); strings.Contains(d, "the largest run (p = 64)") {
		t.Errorf("details call the measured p = 64 extrapolated: %q", d)
	}
}
