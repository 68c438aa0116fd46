package scaling

import (
	"bufio"
	"fmt"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/internal/units"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/clusterperf/clusterperf/fault"
)

// MaxRows bounds the rows ReadCSV accepts (a scaling study has tens of runs, not millions).
const MaxRows = 100000

// MaxDistinctP bounds the distinct process counts of a data set. Selection cross-validates
// every candidate model with a refit per distinct p (forward chaining and leave-one-out), so
// its work grows with the square of the distinct p (hostile review: 100 distinct p took
// 6.6 s, 100 000 rows all distinct over 56 s, deaf to Ctrl-C). Scaling studies measure
// a handful of p (the corpus sets have at most 11); 32 keeps a fit at MaxRows rows within
// about a second (BenchmarkFitMaxDistinctP). More are refused naming the file and line.
const MaxDistinctP = 32

// MaxTimeSpan bounds the ratio of the largest to the smallest time of a data set (100
// orders of magnitude): beyond it the fitted coefficients and their squares overflow
// (hostile review: times 10, 1e308, 3 printed a loo_rms_log_error of +Inf and exited 1).
// Any one unit is allowed (times of 1e-300 s or 1e300 s fit, scale_test.go); only the span
// is bounded.
const MaxTimeSpan = 1e100

// Point is one measured run: p processes took TimeS (seconds, or any one time unit for the
// whole data set).
type Point struct {
	P     int     `json:"p"`
	TimeS float64 `json:"time_s"`
}

// Data is a scaling data set. Replicates are repeated P values.
type Data struct {
	Name string `json:"name"`
	// Scaling is "strong", "weak" or "" (unknown: Fit infers it from the trend).
	Scaling string            `json:"scaling,omitempty"`
	Meta    map[string]string `json:"meta,omitempty"` // "# key: value" header lines
	Points  []Point           `json:"points"`
}

// ReadCSV reads a scaling data set: a header line "p,time" (or "p,time_s"), then one "p,time"
// row per run; p a positive integer, time a positive finite number. Lines starting with '#'
// are comments; a comment "# key: value" is kept in Meta, and "# scaling: strong|weak" sets
// Scaling. Blank lines are skipped. Errors wrap fault.ErrInput and name file:line.
func ReadCSV(file string, r io.Reader) (*Data, error) {
	d := &Data{Name: file, Meta: map[string]string{}}
	sc := bufio.NewScanner(spec.SkipBOM(r))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	line, header := 0, false
	seen := map[int]bool{}
	minAt, maxAt, minLine, maxLine := 0, 0, 0, 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" {
			continue
		}
		if strings.HasPrefix(s, "#") {
			if err := d.comment(s, file, line); err != nil {
				return nil, err
			}
			continue
		}
		f := strings.Split(s, ",")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		if !header {
			if len(f) != 2 || strings.ToLower(f[0]) != "p" || (strings.ToLower(f[1]) != "time" && strings.ToLower(f[1]) != "time_s") {
				return nil, fmt.Errorf("%w: %s:%d: header %q: want \"p,time\"", fault.ErrInput, file, line, s)
			}
			header = true
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("%w: %s:%d: %d fields: want 2 (p,time)", fault.ErrInput, file, line, len(f))
		}
		if len(d.Points) >= MaxRows {
			return nil, fmt.Errorf("%w: %s:%d: more than %d rows", fault.ErrTooLarge, file, line, MaxRows)
		}
		p, t, err := csvRow(f, file, line)
		if err != nil {
			return nil, err
		}
		if !seen[p] {
			if len(seen) == MaxDistinctP {
				return nil, fmt.Errorf("%w: %s:%d: p = %d is distinct p number %d: at most %d distinct process counts are fitted (cross-validation refits every model once per distinct p); average or drop some p", fault.ErrTooLarge, file, line, p, MaxDistinctP+1, MaxDistinctP)
			}
			seen[p] = true
		}
		if len(d.Points) == 0 || t < d.Points[minAt].TimeS {
			minAt, minLine = len(d.Points), line
		}
		if len(d.Points) == 0 || t > d.Points[maxAt].TimeS {
			maxAt, maxLine = len(d.Points), line
		}
		d.Points = append(d.Points, Point{P: p, TimeS: t})
	}
	if len(d.Points) > 0 && d.Points[maxAt].TimeS/d.Points[minAt].TimeS > MaxTimeSpan {
		return nil, fmt.Errorf("%w: %s:%d: time %g is more than %g times the time %g at line %d: times spanning more than 100 orders of magnitude overflow the fit (is one time in the wrong unit?)", fault.ErrInput, file, maxLine, d.Points[maxAt].TimeS, MaxTimeSpan, d.Points[minAt].TimeS, minLine)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s:%d: %v", fault.ErrInput, file, line+1, err)
	}
	if !header {
		return nil, fmt.Errorf("%w: %s: no header \"p,time\"", fault.ErrInput, file)
	}
	if len(d.Points) == 0 {
		return nil, fmt.Errorf("%w: %s: no data rows", fault.ErrInput, file)
	}
	return d, nil
}

