package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

type schemaInner struct {
	TimeS float64 `json:"time_s"`
}

type schemaDoc struct {
	Name  string         `json:"name"`
	Count int            `json:"count"`
	Opt   *float64       `json:"opt,omitempty"`
	Ptr   *schemaInner   `json:"ptr"`
	List  []schemaInner  `json:"list"`
	Map   map[string]int `json:"map,omitempty"`
	Notes []string       `json:"notes"`
}

type badKeys struct {
	X float64 `json:"XUpper"`
}

func loadSchema(t *testing.T, v reflect.Type) map[string]any {
	s, err := Schema("t", v)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(s)
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSchemaValidate: documents json.Marshal makes of the type validate; each kind of
// violation (missing key, unknown key, wrong type, wrong item type, two documents) is
// caught and named by its path.
func TestSchemaValidate(t *testing.T) {
	s := loadSchema(t, reflect.TypeFor[schemaDoc]())
	good, _ := json.Marshal(schemaDoc{Name: "a", Count: 2, List: []schemaInner{{1.5}}, Notes: []string{}})
	if err := ValidateJSON(s, good); err != nil {
		t.Fatalf("valid document refused: %v\n%s", err, good)
	}
	for _, c := range []struct{ doc, want string }{
		{`{"count": 1, "ptr": null, "list": [], "notes": []}`, `required key "name"`},
		{`{"name": "a", "count": 1, "ptr": null, "list": [], "notes": [], "Extra": 1}`, `key "Extra" is not in the schema`},
		{`{"name": "a", "count": 1.5, "ptr": null, "list": [], "notes": []}`, `$.count: number is not of type integer`},
		{`{"name": "a", "count": 1, "ptr": null, "list": [{"time_s": "x"}], "notes": []}`, `$.list[0].time_s`},
		{`{"name": "a", "count": 1, "ptr": {"time_s": true}, "list": [], "notes": []}`, `$.ptr.time_s`},
		{`{"name": "a", "count": 1, "ptr": null, "list": [], "notes": []} {}`, `more than one JSON document`},
	} {
		err := ValidateJSON(s, []byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.doc, err, c.want)
		}
	}
	if _, err := Schema("t", reflect.TypeFor[badKeys]()); err == nil {
		t.Error("a PascalCase key passed the snake_case check")
	}
}

// TestCheckFinite: NaN and ±Inf are found by JSON path in nested values, nil pointers and
// finite numbers pass, and Render refuses before writing anything.
func TestCheckFinite(t *testing.T) {
	inf := math.Inf(1)
	if err := CheckFinite(schemaDoc{List: []schemaInner{{1}}, Ptr: &schemaInner{2}}); err != nil {
		t.Errorf("finite value refused: %v", err)
	}
	for _, c := range []struct {
		v    any
		path string
	}{
		{schemaDoc{List: []schemaInner{{1}, {math.NaN()}}}, "$.list[1].time_s"},
		{schemaDoc{Ptr: &schemaInner{inf}}, "$.ptr.time_s"},
		{map[string]float64{"x": -inf}, "$[x]"},
	} {
		var nf *NonFiniteError
		if err := CheckFinite(c.v); !errors.As(err, &nf) || nf.Path != c.path {
			t.Errorf("%+v: got %v, want path %s", c.v, err, c.path)
		}
	}
	var b bytes.Buffer
	doc := &finiteDoc{X: math.NaN()}
	for _, f := range formats {
		if err := Render(&b, doc, Options{Format: f}); err == nil || b.Len() > 0 {
			t.Errorf("%s: NaN rendered: %v %q", f, err, b.String())
		}
	}
}

type finiteDoc struct {
	X float64 `json:"x"`
}

func (d *finiteDoc) Tables() []*Table {
	t := &Table{Header: []string{"x"}}
	t.Add(d.X)
	return []*Table{t}
}
func (d *finiteDoc) NoteLines() []string { return nil }
