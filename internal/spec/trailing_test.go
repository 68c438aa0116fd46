package spec

import (
	"errors"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// A model followed by trailing text is refused at the text's line (issue 32, from the
// earlier hostile corpus: a JSON model followed by garbage was solved with exit 0 —
// yaml.Unmarshal reads the first document and ignores the rest); a document end marker
// ("...") and comments may follow.
func TestTrailingContent(t *testing.T) {
	const model = `{"classes": [{"name": "c", "population": 3}], "stations": [{"name": "a", "demand": 0.1}]}`
	for _, c := range []struct {
		name, data string
		line       int
		want       string
	}{
		{"JSON then garbage", model + "\ngarbage here\n", 2, "text after the model"},
		{"JSON then JSON", model + ` {"x": 1}` + "\n", 1, "text after the model"},
		{"two YAML documents", "a: 1\n---\nb: 2\n", 2, "more than one document"}, // at its "---"
		{"end marker", "a: 1\n...\n# done\n", 0, ""},
		{"trailing comment", model + "\n# a comment\n\n", 0, ""},
	} {
		_, _, err := Parse("m.json", []byte(c.data))
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		var se *Error
		if !errors.As(err, &se) || !errors.Is(err, fault.ErrInput) || se.Line != c.line || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "m.json:") {
			t.Errorf("%s: %v (line %d, want %d)", c.name, err, lineOf(se), c.line)
		}
	}
}

func lineOf(e *Error) int {
	if e == nil {
		return -1
	}
	return e.Line
}
