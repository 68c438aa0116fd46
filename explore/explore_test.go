package explore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
	"github.com/clusterperf/clusterperf/htmlreport"
	"github.com/clusterperf/clusterperf/internal/spec"
	"github.com/clusterperf/clusterperf/pipeline"
	"github.com/clusterperf/clusterperf/qn"
	"github.com/clusterperf/clusterperf/spmd"
)

// At the moved point of every example the explorer's tables show the library's numbers
// (computed in the test straight from qn, spmd, pipeline, tpn), formatted as the tables
// format them (6 significant digits).
func TestExamplesMatchLibrary(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			m := loadExample(t, ex)
			v, err := Check(m.Params(), Values{ex.param: ex.value})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			r, err := m.Eval(v)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: Eval %v", ex.name, time.Since(start))
			if r.Bottleneck == "" || r.Best == "" || r.Method == "" || len(r.Charts) == 0 {
				t.Errorf("result lacks bottleneck, best, method or charts: %+v", r)
			}
			for _, c := range ex.want(t) {
				got, err := find(r.Tables, c)
				if err != nil {
					t.Error(err)
					continue
				}
				if want := htmlreport.Num(c.Want); got != want {
					t.Errorf("%s / %s / %s: table shows %s, library gives %s", c.Table, c.Row, c.Col, got, want)
				}
			}
		})
	}
}

// The saved model file of a moved point, read back, is the point: evaluating it at its own
// defaults gives the same tables.
func TestSaveRoundTrip(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			m := loadExample(t, ex)
			v, want := evalAt(t, m, Values{ex.param: ex.value})
			file, name, err := m.File(v)
			if err != nil {
				t.Fatal(err)
			}
			var m2 Model
			if ex.cluster != "" {
				m2, err = Load(ex.file, read(t, ex.file), name, file)
			} else {
				m2, err = Load(name, file, "", nil)
			}
			if err != nil {
				t.Fatalf("saved file does not load: %v\n%s", err, file)
			}
			// the configuration (p, d, sweep range) is not part of a model file: carry it over
			v2 := Values{}
			for _, p := range m2.Params() {
				if _, ok := v[p.ID]; ok && (p.Group == "configuration" || p.Group == "sweep") {
					v2[p.ID] = v[p.ID]
				}
			}
			v2, err = Check(m2.Params(), v2)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m2.Eval(v2)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.Tables {
				// model files carry demands, not visit counts (qn.WriteModel), so the visits and
				// the station throughput X·V are not kept; utilization, queue length and
				// residence time (functions of the demands) must be
				w, g := want.Tables[i], got.Tables[i]
				if len(w.Header) > 0 && w.Header[0] == "station" {
					w.Rows, g.Rows = dropCol(w, "throughput_per_s"), dropCol(g, "throughput_per_s")
					w.Header, g.Header = without(w.Header, "throughput_per_s"), without(g.Header, "throughput_per_s")
				}
				if !equalRows(dropCol(w, "visits"), dropCol(g, "visits")) {
					t.Errorf("table %q differs after save and reload:\n%v\n%v", want.Tables[i].Title, want.Tables[i].Rows, got.Tables[i].Rows)
				}
			}
		})
	}
}

func dropCol(t htmlreport.Table, name string) [][]string {
	col := -1
	for i, c := range t.Header {
		if c == name {
			col = i
		}
	}
	if col < 0 {
		return t.Rows
	}
	var out [][]string
	for _, r := range t.Rows {
		out = append(out, append(append([]string(nil), r[:col]...), r[col+1:]...))
	}
	return out
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "|") != strings.Join(b[i], "|") {
			return false
		}
	}
	return true
}

