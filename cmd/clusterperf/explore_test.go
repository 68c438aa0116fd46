package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/clusterperf/clusterperf/fault"
	"io"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// clusterperf explore serves the model on the address it prints and stops when its context
// ends; bad input exits 2 before listening.
func TestExploreCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuf
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"explore", "../../examples/pipeline/sort.yaml"}, &out, io.Discard) }()
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		url = re.FindString(out.String())
	}
	if url == "" {
		t.Fatalf("no URL printed: %q", out.String())
	}
	resp, err := http.Get(url + "api/model")
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Kind string }
	json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if m.Kind != "pipeline" {
		t.Errorf("kind %q", m.Kind)
	}
	cancel()
	select {
	case code := <-done:
		if code != fault.ExitOK {
			t.Errorf("exit %d after stop", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("explore did not stop")
	}
	for _, args := range [][]string{
		{"explore", "../../examples/tpn/matmul.yaml"}, // a program needs --cluster
		{"explore", "no-such-file.yaml"},
		{"explore", "../../examples/pipeline/sort.yaml", "--addr", "256.0.0.1:0"},
	} {
		if code := run(context.Background(), args, io.Discard, io.Discard); code != fault.ExitInput {
			t.Errorf("%v: exit %d, want %d", args, code, fault.ExitInput)
		}
	}
}
