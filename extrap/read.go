// Package extrap reads Extra-P's experiment inputs — the text format (PARAMETER / POINTS /
// REGION / METRIC / DATA), JSON-lines ({"params":{…},"callpath":…,"metric":…,"value":…})
// and the JSON format {"parameters":[…],"measurements":{callpath:{metric:[{"point":[…],
// "values":[…]}]}}} — as Extra-P 4.2 (github extra-p/extrap, extrap/fileio/file_reader)
// reads them, and models every region and metric with package scaling (Model).
//
// Every refusal wraps fault.ErrInput (or fault.ErrTooLarge past a limit) and names
// file:line. Limits are checked before anything grows: MaxLineBytes per line, MaxValues
// values in all, MaxSeries (region, metric) pairs, at most MaxParameters parameters.
//
// Extra-P's older JSON, whose lists refer to each other by numeric id (parameters,
// callpaths, metrics, coordinates, measurements), is read too (legacy.go). Not read: CUBE
// files (package cube), Talpas files.
package extrap

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// Limits on what the readers accept.
const (
	MaxLineBytes  = 1 << 20
	MaxValues     = 1_000_000
	MaxSeries     = 10_000
	MaxParameters = 4 // Extra-P's text format's own limit
	MaxPoints     = 100_000
)

// Experiment is an Extra-P experiment: parameter names, the measurement points
// (coordinates, one value per parameter) and one series of repetitions per (region,
// metric) and point.
type Experiment struct {
	File       string      `json:"file"`
	Format     string      `json:"format"` // text, jsonl, json
	Parameters []string    `json:"parameters"`
	Points     [][]float64 `json:"points"`
	Series     []*Series   `json:"series"`
	// PointLine[i] is the line where Points[i] was first given (for refusals).
	PointLine []int `json:"-"`
}

// Series is one region's measurements of one metric: Values[i] are the repetitions at
// Points[i] (empty where the point was not measured).
type Series struct {
	Region string      `json:"region"`
	Metric string      `json:"metric"`
	Values [][]float64 `json:"values"`
	Line   int         `json:"line"` // where the series starts in the file
}

func errAt(file string, line int, format string, a ...any) error {
	return fmt.Errorf("%w: %s:%d: %s", fault.ErrInput, file, line, fmt.Sprintf(format, a...))
}

// number parses a finite, non-subnormal float (a subnormal, 0 < |v| < 2^−1022, is no
// measurement: ratios of such values underflow and lose their digits).
func number(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && finiteNormal(v)
}

// finiteNormal: v is finite and either 0 or at least the smallest normal float64 in size.
func finiteNormal(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (v == 0 || math.Abs(v) >= 0x1p-1022)
}

// textState is ReadText's state between lines.
type textState struct {
	e              *Experiment
	file           string
	region, metric string
	cur            *Series
	next           int // index of the next DATA line's point
	values         int
	index          map[[2]string]*Series
	pointAt        map[string]int // point (its values) → the line that gave it
}