// Values outside the parameters' ranges, unknown parameters, NaN and fractional integers are
// refused as input errors naming the parameter and what is allowed; the server answers 400.
func TestCheckAndServerErrors(t *testing.T) {
	m := loadExample(t, examples[0])
	for _, bad := range []string{`{"values":{"pop.0":-1}}`, `{"values":{"nope":1}}`, `{"values":{"pop.0":1.5}}`, `{"values":{}, "extra":1}`, `not json`} {
		rec := httptest.NewRecorder()
		srv := NewServer(m, "test")
		srv.ServeHTTP(rec, pageRequest(srv, "POST", "/api/eval", bad))
		if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "error") {
			t.Errorf("%s: %d %s", bad, rec.Code, rec.Body)
		}
	}
	// a GET of a POST endpoint is 405 with Allow: POST; an unknown API path stays 404
	for path, code := range map[string]int{"/api/eval": http.StatusMethodNotAllowed, "/api/report": http.StatusMethodNotAllowed, "/api/nope": http.StatusNotFound} {
		rec := httptest.NewRecorder()
		srv := NewServer(m, "test")
		srv.ServeHTTP(rec, pageRequest(srv, "GET", path, ""))
		if rec.Code != code || (code == http.StatusMethodNotAllowed && rec.Header().Get("Allow") != "POST") {
			t.Errorf("GET %s: %d (Allow %q), want %d", path, rec.Code, rec.Header().Get("Allow"), code)
		}
	}
	if _, err := Check(m.Params(), Values{"pop.0": 1e9}); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), `"pop.0"`) {
		t.Errorf("err = %v", err)
	}
	// a saturated open class is a model finding, answered 400 with the station named
	cs := loadExample(t, examples[1])
	// (the batch slider ends at its saturation rate 1/max_k D_k = 1/0.06 s)
	var top float64
	for _, p := range cs.Params() {
		if p.ID == "rate.1" {
			top = p.Max
		}
	}
	rec := httptest.NewRecorder()
	csrv := NewServer(cs, "test")
	csrv.ServeHTTP(rec, pageRequest(csrv, "POST", "/api/eval", fmt.Sprintf(`{"values":{"rate.1":%v}}`, top)))
	if rec.Code != http.StatusBadRequest {
		t.Errorf("saturated: %d %s", rec.Code, rec.Body)
	}
}

// The HTTP API: the page and its script are served from the binary; /api/model lists
// parameters with ranges; /api/eval answers charts with SVG; /api/report an HTML page under
// 2 MB; /api/save a YAML file.
func TestServer(t *testing.T) {
	for _, ex := range examples {
		m := loadExample(t, ex)
		h := NewServer(m, "test")
		get := func(method, path, body string) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, pageRequest(h, method, path, body))
			if rec.Code != 200 {
				t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body)
			}
			return rec
		}
		if !strings.Contains(get("GET", "/", "").Body.String(), `<script src="app.js">`) || get("GET", "/app.js", "").Body.Len() < 1000 {
			t.Errorf("%s: page or script not served", ex.name)
		}
		var mod struct{ Params []Param }
		json.Unmarshal(get("GET", "/api/model", "").Body.Bytes(), &mod)
		for _, p := range mod.Params {
			if !(p.Min <= p.Value && p.Value <= p.Max) || p.Step <= 0 {
				t.Errorf("%s: parameter %+v: default outside its range or no step", ex.name, p)
			}
		}
		var r Result
		json.Unmarshal(get("POST", "/api/eval", `{"values":{}}`).Body.Bytes(), &r)
		for _, c := range r.Charts {
			// a Gantt chart is drawn by the page (gantt.js: grouping, zoom), the others here
			if (len(c.Spans) == 0) != strings.HasPrefix(c.SVG, "<svg") {
				t.Errorf("%s: chart %s: %d spans, SVG %.20q", ex.name, c.ID, len(c.Spans), c.SVG)
			}
		}
		rep := get("POST", "/api/report", `{"values":{}}`).Body.Bytes()
		if len(rep) > htmlreport.MaxBytes || !bytes.Contains(rep, []byte("<svg")) {
			t.Errorf("%s: report %d bytes or without plots", ex.name, len(rep))
		}
		t.Logf("%s: report page %d bytes", ex.name, len(rep))
		if !bytes.Contains(get("POST", "/api/save", `{"values":{}}`).Body.Bytes(), []byte(":")) {
			t.Errorf("%s: empty model file", ex.name)
		}
	}
}

