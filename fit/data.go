package fit

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Observation is one measured run.
type Observation struct {
	P, D  int
	Value float64 // time (s) or speedup, as Target says
	Line  int
}

// Data is a set of measurements of one quantity.
type Data struct {
	Target string // "time" or "speedup"
	Obs    []Observation
}

// ReadData reads CSV with a header naming p, optionally d (default 1), optionally run (a
// repetition id), and exactly one of time (seconds) or speedup. Repeated (p, d) rows are
// replicates and all are used; the same (p, d, run) twice with different values is a
// conflict. Non-positive values are refused. Errors name the file and line.
func ReadData(file string, r io.Reader) (*Data, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: want a header with columns p, [d], time or speedup: %v", file, err)
	}
	ip, id, iv, ir := -1, -1, -1, -1
	d := &Data{}
	for i, h := range head {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "p":
			ip = i
		case "d":
			id = i
		case "run", "rep", "repetition":
			ir = i
		case "time", "time_s":
			if iv >= 0 {
				return nil, fmt.Errorf("%s:1: give time or speedup, not both", file)
			}
			iv, d.Target = i, "time"
		case "speedup":
			if iv >= 0 {
				return nil, fmt.Errorf("%s:1: give time or speedup, not both", file)
			}
			iv, d.Target = i, "speedup"
		}
	}
	if ip < 0 || iv < 0 {
		return nil, fmt.Errorf("%s:1: header %q needs columns p and time (or speedup); d and run are optional", file, strings.Join(head, ","))
	}
	type key struct {
		p, d int
		run  string
	}
	seen := map[key]Observation{}
	var errs []error
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err) // csv.ParseError names the line
		}
		line, _ := cr.FieldPos(0)
		get := func(i int) string {
			if i < 0 || i >= len(rec) {
				return ""
			}
			return strings.TrimSpace(rec[i])
		}
		p, err := strconv.Atoi(get(ip))
		if err != nil || p < 1 {
			errs = append(errs, fmt.Errorf("%s:%d: p = %q must be a whole number ≥ 1", file, line, get(ip)))
			continue
		}
		dd := 1
		if id >= 0 {
			if dd, err = strconv.Atoi(get(id)); err != nil || dd < 1 {
				errs = append(errs, fmt.Errorf("%s:%d: d = %q must be a whole number ≥ 1", file, line, get(id)))
				continue
			}
		}
		v, err := strconv.ParseFloat(get(iv), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			errs = append(errs, fmt.Errorf("%s:%d: %s = %q must be a number > 0", file, line, d.Target, get(iv)))
			continue
		}
		o := Observation{P: p, D: dd, Value: v, Line: line}
		if ir >= 0 {
			k := key{p, dd, get(ir)}
			if prev, ok := seen[k]; ok && prev.Value != v {
				errs = append(errs, fmt.Errorf("%s:%d: p = %d, d = %d, run %q conflicts with line %d (%g vs %g)", file, line, p, dd, k.run, prev.Line, v, prev.Value))
				continue
			}
			seen[k] = o
		}
		d.Obs = append(d.Obs, o)
	}
	if len(d.Obs) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no measurements", file))
	}
	return d, errors.Join(errs...)
}