// ReadText reads Extra-P's text format: "PARAMETER name…" lines, then "POINTS" lines (for
// one parameter "POINTS 4 8 16" or "POINTS ( 4 ) ( 8 )"; for several "POINTS ( 4 10 )
// ( 8 20 )"), then REGION / METRIC lines each starting a series and one "DATA v v …" line
// per point in POINTS order (the repetitions). '#' starts a comment line.
func ReadText(file string, r io.Reader) (*Experiment, error) {
	st := &textState{e: &Experiment{File: file, Format: "text"}, file: file, index: map[[2]string]*Series{}, pointAt: map[string]int{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		s := strings.Join(strings.Fields(sc.Text()), " ")
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		key, val, _ := strings.Cut(s, " ")
		if err := st.field(line, key, val); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, errAt(file, line+1, "%v (lines are limited to %d bytes)", err, MaxLineBytes)
	}
	if err := st.endSeries(); err != nil {
		return nil, err
	}
	return st.e, finish(st.e, file, line)
}

// endSeries refuses a series with fewer DATA lines than POINTS: the text format gives one
// DATA line per point in POINTS order, so a short series cannot say which point is missing.
func (st *textState) endSeries() error {
	if st.cur != nil && st.next < len(st.e.Points) {
		return errAt(st.file, st.cur.Line, "region %q metric %q: %d DATA lines for the %d POINTS (one per point, in order)", st.cur.Region, st.cur.Metric, st.next, len(st.e.Points))
	}
	return nil
}

func (st *textState) field(line int, key, val string) error {
	e := st.e
	switch key {
	case "PARAMETER":
		if len(e.Points) > 0 {
			return errAt(st.file, line, "PARAMETER after POINTS")
		}
		e.Parameters = append(e.Parameters, strings.Fields(val)...)
		if len(e.Parameters) > MaxParameters {
			return errAt(st.file, line, "%d parameters: the format allows at most %d", len(e.Parameters), MaxParameters)
		}
	case "POINTS":
		return st.points(line, val)
	case "REGION":
		if err := st.endSeries(); err != nil {
			return err
		}
		st.region, st.cur, st.next = val, nil, 0
	case "METRIC":
		if err := st.endSeries(); err != nil {
			return err
		}
		st.metric, st.cur, st.next = val, nil, 0
	case "DATA":
		return st.data(line, val)
	default:
		return errAt(st.file, line, "unknown field %q: want PARAMETER, POINTS, REGION, METRIC or DATA", key)
	}
	return nil
}

func (st *textState) points(line int, val string) error {
	e := st.e
	k := len(e.Parameters)
	if k == 0 {
		return errAt(st.file, line, "POINTS before any PARAMETER")
	}
	var groups []string
	if strings.Contains(val, "(") {
		v := strings.ReplaceAll(strings.ReplaceAll(val, "(", " ( "), ")", " ) ")
		for _, g := range strings.Split(v, ")") {
			g = strings.TrimSpace(g)
			if g == "" {
				continue
			}
			if !strings.HasPrefix(g, "(") {
				return errAt(st.file, line, "POINTS: %q outside parentheses", g)
			}
			groups = append(groups, strings.TrimSpace(g[1:]))
		}
	} else if k == 1 {
		groups = strings.Fields(val)
	} else {
		return errAt(st.file, line, "POINTS for %d parameters must be in parentheses: ( v1 v2 )", k)
	}
	for _, g := range groups {
		f := strings.Fields(g)
		if len(f) != k {
			return errAt(st.file, line, "point %q has %d values: want %d (one per PARAMETER)", g, len(f), k)
		}
		pt := make([]float64, k)
		for i, s := range f {
			v, ok := number(s)
			if !ok {
				return errAt(st.file, line, "point value %q: want a finite number (not subnormal)", s)
			}
			pt[i] = v
		}
		if len(e.Points) >= MaxPoints {
			return fmt.Errorf("%w: %s:%d: more than %d points", fault.ErrTooLarge, st.file, line, MaxPoints)
		}
		key := fmt.Sprint(pt)
		if first, dup := st.pointAt[key]; dup {
			return errAt(st.file, line, "point (%s) given twice (first at line %d): the DATA lines follow the POINTS in order, one per point, so a repeated point would take another point's data", g, first)
		}
		st.pointAt[key] = line
		e.Points = append(e.Points, pt)
		e.PointLine = append(e.PointLine, line)
	}
	return nil
}

func (st *textState) data(line int, val string) error {
	e := st.e
	if len(e.Points) == 0 {
		return errAt(st.file, line, "DATA before POINTS")
	}
	if st.cur == nil {
		key := [2]string{st.region, st.metric}
		if st.index[key] != nil {
			return errAt(st.file, line, "region %q metric %q given twice", st.region, st.metric)
		}
		if len(e.Series) >= MaxSeries {
			return fmt.Errorf("%w: %s:%d: more than %d series", fault.ErrTooLarge, st.file, line, MaxSeries)
		}
		st.cur = &Series{Region: st.region, Metric: st.metric, Values: make([][]float64, len(e.Points)), Line: line}
		st.index[key] = st.cur
		e.Series = append(e.Series, st.cur)
	}
	if st.next >= len(e.Points) {
		return errAt(st.file, line, "more DATA lines than the %d POINTS", len(e.Points))
	}
	f := strings.Fields(val)
	if len(f) == 0 {
		return errAt(st.file, line, "DATA without values")
	}
	st.values += len(f)
	if st.values > MaxValues {
		return fmt.Errorf("%w: %s:%d: more than %d values", fault.ErrTooLarge, st.file, line, MaxValues)
	}
	vs := make([]float64, len(f))
	for i, s := range f {
		v, ok := number(s)
		if !ok {
			return errAt(st.file, line, "DATA value %q: want a finite number (not subnormal)", s)
		}
		vs[i] = v
	}
	st.cur.Values[st.next] = vs
	st.next++
	return nil
}

// finish checks the experiment as a whole (line: the file's last line).
func finish(e *Experiment, file string, line int) error {
	if len(e.Parameters) == 0 {
		return errAt(file, max(line, 1), "no PARAMETER")
	}
	if len(e.Points) == 0 {
		return errAt(file, max(line, 1), "no POINTS")
	}
	if len(e.Series) == 0 {
		return errAt(file, max(line, 1), "no DATA")
	}
	for i, n := range e.Parameters {
		for _, m := range e.Parameters[:i] {
			if n == m {
				return errAt(file, 1, "parameter %q given twice", n)
			}
		}
	}
	return nil
}

// jsonLine is one line of Extra-P's JSON-lines format; value is a number or a list.
type jsonLine struct {
	Params   map[string]float64 `json:"params"`
	Callpath *string            `json:"callpath"`
	Metric   *string            `json:"metric"`
	Value    json.RawMessage    `json:"value"`
}

// ReadJSONLines reads Extra-P's JSON-lines format: one object per line with "params" (an
// object of parameter values, the same names on every line), "value" (a number or a list of
// repetitions) and optional "callpath" (default "<root>") and "metric" (default
// "<default>"), as Extra-P's jsonlines_file_reader. Blank lines are skipped; unknown keys
// are refused.
func ReadJSONLines(file string, r io.Reader) (*Experiment, error) {
	e := &Experiment{File: file, Format: "jsonl"}
	b := newBuilder(e)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), MaxLineBytes)
	line := 0
	for sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		if k, _, dup := duplicateKey(raw); dup {
			return nil, errAt(file, line, "key %q given twice in one object (encoding/json would keep the last silently)", k)
		}
		var jl jsonLine
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&jl); err != nil {
			return nil, errAt(file, line, "%v", err)
		}
		if dec.More() {
			return nil, errAt(file, line, "more than one JSON value on the line")
		}
		if len(jl.Params) == 0 {
			return nil, errAt(file, line, "no \"params\"")
		}
		vals, err := jsonValues(jl.Value)
		if err != nil {
			return nil, errAt(file, line, "%v", err)
		}
		cp, mt := "<root>", "<default>"
		if jl.Callpath != nil {
			cp = *jl.Callpath
		}
		if jl.Metric != nil {
			mt = *jl.Metric
		}
		if err := b.add(file, line, jl.Params, cp, mt, vals); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, errAt(file, line+1, "%v (lines are limited to %d bytes)", err, MaxLineBytes)
	}
	if err := b.done(); err != nil {
		return nil, errAt(file, max(line, 1), "%v", err)
	}
	return e, finish(e, file, line)
}