// comment reads a comment line of ReadCSV: "# key: value" (key without blanks) is kept in
// Meta, and "# scaling: strong|weak" sets Scaling; other comments are ignored.
func (d *Data) comment(s, file string, line int) error {
	kv := strings.TrimSpace(s[1:])
	k, v, ok := strings.Cut(kv, ":")
	if !ok || strings.ContainsAny(k, " \t") || k == "" {
		return nil
	}
	k, v = strings.ToLower(k), strings.TrimSpace(v)
	d.Meta[k] = v
	if k == "scaling" {
		switch v {
		case "strong", "weak":
			d.Scaling = v
		default:
			return fmt.Errorf("%w: %s:%d: scaling %q: allowed strong or weak", fault.ErrInput, file, line, v)
		}
	}
	return nil
}

// csvRow reads the fields "p,time" of a data row: p an integer from 1 to 2^30, time a
// positive finite duration (seconds, or with a unit: 2500ms, 1.2min).
func csvRow(f []string, file string, line int) (int, float64, error) {
	p, err := strconv.Atoi(f[0])
	if err != nil || p < 1 || p > 1<<30 {
		return 0, 0, fmt.Errorf("%w: %s:%d: p %q: want an integer from 1 to 2^30", fault.ErrInput, file, line, f[0])
	}
	t, err := units.Duration(f[1])
	if err != nil || !(t > 0) || math.IsInf(t, 0) {
		return 0, 0, fmt.Errorf("%w: %s:%d: time %q: want a positive finite time (seconds, or with a unit such as 250ms or 2min)", fault.ErrInput, file, line, f[1])
	}
	return p, t, nil
}

// Validate checks points given in code rather than read from a file.
func (d *Data) Validate() error {
	if len(d.Points) == 0 {
		return fmt.Errorf("%w: %s: no points", fault.ErrInput, d.Name)
	}
	if len(d.Points) > MaxRows {
		return fmt.Errorf("%w: %s: %d points, limit %d", fault.ErrTooLarge, d.Name, len(d.Points), MaxRows)
	}
	for i, pt := range d.Points {
		if pt.P < 1 || pt.P > 1<<30 {
			return fmt.Errorf("%w: %s: point %d: p = %d: want 1 … 2^30", fault.ErrInput, d.Name, i+1, pt.P)
		}
		if !(pt.TimeS > 0) || math.IsInf(pt.TimeS, 0) {
			return fmt.Errorf("%w: %s: point %d: time %g: want a positive finite number", fault.ErrInput, d.Name, i+1, pt.TimeS)
		}
	}
	lo, hi := d.Points[0].TimeS, d.Points[0].TimeS
	for _, pt := range d.Points {
		lo, hi = math.Min(lo, pt.TimeS), math.Max(hi, pt.TimeS)
	}
	if hi/lo > MaxTimeSpan {
		return fmt.Errorf("%w: %s: times from %g to %g: spanning more than 100 orders of magnitude they overflow the fit (is one time in the wrong unit?)", fault.ErrInput, d.Name, lo, hi)
	}
	if n := len(distinctP(d.Points)); n > MaxDistinctP {
		return fmt.Errorf("%w: %s: %d distinct p: at most %d distinct process counts are fitted (cross-validation refits every model once per distinct p); average or drop some p", fault.ErrTooLarge, d.Name, n, MaxDistinctP)
	}
	switch d.Scaling {
	case "", "strong", "weak":
	default:
		return fmt.Errorf("%w: %s: scaling %q: allowed strong, weak or empty", fault.ErrInput, d.Name, d.Scaling)
	}
	return nil
}

// distinctP returns the sorted distinct process counts.
func distinctP(pts []Point) []int {
	seen := map[int]bool{}
	var ps []int
	for _, pt := range pts {
		if !seen[pt.P] {
			seen[pt.P] = true
			ps = append(ps, pt.P)
		}
	}
	sort.Ints(ps)
	return ps
}

// inferScaling: "strong" when the mean time at the largest p is below that at the smallest.
func inferScaling(pts []Point) string {
	ps := distinctP(pts)
	lo, hi := meanAt(pts, ps[0]), meanAt(pts, ps[len(ps)-1])
	if hi < lo {
		return "strong"
	}
	return "weak"
}

func meanAt(pts []Point, p int) float64 {
	s, n := 0.0, 0
	for _, pt := range pts {
		if pt.P == p {
			s += pt.TimeS
			n++
		}
	}
	return s / float64(n)
}

// pureError returns the replicates' relative noise variance Σ(y/ȳ−1)²/Σ(n_g−1) and its
// degrees of freedom (0 when no p is repeated).
func pureError(pts []Point) (s2 float64, dof int) {
	groups := map[int][]float64{}
	for _, pt := range pts {
		groups[pt.P] = append(groups[pt.P], pt.TimeS)
	}
	ss := 0.0
	for _, p := range distinctP(pts) { // in order of p: the sum is the same on every run
		g := groups[p]
		if len(g) < 2 {
			continue
		}
		m := 0.0
		for _, v := range g {
			m += v / float64(len(g))
		}
		for _, v := range g {
			ss += (v/m - 1) * (v/m - 1)
		}
		dof += len(g) - 1
	}
	if dof == 0 {
		return 0, 0
	}
	return ss / float64(dof), dof
}
