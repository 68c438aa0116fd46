package report

import (
	"encoding/json"
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
	skip  int
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
