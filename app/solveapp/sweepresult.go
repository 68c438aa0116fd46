package solveapp

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/clusterperf/clusterperf/answer"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/validate"
)

// SweepResult is solve --sweep's result value. Method lists the methods of the solved
// points; Exact is true when every solved point is exact.
type SweepResult struct {
	report.Answered
	Parameter string       `json:"parameter"`
	Solver    string       `json:"solver"`
	Method    string       `json:"method"`
	Exact     bool         `json:"exact"`
	Classes   []string     `json:"classes"`
	Points    []SweepPoint `json:"points"`
	// Partial is true when the sweep was interrupted (Ctrl-C): Points are the first ones
	// solved, a note says how many; the command exits 130.
	Partial bool `json:"partial,omitempty"`
	// Measured are the --measured points beside the model's values, with rel_error.
	Measured []SweepComparison `json:"measured,omitempty"`
	// Validation (--validate) is each solved point against its simulation.
	Validation []SweepValidation `json:"validation,omitempty"`
	Notes      []string          `json:"notes"`
}

// SweepValidation is one swept value's validation report (validate.Report's fields).
type SweepValidation struct {
	Value float64 `json:"value"`
	validate.Report
}

// SweepPoint is one swept value: the class results and how they were obtained (status:
// method, exact, an approximation's error estimate), and every bound that applies there.
type SweepPoint struct {
	Value   float64      `json:"value"`
	Classes []SweepClass `json:"classes,omitempty"`
	// Stations: each station's utilization and queue length at the point (one copy,
	// summed over classes), so the table, JSON and CSV show which station saturates.
	Stations []SweepStation `json:"stations,omitempty"`
	Bounds   []qn.Bound     `json:"bounds"`
	Finding  string         `json:"finding,omitempty"` // e.g. a saturated station: no steady state here
	Status   *SweepStatus   `json:"status,omitempty"`
	// Notes are the point's own solver notes (qn.Result.Notes: e.g. an approximation
	// infeasible at a station, U > 1); the table lists them once with the values they
	// apply to (NoteLines), the CSV in the row's note cell.
	Notes []string `json:"notes,omitempty"`
}

type SweepClass struct {
	Name         string  `json:"name"`
	Throughput   float64 `json:"throughput_per_s"`
	ResponseTime float64 `json:"response_time_s"`
}

// SweepStation is one station at a swept value: utilization per server and mean queue
// length of one copy, summed over classes (qn.Result.StationUtilization, StationQueueLength).
type SweepStation struct {
	Name        string  `json:"name"`
	Utilization float64 `json:"utilization"`
	QueueLength float64 `json:"queue_length"`
}

type SweepStatus struct {
	Solver        string            `json:"solver"`
	Method        string            `json:"method"`
	Exact         bool              `json:"exact"`
	Reason        string            `json:"reason,omitempty"`
	ErrorEstimate *qn.ErrorEstimate `json:"error_estimate,omitempty"`
	Converged     bool              `json:"converged"`
	Iterations    int               `json:"iterations"`
	Residual      float64           `json:"residual"`
}

// Sweep is the sweep's result with what the renderers need besides the JSON value.
type Sweep struct {
	SweepResult
	solved int
	// compact: the table format without --all — columns empty at every point are left
	// out of the sweep table and the bounds table shows the first and last swept value
	// only (JSON and CSV keep every column and row).
	compact bool
	all     bool // --all: compact never applies
	text    bool // the table format: a point's notes are listed below the table
	param   qn.SweepParam
	points  []qn.SweepPoint // the solved points (the JMVA export)
}

// ForFormat sets what depends on the output format: compact tables unless All (--all).
func (r *Sweep) ForFormat(format string) {
	r.compact, r.text = format == "table" && !r.all, format == "table"
}

// Plot draws the sweep to path (SVG or PNG): throughput and response time against the swept
// value, with every bound and the measured points (solve --plot, merge --plot).
func (r *Sweep) Plot(path string) error { return sweepPlot(path, r) }

