package hostiletest

import (
	"bytes"
	"compress/gzip"
)

// Gzip is b gzip-compressed, for building damaged or bomb archives in hostile tests (cube's
// reader tests and the cube command's; they had each written this helper).
func Gzip(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}
