package spec

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// yamlError turns an error of yaml.v3's Unmarshal of data into "FILE:LINE: not valid YAML:
// MSG", always with the line of the problem and without yaml.v3's "yaml: " prefix. yaml.v3
// (v3.0.4, decode.go parser.fail) writes "yaml: line N: MSG" from a 0-based mark, adding 1
// for scanner errors only, and nothing when the mark is on line 0. So:
//   - a parser error (parserProblems) with "line N" is on line N+1;
//   - a scanner or parser error without a line is on line 1;
//   - a reader error (an invalid UTF-8 sequence or a control character, readerProblems)
//     carries only a byte offset, never printed: its line is that of the first such
//     character in data (badCharLine);
//   - the decoder's "unknown anchor 'NAME' referenced" carries no line: it is the line of
//     the first alias *NAME (aliasLine).
func yamlError(file string, data []byte, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil && n > 0 {
				line, msg = n, strings.TrimSpace(rest[i+1:])
				if parserProblems[msg] {
					line++ // a 0-based mark
				}
			}
		}
	} else if readerProblem(msg) {
		line = badCharLine(data)
	} else if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		if name, ok = strings.CutSuffix(name, "' referenced"); ok {
			line = aliasLine(data, name)
		}
	}
	// A problem found at the end of the file (an unclosed bracket) has its mark after the
	// last line break: it is on the last line that has text.
	if last := len(yamlLines(bytes.TrimRight(data, "\r\n \t"))); line > last {
		line = last
	}
	return &Error{File: file, Line: line, Msg: "not valid YAML: " + msg}
}

// aliasLine is the 1-based line of the first alias *name in data: a "*name" that ends at a
// blank, a flow indicator or the end of the line, and is neither in a comment nor after an
// unclosed quote on its line (so a mention inside a one-line quoted string is skipped). It
// is 1 when there is none (yaml.v3 found the alias, so this does not happen in practice).
// Lines are counted as yaml.v3 counts them (yamlLines). The cost is one pass over data (at
// most MaxFileSize bytes).
func aliasLine(data []byte, name string) int {
	needle := []byte("*" + name)
	for i, line := range yamlLines(data) {
		for off := 0; ; {
			j := bytes.Index(line[off:], needle)
			if j < 0 {
				break
			}
			at := off + j
			off = at + 1
			before, after := line[:at], line[at+len(needle):]
			if len(after) > 0 && !bytes.ContainsAny(after[:1], " \t\r,[]{}") {
				continue // a longer name
			}
			if bytes.IndexByte(before, '#') >= 0 || bytes.Count(before, []byte(`"`))%2 == 1 || bytes.Count(before, []byte("'"))%2 == 1 {
				continue
			}
			return i + 1
		}
	}
	return 1
}

// yamlLines splits data at the line breaks of yaml.v3 (libyaml's is_break): CR LF, CR, LF,
// and the UTF-8 NEL (U+0085), LS (U+2028) and PS (U+2029).
func yamlLines(data []byte) [][]byte {
	var lines [][]byte
	start := 0
	for i := 0; i < len(data); {
		n := 0 // length of the break at i
		switch {
		case data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n':
			n = 2
		case data[i] == '\r' || data[i] == '\n':
			n = 1
		case bytes.HasPrefix(data[i:], []byte("\u0085")):
			n = 2
		case bytes.HasPrefix(data[i:], []byte("\u2028")) || bytes.HasPrefix(data[i:], []byte("\u2029")):
			n = 3
		}
		if n == 0 {
			i++
			continue
		}
		lines = append(lines, data[start:i])
		i += n
		start = i
	}
	return append(lines, data[start:])
}

// parserProblems are yaml.v3's parser (not scanner) problems (v3.0.4 parserc.go): their
// "line N" is a 0-based line.
var parserProblems = map[string]bool{
	"did not find expected <stream-start>": true, "did not find expected <document start>": true,
	"found undefined tag handle": true, "did not find expected node content": true,
	"did not find expected '-' indicator": true, "did not find expected key": true,
	"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
	"found duplicate %YAML directive": true, "found incompatible YAML document": true,
	"found duplicate %TAG directive": true,
}

// readerProblem reports whether msg is one of yaml.v3's UTF-8 reader problems (v3.0.4
// readerc.go), which give no line.
func readerProblem(msg string) bool {
	for _, p := range []string{"invalid leading UTF-8 octet", "incomplete UTF-8 octet sequence", "invalid trailing UTF-8 octet",
		"invalid length of a UTF-8 sequence", "invalid Unicode character", "control characters are not allowed"} {
		if msg == p {
			return true
		}
	}
	return false
}

// badCharLine is the 1-based line (yamlLines) of the first character yaml.v3's reader
// refuses: an invalid UTF-8 sequence, or a character outside YAML's printable set (tab,
// LF, CR, #x20–#x7E, #x85, #xA0–#xD7FF, #xE000–#xFFFD, #x10000–#x10FFFF); 1 when there
// is none (a UTF-16 file, which this scan does not decode). One pass over data.
func badCharLine(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if (r == utf8.RuneError && n <= 1) || !yamlPrintable(r) {
			return len(yamlLines(data[:i]))
		}
		i += n
	}
	return 1
}

// yamlPrintable reports whether r is in YAML 1.1's printable set (yaml.v3 readerc.go).
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85:
		return true
	case r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}
