package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/clusterperf/clusterperf/explore"
	"github.com/clusterperf/clusterperf/fault"
)

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// clusterperf explore serves the model on the address it prints and stops when its context
// ends (a pipeline model; three mpiP reports of one program, the network fitted; a report
// with the network given); bad input exits 2 before listening.
func TestExploreCommand(t *testing.T) {
	const amg = "../../mpip/testdata/samples/mpiP_cm__amg2013."
	for _, c := range []struct {
		args []string
		kind string
	}{
		{[]string{"explore", "../../examples/pipeline/sort.yaml"}, "pipeline"},
		{[]string{"explore", amg + "16.5362.1.mpiP", amg + "32.5386.1.mpiP", amg + "64.5412.1.mpiP"}, "mpip"},
		{[]string{"explore", "../../examples/mpip/hpc-mpip__driver.8.253.1.mpiP", "--latency", "5us", "--bandwidth", "10Gb/s"}, "mpip"},
	} {
		exploreServes(t, c.args, c.kind)
	}
	for _, args := range [][]string{
		{"explore", "../../examples/tpn/matmul.yaml"}, // a program needs --cluster
		{"explore", "no-such-file.yaml"},
		{"explore", "../../examples/pipeline/sort.yaml", "--addr", "256.0.0.1:0"},
		{"explore", "../../examples/mpip/hpc-mpip__driver.8.253.1.mpiP", "--latency", "5us"},                                            // latency alone
		{"explore", "../../examples/mpip/hpc-mpip__driver.8.253.1.mpiP", "--bandwidth", "fast"},                                         // not a bandwidth
		{"explore", "../../examples/mpip/hpc-mpip__driver.8.253.1.mpiP", "../../examples/mpip/keck_cg_a.csv"},                           // report and CSV
		{"explore", "../../examples/mpip/hpc-mpip__driver.8.253.1.mpiP", amg + "16.5362.1.mpiP"},                                        // two programs
		{"explore", "../../examples/mpip/keck_cg_a.csv", "--latency", "5us", "--bandwidth", "1GB/s"},                                    // a CSV has its network
		{"explore", "../../examples/tpn/matmul.yaml", "../../examples/tpn/matmul.yaml", "--cluster", "../../examples/tpn/cluster.yaml"}, // --cluster with several
	} {
		if code := run(context.Background(), args, io.Discard, io.Discard); code != fault.ExitInput {
			t.Errorf("%v: exit %d, want %d", args, code, fault.ExitInput)
		}
	}
}

func exploreServes(t *testing.T, args []string, kind string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuf
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, &out, io.Discard) }()
	re := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var url string
	for deadline := time.Now().Add(10 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		url = re.FindString(out.String())
	}
	if url == "" {
		cancel()
		t.Fatalf("%v: no URL printed: %q", args, out.String())
	}
	req, _ := http.NewRequest("GET", url+"api/model", nil)
	req.Header.Set(explore.TokenHeader, pageToken(t, url))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Kind string }
	json.NewDecoder(resp.Body).Decode(&m)
	resp.Body.Close()
	if m.Kind != kind {
		t.Errorf("%v: kind %q, want %q", args, m.Kind, kind)
	}
	cancel()
	select {
	case code := <-done:
		if code != fault.ExitInterrupted { // stopped as by Ctrl-C
			t.Errorf("%v: exit %d after stop, want 130", args, code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("explore did not stop")
	}
}
