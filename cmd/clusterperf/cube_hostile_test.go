package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/clusterperf/clusterperf/internal/hostiletest"
)

// gencube KIND OUT writes a damaged .cubex to OUT, made from the real sample SAMPLE.cubex
// (testdata/hostile/cube.txtar: gencube KIND OUT SAMPLE). The archives are binary, so the
// script makes them instead of holding them. KIND is one of:
//
//	truncated        the first half of the file
//	no-anchor        anchor.xml removed
//	index-no-data    1.data removed (1.index kept)
//	data-no-index    1.index removed (1.data kept)
//	index-short      1.index declares 3 call paths and holds 4 ids
//	index-huge       1.index declares 2^30 call paths
//	index-negative   1.index's count field reads −65532
//	rows-huge        1.data (compressed) declares 2^62 rows
//	row-bomb         1.data's first row inflates to 1 MiB where 8 bytes are due
//	anchor-bomb      anchor.xml gzip of the anchor and 100 MiB of spaces (~100 KiB)
//	archive-gzip-bad the whole archive gzip-compressed, then cut in the middle
//	member-1tib      a tar header claiming a 1 TiB 1.data
//	cnodes-declared  a plain anchor declaring 2^20 + 1 call paths (33 MB)
func gencube(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: gencube KIND OUT SAMPLE.cubex")
	}
	kind, out := args[0], ts.MkAbs(args[1])
	orig, err := os.ReadFile(ts.MkAbs(args[2]))
	ts.Check(err)
	names, m := cubeMembers(ts, orig)
	var b []byte
	switch kind {
	case "truncated":
		b = orig[:len(orig)/2]
	case "no-anchor":
		delete(m, "anchor.xml")
	case "index-no-data":
		delete(m, "1.data")
	case "data-no-index":
		delete(m, "1.index")
	case "index-short", "index-huge", "index-negative":
		ix := append([]byte(nil), m["1.index"]...)
		v := map[string]uint32{"index-short": 3, "index-huge": 1 << 30, "index-negative": 0xffff0004}[kind]
		binary.LittleEndian.PutUint32(ix[18:], v)
		m["1.index"] = ix
	case "rows-huge":
		d := append([]byte(nil), m["1.data"]...)
		binary.LittleEndian.PutUint64(d[11:], 1<<62)
		m["1.data"] = d
	case "row-bomb":
		m["1.data"] = rowBomb(m["1.data"])
	case "anchor-bomb":
		zr, err := gzip.NewReader(bytes.NewReader(m["anchor.xml"]))
		ts.Check(err)
		anchor, err := io.ReadAll(zr)
		ts.Check(err)
		m["anchor.xml"] = hostiletest.Gzip(append(anchor, bytes.Repeat([]byte(" "), 100<<20)...))
	case "archive-gzip-bad":
		z := hostiletest.Gzip(orig)
		b = z[:len(z)/2]
	case "member-1tib":
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		tw.WriteHeader(&tar.Header{Name: "1.data", Mode: 0o600, Size: 1 << 40, Typeflag: tar.TypeReg})
		tw.Flush()
		b = buf.Bytes()
	case "cnodes-declared":
		var a strings.Builder
		a.WriteString(`<?xml version="1.0"?><cube version="4.4"><metrics><metric id="0"><uniq_name>time</uniq_name><dtype>DOUBLE</dtype><uom>sec</uom></metric></metrics><program><region id="0"><name>main</name></region><cnode id="0" calleeId="0">`)
		for i := 1; i <= 1<<20; i++ {
			fmt.Fprintf(&a, `<cnode id="%d" calleeId="0"/>`, i)
		}
		a.WriteString(`</cnode></program><system/></cube>`)
		names, m = []string{"anchor.xml"}, map[string][]byte{"anchor.xml": []byte(a.String())}
	default:
		ts.Fatalf("gencube: unknown kind %q", kind)
	}
	if b == nil {
		b = cubeArchive(names, m)
	}
	ts.Check(os.WriteFile(out, b, 0o644))
}

// cubeMembers are a .cubex archive's member names in order and their bytes.
func cubeMembers(ts *testscript.TestScript, b []byte) ([]string, map[string][]byte) {
	tr := tar.NewReader(bytes.NewReader(b))
	var names []string
	m := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names, m
		}
		ts.Check(err)
		data, err := io.ReadAll(tr)
		ts.Check(err)
		names, m[h.Name] = append(names, h.Name), data
	}
}

func cubeArchive(names []string, m map[string][]byte) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, n := range names {
		if data, ok := m[n]; ok {
			tw.WriteHeader(&tar.Header{Name: n, Mode: 0o600, Size: int64(len(data)), Typeflag: tar.TypeReg})
			tw.Write(data)
		}
	}
	tw.Close()
	return buf.Bytes()
}

// rowBomb is a compressed data file (ZCUBEX.DATA, 4 rows of 8 bytes: the sample's 1.data
// header) whose row 0 is a zlib stream of 1 MiB of zeros and rows 1–3 empty.
func rowBomb(good []byte) []byte {
	var zb bytes.Buffer
	zw := zlib.NewWriter(&zb)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	d := append([]byte(nil), good[:11+8+24*4]...)
	binary.LittleEndian.PutUint64(d[11+8+16:], uint64(zb.Len()))
	for r := 1; r < 4; r++ {
		binary.LittleEndian.PutUint64(d[11+8+24*r+16:], 0)
	}
	return append(d, zb.Bytes()...)
}
