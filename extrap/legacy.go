package extrap

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Extra-P's older ("legacy") JSON experiment: five lists whose entries refer to each other
// by numeric id, as Extra-P 4.2's json_file_reader._read_legacy_json_file reads it:
//
//	{"parameters":  [{"id": 1, "name": "x"}],
//	 "callpaths":   [{"id": 1, "name": "sweep"}],
//	 "metrics":     [{"id": 1, "name": "time"}],
//	 "coordinates": [{"id": 1, "parameter_value_pairs": [{"parameter_id": 1, "parameter_value": 4}]}],
//	 "measurements":[{"id": 1, "callpath_id": 1, "coordinate_id": 1, "metric_id": 1, "value": 3.5}]}
//
// Extra-P sorts each list by id and then indexes it by id − 1, so ids with a gap or a repeat
// silently pick the wrong entry there; here every id is looked up, and an id given twice, a
// reference to no entry, a coordinate whose values repeat another's, a name given twice and
// a (callpath, metric) without a measurement at some coordinate (which Extra-P refuses too)
// are refused at the line of the entry.

type legacyNamed struct {
	ID   *int    `json:"id"`
	Name *string `json:"name"`
}

type legacyPair struct {
	ParameterID *int     `json:"parameter_id"`
	Value       *float64 `json:"parameter_value"`
}

type legacyCoordinate struct {
	ID    *int         `json:"id"`
	Pairs []legacyPair `json:"parameter_value_pairs"`
}

type legacyMeasurement struct {
	ID           *int     `json:"id"` // read, not used (as in Extra-P)
	CallpathID   *int     `json:"callpath_id"`
	CoordinateID *int     `json:"coordinate_id"`
	MetricID     *int     `json:"metric_id"`
	Value        *float64 `json:"value"`
}

// legacyDoc is the decoded document with each entry's line.
type legacyDoc struct {
	params, callpaths, metrics []legacyNamed
	paramLine, cpLine, metLine []int
	coords                     []legacyCoordinate
	coordLine                  []int
	meas                       []legacyMeasurement
	measLine                   []int
}

// isLegacyJSON: the document's top-level object has a "callpaths" key (Extra-P's own test).
func isLegacyJSON(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, ok := top["callpaths"]
	return ok
}

// readLegacyJSON reads the older id-linked JSON format (data is the whole document, already
// checked for keys given twice).
func readLegacyJSON(file string, data []byte) (*Experiment, error) {
	d, err := decodeLegacy(file, data)
	if err != nil {
		return nil, err
	}
	if len(d.coords) == 0 || len(d.meas) == 0 {
		return nil, errAt(file, 1, "%d coordinates and %d measurements: want at least one of each", len(d.coords), len(d.meas))
	}
	e := &Experiment{File: file, Format: "json"}
	pidx, err := legacyParameters(file, d, e)
	if err != nil {
		return nil, err
	}
	cidx, err := legacyCoordinates(file, d, e, pidx)
	if err != nil {
		return nil, err
	}
	if err := legacyMeasurements(file, d, e, cidx); err != nil {
		return nil, err
	}
	return e, finish(e, file, 1)
}

// decodeLegacy streams the top-level object, decoding each list entry by entry (unknown
// keys refused) so that every entry keeps its line; lists are bounded before they grow.
func decodeLegacy(file string, data []byte) (*legacyDoc, error) {
	d := &legacyDoc{}
	lc := &lineCounter{data: data, line: 1}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	fail := func(err error) error {
		var le *entryError
		if errors.As(err, &le) {
			return errAt(file, le.line, "%s", le.msg)
		}
		return errAt(file, lineOf(data, dec.InputOffset(), err), "%v", err)
	}
	if _, err := dec.Token(); err != nil { // '{', checked by isLegacyJSON
		return nil, fail(err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fail(err)
		}
		key, _ := tok.(string)
		var add func(line int) error
		switch key {
		case "parameters":
			add = func(line int) error { return decodeNamed(dec, &d.params, &d.paramLine, line) }
		case "callpaths":
			add = func(line int) error { return decodeNamed(dec, &d.callpaths, &d.cpLine, line) }
		case "metrics":
			add = func(line int) error { return decodeNamed(dec, &d.metrics, &d.metLine, line) }
		case "coordinates":
			add = func(line int) error { return decodeEntry(dec, &d.coords, &d.coordLine, line) }
		case "measurements":
			add = func(line int) error { return decodeEntry(dec, &d.meas, &d.measLine, line) }
		default:
			return nil, errAt(file, lineOf(data, dec.InputOffset(), nil), "unknown key %q in Extra-P's id-linked JSON (want parameters, callpaths, metrics, coordinates, measurements)", key)
		}
		if err := legacyList(dec, lc, add); err != nil {
			return nil, fail(err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(err)
	}
	return d, nil
}

// legacyList reads one '[' … ']' list, calling add with each entry's line.
func legacyList(dec *json.Decoder, lc *lineCounter, add func(line int) error) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("want a list, got %v", tok)
	}
	for n := 0; dec.More(); n++ {
		if n >= MaxValues {
			return fmt.Errorf("%w: more than %d entries in a list", fault.ErrTooLarge, MaxValues)
		}
		line := lc.entryLine(dec.InputOffset())
		if err := add(line); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) || errors.Is(err, fault.ErrTooLarge) {
				return err
			}
			return &entryError{line: line, msg: entryMessage(err)}
		}
	}
	_, err = dec.Token()
	return err
}

