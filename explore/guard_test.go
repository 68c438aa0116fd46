package explore

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/htmlreport"
)

// pageRequest is a request as the explorer's own page sends it: to a loopback Host, with
// the server's token and, for a POST, a JSON body.
func pageRequest(s *Server, method, path, body string) *http.Request {
	r := httptest.NewRequest(method, "http://127.0.0.1:8080"+path, strings.NewReader(body))
	r.Header.Set(TokenHeader, s.Token())
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
	}
	return r
}

// listen serves s on 127.0.0.1:0 through s.HTTPServer (its timeouts and Host rule) and
// returns the address host:port; stopped with the test.
func listen(t testing.TB, s *Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := s.HTTPServer(ln)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// do sends one real HTTP request to addr with the Host, headers and body given.
func do(t testing.TB, addr, host, method, path, body string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, "http://"+addr+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// DNS rebinding (issue 32): a page whose host name resolves to 127.0.0.1 reaches the server
// with its own name in Host. Before the fix GET /api/model, POST /api/save and POST
// /api/report answered 200 to Host: evil.example; now every path is 421 for a Host that is
// not a loopback name or the listening address, token or not.
func TestHostRefused(t *testing.T) {
	s := NewServer(loadExample(t, examples[0]), "test")
	addr := listen(t, s)
	_, port, _ := net.SplitHostPort(addr)
	api := map[string]string{TokenHeader: s.Token(), "Content-Type": "application/json"}
	for _, host := range []string{"evil.example", "evil.example:" + port, "127.0.0.1.nip.io:" + port, "localhost.evil.example:" + port, "10.1.2.3:" + port} {
		for _, rq := range [][2]string{{"GET", "/api/model"}, {"POST", "/api/save"}, {"POST", "/api/report"}, {"POST", "/api/eval"}, {"GET", "/"}} {
			code, body := do(t, addr, host, rq[0], rq[1], `{"values":{}}`, api)
			if code != http.StatusMisdirectedRequest || !strings.Contains(body, "not this explorer's address") {
				t.Errorf("Host %s: %s %s: %d %.200s", host, rq[0], rq[1], code, body)
			}
		}
	}
	for _, host := range []string{addr, "localhost:" + port, "[::1]:" + port, "127.0.0.2:" + port} {
		if code, body := do(t, addr, host, "GET", "/api/model", "", api); code != 200 {
			t.Errorf("Host %s: %d %.200s", host, code, body)
		}
	}
	// listening on all interfaces, an IP literal of this machine is the address, a name is not
	s2 := NewServer(loadExample(t, examples[0]), "test")
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	s2.HTTPServer(ln)
	ln.Close()
	if !s2.hostAllowed("192.168.1.7:80") || s2.hostAllowed("evil.example:80") || !Beyond(ln) {
		t.Errorf("0.0.0.0: IP literal allowed %v, name allowed %v, beyond %v", s2.hostAllowed("192.168.1.7:80"), s2.hostAllowed("evil.example:80"), Beyond(ln))
	}
}

// Cross-site requests (issue 32): a POST with a foreign Origin and Content-Type text/plain
// or a form type needs no CORS preflight; before the fix it was answered 200. Now the API
// answers only requests with the page's token, a same-origin Origin/Sec-Fetch-Site and a
// JSON body.
func TestCrossOriginRefused(t *testing.T) {
	s := NewServer(loadExample(t, examples[0]), "test")
	addr := listen(t, s)
	ok := map[string]string{TokenHeader: s.Token(), "Content-Type": "application/json"}
	with := func(k, v string) map[string]string {
		h := map[string]string{}
		for a, b := range ok {
			h[a] = b
		}
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
		return h
	}
	cases := []struct {
		name string
		hdr  map[string]string
		code int
	}{
		{"foreign Origin", with("Origin", "http://evil.example"), 403},
		{"null Origin", with("Origin", "null"), 403},
		{"cross-site fetch", with("Sec-Fetch-Site", "cross-site"), 403},
		{"same-site fetch", with("Sec-Fetch-Site", "same-site"), 403},
		{"no token", with(TokenHeader, ""), 403},
		{"wrong token", with(TokenHeader, "0123"), 403},
		{"text/plain", with("Content-Type", "text/plain"), 415},
		{"form", with("Content-Type", "application/x-www-form-urlencoded"), 415},
		{"multipart", with("Content-Type", "multipart/form-data; boundary=x"), 415},
		{"no content type", with("Content-Type", ""), 415},
		{"the page", with("Origin", "http://"+addr), 200},
		{"the page, fetch metadata", with("Sec-Fetch-Site", "same-origin"), 200},
	}
	for _, c := range cases {
		for _, path := range []string{"/api/eval", "/api/save", "/api/report"} {
			code, body := do(t, addr, addr, "POST", path, `{"values":{}}`, c.hdr)
			if code != c.code {
				t.Errorf("%s: POST %s: %d, want %d: %.200s", c.name, path, code, c.code, body)
			}
		}
	}
	if code, _ := do(t, addr, addr, "GET", "/api/model", "", with(TokenHeader, "")); code != 403 {
		t.Errorf("GET /api/model without the token: %d", code)
	}
	// the page carries the token; no page may frame the explorer
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `<meta name="clusterperf-token" content="`+s.Token()+`">`) || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("page without its token or framable:\n%.300s\n%v", b, resp.Header)
	}
	if NewServer(loadExample(t, examples[0]), "test").Token() == s.Token() || len(s.Token()) < 32 {
		t.Errorf("token %q not per server", s.Token())
	}
}

