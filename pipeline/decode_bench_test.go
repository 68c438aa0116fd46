package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseModel reads the pipeline examples (the 003 sort by its constants) and the
// stages form of FileFormat through the YAML reader, the strict decoder and validation.
func BenchmarkParseModel(b *testing.B) {
	sortFile, err := os.ReadFile(filepath.Join("..", "examples", "pipeline", "sort.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	stages := []byte(`n: 1e8
block: 1e6
stages:
  - name: read
    bandwidths:
      - {name: disk, kind: constant, value: 2e6}
      - {name: network, kind: distribution, latency: 0.001, bandwidth: 1e7}
      - {name: sorting, kind: processing, c: 1e-8}
      - {name: workers, kind: per_node, value: 5e5}
  - name: write
    bandwidths:
      - {name: disk, kind: constant, value: 2e6}
      - {name: merge, kind: merge, c: 2e-8}
fixed:
  - {name: last block, kind: block_sort, c: 1e-8}
  - {name: local merge, kind: local, c: 2e-8}
  - {name: start-up, kind: seconds, value: 0.5}
`)
	for _, tc := range []struct {
		name string
		data []byte
	}{{"sort.yaml", sortFile}, {"stages", stages}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.data)))
			for b.Loop() {
				if _, _, err := ParseModel(tc.name, tc.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
