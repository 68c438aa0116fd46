package spmd

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseModel reads SPMD examples of each parameter form (benchmark figures, seconds,
// normalized; one and several phases) through the YAML reader, the strict decoder and
// validation.
func BenchmarkParseModel(b *testing.B) {
	for _, name := range []string{"btio.yaml", "qcrd.yaml", "hybrid.yaml", "argos.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", "spmd", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseModel(name, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
