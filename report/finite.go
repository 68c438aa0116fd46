package report

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// NonFiniteError names the first NaN or ±Inf found in a result value, by its JSON path.
type NonFiniteError struct {
	Path  string
	Value float64
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("result field %s is %v: not a number that can be printed (a library answered without refusing the input)", e.Path, e.Value)
}

// CheckFinite walks v as encoding/json would (exported fields, their JSON names, pointers,
// slices, maps) and returns a *NonFiniteError for the first NaN or ±Inf, so no format
// prints a non-finite number as a result (JSON could not, and tables and CSV must not
// either).
func CheckFinite(v any) error {
	return finite(reflect.ValueOf(v), "$")
}

func finite(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return finite(v.Elem(), path)
	case reflect.Float32, reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return &NonFiniteError{Path: path, Value: f}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return nil
		}
		for i := 0; i < v.Len(); i++ {
			if err := finite(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if err := finite(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key())); err != nil {
				return err
			}
		}
	case reflect.Struct:
		return finiteStruct(v, path)
	}
	return nil
}

func finiteStruct(v reflect.Value, path string) error {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		p := path
		if !f.Anonymous || name != "" {
			p = path + "." + cmpOr(name, f.Name)
		}
		if err := finite(v.Field(i), p); err != nil {
			return err
		}
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
