package explore

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBodyStrict: the hostile review of issue 32 (session 6) sent bodies the explorer took
// loosely — `null` as the body and null as a value were read as "no values" and 0 and
// answered 200; text after the JSON object was ignored (200); a string value was refused in
// Go's words ("cannot unmarshal string into Go struct field .values of type float64"); a
// 5 MB body got "unexpected EOF" (400) instead of the 1 MiB limit. Each case below failed on
// main before decodeValues: code and message are now the refusal in the user's words.
func TestBodyStrict(t *testing.T) {
	s := NewServer(loadExample(t, examples[0]), "test")
	id := examples[0].param // pop.0, a whole number 1 … N
	huge := `{"values":{"` + id + `":8}}` + strings.Repeat(" ", 5<<20)
	cases := []struct {
		name, body string
		code       int
		want       string
	}{
		{"ok", `{"values":{"` + id + `":8}}`, 200, ""},
		{"no values: the defaults", `{}`, 200, ""},
		{"null body", `null`, 400, "request body must be a JSON object {…}, not null"},
		{"null values", `{"values":null}`, 400, `"values" must be a JSON object {…}, not null`},
		{"null value", `{"values":{"` + id + `":null}}`, 400, `parameter "` + id + `": want a number, got null`},
		{"string value", `{"values":{"` + id + `":"8"}}`, 400, `parameter "` + id + `": want a number, got the string "8"`},
		{"array body", `[1]`, 400, "must be a JSON object {…}, not an array"},
		{"trailing garbage", `{"values":{"` + id + `":8}} garbage`, 400, "text after the JSON object"},
		{"two objects", `{"values":{}}{"values":{}}`, 400, "text after the JSON object"},
		{"unknown key", `{"valeus":{}}`, 400, `unknown key "valeus"`},
		{"key twice", `{"values":{"` + id + `":8,"` + id + `":9}}`, 400, `key "` + id + `" given twice`},
		{"unknown parameter", `{"values":{"nope":1}}`, 400, `unknown parameter "nope"`},
		{"beyond float64", `{"values":{"` + id + `":1e999}}`, 400, "too large for a float64"},
		{"underflow", `{"values":{"` + id + `":1e-400}}`, 400, "too small"},
		{"syntax", `{"values":{"` + id + `":8,}}`, 400, "not JSON: invalid character '}'"},
		{"cut short", `{"values":{"` + id + `":8`, 400, "ends before its JSON object does"},
		{"5 MB", huge, 413, "larger than the explorer's limit of 1 MiB"},
	}
	addr := listen(t, s)
	hdr := map[string]string{TokenHeader: s.Token(), "Content-Type": "application/json"}
	for _, c := range cases {
		code, body := do(t, addr, addr, "POST", "/api/eval", c.body, hdr)
		var e struct {
			Error string `json:"error"`
		}
		json.Unmarshal([]byte(body), &e)
		if code != c.code || !strings.Contains(e.Error, c.want) {
			t.Errorf("%s: %d %.300s, want %d with %q", c.name, code, body, c.code, c.want)
		}
		if strings.Contains(e.Error, "Go ") || strings.Contains(e.Error, "explore.") || strings.Contains(e.Error, "float64 of") {
			t.Errorf("%s: Go names in the message: %s", c.name, e.Error)
		}
	}
	// the same refusal through a chunked body (no Content-Length): read up to the limit
	if _, err := decodeValues(strings.NewReader(huge), -1); err != errBodyTooLarge {
		t.Errorf("chunked 5 MB body: %v", err)
	}
}