// jsonValues decodes a number or a non-empty list of finite numbers.
func jsonValues(raw json.RawMessage) ([]float64, error) {
	if len(raw) == 0 {
		return nil, fmt.Errorf("no \"value\"")
	}
	var one float64
	if err := json.Unmarshal(raw, &one); err == nil {
		return []float64{one}, nil
	}
	var many []float64
	if err := json.Unmarshal(raw, &many); err != nil || len(many) == 0 {
		return nil, fmt.Errorf("\"value\" %s: want a number or a non-empty list of numbers", truncate(string(raw)))
	}
	return many, nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// builder collects measurements keyed by parameter values into an Experiment.
type builder struct {
	e      *Experiment
	names  []string // parameter names, sorted, fixed by the first line
	point  map[string]int
	series map[[2]string]*Series
	values int
	rows   map[*Series]map[int][]float64
}

func newBuilder(e *Experiment) *builder {
	return &builder{e: e, point: map[string]int{}, series: map[[2]string]*Series{}, rows: map[*Series]map[int][]float64{}}
}

func (b *builder) add(file string, line int, params map[string]float64, cp, mt string, vals []float64) error {
	if b.names == nil {
		for k := range params {
			b.names = append(b.names, k)
		}
		sort.Strings(b.names)
		if len(b.names) > MaxParameters {
			return errAt(file, line, "%d parameters: at most %d", len(b.names), MaxParameters)
		}
		b.e.Parameters = b.names
	}
	if len(params) != len(b.names) {
		return errAt(file, line, "parameters %v: the first line has %v", keys(params), b.names)
	}
	pt := make([]float64, len(b.names))
	for i, n := range b.names {
		v, ok := params[n]
		if !ok {
			return errAt(file, line, "parameters %v: the first line has %v", keys(params), b.names)
		}
		if !finiteNormal(v) {
			return errAt(file, line, "parameter %s = %g: not finite or subnormal", n, v)
		}
		pt[i] = v
	}
	for _, v := range vals {
		if !finiteNormal(v) {
			return errAt(file, line, "value %g: not finite or subnormal", v)
		}
	}
	b.values += len(vals)
	if b.values > MaxValues {
		return fmt.Errorf("%w: %s:%d: more than %d values", fault.ErrTooLarge, file, line, MaxValues)
	}
	key := fmt.Sprint(pt)
	pi, ok := b.point[key]
	if !ok {
		if len(b.e.Points) >= MaxPoints {
			return fmt.Errorf("%w: %s:%d: more than %d points", fault.ErrTooLarge, file, line, MaxPoints)
		}
		pi = len(b.e.Points)
		b.point[key] = pi
		b.e.Points = append(b.e.Points, pt)
		b.e.PointLine = append(b.e.PointLine, line)
	}
	s := b.series[[2]string{cp, mt}]
	if s == nil {
		if len(b.e.Series) >= MaxSeries {
			return fmt.Errorf("%w: %s:%d: more than %d series", fault.ErrTooLarge, file, line, MaxSeries)
		}
		s = &Series{Region: cp, Metric: mt, Line: line}
		b.series[[2]string{cp, mt}] = s
		b.rows[s] = map[int][]float64{}
		b.e.Series = append(b.e.Series, s)
	}
	b.rows[s][pi] = append(b.rows[s][pi], vals...)
	return nil
}

// done lays every series' values out by point index.
func (b *builder) done() error {
	for _, s := range b.e.Series {
		s.Values = make([][]float64, len(b.e.Points))
		for i, v := range b.rows[s] {
			s.Values[i] = v
		}
	}
	return nil
}

func keys(m map[string]float64) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	sort.Strings(k)
	return k
}

