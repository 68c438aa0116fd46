package cube

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// FuzzRead: any bytes read as a profile or are refused with ErrInput, never a panic; what
// reads passes the tree check's arithmetic without panicking.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"single_parameter/mm.x10y1z1.r1/profile.cubex", "simple_threaded/example.f1/cube-example1.cubex"} {
		b, err := os.ReadFile(filepath.Join(sharedDir(f), p))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := Read("fuzz.cubex", bytes.NewReader(b))
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("not ErrInput: %v", err)
			}
			return
		}
		_ = p.CheckTree()
		for _, c := range p.CNodes {
			_ = p.Path(c.ID)
		}
	})
}

// FuzzAnchor: anchor.xml alone.
func FuzzAnchor(f *testing.F) {
	_, m := members(f, filepath.Join(sharedDir(f), "simple_threaded/example.f1/cube-example1.cubex"))
	f.Add(m["anchor.xml"])
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := parseAnchor("fuzz", b); err != nil && !errors.Is(err, fault.ErrInput) {
			t.Fatalf("not ErrInput: %v", err)
		}
	})
}
