package spec

import (
	"bytes"
	"strconv"
	"strings"
)

// yamlError turns an error of yaml.v3's Unmarshal of data into "FILE:LINE: not valid YAML:
// MSG", always with a line and without yaml.v3's "yaml: " prefix. yaml.v3 writes
// "yaml: line N: MSG" when its (0-based) mark is not on the first line and no line when it
// is (a problem on line 1 therefore reads as none), so a scanner or parser message without a
// line is on line 1. Its one decoder error for a node tree, "unknown anchor 'NAME'
// referenced", carries no line: it is the line of the first alias *NAME (aliasLine).
func yamlError(file string, data []byte, err error) *Error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil && n > 0 {
				line, msg = n, strings.TrimSpace(rest[i+1:])
			}
		}
	} else if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		if name, ok = strings.CutSuffix(name, "' referenced"); ok {
			line = aliasLine(data, name)
		}
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
