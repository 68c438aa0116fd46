package extrap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

// TestLegacyJSON: Extra-P's own id-linked JSON test inputs (testdata/legacy, from
// extra-p/extrap tests/data/json; counts from Extra-P's tests/test_load_json_file.py and
// the files) are read and modelled. input_1.JSON holds the same measurements as the newer
// format's input1.json (sweep/time: 3.5, 5.5, 9.5, 17.5, 33.5 at x = 4 … 64, five
// repetitions each), so both read to the same points and values; input_12.JSON lists the
// parameters and each coordinate's pairs out of id order and reads as input_5.JSON does.
func TestLegacyJSON(t *testing.T) {
	for _, c := range []struct {
		file                   string
		params, points, series int
	}{
		{"legacy/input_1.JSON", 1, 5, 1},
		{"legacy/input_4.JSON", 1, 5, 4}, // {sweep, solve} × {time, flops}
		{"legacy/input_5.JSON", 2, 25, 1},
		{"legacy/input_12.JSON", 2, 25, 1},
	} {
		e := read(t, c.file)
		if len(e.Parameters) != c.params || len(e.Points) != c.points || len(e.Series) != c.series {
			t.Errorf("%s: %d parameters, %d points, %d series; want %d, %d, %d", c.file, len(e.Parameters), len(e.Points), len(e.Series), c.params, c.points, c.series)
		}
		for _, s := range e.Series {
			for i, v := range s.Values {
				if len(v) != 5 {
					t.Errorf("%s %s/%s: %d repetitions at %v, want 5", c.file, s.Region, s.Metric, len(v), e.Points[i])
				}
			}
		}
		m, err := Model(context.Background(), e)
		if err != nil || len(m.Models) != c.series || m.Metric != "time" {
			t.Errorf("%s: %v models, %v (want the time metric compared)", c.file, m, err)
		}
	}
	old, cur := read(t, "legacy/input_1.JSON"), read(t, "input1.json")
	if !reflect.DeepEqual(old.Points, cur.Points) || !reflect.DeepEqual(old.Series[0].Values, cur.Series[0].Values) || old.Series[0].Region != "sweep" || old.Series[0].Metric != "time" {
		t.Errorf("input_1.JSON %v %v, input1.json %v %v", old.Points, old.Series[0], cur.Points, cur.Series[0])
	}
	a, b := read(t, "legacy/input_5.JSON"), read(t, "legacy/input_12.JSON")
	if !reflect.DeepEqual(a.Parameters, []string{"x", "y"}) || !reflect.DeepEqual(a.Parameters, b.Parameters) || !reflect.DeepEqual(a.Points, b.Points) || !reflect.DeepEqual(a.Series[0].Values, b.Series[0].Values) {
		t.Errorf("input_12.JSON reads differently from input_5.JSON: %v %v", b.Parameters, b.Points[:2])
	}
}

