// Package explore is the live what-if explorer behind `clusterperf explore MODEL` (issue 17):
// a local net/http server with one page and its script embedded (go:embed, no CDN, no
// network access). The page shows a model's parameters as sliders and number inputs; every
// change is posted to /api/eval, which re-evaluates the model with the library (qn, spmd,
// pipeline, tpn, mpip) and answers tables, the bottleneck, the best configuration and chart series.
// The page draws the charts itself as SVG. /api/model returns the parameters with their
// ranges; /api/save the model file of the current point; /api/report the htmlreport page of it.
package explore

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/internal/input"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/modelfile"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/report"
	"github.com/clusterperf/clusterperf/spmd"
)

//go:embed static
var static embed.FS

// Param is one adjustable value of a model: a slider and a number input on the page.
type Param struct {
	ID      string  `json:"id"`
	Label   string  `json:"label"`
	Group   string  `json:"group"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Step    float64 `json:"step"`
	Value   float64 `json:"value"`
	Integer bool    `json:"integer"`
	Unit    string  `json:"unit,omitempty"`
}

// Series is one line of a chart: report's figure description.
type Series = report.Series

// Chart is one figure of the answer: report's description (a line chart's series and
// marks, or a Gantt chart's rows and spans) under its ID, and the SVG report draws from it
// (filled by the server for a line chart; the page draws a Gantt chart itself from its
// spans, for grouping and zoom).
type Chart struct {
	ID string `json:"id"`
	report.Panel
	SVG string `json:"svg,omitempty"`
}

// Result is the answer of /api/eval: everything the page shows for one point.
type Result struct {
	Kind   string `json:"kind"`
	Model  string `json:"model"`
	Method string `json:"method"`
	Exact  bool   `json:"exact"`
	// ErrorEstimate is an approximation's error estimate (the output contract's key): its
	// relative error and what it was measured against; nil for an exact result or when none
	// can be given (the notes say why).
	ErrorEstimate any    `json:"error_estimate,omitempty"`
	Bottleneck    string `json:"bottleneck"`
	Best          string `json:"best"`
	// BestLabel is the banner's name for Best ("" → "Best configuration"; qn: "Saturation
	// point", which N* is — not a recommendation).
	BestLabel string `json:"best_label,omitempty"`
	// BestPending: the best configuration is searched apart (BestSearcher); the page asks
	// /api/best after drawing the point.
	BestPending bool               `json:"best_pending,omitempty"`
	Values      map[string]float64 `json:"values"` // the headline numbers, keyed with units
	Tables      []htmlreport.Table `json:"tables"`
	Charts      []Chart            `json:"charts"`
	Notes       []string           `json:"notes"`
	Warnings    []string           `json:"warnings"`
	// Command is the clusterperf command line that answers the same question at this point
	// with the same library call (app/...), when there is one.
	Command []string `json:"command,omitempty"`
	// ChartCommand is the command line whose --plot draws the same figure as Charts (the
	// same description, report.Panel, from the same result), when there is one.
	ChartCommand []string `json:"chart_command,omitempty"`
}

// Model is an explorable model of one kind.
type Model interface {
	Kind() string
	Name() string
	Params() []Param
	// Eval evaluates the model at the given parameter values (already checked against
	// Params' ranges).
	Eval(v Values) (*Result, error)
	// File returns the model file (YAML) of the point and its file name suffix.
	File(v Values) ([]byte, string, error)
	// Inputs are the files the model was read from, for reports.
	Inputs() []htmlreport.Input
}

// BestSearcher is implemented by models whose best-configuration search is too slow to run
// on every slider move (tpn's allocation search simulates every mapping): Eval sets
// BestPending, and /api/best (and Report) call Best.
type BestSearcher interface {
	Best(v Values) (string, map[string]float64, error)
}

// Values are parameter values by Param.ID.
type Values map[string]float64

// EvalDefaults evaluates m once at its parameters' default values (the file's own values),
// as the page does on its first load, so that a model the solver refuses (bad input, exit 2)
// or finds saturated/deadlocked (exit 3) is reported before the server starts listening
// rather than as an error inside the page (hostile review: explore served a model that
// solve refuses). The error is Eval's, classified as the library classified it.
func EvalDefaults(m Model) error { return EvalDefaultsContext(context.Background(), m, 0) }

// EvalDefaultsContext is EvalDefaults under ctx (Ctrl-C: the evaluation stops and the
// error wraps fault.ErrInterrupted) and within budget (0: none), the time budget the server
// gives every evaluation (Limits.EvalBudget): a model whose own point takes longer would be
// refused on every slider move, so it is refused at once (fault.ErrTooLarge), naming the
// command that answers it without a budget (hostile review of issue 32: explore on a tpn
// program with a 700 000-iteration loop evaluated for minutes before serving and ignored
// Ctrl-C).
func EvalDefaultsContext(ctx context.Context, m Model, budget time.Duration) error {
	v := Values{}
	for _, p := range m.Params() {
		v[p.ID] = p.Value
	}
	ectx, cancel := ctx, context.CancelFunc(func() {})
	if budget > 0 {
		ectx, cancel = context.WithTimeout(ctx, budget)
	}
	defer cancel()
	_, err := evalCtx(ectx, m, v)
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("%w: explore stopped while evaluating %s at its file's values", fault.ErrInterrupted, m.Name())
	case ectx.Err() != nil:
		return fmt.Errorf("%w: %s at its file's values takes more than the explorer's budget of %v per evaluation, so every slider move would be refused; answer it with the command line (clusterperf %s)", fault.ErrTooLarge, m.Name(), budget, commandOf(m.Kind()))
	}
	return err
}

// commandOf is the command that answers a model kind without the explorer's budget.
func commandOf(kind string) string {
	return map[string]string{"qn": "solve", "spmd": "speedup", "pipeline": "pipeline", "tpn": "tpn", "mpip": "mpip"}[kind]
}

// Load detects the kind of the model file and reads it with the library's parser: a
// Petri-net program when cluster is given (tpn), an mpiP report or a CSV of 004's collected
// values (mpip, see LoadMpip), else by its top-level keys: stations → qn, architecture →
// spmd, sort/stages → pipeline.
func Load(path string, data []byte, clusterPath string, clusterData []byte) (Model, error) {
	if clusterPath != "" {
		return loadTPN(path, data, clusterPath, clusterData)
	}
	if isMpip(path, data) {
		return LoadMpip([]string{path}, [][]byte{data}, MpipOptions{})
	}
	if isScalingCSV(path, data) { // p,time: fit DATA.csv's question
		return loadFit(path, data)
	}
	// The commands' own YAML reader: a model file (.yaml, .yml, .json) that is not YAML, or
	// not a mapping, is refused at file:line in the words solve, speedup and pipeline use;
	// any other file that does not read is no model explore knows.
	doc, err := modelfile.Parse(path, data) // once: the kind's decoder reads this tree
	if err != nil {
		if ext := strings.ToLower(filepath.Ext(path)); ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return nil, notAModel(path)
		}
		return nil, err
	}
	switch {
	case doc.Has("stations"):
		return loadQN(path, data, doc)
	case doc.Has("architecture"):
		return loadSPMD(path, data, doc)
	case doc.Has("sort") || doc.Has("stages"):
		return loadPipeline(path, data, doc)
	case doc.Has("processes"):
		return nil, &spec.Error{File: path, Msg: "a Petri-net program needs its cluster file: clusterperf explore " + path + " --cluster CLUSTER.yaml"}
	}
	return nil, notAModel(path)
}

// notAModel is the refusal of a file explore cannot tell the kind of.
func notAModel(path string) error {
	return &spec.Error{File: path, Msg: "not a model explore knows: want a queueing network (stations:), an SPMD model (architecture:), a pipeline model (sort: or stages:), a Petri-net program with --cluster, mpiP reports, a CSV of 004's collected values or of measured times (p,time)"}
}

// Check validates values against the parameters: every parameter known, finite, in its
// range, zero or normal (a subnormal is refused as solve refuses it in a file), integers whole. Missing values take the parameter's default.
func Check(params []Param, in Values) (Values, error) {
	out := Values{}
	byID := map[string]Param{}
	for _, p := range params {
		byID[p.ID] = p
		out[p.ID] = p.Value
	}
	var errs []error
	ids := make([]string, 0, len(in))
	for id := range in {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		v := in[id]
		p, ok := byID[id]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("unknown parameter %s", input.Excerpt(id)))
		case math.IsNaN(v) || math.IsInf(v, 0) || v < p.Min || v > p.Max:
			errs = append(errs, fmt.Errorf("parameter %q = %v: allowed %v … %v", id, v, p.Min, p.Max))
		case v != 0 && math.Abs(v) < 0x1p-1022: // as the model files' reader (internal/units)
			errs = append(errs, fmt.Errorf("parameter %q = %v is out of range (too small: below the smallest normal float64, about 2.2e-308)", id, v))
		case p.Integer && v != math.Trunc(v):
			errs = append(errs, fmt.Errorf("parameter %q = %v: must be a whole number", id, v))
		default:
			out[id] = v
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", fault.ErrInput, errors.Join(errs...))
	}
	return out, nil
}

// Report builds the htmlreport page of the point.
func Report(m Model, v Values, version string) (*htmlreport.Page, *Result, error) {
	return reportCtx(context.Background(), m, v, version)
}

// reportCtx is Report with the evaluation under ctx (ContextModel).
func reportCtx(ctx context.Context, m Model, v Values, version string) (*htmlreport.Page, *Result, error) {
	r, err := evalCtx(ctx, m, v)
	if err != nil {
		return nil, nil, err
	}
	if bs, ok := m.(BestSearcher); ok && r.BestPending {
		best, vals, err := bestCtx(ctx, bs, v)
		if err != nil {
			return nil, nil, err
		}
		r.Best, r.BestPending = best, false
		for k, x := range vals {
			r.Values[k] = x
		}
	}
	var plots []htmlreport.Plot
	for _, c := range r.Charts {
		svg, err := report.SVG(c.Panel)
		if err != nil {
			return nil, nil, err
		}
		plots = append(plots, htmlreport.Plot{Title: c.Title, SVG: svg})
	}
	tables := append([]htmlreport.Table{paramTable(m.Params(), v)}, r.Tables...)
	p, err := htmlreport.FromResult(m.Name()+" ("+r.Kind+", explored point)", "clusterperf explore", version, r, tables, plots)
	if err != nil {
		return nil, nil, err
	}
	p.Inputs = m.Inputs()
	return p, r, nil
}

func paramTable(ps []Param, v Values) htmlreport.Table {
	t := htmlreport.Table{Title: "Parameters of this point", Header: []string{"parameter", "value", "model file", "unit"}}
	for _, p := range ps {
		t.Rows = append(t.Rows, []string{p.Label, htmlreport.Num(v[p.ID]), htmlreport.Num(p.Value), p.Unit})
		if v[p.ID] != p.Value {
			t.Highlight = append(t.Highlight, len(t.Rows)-1)
		}
	}
	return t
}

// Server serves the explorer for one model. Every request passes guard (Host, origin,
// token, content type; guard.go) and every evaluation runs in one of a bounded number of
// slots under the request's context and a time budget (within); see docs/security.md.
type Server struct {
	m       Model
	params  []Param
	version string
	mux     *http.ServeMux
	lim     Limits
	token   string // the per-server secret the page carries (TokenHeader)
	listen  net.IP // the listening IP, set by HTTPServer (nil: loopback names only)
	index   []byte // the page with the token
	slots   chan struct{}
	counters
	// bestSem lets one best-configuration search run at a time: a search (tpn: up to
	// adviseBudget simulations, seconds for 49 processes) cannot be interrupted, so searches
	// the page abandoned must not pile up on the CPU the updates need.
	bestSem chan struct{}
}

// NewServer returns the explorer's handler with DefaultLimits.
func NewServer(m Model, version string) *Server { return NewServerLimits(m, version, DefaultLimits()) }

// NewServerLimits returns the explorer's handler with the limits lim (Slots and Queue at
// least 1).
func NewServerLimits(m Model, version string, lim Limits) *Server {
	lim.Slots, lim.Queue = max(lim.Slots, 1), max(lim.Queue, 1)
	s := &Server{m: m, params: m.Params(), version: version, mux: http.NewServeMux(), lim: lim,
		token: newToken(), slots: make(chan struct{}, lim.Slots), bestSem: make(chan struct{}, 1)}
	sub, _ := fs.Sub(static, "static")
	page, _ := fs.ReadFile(sub, "index.html")
	s.index = bytes.Replace(page, []byte("<head>"), []byte(`<head><meta name="clusterperf-token" content="`+s.token+`">`), 1)
	s.mux.Handle("GET /", http.FileServerFS(sub))
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(s.index)
	})
	s.mux.HandleFunc("GET /api/model", s.model)
	s.mux.HandleFunc("POST /api/eval", s.eval)
	s.mux.HandleFunc("POST /api/save", s.save)
	s.mux.HandleFunc("POST /api/best", s.best)
	s.mux.HandleFunc("POST /api/report", s.report)
	// A GET of a POST endpoint says which method it takes (405) instead of falling through
	// to the static files' 404.
	s.mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/eval", "/api/save", "/api/best", "/api/report":
			w.Header().Set("Allow", "POST")
			http.Error(w, r.URL.Path+" takes POST (a JSON body of parameter values), not GET", http.StatusMethodNotAllowed)
		default:
			http.NotFound(w, r)
		}
	})
	return s
}

// ServeHTTP serves the page, its static files and the /api endpoints (http.Handler), after
// guard; no page may frame the explorer.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	if !s.guard(w, r) {
		return
	}
	s.mux.ServeHTTP(w, r)
}

// Token is the per-server token the page carries (for clients of the API other than the
// page, such as tests).
func (s *Server) Token() string { return s.token }

func (s *Server) model(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, map[string]any{"kind": s.m.Kind(), "name": s.m.Name(), "params": s.params})
}

// values reads the values of a POST body (decodeValues) and checks them against the
// model's parameters; a refusal is answered (413 for a body over maxBody) and ok is false.
func (s *Server) values(w http.ResponseWriter, r *http.Request) (Values, bool) {
	in, err := decodeValues(r.Body, r.ContentLength)
	if errors.Is(err, errBodyTooLarge) {
		refuse(w, http.StatusRequestEntityTooLarge, err.Error())
		return nil, false
	}
	if err != nil {
		httpError(w, err)
		return nil, false
	}
	v, err := Check(s.params, in)
	if err != nil {
		httpError(w, err)
		return nil, false
	}
	return v, true
}

func (s *Server) eval(w http.ResponseWriter, r *http.Request) {
	v, ok := s.values(w, r)
	if !ok {
		return
	}
	out, err := s.within(r, func(ctx context.Context) (any, error) {
		res, err := evalCtx(ctx, s.m, v)
		if err != nil {
			return nil, err
		}
		if res.Notes == nil {
			res.Notes = []string{}
		}
		if res.Warnings == nil {
			res.Warnings = []string{}
		}
		for i := range res.Charts {
			if len(res.Charts[i].Spans) == 0 { // the page draws Gantt charts itself (grouping, zoom)
				if res.Charts[i].SVG, err = chartSVG(res.Charts[i]); err != nil {
					return nil, err
				}
			}
		}
		return res, nil
	})
	answer(w, out, err)
}

func (s *Server) best(w http.ResponseWriter, r *http.Request) {
	v, ok := s.values(w, r)
	if !ok {
		return
	}
	bs, ok := s.m.(BestSearcher)
	if !ok {
		httpError(w, fmt.Errorf("%w: a %s model has its best configuration in /api/eval", fault.ErrInput, s.m.Kind()))
		return
	}
	// the search runs in bestSem's one slot, apart from the evaluations' slots, and keeps it
	// until it ends, or stops when the page has gone on if the model's search takes a
	// context (ContextBestSearcher): searches never pile up, and never take the slots the
	// slider updates need
	out, err := s.withinSlot(r, s.bestSem, func(ctx context.Context) (any, error) {
		best, vals, err := bestCtx(ctx, bs, v)
		if err != nil {
			return nil, err
		}
		return map[string]any{"best": best, "values": vals}, nil
	})
	answer(w, out, err)
}

// download is a file answer of save and report.
type download struct {
	name, contentType string
	data              []byte
}

func (s *Server) save(w http.ResponseWriter, r *http.Request) {
	v, ok := s.values(w, r)
	if !ok {
		return
	}
	out, err := s.within(r, func(context.Context) (any, error) {
		b, name, err := s.m.File(v)
		if err != nil {
			return nil, err
		}
		ct := "application/yaml; charset=utf-8"
		if strings.HasSuffix(name, ".csv") {
			ct = "text/csv; charset=utf-8"
		}
		return download{name, ct, b}, nil
	})
	answer(w, out, err)
}

func (s *Server) report(w http.ResponseWriter, r *http.Request) {
	v, ok := s.values(w, r)
	if !ok {
		return
	}
	out, err := s.within(r, func(ctx context.Context) (any, error) {
		p, _, err := reportCtx(ctx, s.m, v, s.version)
		if err != nil {
			return nil, err
		}
		b, err := htmlreport.Bytes(p)
		if err != nil {
			return nil, err
		}
		return download{"report.html", "text/html; charset=utf-8", b}, nil
	})
	answer(w, out, err)
}

// answer writes the result of within: a download as an attachment, anything else as JSON;
// nothing when the client is gone, 503 when the server is busy, else httpError's code.
func answer(w http.ResponseWriter, out any, err error) {
	switch {
	case errors.Is(err, errGone):
		return
	case errors.Is(err, errBusy):
		w.Header().Set("Retry-After", "1")
		refuse(w, http.StatusServiceUnavailable, err.Error())
		return
	case err != nil:
		httpError(w, err)
		return
	}
	if d, ok := out.(download); ok {
		w.Header().Set("Content-Type", d.contentType)
		w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", d.name))
		w.Write(d.data)
		return
	}
	writeJSON(w, out)
}

func writeJSON(w http.ResponseWriter, v any) {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(v); err != nil {
		var ue *json.UnsupportedValueError
		if errors.As(err, &ue) { // ±Inf or NaN: the point is beyond what float64 carries
			err = fmt.Errorf("%w: the result at this point is not a finite number (%s); move the parameters back into range", fault.ErrInput, ue.Str)
		}
		httpError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(buf.Bytes())
}

// httpError answers 422 for a point over the time budget or over a size limit
// (fault.ErrTooLarge), 400 for other input errors and model findings (a saturated station,
// a deadlock: the user moved a slider too far; spec.Error: the file's own refusal), 500
// otherwise; the page shows the message, the command line's words for the same input.
func httpError(w http.ResponseWriter, err error) {
	code := http.StatusInternalServerError
	var se *qn.SaturationError
	var ce *spmd.ConfigError
	var fe *spec.Error
	switch {
	case errors.Is(err, fault.ErrTooLarge):
		code = http.StatusUnprocessableEntity
	case errors.Is(err, fault.ErrInput) || errors.Is(err, fault.ErrFinding) || errors.As(err, &se) || errors.As(err, &ce) || errors.As(err, &fe):
		code = http.StatusBadRequest
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": err.Error()})
}

func base(path string) string { return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path)) }

// finite reports whether every value is a finite number.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