// entryError is a list entry refused at its line.
type entryError struct {
	line int
	msg  string
}

func (e *entryError) Error() string { return e.msg }

// entryMessage says what is wrong with an entry without Go's type names.
func entryMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		want := "a number"
		switch te.Type.Kind() {
		case reflect.String:
			want = "a string"
		case reflect.Slice:
			want = "a list"
		case reflect.Int:
			want = "a whole number"
		}
		return fmt.Sprintf("%q: want %s, not a JSON %s", te.Field, want, te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// lineCounter gives the line of increasing offsets in data, counting each byte once (the
// decoder's offsets only grow while the lists are read).
type lineCounter struct {
	data []byte
	off  int
	line int
}

// entryLine is the line of the first byte at or after off that is not a separator.
func (lc *lineCounter) entryLine(off int64) int {
	i := int(min(max(off, 0), int64(len(lc.data))))
	for i < len(lc.data) && bytes.IndexByte([]byte(" \t\r\n,"), lc.data[i]) >= 0 {
		i++
	}
	if i < lc.off { // not expected; count afresh
		lc.off, lc.line = 0, 1
	}
	lc.line += bytes.Count(lc.data[lc.off:i], []byte("\n"))
	lc.off = i
	return lc.line
}

func decodeNamed(dec *json.Decoder, list *[]legacyNamed, lines *[]int, line int) error {
	var v legacyNamed
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if v.ID == nil || v.Name == nil {
		return fmt.Errorf("an entry needs \"id\" and \"name\"")
	}
	*list, *lines = append(*list, v), append(*lines, line)
	return nil
}

func decodeEntry[T any](dec *json.Decoder, list *[]T, lines *[]int, line int) error {
	var v T
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*list, *lines = append(*list, v), append(*lines, line)
	return nil
}

// byID maps each entry's id to its index, refusing an id given twice.
func byID(file, what string, ids []*int, lines []int) (map[int]int, error) {
	m := make(map[int]int, len(ids))
	for i, id := range ids {
		if id == nil {
			return nil, errAt(file, lines[i], "%s entry without \"id\"", what)
		}
		if j, dup := m[*id]; dup {
			return nil, errAt(file, lines[i], "%s id %d given twice (first at line %d)", what, *id, lines[j])
		}
		m[*id] = i
	}
	return m, nil
}

// sortedByID is the entry indices in id order (Extra-P's order).
func sortedByID(idx map[int]int) []int {
	ids := make([]int, 0, len(idx))
	for id := range idx {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	out := make([]int, len(ids))
	for k, id := range ids {
		out[k] = idx[id]
	}
	return out
}

func namedIDs(l []legacyNamed) []*int {
	ids := make([]*int, len(l))
	for i := range l {
		ids[i] = l[i].ID
	}
	return ids
}

// legacyNames orders a named list by id and refuses a name given twice; it returns the
// names in id order and the map id → position in that order.
func legacyNames(file, what string, l []legacyNamed, lines []int) ([]string, map[int]int, error) {
	idx, err := byID(file, what, namedIDs(l), lines)
	if err != nil {
		return nil, nil, err
	}
	if len(l) == 0 {
		return nil, nil, errAt(file, 1, "no %s", what)
	}
	var names []string
	pos := map[int]int{}
	first := map[string]int{}
	for k, i := range sortedByID(idx) {
		n := *l[i].Name
		if j, dup := first[n]; dup {
			return nil, nil, errAt(file, lines[i], "%s %q given twice (first at line %d)", what, n, lines[j])
		}
		first[n] = i
		names = append(names, n)
		pos[*l[i].ID] = k
	}
	return names, pos, nil
}

// legacyParameters sets e.Parameters (in id order); it returns parameter id → position.
func legacyParameters(file string, d *legacyDoc, e *Experiment) (map[int]int, error) {
	names, pos, err := legacyNames(file, "parameter", d.params, d.paramLine)
	if err != nil {
		return nil, err
	}
	if len(names) > MaxParameters {
		return nil, errAt(file, d.paramLine[0], "%d parameters: at most %d", len(names), MaxParameters)
	}
	e.Parameters = names
	return pos, nil
}

// legacyCoordinates sets e.Points and e.PointLine (in coordinate id order); it returns
// coordinate id → point index.
func legacyCoordinates(file string, d *legacyDoc, e *Experiment, pidx map[int]int) (map[int]int, error) {
	ids := make([]*int, len(d.coords))
	for i := range d.coords {
		ids[i] = d.coords[i].ID
	}
	idx, err := byID(file, "coordinate", ids, d.coordLine)
	if err != nil {
		return nil, err
	}
	if len(idx) > MaxPoints {
		return nil, fmt.Errorf("%w: %s:%d: more than %d coordinates", fault.ErrTooLarge, file, d.coordLine[MaxPoints], MaxPoints)
	}
	seen := map[string]int{}
	out := map[int]int{}
	for _, i := range sortedByID(idx) {
		c, line := d.coords[i], d.coordLine[i]
		pt, err := legacyPoint(file, line, c, pidx, e.Parameters)
		if err != nil {
			return nil, err
		}
		key := fmt.Sprint(pt)
		if j, dup := seen[key]; dup {
			return nil, errAt(file, line, "coordinate %d repeats the values %v of the coordinate at line %d (each point once; repetitions are measurements)", *c.ID, pt, j)
		}
		seen[key] = line
		out[*c.ID] = len(e.Points)
		e.Points, e.PointLine = append(e.Points, pt), append(e.PointLine, line)
	}
	return out, nil
}

// legacyPoint is one coordinate's values in parameter order: one finite value per parameter.
func legacyPoint(file string, line int, c legacyCoordinate, pidx map[int]int, names []string) ([]float64, error) {
	pt := make([]float64, len(names))
	got := make([]bool, len(names))
	for _, p := range c.Pairs {
		if p.ParameterID == nil || p.Value == nil {
			return nil, errAt(file, line, "coordinate %d: a pair needs \"parameter_id\" and \"parameter_value\"", *c.ID)
		}
		k, ok := pidx[*p.ParameterID]
		if !ok {
			return nil, errAt(file, line, "coordinate %d: parameter id %d is not in \"parameters\"", *c.ID, *p.ParameterID)
		}
		if got[k] {
			return nil, errAt(file, line, "coordinate %d: parameter %s given twice", *c.ID, names[k])
		}
		if !finiteNormal(*p.Value) {
			return nil, errAt(file, line, "coordinate %d: %s = %g: not finite or subnormal", *c.ID, names[k], *p.Value)
		}
		pt[k], got[k] = *p.Value, true
	}
	for k, ok := range got {
		if !ok {
			return nil, errAt(file, line, "coordinate %d has no value of parameter %s", *c.ID, names[k])
		}
	}
	return pt, nil
}

// legacyMeasurements groups the measurements into series (callpath, then metric, in id
// order) and checks that each series has a measurement at every coordinate.
func legacyMeasurements(file string, d *legacyDoc, e *Experiment, cidx map[int]int) error {
	cps, cpos, err := legacyNames(file, "callpath", d.callpaths, d.cpLine)
	if err != nil {
		return err
	}
	mts, mpos, err := legacyNames(file, "metric", d.metrics, d.metLine)
	if err != nil {
		return err
	}
	if len(cps)*len(mts) > MaxSeries {
		return fmt.Errorf("%w: %s:%d: %d callpaths × %d metrics: more than %d series", fault.ErrTooLarge, file, d.cpLine[0], len(cps), len(mts), MaxSeries)
	}
	grid := make([]*Series, len(cps)*len(mts))
	for i, m := range d.meas {
		line := d.measLine[i]
		if m.CallpathID == nil || m.CoordinateID == nil || m.MetricID == nil || m.Value == nil {
			return errAt(file, line, "a measurement needs \"callpath_id\", \"coordinate_id\", \"metric_id\" and \"value\"")
		}
		c, ok1 := cpos[*m.CallpathID]
		k, ok2 := mpos[*m.MetricID]
		pi, ok3 := cidx[*m.CoordinateID]
		if !ok1 || !ok2 || !ok3 {
			return errAt(file, line, "measurement refers to callpath %d, metric %d, coordinate %d: not all of them are listed", *m.CallpathID, *m.MetricID, *m.CoordinateID)
		}
		if !finiteNormal(*m.Value) {
			return errAt(file, line, "value %g: not finite or subnormal", *m.Value)
		}
		s := grid[c*len(mts)+k]
		if s == nil {
			s = &Series{Region: cps[c], Metric: mts[k], Values: make([][]float64, len(e.Points)), Line: line}
			grid[c*len(mts)+k] = s
		}
		s.Values[pi] = append(s.Values[pi], *m.Value)
	}
	for _, s := range grid {
		if s == nil {
			continue
		}
		for pi, v := range s.Values {
			if len(v) == 0 {
				return errAt(file, e.PointLine[pi], "callpath %q metric %q has no measurement at this coordinate %v (Extra-P refuses such an experiment too)", s.Region, s.Metric, e.Points[pi])
			}
		}
		e.Series = append(e.Series, s)
	}
	return nil
}
