package shard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/internal/atomicfile"
	"github.com/clusterperf/clusterperf/internal/input"
)

// MaxFileBytes bounds one shard file (64 MiB, internal/input's limit for any input): Run
// refuses to write a larger one (the shard fails, with the advice to split the study into
// more shards) and Read refuses to read one, with fault.ErrTooLarge. Reading a shard at the
// limit takes about a second (BenchmarkReadAtLimit).
const MaxFileBytes = 64 << 20

// MaxStudyBytes bounds the shard files of one study together (512 MiB): merge and
// merge --status hold every shard's items in memory, so a study beyond it is refused from
// the files' sizes before any is read.
const MaxStudyBytes = 512 << 20

// Item is one work item's result, as the command encoded it.
type Item struct {
	Index  int             `json:"index"`
	Result json.RawMessage `json:"result"`
}

// File is the content of shard-i-of-n.json.
type File struct {
	Manifest Manifest `json:"manifest"`
	Items    []Item   `json:"items"`
}

// Failure is the content of shard-i-of-n.failed: the shard's manifest, the item that failed
// and the error text.
type Failure struct {
	Manifest Manifest `json:"manifest"`
	Item     int      `json:"item"`
	Error    string   `json:"error"`
	Time     string   `json:"time"`
}

// WritePlan writes DIR/plan.json atomically, creating DIR. An existing plan must agree.
func WritePlan(dir string, p Plan) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, "plan.json")
	if old, err := ReadPlan(dir); err == nil {
		if d := old.diff(p); d != "" {
			return fmt.Errorf("%w: %s holds another study (%s); use a new directory", fault.ErrInput, path, d)
		}
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return writeJSON(path, p)
}

