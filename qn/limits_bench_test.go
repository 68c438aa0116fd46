package qn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/internal/spec"
)

// BenchmarkParseModelAtLimit reads a model file just under the model files' limit
// (spec.MaxFileSize, 1 MiB): one closed class and as many queue stations as fit (about
// 20 000), through the YAML reader, the strict decoder and the model's validation.
func BenchmarkParseModelAtLimit(b *testing.B) {
	var s strings.Builder
	s.WriteString("name: big\nclasses:\n  - {name: c, population: 10, think_time: 1}\nstations:\n")
	for i := 0; ; i++ {
		line := fmt.Sprintf("  - {name: s%d, type: queue, service_time: 0.01}\n", i)
		if s.Len()+len(line) > spec.MaxFileSize {
			break
		}
		s.WriteString(line)
	}
	data := []byte(s.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := ParseModel("big.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}
