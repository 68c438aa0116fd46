package main

import (
	"strings"
	"testing"
)

// TestShardFlagMessage: a --shard value out of range or out of form is refused (exit 2) with
// one mention of the flag and what is allowed: shards numbered from 0, 0 ≤ I < N ≤ 1000
// (shard.MaxShards). The review saw `--shard "2/2": invalid input: --shard "2/2": want …`.
func TestShardFlagMessage(t *testing.T) {
	for _, v := range []string{"2/2", "3/2", "-1/2", "1/0", "0/1001", "a/b", "1/2/3", "7"} {
		code, _, stderr := cli("simulate", ex+"qn/central-server.yaml", "--shard", v, "--out", t.TempDir())
		if code != 2 {
			t.Errorf("--shard %s: exit %d, want 2", v, code)
		}
		if n := strings.Count(stderr, "--shard"); n != 1 || strings.Contains(stderr, "invalid input") ||
			!strings.Contains(stderr, "numbered from 0") || !strings.Contains(stderr, "0 ≤ I < N ≤ 1000") {
			t.Errorf("--shard %s: %q: want the flag named once, and the allowed values", v, stderr)
		}
	}
}