func newSweep(m *qn.Model, p qn.SweepParam, solver string, pts []qn.SweepPoint) *Sweep {
	out := &Sweep{SweepResult: SweepResult{Parameter: p.Label, Solver: solver, Exact: true, Notes: []string{}}, param: p, points: pts}
	for _, c := range m.Classes {
		out.Classes = append(out.Classes, c.Name)
	}
	unconverged, boundNotes := 0, map[string]bool{}
	var methods []string
	for _, pt := range pts {
		sp := SweepPoint{Value: pt.Value, Bounds: pointBounds(p.Apply(m, pt.Value), boundNotes)}
		var sat *qn.SaturationError
		switch {
		case errors.As(pt.Err, &sat):
			sp.Finding = sat.Error()
		case pt.Err != nil:
			sp.Finding = pt.Err.Error()
		case pt.Result != nil:
			r := pt.Result
			for c, name := range out.Classes {
				sp.Classes = append(sp.Classes, SweepClass{name, r.Throughput[c], r.ResponseTime[c]})
			}
			for k, st := range m.Stations {
				sp.Stations = append(sp.Stations, SweepStation{st.Name, r.StationUtilization(k), r.StationQueueLength(k)})
			}
			sp.Status = &SweepStatus{r.Solver, r.Method, r.Exact, r.Reason, r.ErrorEstimate, r.Status.Converged, r.Status.Iterations, r.Status.Residual}
			sp.Notes = slices.Clone(r.Notes)
			out.Exact = out.Exact && r.Exact
			if !slices.Contains(methods, r.Method) {
				methods = append(methods, r.Method)
			}
			if r.Status.Converged {
				out.solved++
			} else {
				unconverged++
			}
		}
		out.Points = append(out.Points, sp)
	}
	out.Method = strings.Join(methods, ", ")
	out.Answer = answer.Sweep(m, p, pts)
	if unconverged > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d points did not converge (status.converged false): their values are the last iterate", unconverged))
	}
	out.Notes = append(out.Notes, sortedNotes(boundNotes)...)
	return out
}

// pointBounds is every bound that applies at one point; why others do not goes to notes.
func pointBounds(m *qn.Model, notes map[string]bool) []qn.Bound {
	set, err := qn.AllBounds(m)
	if err != nil {
		notes["bounds: not computed: "+err.Error()] = true
		return []qn.Bound{}
	}
	for _, n := range set.Notes {
		notes["bounds: "+n] = true
	}
	return append([]qn.Bound{}, set.Bounds...)
}

func sortedNotes(set map[string]bool) []string {
	var ks []string
	for k := range set {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// describeApprox is the account of the sweep's approximate points for stderr ("" when
// every point is exact): how many, the method, the largest estimated error.
func (r *Sweep) describeApprox() string {
	n, worst := 0, -1
	worstErr := -1.0
	for i, pt := range r.Points {
		if pt.Status == nil || pt.Status.Exact {
			continue
		}
		n++
		e := 0.0
		if pt.Status.ErrorEstimate != nil {
			e = pt.Status.ErrorEstimate.RelError
		}
		if worst < 0 || e > worstErr {
			worst, worstErr = i, e
		}
	}
	if n == 0 {
		return ""
	}
	s := r.Points[worst].Status
	res := qn.Result{Method: s.Method, Exact: s.Exact, Reason: s.Reason, ErrorEstimate: s.ErrorEstimate}
	return fmt.Sprintf("%d of %d points APPROXIMATE; the largest estimated error at %s = %.6g: %s", n, len(r.Points), r.Parameter, r.Points[worst].Value, res.Describe())
}

// NoteLines are the sweep's notes, then the validated points' (JSON: each point's own), a
// note once with the values it applies to, in order of first appearance.
func (r *Sweep) NoteLines() []string {
	lines := slices.Clone(r.Notes)
	var pts, vals []pointNotes
	for _, p := range r.Points {
		pts = append(pts, pointNotes{p.Value, p.Notes})
	}
	for _, v := range r.Validation {
		vals = append(vals, pointNotes{v.Value, v.Notes})
	}
	lines = append(lines, r.groupNotes("", pts)...)
	return append(lines, r.groupNotes("validation ", vals)...)
}

// pointNotes are the notes of one swept value.
type pointNotes struct {
	value float64
	notes []string
}

// maxPointNotes is how many distinct per-point notes the table lists (the rest: JSON).
const maxPointNotes = 10

// groupNotes is each distinct note of pts once, prefixed "<prefix>at <parameter> = v1, v2:"
// (or "at every point"), in order of first appearance; beyond maxPointNotes distinct notes
// one line says how many more there are and where.
func (r *Sweep) groupNotes(prefix string, pts []pointNotes) []string {
	var order []string
	at := map[string][]string{}
	for _, p := range pts {
		for _, n := range p.notes {
			if at[n] == nil {
				order = append(order, n)
			}
			at[n] = append(at[n], report.Num(p.value))
		}
	}
	var lines []string
	for i, n := range order {
		if i == maxPointNotes {
			lines = append(lines, fmt.Sprintf("%s… and %d more notes of single points (each point's \"notes\" in --format json)", prefix, len(order)-i))
			break
		}
		where := fmt.Sprintf("at %s = %s", r.Parameter, strings.Join(at[n], ", "))
		if len(at[n]) == len(pts) && len(at[n]) > 1 {
			where = "at every point"
		}
		lines = append(lines, prefix+where+": "+n)
	}
	return lines
}
