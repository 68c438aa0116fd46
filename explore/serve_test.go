package explore

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// TestServe: the central-server example is evaluated, then served on a free loopback port
// whose address is printed; its page answers 200; cancelling the context stops the server
// with fault.ErrInterrupted (exit 130). A busy or malformed address is bad input.
func TestServe(t *testing.T) {
	m, err := LoadFiles(os.ReadFile, Files{Paths: []string{"../examples/qn/central-server.yaml"}})
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, m, ServeOptions{Addr: "127.0.0.1:0", Version: "test", Stdout: pw, Stderr: io.Discard})
		pw.Close()
	}()
	buf := make([]byte, 512)
	n, err := pr.Read(buf)
	line := string(buf[:n])
	i := strings.Index(line, "http://")
	if err != nil || i < 0 {
		t.Fatalf("address line %q, %v", line, err)
	}
	url := strings.Fields(line[i:])[0]
	resp, err := http.Get(url)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %v %v", url, resp, err)
	}
	resp.Body.Close()
	go io.Copy(io.Discard, pr)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, fault.ErrInterrupted) {
			t.Errorf("after cancel: %v, want interrupted", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not stop after cancel")
	}
	if err := Serve(context.Background(), m, ServeOptions{Addr: "no-such-host:x", Stdout: io.Discard, Stderr: io.Discard}); !errors.Is(err, fault.ErrInput) {
		t.Errorf("bad --addr: %v", err)
	}
}
