package spec

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/clusterperf/clusterperf/internal/units"
)

// A model file's mapping is decoded by declaring its keys (issue 28: one way to decode a
// model file, instead of a hand-written decoder per format). Each Field says its key, how
// its value is read (type, unit, range: a Reader), where it is stored and whether it is
// required; a field's default is its destination's value before Node.Decode. Decode does
// the strict part once for every format — unknown and duplicate keys (with the allowed
// ones), missing required keys, types, units and ranges — recording each problem at its
// file:line and carrying on. What a table cannot say (one field or another, a value whose
// meaning depends on another field, names that refer to other sections) is the format's own
// short code on the fields Decode returns.

// Field is one key of a mapping read by Node.Decode.
type Field struct {
	Key     string
	missing string     // recorded at the mapping when the key is absent; "" = optional
	read    func(Node) // reads a given value into its destination; nil = the caller's
}

// Required makes the field required: when its key is absent, msg (the whole text, e.g.
// "missing field n (the job size in elements)") is recorded at the mapping's line.
func (f Field) Required(msg string) Field {
	f.missing = msg
	return f
}

// Decode checks that n is a mapping whose keys are those of fields (each once), records
// every required key that is absent, and reads every given field, in the order of fields
// (a later field's reader may use an earlier one's value). It returns the given fields by
// key, for the format's cross-field rules. An absent n (an optional section) is no problem
// and reads nothing.
func (n Node) Decode(fields ...Field) map[string]Node {
	keys := make([]string, len(fields))
	for i, f := range fields {
		keys[i] = f.Key
	}
	got := n.Map(keys...)
	if !n.IsMap() {
		return got
	}
	for _, f := range fields {
		v, ok := got[f.Key]
		switch {
		case ok && f.read != nil:
			f.read(v)
		case !ok && f.missing != "":
			n.Errorf("%s", f.missing)
		}
	}
	return got
}

// Key is a field that Decode only allows and returns: the caller reads it.
func Key(key string) Field { return Field{Key: key} }

// Func is a field read by read (a nested mapping, a list, a value whose reading needs more
// than a Reader).
func Func(key string, read func(Node)) Field { return Field{Key: key, read: read} }

// Float is a number field read by r (Number, NonNegative, Between(lo, hi), Time, Size,
// Bandwidth, JobRate, or a format's own Reader) into dst.
func Float(key string, dst *float64, r Reader) Field {
	return Field{Key: key, read: func(n Node) { *dst = r(n) }}
}

// Int is a whole-number field in [lo, hi] (Node.Int).
func Int(key string, dst *int, lo, hi int) Field {
	return Field{Key: key, read: func(n Node) { *dst = n.Int(lo, hi) }}
}

// Text is a single-value field read as text.
func Text(key string, dst *string) Field {
	return Field{Key: key, read: func(n Node) { *dst = n.String() }}
}

// Bool is a true/false field (Node.Bool: yes/no, on/off also).
func Bool(key string, dst *bool) Field {
	return Field{Key: key, read: func(n Node) { *dst = n.Bool() }}
}

// Texts is a list of single values.
func Texts(key string, dst *[]string) Field {
	return Field{Key: key, read: func(n Node) {
		for _, it := range n.List() {
			*dst = append(*dst, it.String())
		}
	}}
}

// Enum is a field whose value is one of allowed (compared without case and surrounding
// blanks), stored lower-case in dst; any other value is recorded as "unknown KEY %q
// (allowed: …)".
func Enum(key string, dst *string, allowed ...string) Field {
	return Field{Key: key, read: func(n Node) {
		s := n.String()
		if !n.IsScalar() {
			return
		}
		v := strings.ToLower(strings.TrimSpace(s))
		for _, a := range allowed {
			if v == a {
				*dst = v
				return
			}
		}
		n.Errorf("unknown %s %q (allowed: %s)", key, s, strings.Join(allowed, ", "))
	}}
}

// Parsed is a single-value field read by parse (a format's name parser, such as a station
// kind or an architecture); its error is recorded at the field's line.
func Parsed[T any](key string, dst *T, parse func(string) (T, error)) Field {
	return Field{Key: key, read: func(n Node) {
		s := n.String()
		if !n.IsScalar() {
			return
		}
		v, err := parse(s)
		if err != nil {
			n.Errorf("%v", err)
		}
		*dst = v
	}}
}

// Reader reads one value as a float64, recording its problems at the node.
type Reader func(Node) float64

// The readers of every format's numbers. A unit reader takes the suffixes of
// internal/units, as the flags do (issue 21).
var (
	Number      Reader = Node.Float          // a finite number
	NonNegative Reader = Node.NonNeg         // a finite number ≥ 0
	Greater0    Reader = Node.Positive       // a finite number > 0
	Time        Reader = Node.Seconds        // seconds: 0.5, 150us, 2ms, 2min
	Size        Reader = Node.Bytes          // bytes: 4096, 64KB, 1.5MiB
	Bandwidth   Reader = Node.BytesPerSecond // bytes per second: 27e6, 27MB/s, 1Gb/s
	JobRate     Reader = Node.Rate           // jobs per second: 0.8, 0.8/s, 48/min
)

