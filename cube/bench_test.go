package cube

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRead: one Score-P profile (compressed anchor and rows).
func BenchmarkRead(b *testing.B) {
	in, err := os.ReadFile(filepath.Join(sharedDir(b), "single_parameter", "mm.x10y1z1.r1", "profile.cubex"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(in)))
	for i := 0; i < b.N; i++ {
		if _, err := Read("b", bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelSet: the 9-profile single_parameter set, every metric and call path.
func BenchmarkModelSet(b *testing.B) {
	runs, err := LoadSet(filepath.Join(sharedDir(b), "single_parameter"))
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ModelSet(context.Background(), runs, []string{"x"}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkModelSetPN: the 25 LULESH profiles modelled jointly in p and size (FitPN per call
// path; reading excluded).
func BenchmarkModelSetPN(b *testing.B) {
	runs, err := LoadSet("testdata/lulesh")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ModelSet(context.Background(), runs, []string{"p", "size"}, []string{"time"}); err != nil {
			b.Fatal(err)
		}
	}
}
