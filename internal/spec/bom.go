package spec

import (
	"bufio"
	"bytes"
	"io"
)

// bom is the UTF-8 byte order mark, U+FEFF encoded: EF BB BF. Spreadsheet programs (Excel's
// "CSV UTF-8") and some Windows editors write it before the first byte of the file; it is not
// part of the content (Unicode 15 §23.8), so every reader of CSV or YAML skips one at the
// start — review: `speedup --measured` and `fit MODEL DATA` refused a BOM that `fit DATA`
// accepted. A BOM anywhere else is content (and refused where the content is).
var bom = []byte{0xEF, 0xBB, 0xBF}

// TrimBOM returns data without a leading UTF-8 byte order mark.
func TrimBOM(data []byte) []byte {
	return bytes.TrimPrefix(data, bom)
}

// SkipBOM returns a reader of r's bytes after a leading UTF-8 byte order mark, if any.
func SkipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, err := br.Peek(len(bom)); err == nil && bytes.Equal(b, bom) {
		_, _ = br.Discard(len(bom))
	}
	return br
}
