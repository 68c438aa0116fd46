package tpn

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseProgramCluster reads the tpn examples' program and cluster files (a program
// of replicated processes with loops and messages; a cluster with background streams and a
// network) through the YAML reader and the strict decoder.
func BenchmarkParseProgramCluster(b *testing.B) {
	dir := filepath.Join("..", "examples", "tpn")
	prog, err := os.ReadFile(filepath.Join(dir, "matmul.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	cluster, err := os.ReadFile(filepath.Join(dir, "cluster.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("program", func(b *testing.B) {
		b.SetBytes(int64(len(prog)))
		for b.Loop() {
			if _, err := ParseProgram("matmul.yaml", prog); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cluster", func(b *testing.B) {
		b.SetBytes(int64(len(cluster)))
		for b.Loop() {
			if _, err := ParseCluster("cluster.yaml", cluster); err != nil {
				b.Fatal(err)
			}
		}
	})
}
