package explore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"sync"
	"time"

	"github.com/clusterperf/clusterperf/app"
	"github.com/clusterperf/clusterperf/fault"
)

// ServeOptions say where and how Serve serves: the listening address (port 0: any free
// port), whether to open the page in the default browser (xdg-open), the version the page
// shows, and where the address line (Stdout) and warnings (Stderr) go.
type ServeOptions struct {
	Addr           string
	Open           bool
	Version        string
	Stdout, Stderr io.Writer
}

// Serve evaluates m at its file's values first, under ctx and the explorer's budget (as the
// command would answer: bad input or too costly, a finding, interrupted; said on Stderr when
// it takes more than a second, so a costly model is never a silent wait), then serves its
// page on o.Addr until ctx is done (stop answering, drop requests in flight:
// fault.ErrInterrupted) or the server fails. A listener beyond loopback is warned about.
func Serve(ctx context.Context, m Model, o ServeOptions) error {
	lim := DefaultLimits()
	var said sync.Mutex
	slow := time.AfterFunc(time.Second, func() {
		said.Lock()
		defer said.Unlock()
		fmt.Fprintf(o.Stderr, "clusterperf explore: evaluating %s at its file's values before serving (at most %v; Ctrl-C stops)…\n", m.Name(), lim.EvalBudget)
	})
	err := EvalDefaultsContext(ctx, m, lim.EvalBudget)
	slow.Stop()
	said.Lock() // a message being written is finished before anything else is
	said.Unlock()
	if err != nil {
		return app.Lib(err)
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return app.Inputf("--addr %q: %v", o.Addr, err)
	}
	srv := NewServer(m, o.Version).HTTPServer(ln) // Host rule, timeouts, limits
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(o.Stdout, "clusterperf explore: %s (%s) at %s — Ctrl-C to stop\n", m.Name(), m.Kind(), url)
	if Beyond(ln) {
		fmt.Fprintf(o.Stderr, "warning: --addr %s listens beyond loopback: anyone who can reach this machine on port %d can read the model, its inputs and every explored point (see docs/security.md)\n", o.Addr, ln.Addr().(*net.TCPAddr).Port)
	}
	if o.Open {
		if err := exec.Command("xdg-open", url).Start(); err != nil {
			fmt.Fprintf(o.Stderr, "warning: --open: %v; open %s yourself\n", err, url)
		}
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case <-ctx.Done(): // Ctrl-C or SIGTERM: stop answering, drop requests in flight, exit 130
		sctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
		return fmt.Errorf("%w: explore stopped", fault.ErrInterrupted)
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("%w", err)
	}
}
