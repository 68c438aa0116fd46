package explore

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestLoadMeasure (CLUSTERPERF_EXPLORE_LOAD=1; a measurement for issue 32's note, not run by
// default): the central-server explorer with the default limits under 400 concurrent
// /api/eval requests and 50 slow clients (a body byte each 500 ms); it logs the answers by
// status, the wall time, the process CPU time and the peak heap, and checks that every
// request got an answer (200, or 503 busy) and every slow client was cut off.
func TestLoadMeasure(t *testing.T) {
	if os.Getenv("CLUSTERPERF_EXPLORE_LOAD") != "1" {
		t.Skip("a measurement: set CLUSTERPERF_EXPLORE_LOAD=1")
	}
	lim := DefaultLimits()
	s := NewServerLimits(loadExample(t, examples[1]), "load", lim)
	addr := listen(t, s)
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	start := time.Now()
	var peak uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak {
					peak = ms.HeapInuse
				}
			}
		}
	}()
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[string]int{}
	cut := 0
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				return
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /api/eval HTTP/1.1\r\nHost: %s\r\n%s: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", addr, TokenHeader, s.Token())
			for j := 0; j < 60; j++ { // 30 s if never cut off
				if _, err := c.Write([]byte(" ")); err != nil {
					mu.Lock()
					cut++
					mu.Unlock()
					return
				}
				time.Sleep(500 * time.Millisecond)
			}
		}()
	}
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: 400}}
	for i := 0; i < 400; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := fmt.Sprintf(`{"values":{"pop.0":%d}}`, 1+i%20)
			req, _ := http.NewRequest("POST", "http://"+addr+"/api/eval", strings.NewReader(body))
			req.Header.Set(TokenHeader, s.Token())
			req.Header.Set("Content-Type", "application/json")
			resp, err := client.Do(req)
			k := "error"
			if err == nil {
				k = fmt.Sprint(resp.StatusCode)
				resp.Body.Close()
			}
			mu.Lock()
			codes[k]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	close(stop)
	var ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	t.Logf("400 concurrent /api/eval + 50 slow clients: answers %v; slow clients cut off %d/50; wall %v, CPU %v, peak heap %.1f MiB, max RSS %.1f MiB",
		codes, cut, time.Since(start).Round(time.Millisecond), cpu.Round(time.Millisecond), float64(peak)/(1<<20), float64(ru1.Maxrss)/1024)
	if codes["error"] > 0 || codes["200"]+codes["503"] != 400 || cut != 50 {
		t.Errorf("answers %v", codes)
	}
}
