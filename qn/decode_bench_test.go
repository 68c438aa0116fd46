package qn

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseModelFileExamples reads each queueing-network example (plain, routed, class
// switching, finite capacity, fork/join) through the YAML reader, the strict decoder and
// validation: the cost of the declarative field tables (internal/spec.Node.Decode) next to
// the YAML parse, per file.
func BenchmarkParseModelFileExamples(b *testing.B) {
	for _, name := range []string{"central-server.yaml", "web-tier.yaml", "class-switch.yaml", "finite-capacity.yaml", "striped-write.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", "qn", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := ParseModelFile(name, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
