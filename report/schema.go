package report

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// Schema returns the JSON Schema (draft 2020-12 subset: type, properties, required,
// additionalProperties, items, $defs/$ref) of the JSON encoding/json makes of a value of
// type t. Fields without omitempty are required; pointers and omitempty fields are
// optional; unexported and "-" fields are left out; embedded structs are flattened, as
// encoding/json does. Named struct types become $defs entries (so recursion terminates).
// It fails when a key is not snake_case ([a-z][a-z0-9_]*): the output contract.
func Schema(title string, t reflect.Type) (map[string]any, error) {
	return schema(title, t, true)
}

// SchemaLax is Schema without the snake_case check, for result types that still hold a
// library struct with other keys (to be fixed in that library).
func SchemaLax(title string, t reflect.Type) (map[string]any, error) {
	return schema(title, t, false)
}

func schema(title string, t reflect.Type, strict bool) (map[string]any, error) {
	g := &schemaGen{defs: map[string]any{}, strict: strict}
	root, err := g.of(t, true)
	if err != nil {
		return nil, err
	}
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = title
	if len(g.defs) > 0 {
		root["$defs"] = g.defs
	}
	return root, nil
}

var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

type schemaGen struct {
	defs   map[string]any
	strict bool
}

// schemaer is a type that states its own JSON schema (its MarshalJSON is not its fields').
type schemaer interface{ JSONSchema() map[string]any }

func (g *schemaGen) of(t reflect.Type, top bool) (map[string]any, error) {
	if s, ok := reflect.Zero(t).Interface().(schemaer); ok && t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		return s.JSONSchema(), nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		in, err := g.of(t.Elem(), top)
		if err != nil || top {
			return in, err
		}
		return map[string]any{"anyOf": []any{map[string]any{"type": "null"}, in}}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Slice, reflect.Array:
		it, err := g.of(t.Elem(), false)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": []any{"array", "null"}, "items": it}, nil
	case reflect.Map:
		it, err := g.of(t.Elem(), false)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "additionalProperties": it}, nil
	case reflect.Struct:
		if top || t.Name() == "" {
			return g.object(t)
		}
		name := strings.ReplaceAll(t.String(), ".", "_")
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = nil // placeholder: recursion stops here
			o, err := g.object(t)
			if err != nil {
				return nil, err
			}
			g.defs[name] = o
		}
		return map[string]any{"$ref": "#/$defs/" + name}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	}
	return nil, fmt.Errorf("schema: type %s (%s) has no JSON schema here", t, t.Kind())
}

func (g *schemaGen) object(t reflect.Type) (map[string]any, error) {
	props, required := map[string]any{}, []string{}
	if err := g.fields(t, props, &required); err != nil {
		return nil, err
	}
	sort.Strings(required)
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}, nil
}

func (g *schemaGen) fields(t reflect.Type, props map[string]any, required *[]string) error {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		ft := f.Type
		if f.Anonymous && name == "" {
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if err := g.fields(ft, props, required); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if g.strict && !snakeKey.MatchString(name) {
			return fmt.Errorf("schema: %s.%s: JSON key %q is not snake_case", t, f.Name, name)
		}
		s, err := g.of(ft, false)
		if err != nil {
			return err
		}
		props[name] = s
		if !strings.Contains(opts, "omitempty") && ft.Kind() != reflect.Pointer {
			*required = append(*required, name)
		}
	}
	return nil
}

// ValidateJSON checks the JSON document doc against schema (the subset Schema writes:
// type, properties, required, additionalProperties, items, $ref into $defs). It returns
// the first violation with its JSON path.
func ValidateJSON(schema map[string]any, doc []byte) error {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(doc)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON document")
	}
	defs, _ := schema["$defs"].(map[string]any)
	return validateNode(schema, defs, v, "$")
}

func validateNode(s map[string]any, defs map[string]any, v any, path string) error {
	if ref, ok := s["$ref"].(string); ok {
		d, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: schema $ref %s not found", path, ref)
		}
		return validateNode(d, defs, v, path)
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var first error
		for _, a := range alts {
			am, _ := a.(map[string]any)
			err := validateNode(am, defs, v, path)
			if err == nil {
				return nil
			}
			if first == nil || jsonKind(v) != "null" {
				first = err
			}
		}
		return first
	}
	if t, ok := s["type"]; ok && !typeMatches(t, v) {
		return fmt.Errorf("%s: %s is not of type %v", path, jsonKind(v), t)
	}
	switch x := v.(type) {
	case map[string]any:
		return validateObject(s, defs, x, path)
	case []any:
		if it, ok := s["items"].(map[string]any); ok {
			for i, e := range x {
				if err := validateNode(it, defs, e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func validateObject(s map[string]any, defs map[string]any, x map[string]any, path string) error {
	props, _ := s["properties"].(map[string]any)
	req, _ := s["required"].([]any)
	for _, r := range req {
		if _, ok := x[r.(string)]; !ok {
			return fmt.Errorf("%s: required key %q missing", path, r)
		}
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var sub map[string]any
		if p, ok := props[k].(map[string]any); ok {
			sub = p
		} else {
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: key %q is not in the schema", path, k)
				}
			case map[string]any:
				sub = ap
			}
		}
		if sub != nil {
			if err := validateNode(sub, defs, x[k], path+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}

func typeMatches(t any, v any) bool {
	switch tt := t.(type) {
	case string:
		return kindIs(tt, v)
	case []any:
		for _, e := range tt {
			if s, ok := e.(string); ok && kindIs(s, v) {
				return true
			}
		}
	}
	return false
}

func kindIs(t string, v any) bool {
	k := jsonKind(v)
	return k == t || (t == "number" && k == "integer")
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := x.Int64(); err == nil && !strings.ContainsAny(x.String(), ".eE") {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
