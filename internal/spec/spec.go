// Package spec decodes YAML (or JSON) model files strictly: every value is checked for its
// type and range, unknown fields are rejected, and every error carries the file name and the
// line of the offending field. Decoding functions record problems and carry on, so a user
// sees all of them at once (Decoder.Err).
package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/units"
)

// MaxErrors is the number of problems a Decoder records in full; later ones are only
// counted and reported as "… and N more problems" (issue 12: a file of a million unknown keys
// must not produce a million messages).
const MaxErrors = 50

// MaxFileSize is the largest model file Parse accepts, in bytes (1 MiB). Model files are
// hand-written and a few kilobytes. The YAML node tree costs about 110 bytes of memory per
// byte of text: a 15 MB file of unknown keys took 1.65 GB and 98 s (measured on the loaded
// 2-vCPU machine), so 1 MiB bounds the decoder near 120 MB.
const MaxFileSize = 1 << 20

// Error is one problem in a model file. It is an input error: errors.Is(err, fault.ErrInput)
// holds, and also errors.Is(err, Kind) when Kind is set (fault.ErrTooLarge for a budget).
type Error struct {
	File string
	Line int
	Msg  string
	Kind error // optional finer class (fault.ErrTooLarge); nil = plain input error
}

// Is makes every spec.Error an input error (fault.ErrInput) for errors.Is.
func (e *Error) Is(target error) bool {
	return target == fault.ErrInput || (e.Kind != nil && errors.Is(e.Kind, target))
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Decoder collects the errors found while walking one file.
type Decoder struct {
	File  string
	errs  []error
	extra int // problems found after MaxErrors, counted only
}

// Node is a YAML node with its dotted path (e.g. "stations[2].demand").
type Node struct {
	d    *Decoder
	n    *yaml.Node
	Path string
}

// Parse reads data as YAML (JSON is YAML) and returns its root node, which must be a mapping.
func Parse(file string, data []byte) (*Decoder, Node, error) {
	d := &Decoder{File: file}
	if len(data) > MaxFileSize {
		return d, Node{}, &Error{File: file, Kind: fault.ErrTooLarge, Msg: fmt.Sprintf("the file is %d bytes; model files are limited to %d bytes (spec.MaxFileSize, 1 MiB)", len(data), MaxFileSize)}
	}
	data, err := toUTF8(file, data)
	if err != nil {
		return d, Node{}, err
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return d, Node{}, yamlError(file, data, err)
	}
	if len(doc.Content) == 0 {
		return d, Node{}, &Error{File: file, Msg: "file is empty"}
	}
	// one document per file: what follows it (a second document, JSON's trailing garbage)
	// is refused, not ignored as yaml.Unmarshal ignores it
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == io.EOF:
	case err != nil:
		e := yamlError(file, data, err)
		e.Msg = "text after the model (" + e.Msg + "): a model file holds one YAML document or JSON value"
		return d, Node{}, e
	default:
		return d, Node{}, &Error{File: file, Line: next.Line, Msg: "more than one document: a model file holds one (a second one, or text after the first, starts here)"}
	}
	root := Node{d: d, n: doc.Content[0]}
	if root.n.Kind != yaml.MappingNode {
		return d, Node{}, &Error{File: file, Line: root.n.Line, Msg: "top level must be a mapping of fields"}
	}
	return d, root, nil
}

// Err returns every recorded problem joined, or nil.
// After MaxErrors problems the rest are summarised in one line "… and N more problems".
func (d *Decoder) Err() error {
	if d.extra == 0 {
		return errors.Join(d.errs...)
	}
	more := &Error{File: d.File, Msg: fmt.Sprintf("… and %s more problems (only the first %d are listed)", groupDigits(d.extra), MaxErrors)}
	return errors.Join(append(d.errs[:len(d.errs):len(d.errs)], more)...)
}

// groupDigits writes n with thin groups of three digits: 1 234 567.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Failed reports whether any problem was recorded.
func (d *Decoder) Failed() bool { return len(d.errs) > 0 }

// Errorf records a problem at node n.
func (n Node) Errorf(format string, args ...any) {
	if len(n.d.errs) >= MaxErrors {
		n.d.extra++
		return
	}
	line := 0
	if n.n != nil {
		line = n.n.Line
	}
	msg := fmt.Sprintf(format, args...)
	if n.Path != "" {
		msg = n.Path + ": " + msg
	}
	n.d.errs = append(n.d.errs, &Error{File: n.d.File, Line: line, Msg: msg})
}

// Line is the node's line in the file.
func (n Node) Line() int {
	if n.n == nil {
		return 0
	}
	return n.n.Line
}

// Valid reports whether the node exists.
func (n Node) Valid() bool { return n.n != nil }

// IsMap and IsScalar report the node's shape.
func (n Node) IsMap() bool    { return n.n != nil && n.n.Kind == yaml.MappingNode }
func (n Node) IsScalar() bool { return n.n != nil && n.n.Kind == yaml.ScalarNode }

func (n Node) child(key string, c *yaml.Node) Node {
	p := key
	if n.Path != "" {
		p = n.Path + "." + key
	}
	return Node{d: n.d, n: c, Path: p}
}

