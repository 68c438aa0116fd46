package spmd

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/clusterperf/clusterperf/fault"
)

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"architecture: bus-io\nnormalized: {sigma_p: 0.5}\n", `f.yaml:1: architecture: unknown architecture "bus-io"`},
		{"architecture: bus-aio\nnormalized: {sigma_p: 1.5}\n", "sigma_p = 1.5"},
		{"architecture: bus-aio\nr: 0.1\nnormalized: {sigma_p: 0.5}\n", "f.yaml:2: r: 0.1 is out of range; allowed 0.2 … inf"},
		{"architecture: bus-aio\nc: 2.5\nnormalized: {sigma_p: 0.5}\n", "not a whole number"},
		{"architecture: bus-aio\nsync: gaussian\nnormalized: {sigma_p: 0.5}\n", `unknown sync "gaussian"`},
		{"architecture: bus-aio\nseconds: {s_par: -1, sr_io: 1}\n", "f.yaml:2: seconds.s_par: \"-1\": a time must be ≥ 0"},
		{"architecture: bus-aio\nbenchmark: {cpu_rate: 1e8}\n", "missing bandwidth"},
		{"architecture: bus-aio\nr: 2\ng_exponent: -0.5\nnormalized: {sigma_p: 0.5}\n", "give r or g_exponent, not both"},
		{"architecture: bus-aio\nnormalized: {sigma_p: 0.5, sigma_q: 1}\n", "normalized.sigma_q: unknown field"},
	} {
		_, err := ParseModel("f.yaml", []byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseModel(f *testing.F) {
	f.Add([]byte("architecture: bus-aio\nw: 0.2\nr: 1\nnormalized: {sigma_p: 0.8, sigma_r0: 0.001, sigma_r: 0.005, sigma_n: 7e-4}\n"))
	f.Add([]byte("architecture: clu-aio\nc: 2\nr: inf\nseconds: {s_par: 1, sr_com: 0.1, sr_io: 0.2}\n"))
	f.Add([]byte("architecture: bus-sio\nbenchmark: {cpu_rate: 1e8, flop_parallel: 1e9, bandwidth: 1e7, disk_bandwidth: 1e7, io_bytes: 1e6, messages: {count: 4, at_p: 4, exponent: 0.5}, message_bytes: [{p: 2, bytes: 100}, {p: 8, bytes: 50}]}\n"))
	f.Add([]byte("architecture: optimistic-sio\nphases:\n  - {cycles: 2, normalized: {sigma_p: 0.5}}\n  - {cycles: 3, seconds: {s_par: 2, sr_io: 1}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseModel("fuzz.yaml", data)
		if err != nil {
			if !errors.Is(err, fault.ErrInput) {
				t.Fatalf("not an input error: %v", err)
			}
			return
		}
		e, err := NewEvaluator(m)
		if err != nil {
			t.Fatalf("parsed model does not validate: %v", err)
		}
		for _, pd := range [][2]int{{1, 1}, {4, 2}, {8, 8}} {
			pt, err := e.Evaluate(pd[0], pd[1])
			if err != nil {
				if !errors.Is(err, fault.ErrInput) {
					t.Fatalf("p=%d d=%d: %v", pd[0], pd[1], err)
				}
				continue
			}
			if math.IsNaN(pt.Time) || math.IsInf(pt.Time, 0) || pt.Time <= 0 || math.IsNaN(pt.Speedup) || math.IsInf(pt.Speedup, 0) {
				t.Fatalf("p=%d d=%d: time %v speedup %v", pd[0], pd[1], pt.Time, pt.Speedup)
			}
		}
	})
}
