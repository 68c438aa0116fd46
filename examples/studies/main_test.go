package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStudiesShardMerge (issue 18): the -quick study's 54 cells over 8 shards, merged from
// another directory, write exactly the document the one-machine run writes (each cell's
// replications are streams of the seed, wherever the cell runs); a missing shard and a
// changed BTIO model are refused.
func TestStudiesShardMerge(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work, elsewhere := t.TempDir(), t.TempDir()
	// a copy of the repository's input, so that the test can change it
	if err := os.MkdirAll(filepath.Join(work, "examples", "spmd"), 0o755); err != nil {
		t.Fatal(err)
	}
	btio, err := os.ReadFile(filepath.Join(root, btioFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, btioFile), btio, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	local := filepath.Join(work, "local.md")
	if err := run([]string{"-quick", "-seed", "5", "-out", local}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(work, "study")
	const n = 8
	for i := 0; i < n; i++ {
		if i == 3 {
			continue
		}
		if err := run([]string{"-quick", "-seed=5", "-shard", fmt.Sprintf("%d/%d", i, n), "-out", dir}); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
	}
	t.Chdir(elsewhere)
	merged := filepath.Join(work, "merged.md")
	if err := run([]string{"-merge", dir, "-out", merged}); err == nil || !strings.Contains(err.Error(), "missing: 3") {
		t.Fatalf("merge with shard 3 missing: %v", err)
	}
	t.Chdir(work)
	if err := run([]string{"studies", "-seed=5", "-quick=true", "-shard", "3/8", "--out", dir}); err != nil {
		t.Fatal(err)
	}
	t.Chdir(elsewhere)
	if err := run([]string{"-merge", dir, "-out", merged}); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(local)
	b, _ := os.ReadFile(merged)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("merged document differs from the one-machine run\nmerged:\n%s\nlocal:\n%s", b, a)
	}
	if !strings.Contains(string(a), "seed 5, 4 replications per cell") || strings.Count(string(a), "\n| ") != 3+27+24+3 /* 3 table headers, 54 rows */ {
		t.Errorf("not the quick study's 54 rows:\n%s", a)
	}
	if err := os.WriteFile(filepath.Join(work, btioFile), append(btio, "\n# edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-merge", dir, "-out", merged}); err == nil || !strings.Contains(err.Error(), "changed since the study was planned") {
		t.Errorf("merge after btio.yaml changed: %v", err)
	}
}
