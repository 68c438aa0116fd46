package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/shard"
)

// TestMergeCommand: a study of 6 items over 3 shards with shard 1 failed and shard 2 missing
// is reported by merge --status and refused by merge (exit 2); once complete, merge prints
// the items in index order.
func TestMergeCommand(t *testing.T) {
	dir := t.TempDir()
	p, err := shard.NewPlan("toy", []string{"a"}, 3, shard.Spec{Items: 6, N: 3}, "test")
	if err != nil {
		t.Fatal(err)
	}
	shard.WritePlan(dir, p)
	item := func(k int) (json.RawMessage, error) { return json.RawMessage(fmt.Sprint(10 * k)), nil }
	shard.Run(dir, p, 0, item)
	shard.Run(dir, p, 1, func(k int) (json.RawMessage, error) { return nil, fmt.Errorf("boom") })
	exec := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, _ := exec("merge", "--status", dir)
	if code != 0 || !strings.Contains(out, "done 1, active 0, failed 1, missing 1") || !strings.Contains(out, "item 2: boom") {
		t.Fatalf("status: exit %d\n%s", code, out)
	}
	code, _, errs := exec("merge", dir)
	if code != fault.ExitInput || !strings.Contains(errs, "failed: 1; missing: 2") {
		t.Fatalf("merge of an incomplete study: exit %d: %s", code, errs)
	}
	shard.Run(dir, p, 1, item)
	shard.Run(dir, p, 2, item)
	// a plan naming a command that has no merge (issue 32: it exited 0, printing the raw
	// items) is refused
	code, out, errs = exec("merge", dir)
	if code != fault.ExitInput || !strings.Contains(errs, `no merge for command "toy"`) || out != "" {
		t.Fatalf("merge of an unknown command's study: exit %d: %s%s", code, out, errs)
	}
	if m, err := shard.Merge(dir); err != nil || len(m.Items) != 6 || string(m.Items[5]) != "50" {
		t.Fatalf("the library still merges the items: %v %v", m, err)
	}
	if code, _, _ := exec("merge", "--status", t.TempDir()); code != fault.ExitInput {
		t.Errorf("status of an empty directory: exit %d", code)
	}
}
