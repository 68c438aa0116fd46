package pipeline

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Measurement is one measured run: cluster size and wall time in seconds.
type Measurement struct {
	P    int
	Time float64
	Line int // line in the CSV file
}

// ReadMeasurements reads CSV with a header naming columns p and time (seconds); other
// columns are ignored. Errors name the file, line and column.
func ReadMeasurements(file string, r io.Reader) ([]Measurement, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.Comment = '#'
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: want a header with columns p and time: %v", file, err)
	}
	ip, it := -1, -1
	for i, h := range head {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "p":
			ip = i
		case "time", "time_s", "measured", "measured_time":
			it = i
		}
	}
	if ip < 0 || it < 0 {
		return nil, fmt.Errorf("%s:1: header %q needs columns p and time", file, strings.Join(head, ","))
	}
	var out []Measurement
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
		if len(rec) <= max(ip, it) {
			errs = append(errs, fmt.Errorf("%s:%d: want at least %d columns, got %d", file, line, max(ip, it)+1, len(rec)))
			continue
		}
		p, err := strconv.Atoi(strings.TrimSpace(rec[ip]))
		if err != nil || p < 1 {
			errs = append(errs, fmt.Errorf("%s:%d: p = %q must be a whole number ≥ 1", file, line, rec[ip]))
			continue
		}
		t, err := strconv.ParseFloat(strings.TrimSpace(rec[it]), 64)
		if err != nil || !(t > 0) || math.IsInf(t, 0) {
			errs = append(errs, fmt.Errorf("%s:%d: time = %q must be a number of seconds > 0", file, line, rec[it]))
			continue
		}
		out = append(out, Measurement{P: p, Time: t, Line: line})
	}
	if len(out) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no measurements", file))
	}
	return out, errors.Join(errs...)
}
