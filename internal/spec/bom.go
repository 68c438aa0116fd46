package spec

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
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

// toUTF8 returns the text of a model file as UTF-8, for yaml.v3 and for the line searches of
// yamlError, which count lines in UTF-8 bytes. A UTF-8 BOM is dropped (TrimBOM). UTF-16 —
// what Windows editors save as "Unicode" — is decoded: with a byte order mark (FF FE
// little-endian, FE FF big-endian), or without one when its first character is ASCII,
// detected as YAML 1.2 §5.2 detects it (xx 00: little-endian, 00 xx: big-endian). yaml.v3
// decoded UTF-16 with a BOM itself, but the problems it reports without a line (a control
// character, an unknown anchor) were then placed on line 1, and UTF-16 without a BOM was
// "control characters are not allowed" on line 1. UTF-32 (which yaml.v3 does not read) and
// broken UTF-16 (an odd number of bytes, an unpaired surrogate) are refused, naming the
// encoding and the line.
func toUTF8(file string, data []byte) ([]byte, error) {
	switch {
	case bytes.HasPrefix(data, []byte{0, 0, 0xFE, 0xFF}), bytes.HasPrefix(data, []byte{0xFF, 0xFE, 0, 0}),
		len(data) >= 4 && data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] != 0,
		len(data) >= 4 && data[0] != 0 && data[1] == 0 && data[2] == 0 && data[3] == 0:
		return nil, &Error{File: file, Line: 1, Msg: "the file is UTF-32, which is not read: save it as UTF-8"}
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return fromUTF16(file, data[2:], binary.LittleEndian, "UTF-16LE")
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return fromUTF16(file, data[2:], binary.BigEndian, "UTF-16BE")
	case len(data) >= 2 && data[0] != 0 && data[1] == 0:
		return fromUTF16(file, data, binary.LittleEndian, "UTF-16LE")
	case len(data) >= 2 && data[0] == 0 && data[1] != 0:
		return fromUTF16(file, data, binary.BigEndian, "UTF-16BE")
	}
	return TrimBOM(data), nil
}

// fromUTF16 decodes data, UTF-16 in byte order bo (named enc), to UTF-8; a BOM after it
// is dropped as TrimBOM drops one. A problem's line is that of the text decoded before it.
func fromUTF16(file string, data []byte, bo binary.ByteOrder, enc string) ([]byte, error) {
	out := make([]byte, 0, len(data)/2+len(data)/8)
	for i := 0; i+1 < len(data); i += 2 {
		u := rune(bo.Uint16(data[i:]))
		if !utf16.IsSurrogate(u) {
			out = utf8.AppendRune(out, u)
			continue
		}
		lo := rune(-1)
		if i+3 < len(data) {
			lo = rune(bo.Uint16(data[i+2:]))
		}
		r := utf16.DecodeRune(u, lo)
		if r == utf8.RuneError {
			return nil, &Error{File: file, Line: len(yamlLines(out)), Msg: fmt.Sprintf("not valid %s: an unpaired surrogate U+%04X", enc, u)}
		}
		out = utf8.AppendRune(out, r)
		i += 2
	}
	if len(data)%2 == 1 {
		return nil, &Error{File: file, Line: len(yamlLines(out)), Msg: fmt.Sprintf("the file is %s with an odd number of bytes: its last character is cut short; save it again (as UTF-8 if you can)", enc)}
	}
	return TrimBOM(out), nil
}
