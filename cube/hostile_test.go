package cube

import (
	"archive/tar"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/hostiletest"
)

// members are a sample's archive members, in order.
func members(t testing.TB, path string) ([]string, map[string][]byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	var names []string
	m := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		names = append(names, h.Name)
		m[h.Name] = b
	}
	return names, m
}

func archive(t testing.TB, names []string, m map[string][]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, n := range names {
		if _, ok := m[n]; !ok {
			continue
		}
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o600, Size: int64(len(m[n])), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(m[n])
	}
	tw.Close()
	return buf.Bytes()
}

// TestRefusals: truncated archives, wrong index sizes, huge dimensions and compression bombs
// are refused (fault.ErrInput, or its ErrTooLarge) with the file and member named, before
// the memory they claim is taken.
func TestRefusals(t *testing.T) {
	sample := filepath.Join(sharedDir(t), "single_parameter", "mm.x10y1z1.r1", "profile.cubex")
	orig, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	names, good := members(t, sample)
	edit := func(f func(m map[string][]byte)) []byte {
		m := map[string][]byte{}
		for k, v := range good {
			m[k] = append([]byte(nil), v...)
		}
		f(m)
		return archive(t, names, m)
	}
	anchor, err := inflate("x", "anchor.xml", good["anchor.xml"], MaxAnchorBytes)
	if err != nil {
		t.Fatal(err)
	}
	// an index claiming 2^30 call paths; one with 5 ids' count but 4 ids
	hugeIndex := append([]byte(nil), good["1.index"]...)
	binary.LittleEndian.PutUint32(hugeIndex[18:], 1<<30)
	negIndex := append([]byte(nil), good["1.index"]...) // fix6: a negative count said "-65532 call paths"
	binary.LittleEndian.PutUint32(negIndex[18:], 0xffff0004)
	shortIndex := append([]byte(nil), good["1.index"]...)
	binary.LittleEndian.PutUint32(shortIndex[18:], 3)
	// a compressed data file whose header claims 2^62 rows
	hugeRows := append([]byte(nil), good["1.data"]...)
	binary.LittleEndian.PutUint64(hugeRows[11:], 1<<62)
	// a data row inflating to 1 MiB where 8 bytes are due
	var zb bytes.Buffer
	zw := zlib.NewWriter(&zb)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	bombRow := append([]byte(nil), good["1.data"][:11+8+24*4]...)
	binary.LittleEndian.PutUint64(bombRow[11+8+16:], uint64(zb.Len())) // row 0's compressed size
	for r := 1; r < 4; r++ {
		binary.LittleEndian.PutUint64(bombRow[11+8+24*r+16:], 0)
	}
	bombRow = append(bombRow, zb.Bytes()...)
	// anchor.xml gzip of 100 MiB of spaces after the XML (a bomb: ~100 KiB compressed)
	bomb := hostiletest.Gzip(append(append([]byte(nil), anchor...), bytes.Repeat([]byte(" "), 100<<20)...))
	// a tar header claiming a 1 TiB member
	var big bytes.Buffer
	tw := tar.NewWriter(&big)
	tw.WriteHeader(&tar.Header{Name: "1.data", Mode: 0o600, Size: 1 << 40, Typeflag: tar.TypeReg})
	tw.Flush()
	// an anchor declaring location ids 0 and 7
	gapped := strings.Replace(string(anchor), `<location Id="0">`, `<location Id="7">`, 1)
	cases := []struct {
		name  string
		in    []byte
		large bool
		want  string
	}{
		{"truncated archive", orig[:len(orig)/2], false, "truncated"},
		{"truncated to a header", orig[:700], false, "anchor.xml: missing (not a CUBE4 archive, or truncated)"},
		{"not tar", []byte("hello"), false, "not a complete tar archive"},
		{"no anchor", edit(func(m map[string][]byte) { delete(m, "anchor.xml") }), false, "anchor.xml: missing"},
		{"index of wrong size", edit(func(m map[string][]byte) { m["1.index"] = shortIndex }), false, "1.index: 16 bytes of ids for 3 call paths: want 12"},
		{"index of negative dimension", edit(func(m map[string][]byte) { m["1.index"] = negIndex }), false, "1.index: corrupt index: its call-path count field reads -65532 (negative)"},
		{"index of huge dimension", edit(func(m map[string][]byte) { m["1.index"] = hugeIndex }), false, "1.index: 1073741824 call paths in the index, the anchor has 4"},
		{"data rows huge", edit(func(m map[string][]byte) { m["1.data"] = hugeRows }), false, "1.data: 4611686018427387904 compressed rows"},
		{"data truncated", edit(func(m map[string][]byte) { m["1.data"] = m["1.data"][:len(m["1.data"])-5] }), false, "1.data: row 3"},
		{"data row bomb", edit(func(m map[string][]byte) { m["1.data"] = bombRow }), true, "1.data: row 0 inflates beyond its 8 bytes"},
		{"anchor bomb", edit(func(m map[string][]byte) { m["anchor.xml"] = bomb }), true, "anchor.xml: decompresses to more than"},
		{"member of 1 TiB", big.Bytes(), true, "1.data: 1099511627776 bytes"},
		{"bad xml", edit(func(m map[string][]byte) { m["anchor.xml"] = []byte("<cube version=\"4.3\"><metrics>") }), false, "anchor.xml: line 1"},
		{"location ids", edit(func(m map[string][]byte) { m["anchor.xml"] = []byte(gapped) }), false, "<location Id=\"7\">"},
		{"index without data", edit(func(m map[string][]byte) { delete(m, "1.data") }), false, "1.index: metric \"time\" (id 1): 1.index without 1.data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("p.cubex", bytes.NewReader(c.in))
			if !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "p.cubex") {
				t.Fatalf("err = %v\nwant ErrInput naming p.cubex with %q", err, c.want)
			}
			if c.large != errors.Is(err, fault.ErrTooLarge) {
				t.Errorf("ErrTooLarge = %v, want %v: %v", !c.large, c.large, err)
			}
		})
	}
}