// ReadPlan reads DIR/plan.json (strictly: unknown fields are refused).
func ReadPlan(dir string) (Plan, error) {
	var p Plan
	path := filepath.Join(dir, "plan.json")
	if err := readJSON(path, &p); err != nil {
		return Plan{}, err
	}
	if p.Format != Format {
		return Plan{}, fmt.Errorf("%w: %s: format %q, want %q", fault.ErrInput, path, p.Format, Format)
	}
	if err := p.Spec.Validate(); err != nil {
		return Plan{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Run computes shard i of plan p into dir: work(k) for every item k of the shard's range, in
// order, then writes shard-i-of-n.json atomically. If work fails, Run writes the failure
// marker shard-i-of-n.failed instead (and returns the error); nothing else is left behind.
// A successful run removes an earlier failure marker of the same shard.
func Run(dir string, p Plan, i int, work func(k int) (json.RawMessage, error)) error {
	r, err := p.Spec.Range(i)
	if err != nil {
		return err
	}
	m := Manifest{Plan: p, PlanSHA256: p.Hash(), I: i, Range: r}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f := File{Manifest: m, Items: make([]Item, 0, r.Len())}
	for k := r.Lo; k < r.Hi; k++ {
		res, err := work(k)
		if err == nil && !json.Valid(res) {
			err = fmt.Errorf("item %d: result is not valid JSON", k)
		}
		if err != nil {
			fl := Failure{Manifest: m, Item: k, Error: err.Error(), Time: time.Now().UTC().Format(time.RFC3339)}
			if werr := writeJSON(filepath.Join(dir, failedName(i, p.N)), fl); werr != nil {
				return errors.Join(err, werr)
			}
			return fmt.Errorf("shard %d/%d, item %d: %w", i, p.N, k, err)
		}
		f.Items = append(f.Items, Item{Index: k, Result: res})
	}
	if err := writeJSON(filepath.Join(dir, FileName(i, p.N)), f); err != nil {
		if errors.Is(err, fault.ErrTooLarge) { // a failed shard, not a file no merge could read
			fl := Failure{Manifest: m, Item: r.Hi - 1, Error: err.Error(), Time: time.Now().UTC().Format(time.RFC3339)}
			if werr := writeJSON(filepath.Join(dir, failedName(i, p.N)), fl); werr != nil {
				return errors.Join(err, werr)
			}
			return fmt.Errorf("shard %d/%d: %w", i, p.N, err)
		}
		return err
	}
	if err := os.Remove(filepath.Join(dir, failedName(i, p.N))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Read reads and checks one shard file: strict JSON, the manifest's range is shard i of its
// spec, and the items are exactly that range in order.
func Read(path string) (*File, error) {
	var f File
	if err := readJSON(path, &f); err != nil {
		return nil, err
	}
	m := f.Manifest
	if m.Format != Format {
		return nil, fmt.Errorf("%w: %s: format %q, want %q", fault.ErrInput, path, m.Format, Format)
	}
	r, err := m.Spec.Range(m.I)
	if err != nil {
		return nil, fmt.Errorf("%s: manifest: %w", path, err)
	}
	if r != m.Range {
		return nil, fmt.Errorf("%w: %s: manifest range [%d, %d) is not shard %d of %d items over %d shards ([%d, %d))",
			fault.ErrInput, path, m.Lo, m.Hi, m.I, m.Items, m.N, r.Lo, r.Hi)
	}
	if HashArgs(m.Command, m.Args) != m.ArgsHash {
		return nil, fmt.Errorf("%w: %s: args_sha256 does not match command and args", fault.ErrInput, path)
	}
	if m.PlanSHA256 != m.Plan.Hash() {
		return nil, fmt.Errorf("%w: %s: plan_sha256 %q does not match the manifest's plan (%.12s…): the file was edited, or written by a version without plan hashes; run the shard again", fault.ErrInput, path, m.PlanSHA256, m.Plan.Hash())
	}
	if len(f.Items) != r.Len() {
		return nil, fmt.Errorf("%w: %s: %d items, the range [%d, %d) has %d", fault.ErrInput, path, len(f.Items), r.Lo, r.Hi, r.Len())
	}
	for j, it := range f.Items {
		if it.Index != r.Lo+j {
			return nil, fmt.Errorf("%w: %s: item %d has index %d, want %d (each item exactly once, in order)", fault.ErrInput, path, j, it.Index, r.Lo+j)
		}
		if len(it.Result) == 0 {
			return nil, fmt.Errorf("%w: %s: item %d has no result", fault.ErrInput, path, it.Index)
		}
	}
	return &f, nil
}

// Merged is a whole study: the plan every shard agreed on and each item's result in index order.
type Merged struct {
	Plan  Plan              `json:"plan"`
	Items []json.RawMessage `json:"items"`
}

// Merge reads every shard file of the study in dir and returns its items in index order. It
// refuses (fault.ErrInput) shards of different studies (any plan field differs, including the
// plan.json when present), shard files for different shard counts, and a study with a shard
// missing or failed — naming them — so a partial study is never mistaken for a result.
func Merge(dir string) (*Merged, error) {
	st, files, err := scan(dir)
	if err != nil {
		return nil, err
	}
	if len(st.Missing) > 0 || len(st.Failed) > 0 {
		return nil, fmt.Errorf("%w: %s: study incomplete: %s; run `clusterperf merge --status %s`", fault.ErrInput, dir, st.Summary(), dir)
	}
	m := &Merged{Plan: st.Plan, Items: make([]json.RawMessage, 0, st.Plan.Items)}
	for _, f := range files {
		for _, it := range f.Items {
			m.Items = append(m.Items, it.Result)
		}
	}
	if len(m.Items) != st.Plan.Items {
		return nil, fmt.Errorf("%w: %s: %d items from the shards, the plan has %d", fault.ErrInput, dir, len(m.Items), st.Plan.Items)
	}
	return m, nil
}

// Status is the state of a study directory's shards.
type Status struct {
	Plan    Plan              `json:"plan"`
	Done    []int             `json:"done"`
	Failed  []int             `json:"failed"`
	Missing []int             `json:"missing"`
	Errors  map[string]string `json:"errors,omitempty"` // shard index → failure text
	Partial []string          `json:"partial_files,omitempty"`
}

// Summary is a one-line account: "5 of 8 shards done; failed: 3; missing: 6, 7".
func (s *Status) Summary() string {
	out := fmt.Sprintf("%d of %d shards done", len(s.Done), s.Plan.N)
	if len(s.Failed) > 0 {
		out += "; failed: " + joinInts(s.Failed)
	}
	if len(s.Missing) > 0 {
		out += "; missing: " + joinInts(s.Missing)
	}
	return out
}

// Complete reports whether every shard is done.
func (s *Status) Complete() bool { return len(s.Done) == s.Plan.N }

// Todo is the shards to (re)run: failed and missing, in order.
func (s *Status) Todo() []int {
	t := append(append([]int(nil), s.Failed...), s.Missing...)
	sort.Ints(t)
	return t
}

// ReadStatus lists the done, failed and missing shards of the study in dir. The plan comes
// from plan.json or, without one, from the shard files (which must then agree).
func ReadStatus(dir string) (*Status, error) {
	st, _, err := scan(dir)
	return st, err
}

var shardName = regexp.MustCompile(`^shard-(\d+)-of-(\d+)\.(json|failed)$`)

// scan reads a study directory: its plan (plan.json, or that of the shard files, which
// must agree), and which shards are done, failed or missing.
func scan(dir string) (*Status, []*File, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: study directory: %v", fault.ErrInput, err)
	}
	plan, perr := ReadPlan(dir)
	if perr != nil && !errors.Is(perr, fs.ErrNotExist) {
		return nil, nil, perr
	}
	pa := &planAgreement{}
	if perr == nil {
		pa.plan, pa.have, pa.from = plan, true, filepath.Join(dir, "plan.json")
	}
	if err := studySize(dir, ents); err != nil {
		return nil, nil, err
	}
	st := &Status{Errors: map[string]string{}}
	done, failed, err := scanEntries(dir, ents, st, pa)
	if err != nil {
		return nil, nil, err
	}
	if !pa.have {
		return nil, nil, fmt.Errorf("%w: %s: no plan.json and no shard files: not a study directory", fault.ErrInput, dir)
	}
	if err := sameN(dir, ents, pa.plan.N); err != nil {
		return nil, nil, err
	}
	st.Plan = pa.plan
	files := make([]*File, 0, len(done))
	for i := 0; i < pa.plan.N; i++ {
		switch {
		case done[i] != nil:
			st.Done = append(st.Done, i)
			files = append(files, done[i])
			delete(st.Errors, strconv.Itoa(i)) // a stale marker next to a result (rerun succeeded)
		case failed[i]:
			st.Failed = append(st.Failed, i)
		default:
			st.Missing = append(st.Missing, i)
		}
	}
	return st, files, nil
}

// planAgreement is the study's plan as far as known (have), and the file it came from:
// plan.json, or the first shard or failure marker read.
type planAgreement struct {
	plan Plan
	have bool
	from string
}

// agree takes p (read from path) as the plan when none is known yet, and otherwise refuses
// (ErrInput) a plan that differs: the files belong to different studies.
func (pa *planAgreement) agree(path string, p Plan) error {
	if !pa.have {
		pa.plan, pa.have, pa.from = p, true, path
		return nil
	}
	if d := pa.plan.diff(p); d != "" {
		return fmt.Errorf("%w: %s and %s belong to different studies (%s)", fault.ErrInput, pa.from, path, d)
	}
	return nil
}

// scanEntries reads the directory's shard results and failure markers (each of the same
// study, a result holding the shard its name says) and notes partial writes (.tmp-*) in
// st; it returns the results and the failed shards by index, the failures' messages in
// st.Errors.
func scanEntries(dir string, ents []fs.DirEntry, st *Status, pa *planAgreement) (map[int]*File, map[int]bool, error) {
	done := map[int]*File{}
	failed := map[int]bool{}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".tmp-") {
			st.Partial = append(st.Partial, name)
			continue
		}
		g := shardName.FindStringSubmatch(name)
		if g == nil {
			continue
		}
		path := filepath.Join(dir, name)
		i, _ := strconv.Atoi(g[1])
		if g[3] == "json" {
			f, err := Read(path)
			if err != nil {
				return nil, nil, err
			}
			if err := pa.agree(path, f.Manifest.Plan); err != nil {
				return nil, nil, err
			}
			if f.Manifest.I != i || f.Manifest.N != mustAtoi(g[2]) {
				return nil, nil, fmt.Errorf("%w: %s holds shard %d of %d", fault.ErrInput, path, f.Manifest.I, f.Manifest.N)
			}
			done[i] = f
			continue
		}
		msg, err := readFailure(path, i, pa.agree)
		if err != nil {
			return nil, nil, err
		}
		failed[i] = true
		st.Errors[strconv.Itoa(i)] = msg
	}
	return done, failed, nil
}

// readFailure reads shard i's failure marker at path, checks that it belongs to the study
// (agree) and names shard i, and returns its account of the failure.
func readFailure(path string, i int, agree func(string, Plan) error) (string, error) {
	var fl Failure
	if err := readJSON(path, &fl); err != nil {
		return "", err
	}
	if err := agree(path, fl.Manifest.Plan); err != nil {
		return "", err
	}
	if fl.Manifest.I != i {
		return "", fmt.Errorf("%w: %s holds shard %d", fault.ErrInput, path, fl.Manifest.I)
	}
	return fmt.Sprintf("item %d: %s", fl.Item, fl.Error), nil
}

// sameN refuses a shard file whose name is for another number of shards than the study's n.
func sameN(dir string, ents []fs.DirEntry, n int) error {
	for _, e := range ents {
		if g := shardName.FindStringSubmatch(e.Name()); g != nil && mustAtoi(g[2]) != n {
			return fmt.Errorf("%w: %s is for %s shards, the study has %d", fault.ErrInput, filepath.Join(dir, e.Name()), g[2], n)
		}
	}
	return nil
}

// studySize refuses a study whose shard files add up to more than MaxStudyBytes, from
// their sizes, before any is read.
func studySize(dir string, ents []fs.DirEntry) error {
	var total int64
	for _, e := range ents {
		if !shardName.MatchString(e.Name()) {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			total += info.Size()
		}
	}
	if total > MaxStudyBytes {
		return fmt.Errorf("%w: %s: the shard files hold %d bytes, more than the %d a study may have (merge holds every item in memory)", fault.ErrTooLarge, dir, total, int64(MaxStudyBytes))
	}
	return nil
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

func joinInts(xs []int) string {
	var b []byte
	for j, x := range xs {
		if j > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}

// writeJSON writes v to path atomically (internal/atomicfile: a temporary in the same
// directory, synced and renamed), so readers see either the old state or the whole new
// file. The temporary is named ".tmp-FILE-…", which Status reports as a partial shard.
func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(data) >= MaxFileBytes {
		return fmt.Errorf("%w: %s: %d bytes of results, more than the %d a shard file may have: split the study into more shards (a larger N in --shard i/N)", fault.ErrTooLarge, path, len(data), MaxFileBytes)
	}
	return atomicfile.WriteTemp(path, ".tmp-"+filepath.Base(path)+"-", func(f *os.File) error {
		_, err := f.Write(append(data, '\n'))
		return err
	})
}

// readJSON decodes one JSON value from path strictly (unknown fields and trailing data are
// refused), within MaxFileBytes. Only a regular file is read (internal/input.ReadRegular):
// a FIFO, device or directory under a shard's name is refused at once, never waited on.
func readJSON(path string, v any) error {
	data, err := input.ReadRegular(path, MaxFileBytes)
	if err != nil {
		return err
	}
	return decodeStrict(path, data, v)
}

func decodeStrict(path string, data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %s", fault.ErrInput, jsonProblem(path, data, err))
	}
	if dec.More() {
		return fmt.Errorf("%w: %s: data after the JSON value", fault.ErrInput, path)
	}
	return nil
}

// jsonProblem says what is wrong with a study file's JSON in the file's terms — file:line,
// the key and the kind of value wanted — never Go's type names ("Go struct field
// Manifest.i of type int").
func jsonProblem(path string, data []byte, err error) string {
	var se *json.SyntaxError
	var ue *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%s:%d: not JSON: %s", path, input.Line(data, se.Offset), strings.TrimPrefix(se.Error(), "json: "))
	case errors.As(err, &ue):
		return fmt.Sprintf("%s:%d: %s: want %s, not a JSON %s", path, input.Line(data, ue.Offset), jsonPath(ue.Field), kindWord(ue.Type.Kind()), ue.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return fmt.Sprintf("%s: unknown key %s", path, strings.TrimPrefix(err.Error(), "json: unknown field "))
	case err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("%s: the JSON ends early (a file cut short?)", path)
	}
	return fmt.Sprintf("%s: %s", path, strings.TrimPrefix(err.Error(), "json: "))
}

// jsonPath is json's field path without the Go names of embedded structs (the files' keys
// are snake_case): "manifest.Plan.Spec.items" → "manifest.items".
func jsonPath(field string) string {
	var keep []string
	for _, k := range strings.Split(field, ".") {
		if k != "" && !unicode.IsUpper([]rune(k)[0]) {
			keep = append(keep, k)
		}
	}
	return strings.Join(keep, ".")
}

// kindWord names a JSON value of a Go kind.
func kindWord(k reflect.Kind) string {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