// Slow clients (issue 32): before, only ReadHeaderTimeout was set and 50 connections sending
// their body a byte a second all stayed open. Now ReadTimeout cuts each off: 50 such
// clients are all disconnected within ReadTimeout (+ scheduling), and the page is answered
// meanwhile.
func TestSlowClientsCutOff(t *testing.T) {
	lim := DefaultLimits()
	lim.ReadTimeout, lim.ReadHeaderTimeout = 400*time.Millisecond, 400*time.Millisecond
	s := NewServerLimits(loadExample(t, examples[0]), "test", lim)
	addr := listen(t, s)
	const n = 50
	var cut atomic.Int32
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /api/eval HTTP/1.1\r\nHost: %s\r\n%s: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", addr, TokenHeader, s.Token())
			for j := 0; j < 100; j++ { // a byte each 50 ms: 5 s if never cut
				if _, err := c.Write([]byte(" ")); err != nil {
					cut.Add(1)
					return
				}
				c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
				if _, err := bufio.NewReader(c).ReadByte(); err == nil || !isTimeout(err) {
					cut.Add(1) // an answer (the 400 of a cut body) or the connection closed
					return
				}
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	if code, body := do(t, addr, addr, "GET", "/api/model", "", map[string]string{TokenHeader: s.Token()}); code != 200 {
		t.Errorf("page's request among slow clients: %d %.100s", code, body)
	}
	wg.Wait()
	el := time.Since(start)
	if int(cut.Load()) != n || el > 3*time.Second {
		t.Errorf("%d of %d slow clients cut off, after %v (ReadTimeout %v)", cut.Load(), n, el, lim.ReadTimeout)
	}
	t.Logf("%d slow clients cut off within %v", cut.Load(), el)
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// slowModel is a model whose evaluation takes d unless its context ends first; it counts
// the evaluations running and those stopped by their context.
type slowModel struct {
	d                 time.Duration
	running, stopped  atomic.Int32
	ignoreCtx         bool
	started, finished chan struct{}
}

func (m *slowModel) Kind() string                        { return "test" }
func (m *slowModel) Name() string                        { return "slow" }
func (m *slowModel) Params() []Param                     { return []Param{{ID: "x", Min: 0, Max: 1, Step: 0.1}} }
func (m *slowModel) Inputs() []htmlreport.Input          { return nil }
func (m *slowModel) File(Values) ([]byte, string, error) { return []byte("x: 0\n"), "slow.yaml", nil }
func (m *slowModel) Eval(v Values) (*Result, error)      { return m.EvalContext(context.Background(), v) }
func (m *slowModel) EvalContext(ctx context.Context, v Values) (*Result, error) {
	m.running.Add(1)
	defer m.running.Add(-1)
	if m.started != nil {
		m.started <- struct{}{}
	}
	if m.ignoreCtx {
		ctx = context.Background()
	}
	select {
	case <-time.After(m.d):
		return &Result{Kind: "test", Values: map[string]float64{"x": v["x"]}}, nil
	case <-ctx.Done():
		m.stopped.Add(1)
		return nil, ctx.Err()
	}
}

// Every evaluation gets the request's context and a time budget (issue 32: before, work went
// on after the client had gone and had no budget): over the budget the request is refused
// with 422 and the model's context is cancelled; a client that goes away cancels it too.
func TestEvalBudgetAndClientGone(t *testing.T) {
	m := &slowModel{d: 10 * time.Second}
	lim := DefaultLimits()
	lim.EvalBudget = 200 * time.Millisecond
	s := NewServerLimits(m, "test", lim)
	addr := listen(t, s)
	hdr := map[string]string{TokenHeader: s.Token(), "Content-Type": "application/json"}
	start := time.Now()
	code, body := do(t, addr, addr, "POST", "/api/eval", `{"values":{}}`, hdr)
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "budget") || time.Since(start) > 2*time.Second {
		t.Errorf("over budget: %d after %v: %s", code, time.Since(start), body)
	}
	waitFor(t, func() bool { return m.stopped.Load() == 1 && s.Running() == 0 }, "the evaluation over budget stopped")

	lim.EvalBudget = time.Minute
	s = NewServerLimits(m, "test", lim)
	addr = listen(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", "http://"+addr+"/api/eval", strings.NewReader(`{"values":{}}`))
	req.Header.Set(TokenHeader, s.Token())
	req.Header.Set("Content-Type", "application/json")
	go func() {
		waitFor(t, func() bool { return m.running.Load() == 1 }, "the evaluation started")
		cancel() // the client goes away
	}()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Error("request answered after its client went away")
	}
	waitFor(t, func() bool { return m.stopped.Load() == 2 && s.Running() == 0 }, "the abandoned evaluation stopped")
}

// A bounded number of slots (issue 32: before, any number of evaluations ran at once):
// with 1 slot and a queue of 1, a third request is answered 503 at once; an evaluation that
// ignores its context keeps its slot until it ends, so abandoned work never exceeds Slots.
func TestEvalSlots(t *testing.T) {
	m := &slowModel{d: 600 * time.Millisecond, ignoreCtx: true}
	lim := DefaultLimits()
	lim.Slots, lim.Queue = 1, 1
	s := NewServerLimits(m, "test", lim)
	addr := listen(t, s)
	hdr := map[string]string{TokenHeader: s.Token(), "Content-Type": "application/json"}
	codes := make(chan int, 3)
	for i := 0; i < 2; i++ {
		go func() {
			c, _ := do(t, addr, addr, "POST", "/api/eval", `{"values":{}}`, hdr)
			codes <- c
		}()
	}
	waitFor(t, func() bool { return s.Running() == 1 && s.waiting.Load() == 1 }, "one running, one waiting")
	if code, body := do(t, addr, addr, "POST", "/api/eval", `{"values":{}}`, hdr); code != http.StatusServiceUnavailable || !strings.Contains(body, "busy") {
		t.Errorf("third request: %d %s", code, body)
	}
	if a, b := <-codes, <-codes; a != 200 || b != 200 {
		t.Errorf("queued requests: %d %d", a, b)
	}
	if max := m.running.Load(); max > 1 {
		t.Errorf("%d evaluations at once with 1 slot", max)
	}
}

func waitFor(t testing.TB, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Errorf("timed out waiting: %s", what)
}

// A denormal demand (issue 32): before, HTTP 500 `json: unsupported value: +Inf`, where
// solve refuses the same value in a file with exit 2. Now 400 with solve's words.
func TestDenormalRefused(t *testing.T) {
	s := NewServer(loadExample(t, examples[1]), "test")
	var id string
	for _, p := range s.params {
		if strings.HasPrefix(p.ID, "demand.") && p.Min == 0 {
			id = p.ID
			break
		}
	}
	if id == "" {
		t.Fatalf("no demand parameter from 0 in %s", examples[1].name)
	}
	for _, v := range []string{"1e-310", "5e-324"} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, pageRequest(s, "POST", "/api/eval", fmt.Sprintf(`{"values":{%q:%s}}`, id, v)))
		var e struct{ Error string }
		json.Unmarshal(rec.Body.Bytes(), &e)
		if rec.Code != 400 || !strings.Contains(e.Error, "below the smallest normal float64") {
			t.Errorf("%s = %s: %d %s", id, v, rec.Code, rec.Body)
		}
	}
}