// Between reads a finite number in [lo, hi] (Node.Range).
func Between(lo, hi float64) Reader {
	return func(n Node) float64 { return n.Range(lo, hi) }
}

// Within checks a value r read without a problem against [lo, hi], recording "V UNIT is
// out of range; allowed LO … HI UNIT" otherwise (unit is written after a blank, "" for
// none).
func (r Reader) Within(lo, hi float64, unit string) Reader {
	if unit != "" {
		unit = " " + unit
	}
	return func(n Node) float64 {
		before := n.d.problems()
		v := r(n)
		if n.d.problems() == before && (v < lo || v > hi) {
			n.Errorf("%v%s is out of range; allowed %g … %g%s", v, unit, lo, hi, unit)
		}
		return v
	}
}

// problems is the number of problems recorded so far.
func (d *Decoder) problems() int { return len(d.errs) + d.extra }

// Rate returns a rate in jobs per second with an optional unit per time (internal/units.Rate:
// 0.8, 0.8/s, 48/min), naming the line and the allowed forms otherwise.
func (n Node) Rate() float64 {
	if !n.IsScalar() {
		if n.Valid() {
			n.Errorf("must be a rate such as 0.8, 0.8/s or 48/min")
		}
		return 0
	}
	v, err := units.Rate(n.String())
	if err != nil {
		n.Errorf("%v", err)
		return 0
	}
	return v
}

// OneOf returns the one of keys given in fields (as Decode returns them), or "" when none
// or several are; it records none at n when no key is given (if none is not ""), and
// several at n when more than one is.
func (n Node) OneOf(fields map[string]Node, none, several string, keys ...string) string {
	var given []string
	for _, k := range keys {
		if _, ok := fields[k]; ok {
			given = append(given, k)
		}
	}
	switch {
	case len(given) == 1:
		return given[0]
	case len(given) > 1:
		n.Errorf("%s", several)
	case none != "":
		n.Errorf("%s", none)
	}
	return ""
}

// Entry is one field of a mapping whose keys are names (stations, classes).
type Entry struct {
	Key  string
	Node Node
}

// Entries returns the fields of a mapping with any keys, in key order (duplicate keys are
// recorded, as by Map); nothing if n is absent.
func (n Node) Entries() []Entry {
	if !n.Valid() {
		return nil
	}
	if n.n.Kind != yaml.MappingNode {
		n.Map() // records the problem
		return nil
	}
	c := n.n.Content
	out := make([]Entry, 0, len(c)/2)
	for i := 0; i+1 < len(c); i += 2 {
		out = append(out, Entry{c[i].Value, n.child(c[i].Value, c[i+1])})
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return strings.Compare(a.Key, b.Key) })
	// a key given twice: the first in the file is kept, the others recorded, as by Map
	return slices.CompactFunc(out, func(a, b Entry) bool {
		if a.Key != b.Key {
			return false
		}
		n.child(b.Key, keyNode(n.n, b.Node.n)).Errorf("field given twice")
		return true
	})
}

// keyNode is the key node of value v in the mapping m.
func keyNode(m, v *yaml.Node) *yaml.Node {
	for i := 1; i < len(m.Content); i += 2 {
		if m.Content[i] == v {
			return m.Content[i-1]
		}
	}
	return v
}

// Mapping reports whether n is a mapping; otherwise it records "must be a mapping SHAPE" at
// n's line.
func (n Node) Mapping(shape string) bool {
	if n.IsMap() {
		return true
	}
	n.Errorf("must be a mapping %s", shape)
	return false
}

// PerName reads a value for each of count names: one value r reads for all of them, or a
// mapping name → value (a name missing from it is not set; a name not in index is recorded
// as "no WHAT named %q"). set receives each name's index and value.
func (n Node) PerName(what string, index map[string]int, count int, r Reader, set func(i int, v float64)) {
	if !n.IsMap() {
		v := r(n)
		for i := 0; i < count; i++ {
			set(i, v)
		}
		return
	}
	for _, e := range n.Entries() {
		i, ok := index[e.Key]
		if !ok {
			e.Node.Errorf("no %s named %q", what, e.Key)
			continue
		}
		set(i, r(e.Node))
	}
}

// Named returns the index of name in index, recording "no WHAT named %q" at n and returning
// -1 when it is not there.
func (n Node) Named(what string, index map[string]int, name string) int {
	i, ok := index[name]
	if !ok {
		n.Errorf("no %s named %q", what, name)
		return -1
	}
	return i
}