// TestLegacyJSONHostile: Extra-P's input_11.JSON (coordinate 5, whose entry opens at line 45, has no
// measurement; Extra-P's test expects InvalidExperimentError) and damaged id-linked
// documents are refused naming file:line of the entry at fault.
func TestLegacyJSONHostile(t *testing.T) {
	e, err := ReadFile("testdata/legacy/input_11.JSON", readBytes(t, "legacy/input_11.JSON"))
	if e != nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "input_11.JSON:45: callpath \"sweep\" metric \"time\" has no measurement") {
		t.Errorf("input_11.JSON: %v", err)
	}
	const head = "{\n\"parameters\": [{\"id\": 1, \"name\": \"p\"}],\n\"callpaths\": [{\"id\": 1, \"name\": \"r\"}],\n\"metrics\": [{\"id\": 1, \"name\": \"time\"}],\n"
	const coords = "\"coordinates\": [\n{\"id\": 1, \"parameter_value_pairs\": [{\"parameter_id\": 1, \"parameter_value\": 1}]},\n{\"id\": 2, \"parameter_value_pairs\": [{\"parameter_id\": 1, \"parameter_value\": 2}]}\n],\n"
	const meas = "\"measurements\": [\n{\"callpath_id\": 1, \"coordinate_id\": 1, \"metric_id\": 1, \"value\": 4},\n{\"callpath_id\": 1, \"coordinate_id\": 2, \"metric_id\": 1, \"value\": 2}\n]\n}\n"
	if _, err := ReadFile("ok.json", []byte(head+coords+meas)); err != nil {
		t.Fatalf("the undamaged document: %v", err)
	}
	for _, c := range []struct{ name, old, new, want string }{
		{"dupid.json", "{\"id\": 2, \"parameter_value_pairs", "{\"id\": 1, \"parameter_value_pairs", "dupid.json:7: coordinate id 1 given twice (first at line 6)"},
		{"samevalues.json", "\"parameter_value\": 2", "\"parameter_value\": 1", "samevalues.json:7: coordinate 2 repeats the values [1]"},
		{"badref.json", "\"coordinate_id\": 2", "\"coordinate_id\": 3", "badref.json:11: measurement refers to callpath 1, metric 1, coordinate 3"},
		{"badparam.json", "\"parameter_id\": 1, \"parameter_value\": 2", "\"parameter_id\": 2, \"parameter_value\": 2", "badparam.json:7: coordinate 2: parameter id 2 is not in \"parameters\""},
		{"nopair.json", "{\"id\": 2, \"parameter_value_pairs\": [{\"parameter_id\": 1, \"parameter_value\": 2}]}", "{\"id\": 2, \"parameter_value_pairs\": []}", "nopair.json:7: coordinate 2 has no value of parameter p"},
		{"string.json", "\"value\": 2}", "\"value\": \"2\"}", "string.json:11: \"value\": want a number, not a JSON string"},
		{"unknown.json", "\"metric_id\": 1, \"value\": 2}", "\"metric_id\": 1, \"value\": 2, \"unit\": \"s\"}", "string.json:11: \"value\": want a number, not a JSON string"},
		{"novalue.json", "\"metric_id\": 1, \"value\": 2}", "\"metric_id\": 1}", "novalue.json:11: a measurement needs"},
		{"dupname.json", "[{\"id\": 1, \"name\": \"time\"}]", "[{\"id\": 1, \"name\": \"time\"}, {\"id\": 2, \"name\": \"time\"}]", "dupname.json:4: metric \"time\" given twice"},
		{"nomeas.json", "{\"callpath_id\": 1, \"coordinate_id\": 1, \"metric_id\": 1, \"value\": 4},\n{\"callpath_id\": 1, \"coordinate_id\": 2, \"metric_id\": 1, \"value\": 2}\n", "\n", "nomeas.json:1: 2 coordinates and 0 measurements"},
		{"missing.json", "{\"callpath_id\": 1, \"coordinate_id\": 2, \"metric_id\": 1, \"value\": 2}", "{\"callpath_id\": 1, \"coordinate_id\": 1, \"metric_id\": 1, \"value\": 2}", "missing.json:7: callpath \"r\" metric \"time\" has no measurement"},
	} {
		doc := strings.Replace(head+coords+meas, c.old, c.new, 1)
		if doc == head+coords+meas {
			t.Fatalf("%s: %q not in the document", c.name, c.old)
		}
		if c.name == "unknown.json" {
			c.want = "unknown.json:11: unknown field \"unit\""
		}
		e, err := ReadFile(c.name, []byte(doc))
		if e != nil || !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a refusal naming %q", c.name, err, c.want)
		}
	}
}

func readBytes(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestJSONLinesSavedAsJSON: Extra-P's JSON reader falls back to JSON lines when a .json
// file is not one document; so does ReadJSON (json_test_input.jsonl's first lines).
func TestJSONLinesSavedAsJSON(t *testing.T) {
	doc := "{\"params\":{\"x\":20},\"metric\":\"metr\",\"value\":82.00848518948744}\n{\"params\":{\"x\":30},\"metric\":\"metr\",\"value\":184.5140079299443}\n"
	e, err := ReadFile("lines.json", []byte(doc))
	if err != nil || e.Format != "jsonl" || len(e.Points) != 2 || e.Series[0].Metric != "metr" {
		t.Fatalf("%+v, %v: want the two lines read as JSON lines", e, err)
	}
}

// BenchmarkReadLegacyJSON: the id-linked reader on 10⁵ measurements (100 callpaths × 1
// metric × 10 coordinates × 100 repetitions, about 9 MB).
func BenchmarkReadLegacyJSON(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"parameters": [{"id": 1, "name": "p"}], "metrics": [{"id": 1, "name": "time"}], "callpaths": [`)
	for c := 1; c <= 100; c++ {
		fmt.Fprintf(&buf, "%s{\"id\": %d, \"name\": \"r%d\"}", map[bool]string{true: "", false: ","}[c == 1], c, c)
	}
	buf.WriteString("],\n\"coordinates\": [")
	for k := 1; k <= 10; k++ {
		fmt.Fprintf(&buf, "%s{\"id\": %d, \"parameter_value_pairs\": [{\"parameter_id\": 1, \"parameter_value\": %d}]}\n", map[bool]string{true: "", false: ","}[k == 1], k, 1<<k)
	}
	buf.WriteString("],\n\"measurements\": [")
	for i := 0; i < 100_000; i++ {
		fmt.Fprintf(&buf, "%s{\"callpath_id\": %d, \"coordinate_id\": %d, \"metric_id\": 1, \"value\": %d.5}\n", map[bool]string{true: "", false: ","}[i == 0], 1+i%100, 1+(i/100)%10, 1+i%7)
	}
	buf.WriteString("]}\n")
	data := buf.Bytes()
	for b.Loop() {
		if _, err := ReadJSON("big.json", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
