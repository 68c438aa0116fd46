package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkReadSacct: 10 000 jobs (the two-program file's job lines repeated with new ids).
func BenchmarkReadSacct(b *testing.B) {
	src, err := os.ReadFile("testdata/sacct-two-programs.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	var buf bytes.Buffer
	buf.WriteString(lines[0] + "\n")
	for i := 0; buf.Len() < 4<<20 && i < 10000; i++ {
		l := lines[1+i%(len(lines)-1)]
		_, rest, _ := strings.Cut(l, "|")
		fmt.Fprintf(&buf, "%d|%s\n", 100000+i, rest)
	}
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a, err := ReadSacct("bench", bytes.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		Group(a.Jobs)
	}
}

// BenchmarkAnalyze: the censored fit, backtest and sizing of the 17-job lulesh study.
func BenchmarkAnalyze(b *testing.B) {
	f, err := os.Open("testdata/sacct-two-programs.txt")
	if err != nil {
		b.Fatal(err)
	}
	a, err := ReadSacct("t", f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	s := Group(a.Jobs)[0]
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Analyze(context.Background(), s, Options{Predict: []int{128}}); err != nil {
			b.Fatal(err)
		}
	}
}

// sacctJobs is a saved accounting of n jobs: the two-program file's job lines repeated with
// new ids.
func sacctJobs(tb testing.TB, n int) []byte {
	src, err := os.ReadFile("testdata/sacct-two-programs.txt")
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(src)), "\n")
	var buf bytes.Buffer
	buf.WriteString(lines[0] + "\n")
	for i := 0; i < n; i++ {
		_, rest, _ := strings.Cut(lines[1+i%(len(lines)-1)], "|")
		fmt.Fprintf(&buf, "%d|%s\n", 1000000+i, rest)
	}
	return buf.Bytes()
}

// BenchmarkReadSacctMaxJobs: MaxJobs (200 000) jobs, 33 MB of accounting: time, allocation
// and the heap the parsed accounting keeps (retained_MB, after a GC with the result live).
func BenchmarkReadSacctMaxJobs(b *testing.B) {
	in := sacctJobs(b, MaxJobs)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	b.ResetTimer()
	var retained uint64
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		a, err := ReadSacct("bench", bytes.NewReader(in))
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		retained = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(a)
	}
	b.ReportMetric(float64(retained)/(1<<20), "retained_MB")
}
