package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/input"
)

// maxBody bounds a request body: a few hundred parameter values.
const maxBody = 1 << 20

// errBodyTooLarge is the refusal of a body over maxBody (HTTP 413).
var errBodyTooLarge = fmt.Errorf("%w: request body larger than the explorer's limit of 1 MiB (%d bytes): the page sends a few hundred bytes", fault.ErrTooLarge, maxBody)

// decodeValues reads a request body {"values": {"ID": number, …}} strictly, as the model
// files' reader reads a file (hostile review of issue 32): at most maxBody bytes (a larger
// body is errBodyTooLarge, named as such, not a decoder's "unexpected EOF"); one JSON
// object and nothing after it; no key but "values", no key twice; every value a number
// (null is not 0; a number beyond float64 is refused, not rounded to ±Inf or 0). A missing
// "values" leaves every parameter at its default. Messages name the key and the byte
// offset in the user's words, never a Go type.
func decodeValues(body io.Reader, declared int64) (Values, error) {
	if declared > maxBody {
		return nil, errBodyTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("%w: request body not read: %v", fault.ErrInput, err)
	}
	if len(b) > maxBody {
		return nil, errBodyTooLarge
	}
	d := &bodyDecoder{dec: json.NewDecoder(bytes.NewReader(b))}
	d.dec.UseNumber()
	out := Values{}
	if err := d.object("request body", func(key string) error {
		if key != "values" {
			return d.errorf("unknown key %s (the body is {\"values\": {parameter: number, …}})", input.Excerpt(key))
		}
		return d.object(`"values"`, func(id string) error {
			v, err := d.number(id)
			if err == nil {
				out[id] = v
			}
			return err
		})
	}); err != nil {
		return nil, err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, d.errorf("text after the JSON object (one object per request)")
	}
	return out, nil
}

// bodyDecoder walks a request body token by token.
type bodyDecoder struct {
	dec *json.Decoder
}

// errorf is an input error at the decoder's byte offset.
func (d *bodyDecoder) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: request body, byte %d: %s", fault.ErrInput, d.dec.InputOffset(), fmt.Sprintf(format, args...))
}

// token is the next token; a syntax error (or the body's end) in JSON's words.
func (d *bodyDecoder) token() (json.Token, error) {
	tok, err := d.dec.Token()
	switch {
	case err == io.EOF:
		return nil, d.errorf("the body ends before its JSON object does")
	case err != nil:
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%w: request body, byte %d: not JSON: %s", fault.ErrInput, se.Offset, strings.TrimPrefix(se.Error(), "json: "))
		}
		return nil, d.errorf("not JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	return tok, nil
}

// object reads one JSON object, calling each for every key (each key once) with the
// decoder before its value.
func (d *bodyDecoder) object(what string, each func(key string) error) error {
	tok, err := d.token()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return d.errorf("%s must be a JSON object {…}, not %s", what, describe(tok))
	}
	seen := map[string]bool{}
	for d.dec.More() {
		tok, err := d.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // object keys are strings, or the decoder reports a syntax error
		if seen[key] {
			return d.errorf("key %s given twice", input.Excerpt(key))
		}
		seen[key] = true
		if err := each(key); err != nil {
			return err
		}
	}
	_, err = d.token() // the closing '}'
	return err
}

// number reads the value of parameter id: a JSON number that float64 carries.
func (d *bodyDecoder) number(id string) (float64, error) {
	tok, err := d.token()
	if err != nil {
		return 0, err
	}
	n, ok := tok.(json.Number)
	if !ok {
		return 0, d.errorf("parameter %s: want a number, got %s", input.Excerpt(id), describe(tok))
	}
	v, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, d.errorf("parameter %s = %s is out of range (too large for a float64, above about 1.8e308)", input.Excerpt(id), strings.Trim(input.Excerpt(string(n)), `"`))
	}
	if mant, _, _ := strings.Cut(strings.ToLower(string(n)), "e"); v == 0 && strings.ContainsAny(mant, "123456789") {
		return 0, d.errorf("parameter %s = %s is out of range (too small: below the smallest normal float64, about 2.2e-308)", input.Excerpt(id), strings.Trim(input.Excerpt(string(n)), `"`))
	}
	return v, nil
}

// describe names a JSON token for a message: null, a string, true/false, an array, an object.
func describe(tok json.Token) string {
	switch t := tok.(type) {
	case nil:
		return "null"
	case string:
		return "the string " + input.Excerpt(t)
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return "the number " + strings.Trim(input.Excerpt(string(t)), `"`)
	case json.Delim:
		if t == '[' {
			return "an array"
		}
		if t == '{' {
			return "an object"
		}
	}
	return fmt.Sprint(tok)
}