// The kind of a model is detected from its keys; a program without --cluster is refused with
// what to do.
func TestLoadKinds(t *testing.T) {
	for _, ex := range examples {
		m := loadExample(t, ex)
		want := map[byte]string{'k': "qn", 'c': "qn", 's': "spmd", 'p': "pipeline", 't': "tpn", 'm': "mpip"}[ex.name[0]]
		if m.Kind() != want {
			t.Errorf("%s: kind %s, want %s", ex.name, m.Kind(), want)
		}
	}
	if _, err := Load("matmul.yaml", read(t, "../examples/tpn/matmul.yaml"), "", nil); !errors.Is(err, fault.ErrInput) || !strings.Contains(err.Error(), "--cluster") {
		t.Errorf("program without cluster: %v", err)
	}
	if _, err := Load("x.yaml", []byte("foo: 1\n"), "", nil); !errors.Is(err, fault.ErrInput) {
		t.Errorf("unknown model: %v", err)
	}
}

// BenchmarkEval: one /api/eval evaluation (library work plus chart SVG) per example.
func BenchmarkEval(b *testing.B) {
	for _, ex := range examples {
		b.Run(ex.name, func(b *testing.B) {
			m := loadExample(b, ex)
			v, _ := Check(m.Params(), Values{})
			for b.Loop() {
				r, err := m.Eval(v)
				if err != nil {
					b.Fatal(err)
				}
				for _, c := range r.Charts {
					if len(c.Spans) == 0 {
						if _, err := chartSVG(c); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
		})
	}
}

func without(cols []string, name string) []string {
	var out []string
	for _, c := range cols {
		if c != name {
			out = append(out, c)
		}
	}
	return out
}

// makespan is the program's makespan at the file's values (for the Gantt test's window).
func (t *tpnModel) makespan(tb testing.TB) float64 {
	tb.Helper()
	_, r := evalAt(tb, t, nil)
	return r.Values["makespan_s"]
}

// TestEvalDefaultsRefuses: a model solve refuses is refused before the server listens — an
// open class at 5/ms against a 5 ms demand is saturated (U = λ·D = 25 ≥ 1, qn.SaturationError),
// and the examples' defaults evaluate.
func TestEvalDefaultsRefuses(t *testing.T) {
	m, err := Load("sat.yaml", []byte("classes: [{name: a, arrival_rate: 5/ms}]\nstations: [{name: cpu, demand: 5ms}]\n"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var sat *qn.SaturationError
	if err := EvalDefaults(m); !errors.As(err, &sat) {
		t.Fatalf("EvalDefaults: %v, want a saturation", err)
	}
	ok, err := Load("ok.yaml", []byte("classes: [{name: a, arrival_rate: 5/s}]\nstations: [{name: cpu, demand: 5ms}]\n"), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := EvalDefaults(ok); err != nil {
		t.Fatal(err)
	}
}

// TestLoadParsesOnce: Load read a model file's YAML once to tell its kind and then again
// in the kind's parser. It now hands the one tree to the kind's decoder. Measured by
// allocations, which are deterministic: loading costs the library parser's allocations
// (which include one spec.Parse) plus a few for the explorer's model — a second parse would
// add all of spec.Parse's (521 of Load's 1268 on central-server.yaml before the change).
func TestLoadParsesOnce(t *testing.T) {
	for _, tc := range []struct {
		file  string
		parse func(path string, data []byte)
	}{
		{"qn/central-server.yaml", func(p string, d []byte) { qn.ParseModel(p, d) }},
		{"spmd/qcrd.yaml", func(p string, d []byte) { spmd.ParseModel(p, d) }},
		{"pipeline/sort.yaml", func(p string, d []byte) { pipeline.ParseModel(p, d) }},
	} {
		path := filepath.Join("..", "examples", tc.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path, data, "", nil); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		load := testing.AllocsPerRun(10, func() { Load(path, data, "", nil) })
		lib := testing.AllocsPerRun(10, func() { tc.parse(path, data) })
		tree := testing.AllocsPerRun(10, func() { spec.Parse(path, data) })
		if load >= lib+tree/2 {
			t.Errorf("%s: Load made %.0f allocations; the library parser makes %.0f, one YAML parse %.0f: parsed twice?", tc.file, load, lib, tree)
		}
	}
}