// jsonDoc is Extra-P's JSON format (the "new" one, json_file_reader's first branch).
type jsonDoc struct {
	Parameters   []string                                `json:"parameters"`
	Measurements map[string]map[string][]jsonMeasurement `json:"measurements"`
}

type jsonMeasurement struct {
	Point  []float64 `json:"point"`
	Values []float64 `json:"values"`
}

// ReadJSON reads Extra-P's JSON format {"parameters": [names], "measurements": {callpath:
// {metric: [{"point": [values], "values": [repetitions]}]}}}, its older id-linked format
// (a top-level "callpaths" key: readLegacyJSON) and, as Extra-P does, JSON lines saved as
// .json. The document is read whole
// (bounded by the caller's input limit); errors name the line of the offending byte.
func ReadJSON(file string, r io.Reader) (*Experiment, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20+1))
	if err != nil {
		return nil, errAt(file, 1, "%v", err)
	}
	if len(data) > 64<<20 {
		return nil, fmt.Errorf("%w: %s: larger than 64 MiB", fault.ErrTooLarge, file)
	}
	if k, off, dup := duplicateKey(data); dup {
		return nil, errAt(file, 1+bytes.Count(data[:off], []byte("\n")), "key %q given twice in one object (encoding/json would keep the last silently)", k)
	}
	if isLegacyJSON(data) {
		return readLegacyJSON(file, data)
	}
	if looksJSONLines(data) {
		return ReadJSONLines(file, bytes.NewReader(data))
	}
	var doc jsonDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		ln := lineOf(data, dec.InputOffset(), err)
		if _, f, ok := strings.Cut(err.Error(), "unknown field "); ok {
			if name, uerr := strconv.Unquote(f); uerr == nil {
				ln = lineOfString(data, name)
			}
		}
		return nil, errAt(file, ln, "%v", err)
	}
	e := &Experiment{File: file, Format: "json"}
	b := newBuilder(e)
	if len(doc.Parameters) == 0 || len(doc.Parameters) > MaxParameters {
		return nil, errAt(file, 1, "%d parameters: want 1 … %d", len(doc.Parameters), MaxParameters)
	}
	b.names, e.Parameters = doc.Parameters, doc.Parameters // points in the document's order
	cps := make([]string, 0, len(doc.Measurements))
	for cp := range doc.Measurements {
		cps = append(cps, cp)
	}
	sort.Strings(cps)
	for _, cp := range cps {
		mts := make([]string, 0, len(doc.Measurements[cp]))
		for mt := range doc.Measurements[cp] {
			mts = append(mts, mt)
		}
		sort.Strings(mts)
		ln := lineOfString(data, cp) // once per callpath: a search from the start of the document
		for _, mt := range mts {
			for _, m := range doc.Measurements[cp][mt] {
				if len(m.Point) != len(doc.Parameters) {
					return nil, errAt(file, ln, "region %q metric %q: point %v has %d values, want %d", cp, mt, m.Point, len(m.Point), len(doc.Parameters))
				}
				if len(m.Values) == 0 {
					return nil, errAt(file, ln, "region %q metric %q: point %v without values", cp, mt, m.Point)
				}
				params := map[string]float64{}
				for i, n := range doc.Parameters {
					params[n] = m.Point[i]
				}
				if len(params) != len(doc.Parameters) {
					return nil, errAt(file, 1, "a parameter name given twice: %v", doc.Parameters)
				}
				if err := b.add(file, ln, params, cp, mt, m.Values); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := b.done(); err != nil {
		return nil, err
	}
	return e, finish(e, file, 1)
}

// looksJSONLines: a .json file that is not one JSON document but JSON lines (more than one
// line, each non-blank one an object), which Extra-P's JSON reader also reads as JSON lines.
func looksJSONLines(data []byte) bool {
	if json.Valid(data) {
		return false
	}
	objects := 0
	for _, l := range bytes.Split(data, []byte("\n")) {
		l = bytes.TrimSpace(l)
		switch {
		case len(l) == 0:
		case l[0] == '{':
			objects++
		default:
			return false
		}
	}
	return objects > 1
}

// lineOf is the 1-based line of data at offset (for a syntax error its own offset).
func lineOf(data []byte, off int64, err error) int {
	if se, ok := err.(*json.SyntaxError); ok {
		off = se.Offset
	}
	if ue, ok := err.(*json.UnmarshalTypeError); ok {
		off = ue.Offset
	}
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// lineOfString is the line of the first occurrence of the JSON string s as a key (1 when
// not found).
func lineOfString(data []byte, s string) int {
	q, _ := json.Marshal(s)
	i := bytes.Index(data, q)
	if i < 0 {
		return 1
	}
	return 1 + bytes.Count(data[:i], []byte("\n"))
}

// ReadFile reads an Extra-P experiment by the name's extension: .jsonl → ReadJSONLines,
// .json → ReadJSON (case-insensitive), anything else → ReadText.
func ReadFile(name string, data []byte) (*Experiment, error) {
	switch strings.ToLower(filepathExt(name)) {
	case ".jsonl":
		return ReadJSONLines(name, bytes.NewReader(data))
	case ".json":
		return ReadJSON(name, bytes.NewReader(data))
	}
	return ReadText(name, bytes.NewReader(data))
}

func filepathExt(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 && !strings.ContainsAny(name[i:], "/\\") {
		return name[i:]
	}
	return ""
}

// jsonFrame is one open object or array of duplicateKey's walk.
type jsonFrame struct {
	obj     bool
	wantKey bool
	keys    map[string]bool
}

// duplicateKey walks the JSON tokens of data and returns the first key given twice in one
// object with the offset just after it (found false when none, or at a syntax error, which
// the decoder then reports).
func duplicateKey(data []byte) (key string, off int64, found bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var st []*jsonFrame
	valueDone := func() {
		if n := len(st); n > 0 && st[n-1].obj {
			st[n-1].wantKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", 0, false
		}
		if n := len(st); n > 0 && st[n-1].obj && st[n-1].wantKey {
			if k, ok := tok.(string); ok {
				if st[n-1].keys[k] {
					return k, dec.InputOffset(), true
				}
				st[n-1].keys[k], st[n-1].wantKey = true, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			st = append(st, &jsonFrame{obj: true, wantKey: true, keys: map[string]bool{}})
		case json.Delim('['):
			st = append(st, &jsonFrame{})
		case json.Delim('}'), json.Delim(']'):
			st = st[:len(st)-1]
			valueDone()
		default:
			valueDone()
		}
	}
}