// Map checks that n is a mapping whose keys are all in allowed (or any key, if allowed is
// nil) and returns its fields. Unknown and duplicate keys are recorded as errors.
func (n Node) Map(allowed ...string) map[string]Node {
	out := map[string]Node{}
	if n.n == nil {
		return out
	}
	if n.n.Kind != yaml.MappingNode {
		n.Errorf("must be a mapping of fields, not %s", kindName(n.n))
		return out
	}
	for i := 0; i+1 < len(n.n.Content); i += 2 {
		k, v := n.n.Content[i], n.n.Content[i+1]
		key := k.Value
		// a linear search: a mapping declares a dozen keys or so, and a map of them would
		// cost an allocation per mapping decoded
		if allowed != nil && !slices.Contains(allowed, key) {
			sorted := slices.Compact(slices.Sorted(slices.Values(allowed)))
			n.child(key, k).Errorf("unknown field (allowed: %s)", strings.Join(sorted, ", "))
			continue
		}
		if _, dup := out[key]; dup {
			n.child(key, k).Errorf("field given twice")
			continue
		}
		out[key] = n.child(key, v)
	}
	return out
}

// Has reports whether n is a mapping with the key, recording nothing: a caller can tell one
// kind of file from another by its top-level fields before decoding it with Map.
func (n Node) Has(key string) bool {
	if !n.IsMap() {
		return false
	}
	for i := 0; i+1 < len(n.n.Content); i += 2 {
		if n.n.Content[i].Value == key {
			return true
		}
	}
	return false
}

// List returns the items of a sequence node.
func (n Node) List() []Node {
	if n.n == nil {
		return nil
	}
	if n.n.Kind != yaml.SequenceNode {
		n.Errorf("must be a list, not %s", kindName(n.n))
		return nil
	}
	out := make([]Node, len(n.n.Content))
	for i, c := range n.n.Content {
		out[i] = Node{d: n.d, n: c, Path: fmt.Sprintf("%s[%d]", n.Path, i)}
	}
	return out
}

// String returns a scalar's text.
func (n Node) String() string {
	if n.n == nil {
		return ""
	}
	if n.n.Kind != yaml.ScalarNode {
		n.Errorf("must be a single value, not %s", kindName(n.n))
		return ""
	}
	return n.n.Value
}

// Float returns a finite number.
func (n Node) Float() float64 {
	s := n.String()
	if n.n == nil || n.n.Kind != yaml.ScalarNode {
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		n.Errorf("%q is not a finite number", s)
		return 0
	}
	return v
}

// NonNeg returns a finite number ≥ 0.
func (n Node) NonNeg() float64 {
	v := n.Float()
	if v < 0 {
		n.Errorf("%v is negative; must be ≥ 0", v)
		return 0
	}
	return v
}

// Positive returns a finite number > 0.
func (n Node) Positive() float64 {
	v := n.Float()
	if v <= 0 && n.n != nil && n.n.Kind == yaml.ScalarNode {
		n.Errorf("%v must be > 0", v)
	}
	return v
}

// Int returns a whole number in [lo, hi].
func (n Node) Int(lo, hi int) int {
	v := n.Float()
	if n.n == nil || n.n.Kind != yaml.ScalarNode {
		return lo
	}
	if v != math.Trunc(v) {
		n.Errorf("%v is not a whole number", v)
		return lo
	}
	if v < float64(lo) || v > float64(hi) {
		n.Errorf("%v is out of range; allowed %d … %d", v, lo, hi)
		return lo
	}
	return int(v)
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return fmt.Sprintf("the value %q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "an empty document"
}

// Bool returns a boolean as yaml.v3 decodes one into a typed bool field: true/false in any of
// the cases YAML allows (true, True, TRUE), and YAML 1.1's yes/no, on/off (y/n are not
// accepted by yaml.v3 here). Anything else (1, 0, "true" quoted, a typo such as treu) is an
// error naming the line and the allowed values.
func (n Node) Bool() bool {
	if n.n == nil {
		return false
	}
	if n.n.Kind != yaml.ScalarNode {
		n.Errorf("must be true or false, not %s", kindName(n.n))
		return false
	}
	var b bool
	if err := n.n.Decode(&b); err != nil {
		n.Errorf("%q is not a boolean (allowed: true, false; also yes/no, on/off)", n.n.Value)
		return false
	}
	return b
}

// Range returns a finite number in [lo, hi], naming the allowed range otherwise.
func (n Node) Range(lo, hi float64) float64 {
	v := n.Float()
	if n.n == nil || n.n.Kind != yaml.ScalarNode {
		return v
	}
	if v < lo || v > hi {
		n.Errorf("%v is out of range; allowed %g … %g", v, lo, hi)
		return math.Max(lo, math.Min(v, hi))
	}
	return v
}

// withUnit decodes a scalar with a unit parser of internal/units (the one units rule of
// issue 21: every time, size and rate field takes the same suffixes as the flags).
func (n Node) withUnit(parse func(string) (float64, error), what string) float64 {
	s := n.String()
	if n.n == nil || n.n.Kind != yaml.ScalarNode {
		return 0
	}
	v, err := parse(s)
	if err != nil {
		n.Errorf("%v (%s)", err, what)
		return 0
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		n.Errorf("%q is not finite", s)
		return 0
	}
	return v
}

// Seconds returns a time ≥ 0 in seconds: a bare number is seconds; s, ms, us, µs, ns and min
// are accepted (internal/units.Duration).
func (n Node) Seconds() float64 {
	return n.withUnit(units.Duration, "a time such as 0.5, 150us, 2ms")
}

// Bytes returns a size ≥ 0 in bytes: a bare number is bytes; kB, MB, GB, KiB, MiB, GiB and
// bits (b) are accepted (internal/units.Bytes).
func (n Node) Bytes() float64 {
	return n.withUnit(units.Bytes, "a size such as 4096, 64KB, 1.5MiB")
}

// BytesPerSecond returns a rate > 0 in bytes per second: a bare number is bytes/s; 200MB/s,
// 10Gb/s, 1.25e8 are accepted (internal/units.Bandwidth).
func (n Node) BytesPerSecond() float64 {
	return n.withUnit(units.Bandwidth, "a bandwidth such as 27e6, 27MB/s, 1Gb/s")
}
