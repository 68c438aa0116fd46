package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/fault"
)

// pageToken reads the per-server token from the explorer's page at url.
func pageToken(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := regexp.MustCompile(`<meta name="clusterperf-token" content="([0-9a-f]+)">`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("page without a token: %.300s", b)
	}
	return string(m[1])
}

// startExplore runs `clusterperf explore args` in the process and returns the URL it prints,
// its stderr and the channel of its exit code.
func startExplore(t *testing.T, ctx context.Context, args ...string) (string, *syncBuf, chan int) {
	t.Helper()
	var out, errb syncBuf
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"explore"}, args...), &out, &errb) }()
	re := regexp.MustCompile(`http://[^ ]+:\d+/`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if url := re.FindString(out.String()); url != "" {
			return url, &errb, done
		}
	}
	t.Fatalf("%v: no URL printed: %q %q", args, out.String(), errb.String())
	return "", nil, nil
}

// Ctrl-C with a request in flight (issue 32): before, explore exited 1 with "context
// deadline exceeded" (Shutdown waited 2 s for a connection still sending its request). A
// real SIGINT to the process, with a client in the middle of its request, now exits 130 at
// once with "interrupted".
func TestExploreCtrlCWithRequestInFlight(t *testing.T) {
	url, _, done := startExplore(t, context.Background(), "../../examples/pipeline/sort.yaml")
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /api/eval HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", addr)
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != fault.ExitInterrupted || time.Since(start) > 1500*time.Millisecond {
			t.Errorf("exit %d after %v, want 130 within 1.5 s", code, time.Since(start))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("explore did not stop on SIGINT")
	}
}

// --addr beyond loopback (issue 32): before, `--addr 0.0.0.0` served the model to the whole
// network without a word; now stderr warns, naming the port and docs/security.md. Loopback
// gets no warning.
func TestExploreWarnsBeyondLoopback(t *testing.T) {
	for _, c := range []struct {
		addr string
		warn bool
	}{{"0.0.0.0:0", true}, {"127.0.0.1:0", false}} {
		ctx, cancel := context.WithCancel(context.Background())
		_, errb, done := startExplore(t, ctx, "../../examples/pipeline/sort.yaml", "--addr", c.addr)
		cancel()
		<-done
		got := strings.Contains(errb.String(), "warning: --addr "+c.addr+" listens beyond loopback") && strings.Contains(errb.String(), "docs/security.md")
		if got != c.warn {
			t.Errorf("--addr %s: stderr %q, want warning %v", c.addr, errb.String(), c.warn)
		}
	}
}

// A costly model at start (hostile review of issue 32): explore on a tpn program whose loops
// run 700 000 times evaluated its own point for minutes before printing its URL, silently,
// and ignored Ctrl-C until then. Now it says on stderr within a second or two what it is
// doing and with which budget, and a Ctrl-C (here: the command's context cancelled, as the
// signal handler does) stops it at once with exit 130.
func TestExploreCostlyStartInterruptible(t *testing.T) {
	prog, err := os.ReadFile("../../examples/tpn/pipeline.yaml")
	if err != nil {
		t.Fatal(err)
	}
	heavy := filepath.Join(t.TempDir(), "heavy.yaml")
	if err := os.WriteFile(heavy, []byte(strings.ReplaceAll(string(prog), "count: 10,", "count: 700000,")), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuf
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"explore", heavy, "--cluster", "../../examples/tpn/cluster.yaml"}, &out, &errb)
	}()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(errb.String(), "before serving") && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(errb.String(), "evaluating") || !strings.Contains(errb.String(), "Ctrl-C stops") {
		t.Errorf("no word on stderr while evaluating: %q", errb.String())
	}
	start := time.Now()
	cancel()
	select {
	case code := <-done:
		if code != fault.ExitInterrupted || time.Since(start) > 1500*time.Millisecond {
			t.Errorf("exit %d after %v, want 130 within 1.5 s; stderr %q", code, time.Since(start), errb.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("explore did not stop while evaluating its model's own point")
	}
}
