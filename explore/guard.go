package explore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// Limits bound what one explorer server accepts and does (docs/security.md): the
// connection timeouts given to net/http, and the evaluations' time budget and concurrency.
type Limits struct {
	// ReadHeaderTimeout and ReadTimeout bound reading a request's headers and the whole
	// request (a client sending its body a byte a second is cut off); WriteTimeout bounds
	// the time from the end of the headers to the end of the answer (EvalBudget plus
	// writing); IdleTimeout closes a kept-alive connection that sends nothing.
	ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout time.Duration
	// EvalBudget is the longest one evaluation (eval, best, save, report) may run; it is
	// then stopped (the model's context is cancelled) and the request refused (422).
	EvalBudget time.Duration
	// Slots is the number of evaluations run at once; Queue how many requests may wait
	// for a slot (more are answered 503 at once). An evaluation that cannot be stopped
	// keeps its slot until it ends, so abandoned work never occupies more than Slots cores.
	Slots, Queue int
}

// DefaultLimits are the limits `clusterperf explore` serves with: a request read within
// 10 s, an evaluation within 30 s, two evaluations at a time (the machine's other cores stay
// free), 64 waiting.
func DefaultLimits() Limits {
	return Limits{
		ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second,
		WriteTimeout: 45 * time.Second, IdleTimeout: 60 * time.Second,
		EvalBudget: 30 * time.Second, Slots: 2, Queue: 64,
	}
}

// TokenHeader carries the per-server token on every /api request; the page reads it from
// its <meta name="clusterperf-token"> (a page of another origin cannot read the page).
const TokenHeader = "X-Clusterperf-Token"

// newToken is 128 random bits in hex: the secret the page carries.
func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("explore: no random token: %v", err)) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

// guard is the gate of every request, before the mux:
//   - the Host header must name a loopback address ("localhost", 127.0.0.0/8, ::1) or the
//     address the server listens on (any IP literal when it listens on all interfaces),
//     else 421 — a DNS-rebinding page reaches the server under its own host name;
//   - /api requests must be same-origin: Sec-Fetch-Site, when sent, "same-origin"; Origin,
//     when sent, this server's; the page's token in TokenHeader; and a POST's body
//     Content-Type application/json (a form or text/plain body needs no CORS preflight) —
//     else 403 (415 for the content type).
func (s *Server) guard(w http.ResponseWriter, r *http.Request) bool {
	if !s.hostAllowed(r.Host) {
		refuse(w, http.StatusMisdirectedRequest, fmt.Sprintf("host %q is not this explorer's address (%s): open the address clusterperf explore printed", r.Host, s.addrName()))
		return false
	}
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		// a static path that is no file name (invalid UTF-8, "..") is 404, not the file
		// server's 500 (FuzzAPI)
		if p := strings.TrimPrefix(r.URL.Path, "/"); p != "" && !fs.ValidPath(strings.TrimSuffix(p, "/")) {
			http.NotFound(w, r)
			return false
		}
		return true
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		refuse(w, http.StatusForbidden, fmt.Sprintf("cross-site request (Sec-Fetch-Site: %s) refused: the explorer's API answers its own page only", site))
		return false
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		refuse(w, http.StatusForbidden, fmt.Sprintf("request from origin %q refused: the explorer's API answers its own page only (http://%s)", o, r.Host))
		return false
	}
	if r.Header.Get(TokenHeader) != s.token {
		refuse(w, http.StatusForbidden, "request without the explorer page's token refused: use the page at the address clusterperf explore printed")
		return false
	}
	if r.Method == http.MethodPost {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			refuse(w, http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type %q refused: the body must be application/json", r.Header.Get("Content-Type")))
			return false
		}
	}
	return true
}

// hostAllowed reports whether the Host header host[:port] names this server: "localhost"
// (or a name under .localhost), a loopback IP, or the listening IP (any IP literal when
// listening on an unspecified address such as 0.0.0.0). Names other than localhost are
// refused: only a name can be rebound to 127.0.0.1 by its owner's DNS.
func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	lh := strings.ToLower(host)
	if lh == "localhost" || strings.HasSuffix(lh, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	if s.listen == nil {
		return false
	}
	return s.listen.IsUnspecified() || s.listen.Equal(ip)
}

func (s *Server) addrName() string {
	if s.listen == nil {
		return "a loopback address"
	}
	return s.listen.String()
}

// refuse answers code with the JSON error body the page shows.
func refuse(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	fmt.Fprintf(w, "{\"error\":%q}\n", msg)
}

// HTTPServer is the http.Server serving s on ln with s's limits; the Host check then also
// accepts ln's address.
func (s *Server) HTTPServer(ln net.Listener) *http.Server {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		s.listen = a.IP
	}
	return &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.lim.ReadHeaderTimeout,
		ReadTimeout:       s.lim.ReadTimeout,
		WriteTimeout:      s.lim.WriteTimeout,
		IdleTimeout:       s.lim.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
}

