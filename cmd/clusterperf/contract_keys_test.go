package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// mapKeys are the JSON objects whose keys are data (a Go map in the result type: the
// schema's additionalProperties is a schema), by schema file and path. The contract
// (ARCHITECTURE.md, "The output contract"): a name the user chose — a station, class,
// stage, process or MPI operation — is a value, in an array of objects with a name field,
// never a key. A map is allowed only when its keys are the program's own snake_case
// vocabulary; the pending ones key by user names in a library struct and wait for their
// package (the reason names it).
var mapKeys = map[string]struct {
	pending bool
	reason  string
}{
	"fit.schema.json /properties/loo_rms_rel_error":                    {false, "keys are the SPMD architectures fit tried (bus-sio, …: the program's names)"},
	"pipeline.schema.json /$defs/pipelineapp_Fit/properties/constants": {false, "keys are the pipeline model's constant names (c_m, b_gather: the program's vocabulary)"},
}

// answerFacts: the answer's facts (report.Facts) in every schema: keys are package answer's
// own snake_case names with their units (bottleneck, throughput_ceiling_per_s, …); a
// station's name is a value.
const answerFacts = "/$defs/report_Answer/properties/facts"

func init() {
	for s := range resultTypes {
		mapKeys[s+".schema.json "+answerFacts] = struct {
			pending bool
			reason  string
		}{false, "keys are package answer's own snake_case fact names with their units"}
	}
}

// TestNoUserNamesAsKeys (review leftover, JSON keys from user names): every map in a
// command's schema is listed in mapKeys; pipeline's fixed times, keyed by the file's names
// ("last block") before, are an array of {name, time_s}.
func TestNoUserNamesAsKeys(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s: %v", schemaDir, err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s any
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, path := range schemaMaps(s, "") {
			key := filepath.Base(f) + " " + path
			seen[key] = true
			switch mk, ok := mapKeys[key]; {
			case !ok:
				t.Errorf("%s: an object keyed by data (a Go map): make it an array of objects with a name field, or list it in mapKeys with the reason its keys are the program's own names", key)
			case mk.pending:
				t.Logf("pending: %s: %s", key, mk.reason)
			}
		}
	}
	for key := range mapKeys {
		if !seen[key] {
			t.Errorf("mapKeys lists %s, which no schema has any more: remove it", key)
		}
	}
}

// schemaMaps returns the paths (JSON pointer style) of the object schemas whose
// additionalProperties is itself a schema: a map.
func schemaMaps(v any, path string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		if ap, ok := x["additionalProperties"]; ok && ap != false {
			out = append(out, path)
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			out = append(out, schemaMaps(x[k], path+"/"+k)...)
		}
	case []any:
		for i, e := range x {
			out = append(out, schemaMaps(e, path+"/"+itoa(i))...)
		}
	}
	return out
}