// threeClass is a 3-class network with a multiserver whose exact solve (load-dependent
// multi-class MVA, about 2.5e8 operations) takes seconds: the kind of in-range point that
// cost 13–29 s of CPU per request in the issue-32 review.
const threeClass = `name: three classes
classes:
  - {name: a, population: 150, think_time: 1}
  - {name: b, population: 150, think_time: 1}
  - {name: c, population: 150, think_time: 1}
stations:
  - {name: s1, type: queue, service_time: {a: 0.01, b: 0.02, c: 0.03}}
  - {name: s2, type: queue, service_time: {a: 0.03, b: 0.01, c: 0.02}}
  - {name: s3, type: queue, service_time: {a: 0.02, b: 0.03, c: 0.01}}
  - {name: s4, type: multiserver, servers: 4, service_time: {a: 0.05, b: 0.04, c: 0.06}}
`

// A costly queueing-network point stops when its budget runs out (issue 32: work went on
// after the client had gone): the solver gets the request's context, so the slot is free
// within a fraction of a second of the refusal, not after the seconds the solve takes.
func TestQNEvalStopsAtBudget(t *testing.T) {
	m, err := Load("three.yaml", []byte(threeClass), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	lim := DefaultLimits()
	lim.EvalBudget = 200 * time.Millisecond
	s := NewServerLimits(m, "test", lim)
	rec := httptest.NewRecorder()
	start := time.Now()
	s.ServeHTTP(rec, pageRequest(s, "POST", "/api/eval", `{"values":{}}`))
	if rec.Code != http.StatusUnprocessableEntity {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	waitFor(t, func() bool { return s.Running() == 0 }, "the solve stopped")
	if el := time.Since(start); el > 1500*time.Millisecond {
		t.Errorf("the solve ran %v after a budget of %v", el, lim.EvalBudget)
	}
	t.Logf("refused and stopped after %v", time.Since(start))
}