// Beyond reports whether ln listens beyond loopback (other machines can connect).
func Beyond(ln net.Listener) bool {
	a, ok := ln.Addr().(*net.TCPAddr)
	return !ok || !a.IP.IsLoopback()
}

var (
	// errBusy: every slot taken and Queue requests already waiting.
	errBusy = errors.New("the explorer is busy: too many evaluations waiting; try again")
	// errGone: the client went away before the answer (nothing is written).
	errGone = errors.New("client gone")
)

// ContextModel is a Model whose evaluation stops when ctx is done (the client went away or
// the time budget ran out); the server uses EvalContext instead of Eval when a model has it.
type ContextModel interface {
	EvalContext(ctx context.Context, v Values) (*Result, error)
}

// evalCtx evaluates m at v under ctx: EvalContext when m has it, else Eval (which then runs
// to its end in its slot).
func evalCtx(ctx context.Context, m Model, v Values) (*Result, error) {
	if cm, ok := m.(ContextModel); ok {
		return cm.EvalContext(ctx, v)
	}
	return m.Eval(v)
}

// ContextBestSearcher is a BestSearcher whose search stops when ctx is done; the server
// uses BestContext instead of Best when a model has it.
type ContextBestSearcher interface {
	BestContext(ctx context.Context, v Values) (string, map[string]float64, error)
}

// bestCtx searches bs's best configuration at v under ctx: BestContext when bs has it, else
// Best (which then runs to its end in its slot).
func bestCtx(ctx context.Context, bs BestSearcher, v Values) (string, map[string]float64, error) {
	if cb, ok := bs.(ContextBestSearcher); ok {
		return cb.BestContext(ctx, v)
	}
	return bs.Best(v)
}

// within runs work in one of the server's slots under the request's context and the time
// budget. It waits for a slot while the client waits (errBusy when Queue requests already
// wait), and answers errGone when the client leaves, a fault.ErrTooLarge error when the
// budget runs out. The slot is released only when work returns, so work that ignores its
// context still counts against Slots.
func (s *Server) within(r *http.Request, work func(ctx context.Context) (any, error)) (any, error) {
	return s.withinSlot(r, s.slots, work)
}

// withinSlot is within with the slots of slots (the best-configuration searches have their
// own, bestSem).
func (s *Server) withinSlot(r *http.Request, slots chan struct{}, work func(ctx context.Context) (any, error)) (any, error) {
	if s.waiting.Add(1) > int64(s.lim.Queue) {
		s.waiting.Add(-1)
		return nil, errBusy
	}
	select {
	case slots <- struct{}{}:
		s.waiting.Add(-1)
	case <-r.Context().Done():
		s.waiting.Add(-1)
		return nil, errGone
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.lim.EvalBudget)
	// cancelled when this request's answer is decided, not by the worker: a worker that
	// cancelled after sending its answer made ctx.Done and done ready at once, and select
	// picked the budget refusal at random (a 422 for a finished evaluation, under load)
	defer cancel()
	type answer struct {
		v   any
		err error
	}
	done := make(chan answer, 1)
	s.running.Add(1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- answer{nil, fmt.Errorf("evaluation failed: %v", p)}
			}
			s.running.Add(-1)
			<-slots
		}()
		v, err := work(ctx)
		done <- answer{v, err}
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		select {
		case a = <-done: // finished as the budget ran out: the answer stands
		default:
			return nil, s.stopped(r)
		}
	}
	// work that stopped on ctx answers ctx's error: the budget's or the client's refusal, not
	// an evaluation failure (500) — the worker can answer before this select sees ctx.Done
	if a.err != nil && ctx.Err() != nil && (errors.Is(a.err, context.Canceled) || errors.Is(a.err, context.DeadlineExceeded)) {
		return nil, s.stopped(r)
	}
	return a.v, a.err
}

// stopped is the refusal of an evaluation stopped by its context: errGone when the client
// left, else the budget's refusal.
func (s *Server) stopped(r *http.Request) error {
	if r.Context().Err() != nil {
		return errGone
	}
	return fmt.Errorf("%w: the evaluation ran beyond the explorer's budget of %v and was stopped; evaluate a point this costly with the command line (clusterperf solve, speedup, tpn)", fault.ErrTooLarge, s.lim.EvalBudget)
}

// counters of the server's work, for tests and measurements.
type counters struct {
	waiting atomic.Int64 // requests waiting for a slot
	running atomic.Int64 // evaluations running (abandoned ones included)
}

// Running is the number of evaluations running now, abandoned ones included.
func (s *Server) Running() int { return int(s.running.Load()) }
