package netbench

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParseAtLimit parses an OSU latency table of MaxRows rows (sizes 0, 1, 2, …).
func BenchmarkParseAtLimit(b *testing.B) {
	var s strings.Builder
	s.WriteString("# OSU MPI Latency Test v5.6.3\n# Size          Latency (us)\n")
	for i := 0; i < MaxRows; i++ {
		fmt.Fprintf(&s, "%-8d %20.2f\n", i, 1.6+float64(i)*1e-3)
	}
	data := s.String()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		t, err := Parse("big.txt", strings.NewReader(data))
		if err != nil || len(t.Points) != MaxRows {
			b.Fatal(err)
		}
	}
}
