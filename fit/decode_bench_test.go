package fit

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParseSpec reads the fit example (examples/fit/qcrd.yaml: fixed and free
// parameters) through the YAML reader and the strict decoder.
func BenchmarkParseSpec(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "fit", "qcrd.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseSpec("qcrd.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}
